//! Fragment pieces: what a result shows of its passage, as JSON, in runs of passages in
//! passage order (a page's passages together), cut every
//! [`PieceOptions::fragment_piece_gzip_bytes`] of gzipped JSON (more on a site past
//! [`MAX_FRAGMENT_PIECES`] of them). Given page records (`hipporag site`), each piece also
//! holds the record of every page with a passage in its run ([`PageRecord`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;

use flate2::Compression;
use hipporag_wasm::index::{IndexData, Passage, passage_pages};
use hipporag_wasm::pieces::FragmentRange;
use serde::Serialize;

use super::cut::capped_runs;
use super::{MAX_FRAGMENT_PIECES, Piece, PieceOptions, gzip};
use crate::{Error, Result};

/// A page of a site's index as its fragment pieces list it (`"pages"`, beside `"passages"`):
/// what a result shows of its page and what the page's filters, sorts and `data()` read
/// (Pagefind's fragment fields: <https://pagefind.app/docs/api/#loading-a-result>). A fragment
/// piece holds it as `{"id", "url", "meta", "filters", "sort", "word_count"}` without what its
/// passages already say (`record_json`: the URL, the title, empty maps), map keys sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PageRecord {
    /// Its page id: its index in the index's pages ([`passage_pages`]: numbered by first
    /// appearance of their URL without `#anchor`, in passage order).
    pub id: u32,
    /// Its URL without `#anchor`, as its passages' URLs have it (`/guide/gears.html`).
    pub url: String,
    /// Metadata key → value (Pagefind's `data-pagefind-meta`, the automatic `title`, …).
    pub meta: BTreeMap<String, String>,
    /// Filter key → the page's values, in document order (`data-pagefind-filter`).
    pub filters: BTreeMap<String, Vec<String>>,
    /// Sort key → the page's value (`data-pagefind-sort`).
    pub sort: BTreeMap<String, String>,
    /// Words of its passages' whole texts, split on whitespace.
    pub word_count: usize,
}

/// Checks that `records` are the pages of `passages`: one record per page id
/// ([`passage_pages`]), the record at index `k` with id `k`; returns the passages' page ids.
///
/// # Errors
/// [`Error::InvalidRequest`] naming the first record whose `id` is wrong, or the counts when
/// they differ.
pub(super) fn check_pages(passages: &[Passage], records: &[PageRecord]) -> Result<Vec<u32>> {
    let pages = passage_pages(passages);
    let count = pages.iter().max().map_or(0, |&m| m as usize + 1);
    if records.len() != count {
        return Err(Error::InvalidRequest(format!(
            "page records: {} records for the {count} pages of {} passages",
            records.len(),
            passages.len()
        )));
    }
    if let Some((k, r)) = records
        .iter()
        .enumerate()
        .find(|(k, r)| r.id as usize != *k)
    {
        return Err(Error::InvalidRequest(format!(
            "page records: record {k} has id {}, expected {k} (records in page-id order)",
            r.id
        )));
    }
    Ok(pages)
}

/// The fragment pieces of `data` (gzipped, unnamed) and their first passages; with `pages`
/// (the index's page records, checked by [`check_pages`]), each piece lists the records of the
/// pages its passages belong to, and each page's record counts in the share of its first
/// passage where pieces are cut. Without, the pieces are `{"passages": [...]}` alone, as
/// before page records existed (`hipporag pieces`).
pub(super) fn pieces(
    data: &IndexData,
    opts: &PieceOptions,
    pages: Option<(&[PageRecord], &[u32])>,
) -> (Vec<FragmentRange>, Vec<Piece>) {
    // Each passage's JSON object, written once: its compressed share and its piece read it.
    let json: Vec<String> = data
        .passages
        .iter()
        .enumerate()
        .map(|(j, p)| passage_json(j, p, opts.fragment_text_chars))
        .collect();
    // Each page's record's JSON, and each passage's page.
    let pages: Option<(Vec<String>, &[u32])> = pages.map(|(records, ids)| {
        let mut derived = vec![(true, true); records.len()];
        for (p, &id) in data.passages.iter().zip(ids) {
            let (url, title) = passage_page_fields(p);
            let r = &records[id as usize];
            let d = &mut derived[id as usize];
            d.0 &= url == r.url;
            d.1 &= r.meta.get("title").is_some_and(|t| t == title);
        }
        let json = records
            .iter()
            .zip(derived)
            .map(|(r, (url, title))| record_json(r, url, title))
            .collect();
        (json, ids)
    });
    let sizes = match &pages {
        Some((page_json, ids)) => {
            // A page's record is measured with its first passage (ids are numbered by first
            // appearance).
            let mut seen = 0;
            let measured: Vec<Cow<'_, str>> = json
                .iter()
                .zip(ids.iter())
                .map(|(p, &id)| {
                    if id as usize == seen {
                        seen += 1;
                        Cow::Owned(format!("{p}{}", page_json[id as usize]))
                    } else {
                        Cow::Borrowed(p.as_str())
                    }
                })
                .collect();
            compressed_sizes(&measured)
        }
        None => compressed_sizes(&json),
    };
    let runs = capped_runs(
        json.len(),
        opts.fragment_piece_gzip_bytes,
        MAX_FRAGMENT_PIECES,
        |j| sizes[j],
    );
    let ranges = runs
        .iter()
        .map(|r| FragmentRange {
            first: r.start as u32,
        })
        .collect();
    let pieces = crate::parallel::map(&runs, |r| {
        let records: Option<Vec<&str>> = pages.as_ref().map(|(page_json, ids)| {
            let mut in_run: Vec<u32> = ids[r.clone()].to_vec();
            in_run.sort_unstable();
            in_run.dedup();
            in_run
                .iter()
                .map(|&id| page_json[id as usize].as_str())
                .collect()
        });
        fragment_piece(&json[r.clone()], records.as_deref())
    });
    (ranges, pieces)
}

/// What a page's record can be read back from in any of its passages: the passage's URL
/// without `#anchor` (`""` without a URL), and its title before the first ` › ` (the page's
/// title heads every heading path, `site::html`).
fn passage_page_fields(p: &Passage) -> (&str, &str) {
    let url = p.url.as_deref().unwrap_or("");
    let url = url.split('#').next().unwrap_or("");
    let title = p.title.split(" › ").next().unwrap_or("");
    (url, title)
}

/// A page record as a fragment piece holds it: `{id, url, meta, filters, sort, word_count}`
/// without what the piece's passages already say, which `hipporag-pieces.js` fills back in
/// from the passage a result names (`page()`): `url` when every passage of the page has it
/// (`url_derived`), `meta.title` when every passage's title starts with it (`title_derived`;
/// a record without a title says `"title": null`, so that nothing is filled in), `meta`,
/// `filters` and `sort` when empty. A plain page's record is `{"id": 3, "word_count": 212}`.
fn record_json(r: &PageRecord, url_derived: bool, title_derived: bool) -> String {
    let mut o = serde_json::Map::new();
    o.insert("id".into(), r.id.into());
    if !url_derived {
        o.insert("url".into(), r.url.clone().into());
    }
    let mut meta: serde_json::Map<String, serde_json::Value> = r
        .meta
        .iter()
        .filter(|(k, _)| !(title_derived && *k == "title"))
        .map(|(k, v)| (k.clone(), v.clone().into()))
        .collect();
    if !r.meta.contains_key("title") {
        meta.insert("title".into(), serde_json::Value::Null);
    }
    if !meta.is_empty() {
        o.insert("meta".into(), meta.into());
    }
    if !r.filters.is_empty() {
        o.insert("filters".into(), serde_json::json!(r.filters));
    }
    if !r.sort.is_empty() {
        o.insert("sort".into(), serde_json::json!(r.sort));
    }
    o.insert("word_count".into(), r.word_count.into());
    serde_json::Value::Object(o).to_string()
}

/// Passage `j`'s fragment: `{id, title, url, text}`, its text cut to `chars`.
fn passage_json(j: usize, p: &Passage, chars: usize) -> String {
    serde_json::json!({
        "id": j,
        "title": p.title,
        "url": p.url,
        "text": fragment_text(&p.text, chars),
    })
    .to_string()
}

/// A fragment piece of `passages` (each one's JSON), gzipped: `{"passages": [...]}`, or with
/// page records (each one's JSON) `{"passages": [...], "pages": [...]}`.
fn fragment_piece(passages: &[String], pages: Option<&[&str]>) -> Piece {
    let passages = passages.join(",");
    match pages {
        None => gzip(format!("{{\"passages\":[{passages}]}}").as_bytes()),
        Some(pages) => gzip(
            format!(
                "{{\"passages\":[{passages}],\"pages\":[{}]}}",
                pages.join(",")
            )
            .as_bytes(),
        ),
    }
}

/// The opening of `text` a fragment holds, at most `chars` characters: all of it when it fits
/// (or `chars` is 0), else its first `chars − 1` characters cut back to the last whitespace
/// (when that keeps at least half of them) and trimmed, then `…`.
pub fn fragment_text(text: &str, chars: usize) -> String {
    if chars == 0 || text.chars().nth(chars).is_none() {
        return text.to_string();
    }
    let end = text
        .char_indices()
        .nth(chars - 1)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let cut = head
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .filter(|&i| head[..i].chars().count() >= chars / 2)
        .unwrap_or(end);
    format!("{}…", head[..cut].trim_end())
}

/// Passages whose compressed sizes one deflate stream measures (`compressed_sizes`): the
/// streams run in parallel, and a passage's share depends only on the passages before it in
/// its own run of this many.
const SIZE_RUN: usize = 1_024;

/// Raw bytes of JSON per measured group of `compressed_sizes`.
const SIZE_GROUP: usize = 4_096;

/// Each of `texts`' share of a level-9 deflate stream over them in order, in bytes: one stream
/// per run of [`SIZE_RUN`] texts, written in groups of about [`SIZE_GROUP`] bytes and flushed
/// after each (a sync flush), each group's growth shared among its texts by their lengths. So a
/// share counts what the texts before it let deflate reuse, as a piece of consecutive passages
/// would, and the flushes' block headers do not swamp the shares of short, repetitive texts.
fn compressed_sizes<S: AsRef<str> + Sync>(texts: &[S]) -> Vec<usize> {
    let runs: Vec<&[S]> = texts.chunks(SIZE_RUN).collect();
    crate::parallel::map(&runs, |run| run_shares(run))
        .into_iter()
        .flatten()
        .collect()
}

/// [`compressed_sizes`] of one run, in one deflate stream.
fn run_shares<S: AsRef<str>>(run: &[S]) -> Vec<usize> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::best());
    let mut out = Vec::with_capacity(run.len());
    let (mut first, mut raw, mut start) = (0, 0, 0);
    for (k, t) in run.iter().map(AsRef::as_ref).enumerate() {
        e.write_all(t.as_bytes())
            .expect("writing to a Vec cannot fail");
        raw += t.len();
        if raw >= SIZE_GROUP || k + 1 == run.len() {
            e.flush().expect("writing to a Vec cannot fail");
            let grown = (e.get_ref().len() - start) as f64;
            out.extend(
                run[first..=k].iter().map(|t| {
                    (grown * t.as_ref().len() as f64 / raw.max(1) as f64).round() as usize
                }),
            );
            (first, raw, start) = (k + 1, 0, e.get_ref().len());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::cut::runs;
    use super::{compressed_sizes, fragment_piece, fragment_text};

    /// Fragment JSON of two kinds, as rust-doc has them: 600 rows of one trait implementation
    /// listing (one long heading path, a line of text each; the rows of a rustdoc page) and
    /// 600 passages of Wikipedia prose (musique_train's corpus, `../shared/data`). Cut by their
    /// gzipped shares, every piece but the last gzips to within 2× of the others; cut by raw
    /// bytes into as many pieces, the prose pieces gzip to several times the listing ones.
    #[test]
    fn fragment_pieces_cut_by_gzipped_shares_cost_alike() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/musique_train/musique_train_corpus.json"
        );
        let corpus: Vec<serde_json::Value> =
            serde_json::from_slice(&std::fs::read(path).expect(path)).expect("the corpus JSON");
        let methods = [
            "map", "filter", "fold", "zip", "chain", "take", "skip", "step_by",
        ];
        let mut records: Vec<String> = (0..600)
            .map(|j| {
                let m = methods[j % methods.len()];
                serde_json::json!({
                    "id": j,
                    "title": format!("Struct std::collections::hash_map::DrainFilter › Trait Implementations › impl<K, V, F> Iterator for DrainFilter<'_, K, V, F> › fn {m}"),
                    "url": format!("/std/collections/hash_map/struct.DrainFilter.html#method.{m}"),
                    "text": format!("Calls a closure on each element of an iterator ({m}). Read more\n1.0.0 · source"),
                })
                .to_string()
            })
            .collect();
        records.extend(corpus.iter().take(600).enumerate().map(|(k, p)| {
            serde_json::json!({"id": 600 + k, "title": p["title"], "url": format!("/wiki/{k}.html"), "text": p["text"]})
                .to_string()
        }));
        let gz = |cut: &[std::ops::Range<usize>]| -> Vec<usize> {
            cut.iter()
                .map(|run| fragment_piece(&records[run.clone()], None).bytes.len())
                .collect()
        };
        let spread = |sizes: &[usize]| {
            let body = &sizes[..sizes.len() - 1];
            *body.iter().max().unwrap() as f64 / *body.iter().min().unwrap() as f64
        };
        let shares = compressed_sizes(&records);
        let by_share = gz(&runs(records.len(), 2_000, |j| shares[j]));
        assert!(by_share.len() >= 20, "{} pieces", by_share.len());
        assert!(spread(&by_share) < 2.0, "gzipped shares: {by_share:?}");
        let raw_target = records.iter().map(|r| r.len()).sum::<usize>() / by_share.len();
        let by_raw = gz(&runs(records.len(), raw_target, |j| records[j].len()));
        assert!(spread(&by_raw) > 3.0, "raw bytes: {by_raw:?}");
    }

    /// Twelve passages on four pages (three each), cut into fragments of a few passages.
    fn small_index() -> hipporag_wasm::index::IndexData {
        let passages = (0..12)
            .map(|j| hipporag_wasm::index::Passage {
                title: format!("Page {} › Part {j}", j / 3),
                text: format!(
                    "Part {j} of page {} tells how gear {j} turns spindle {} on the engine.",
                    j / 3,
                    j * 7
                ),
                url: Some(format!("/p{}.html#part-{j}", j / 3)),
            })
            .collect();
        crate::pipeline::index_passages(
            passages,
            Some(hipporag_wasm::text::Language::English),
            &hipporag_wasm::embeddings::HashedNgramEncoder::default(),
            &Default::default(),
            &(),
        )
        .unwrap()
        .0
    }

    fn gunzip(bytes: &[u8]) -> String {
        use std::io::Read;
        let mut s = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut s)
            .unwrap();
        s
    }

    /// Without page records the fragments are `{"passages": [...]}` alone (what `hipporag
    /// pieces` wrote before records existed); with them, each piece lists the records of its
    /// passages' pages, a page cut between two pieces in both, and the other pieces are the
    /// same.
    #[test]
    fn fragments_list_their_pages_only_when_given_records() {
        use super::super::{PieceKind, PieceOptions, write, write_with_pages};
        use super::PageRecord;
        let data = small_index();
        let opts = PieceOptions {
            fragment_piece_gzip_bytes: 120,
            ..Default::default()
        };
        let fragments = |files: &super::super::PieceFiles| -> Vec<serde_json::Value> {
            let first = files.counts.total() - files.counts.fragment;
            assert_eq!(files.counts.by_kind()[3].0, PieceKind::Fragment);
            files.pieces[first..]
                .iter()
                .map(|p| serde_json::from_str(&gunzip(&p.bytes)).unwrap())
                .collect()
        };
        let plain = write(&data, &opts).unwrap();
        assert_eq!(
            plain.pieces,
            write_with_pages(&data, &opts, None).unwrap().pieces
        );
        let plain_fragments = fragments(&plain);
        assert!(plain_fragments.len() >= 3, "{}", plain_fragments.len());
        for (f, p) in plain_fragments
            .iter()
            .zip(&plain.pieces[plain.pieces.len() - plain_fragments.len()..])
        {
            assert_eq!(
                f.as_object().unwrap().keys().collect::<Vec<_>>(),
                ["passages"]
            );
            assert!(gunzip(&p.bytes).starts_with("{\"passages\":[{"));
        }

        let mut records: Vec<PageRecord> = (0..4)
            .map(|id| PageRecord {
                id,
                url: format!("/p{id}.html"),
                meta: [("title".to_string(), format!("Page {id}"))].into(),
                filters: [("n".to_string(), vec![format!("{id}")])].into(),
                word_count: 40,
                ..Default::default()
            })
            .collect();
        // Page 2 has no title; page 3 another title than its passages', an image and a sort.
        records[2].meta.clear();
        records[3].meta = [
            ("title".to_string(), "Gears".to_string()),
            ("image".to_string(), "/g.png".to_string()),
        ]
        .into();
        records[3].sort = [("n".to_string(), "3".to_string())].into();
        // What the pieces' passages already say (url, the title heading every passage's title)
        // and empty maps are left out; hipporag-pieces.js's page() fills them back in.
        let compact = |id: usize| match id {
            2 => {
                serde_json::json!({"id": 2, "meta": {"title": null}, "filters": {"n": ["2"]}, "word_count": 40})
            }
            3 => {
                serde_json::json!({"id": 3, "meta": {"title": "Gears", "image": "/g.png"}, "filters": {"n": ["3"]}, "sort": {"n": "3"}, "word_count": 40})
            }
            _ => {
                serde_json::json!({"id": id, "filters": {"n": [id.to_string()]}, "word_count": 40})
            }
        };
        let with = write_with_pages(&data, &opts, Some(&records)).unwrap();
        let mut seen = vec![0; 4];
        for f in fragments(&with) {
            let mut pages: Vec<u64> = f["passages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_u64().unwrap() / 3)
                .collect();
            pages.dedup();
            let listed: Vec<u64> = f["pages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["id"].as_u64().unwrap())
                .collect();
            assert_eq!(listed, pages, "{f}");
            for r in f["pages"].as_array().unwrap() {
                let id = r["id"].as_u64().unwrap() as usize;
                seen[id] += 1;
                assert_eq!(*r, compact(id));
            }
        }
        assert!(seen.iter().all(|&n| n >= 1), "{seen:?}");
        assert!(
            seen.iter().any(|&n| n >= 2),
            "no page straddles two pieces: {seen:?}"
        );
        // Term and phrase pieces do not depend on the records.
        let others = |f: &super::super::PieceFiles| {
            f.pieces[..f.counts.term + f.counts.cluster + f.counts.phrase]
                .iter()
                .map(|p| p.bytes.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(others(&plain), others(&with));

        // Records that are not the passages' pages are refused, naming what is wrong.
        let err = write_with_pages(&data, &opts, Some(&records[..3]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("3 records for the 4 pages"), "{err}");
        let mut shuffled = records.clone();
        shuffled.swap(1, 2);
        let err = write_with_pages(&data, &opts, Some(&shuffled))
            .unwrap_err()
            .to_string();
        assert!(err.contains("record 1 has id 2"), "{err}");
    }

    #[test]
    fn fragment_text_keeps_short_texts_and_cuts_long_ones_at_a_space() {
        assert_eq!(fragment_text("short text", 240), "short text");
        assert_eq!(fragment_text("exactly ten", 11), "exactly ten");
        assert_eq!(fragment_text("anything at all", 0), "anything at all");
        // 12 characters at most: "one two" (7) + "…", cut back from "one two thr".
        assert_eq!(fragment_text("one two three four", 12), "one two…");
        // No space in the second half: cut mid-word.
        assert_eq!(fragment_text("abcdefghijklmnop", 8), "abcdefg…");
    }

    #[test]
    fn fragment_text_counts_characters_not_bytes() {
        // Cyrillic and CJK take 2 and 3 bytes a character; the cut stays on a boundary.
        let ru = "Персонализированный PageRank распространяет массу по графу";
        let cut = fragment_text(ru, 30);
        assert_eq!(cut, "Персонализированный PageRank…");
        assert!(cut.chars().count() <= 30);
        let zh = "个性化PageRank算法在HippoRAG中起什么作用";
        assert_eq!(fragment_text(zh, 10), "个性化PageRa…");
    }
}
