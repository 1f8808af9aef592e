//! A language index's pages as records ([`PageRecord`], which its fragment pieces carry) and
//! its filter and sort pieces, Pagefind's filters and sorts
//! (<https://pagefind.app/docs/filtering/>, <https://pagefind.app/docs/sorts/>) in the index in
//! pieces:
//!
//! * a **filter piece** per filter key: `{"key": "section", "values": {"library": [0, 4, 9]}}`,
//!   each value's pages (page ids, ascending), values sorted by their bytes ([`FilterPiece`]);
//! * a **sort piece** per sort key: `{"key": "date", "numeric": true, "pages": [3, 0, 7]}`, the
//!   pages that have the key in ascending order of their value ([`SortPiece`]).
//!
//! Each is gzipped JSON named by its content, `{first 16 hex digits of the SHA-256 of the
//! gzipped bytes}.bin` (as the meta piece, [`hipporag_wasm::pieces::meta_name`]), and listed
//! by key in `hipporag-entry.json` ([`super::SiteLanguage::filters`],
//! [`super::SiteLanguage::sorts`]). Page ids are those of the index's passages
//! ([`passage_pages`]), local to one language's index.

use std::collections::BTreeMap;

use hipporag_wasm::index::{Passage, passage_pages};
use hipporag_wasm::pieces::{meta_name, piece_hash};
use serde::{Deserialize, Serialize};

use super::attributes::PageAttributes;
use crate::pieces::{PageRecord, Piece, gzip};

/// The records of the pages of `passages` (one index's passages, in its order), in page-id
/// order ([`passage_pages`]): each page's URL (its first passage's, without `#anchor`), the
/// filters, metadata and sort values `attributes` gives for its first passage (by index into
/// `passages`; `None`: none), and the words of all its passages (split on whitespace).
pub fn page_records<'a>(
    passages: &[Passage],
    attributes: impl Fn(usize) -> Option<&'a PageAttributes>,
) -> Vec<PageRecord> {
    let mut records: Vec<PageRecord> = Vec::new();
    for (j, (p, id)) in passages.iter().zip(passage_pages(passages)).enumerate() {
        if id as usize == records.len() {
            let url = p.url.as_deref().unwrap_or("");
            let a = attributes(j);
            records.push(PageRecord {
                id,
                url: url.split('#').next().unwrap_or("").to_string(),
                meta: a.map(|a| a.meta.clone()).unwrap_or_default(),
                filters: a.map(|a| a.filters.clone()).unwrap_or_default(),
                sort: a.map(|a| a.sort.clone()).unwrap_or_default(),
                word_count: 0,
            });
        }
        records[id as usize].word_count += p.text.split_whitespace().count();
    }
    records
}

/// A filter piece's JSON (module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterPiece {
    /// The filter key (`section`).
    pub key: String,
    /// Each value of the key → the ids of the pages that have it, ascending; values sorted by
    /// their UTF-8 bytes.
    pub values: BTreeMap<String, Vec<u32>>,
}

/// A sort piece's JSON (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SortPiece {
    /// The sort key (`date`).
    pub key: String,
    /// Whether the pages were ordered as numbers: every value of the key parses as an `f64`
    /// (Rust's `str::parse`: `3`, `-0.5`, `1e3`), compared with `f64::total_cmp`; else by the
    /// values' UTF-8 bytes.
    pub numeric: bool,
    /// The ids of the pages that have the key, in ascending order of their value (ties by page
    /// id); pages without the key are absent.
    pub pages: Vec<u32>,
}

/// `json` gzipped and named by its hash (module docs).
fn named_piece<T: Serialize>(json: &T) -> Piece {
    let mut piece = gzip(&serde_json::to_vec(json).expect("a filter or sort piece serialises"));
    piece.name = meta_name(&piece_hash(&piece.bytes));
    piece
}

/// The filter pieces of `records` (one index's pages, [`page_records`]), by key (module docs).
pub fn filter_pieces(records: &[PageRecord]) -> BTreeMap<String, Piece> {
    let mut filters: BTreeMap<&str, BTreeMap<&str, Vec<u32>>> = BTreeMap::new();
    for r in records {
        for (key, values) in &r.filters {
            let by_value = filters.entry(key).or_default();
            for v in values {
                let pages = by_value.entry(v).or_default();
                if pages.last() != Some(&r.id) {
                    pages.push(r.id);
                }
            }
        }
    }
    filters
        .into_iter()
        .map(|(key, values)| {
            let mut values: BTreeMap<String, Vec<u32>> = values
                .into_iter()
                .map(|(v, pages)| (v.to_string(), pages))
                .collect();
            values.values_mut().for_each(|p| {
                p.sort_unstable();
                p.dedup();
            });
            let piece = FilterPiece {
                key: key.to_string(),
                values,
            };
            (key.to_string(), named_piece(&piece))
        })
        .collect()
}

/// The sort piece of `key` over `records` ([`SortPiece`]).
pub fn sort_piece(records: &[PageRecord], key: &str) -> SortPiece {
    let values: Vec<(&str, u32)> = records
        .iter()
        .filter_map(|r| r.sort.get(key).map(|v| (v.as_str(), r.id)))
        .collect();
    let numbers: Option<Vec<(f64, u32)>> = values
        .iter()
        .map(|&(v, id)| v.parse().ok().map(|n| (n, id)))
        .collect();
    let numeric = numbers.is_some();
    let pages = match numbers {
        Some(mut numbers) => {
            numbers.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            numbers.into_iter().map(|(_, id)| id).collect()
        }
        None => {
            let mut values = values;
            values.sort_unstable();
            values.into_iter().map(|(_, id)| id).collect()
        }
    };
    SortPiece {
        key: key.to_string(),
        numeric,
        pages,
    }
}

/// The sort pieces of `records` (one index's pages, [`page_records`]), by key (module docs).
pub fn sort_pieces(records: &[PageRecord]) -> BTreeMap<String, Piece> {
    let keys: std::collections::BTreeSet<&str> = records
        .iter()
        .flat_map(|r| r.sort.keys().map(String::as_str))
        .collect();
    keys.into_iter()
        .map(|key| (key.to_string(), named_piece(&sort_piece(records, key))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: u32, filters: &[(&str, &[&str])], sort: &[(&str, &str)]) -> PageRecord {
        PageRecord {
            id,
            url: format!("/{id}.html"),
            filters: filters
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
            sort: sort
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn records_number_pages_by_first_appearance_and_count_words() {
        let p = |url: &str, text: &str| Passage {
            title: String::new(),
            text: text.into(),
            url: Some(url.into()),
        };
        let passages = [
            p("/b.html#x", "one two"),
            p("/b.html#y", "three\nfour  five"),
            p("/a.html", "six"),
        ];
        let b = PageAttributes {
            sort: [("date".to_string(), "2".to_string())].into(),
            ..Default::default()
        };
        let r = page_records(&passages, |j| (j < 2).then_some(&b));
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].id, r[0].url.as_str(), r[0].word_count),
            (0, "/b.html", 5)
        );
        assert_eq!(r[0].sort["date"], "2");
        assert_eq!(
            (r[1].id, r[1].url.as_str(), r[1].word_count),
            (1, "/a.html", 1)
        );
        assert!(r[1].sort.is_empty());
    }

    #[test]
    fn sorts_are_numeric_only_when_every_value_is_a_number() {
        let numbers = [
            record(0, &[], &[("n", "10")]),
            record(1, &[], &[("n", "9")]),
            record(2, &[], &[]),
            record(3, &[], &[("n", "-1.5")]),
            record(4, &[], &[("n", "9")]),
        ];
        let s = sort_piece(&numbers, "n");
        assert!(s.numeric);
        assert_eq!(s.pages, [3, 1, 4, 0]);
        let mut mixed = numbers.to_vec();
        mixed[2].sort.insert("n".into(), "x".into());
        let s = sort_piece(&mixed, "n");
        assert!(!s.numeric);
        // By bytes: "-1.5" < "10" < "9" < "9" < "x".
        assert_eq!(s.pages, [3, 0, 1, 4, 2]);
    }

    #[test]
    fn filter_pieces_list_pages_per_value_and_are_named_by_their_hash() {
        let records = [
            record(0, &[("section", &["library", "tutorial"])], &[]),
            record(1, &[("section", &["library"]), ("level", &["easy"])], &[]),
        ];
        let pieces = filter_pieces(&records);
        assert_eq!(pieces.keys().collect::<Vec<_>>(), ["level", "section"]);
        let p = &pieces["section"];
        assert_eq!(p.name, meta_name(&piece_hash(&p.bytes)));
        let mut json = String::new();
        use std::io::Read;
        flate2::read::GzDecoder::new(p.bytes.as_slice())
            .read_to_string(&mut json)
            .unwrap();
        assert_eq!(
            json,
            r#"{"key":"section","values":{"library":[0,1],"tutorial":[0]}}"#
        );
    }
}
