//! Term pieces: BM25 terms, static words and the deletes dictionary's keys merged in key order
//! (the deletes' keys sort first, [`DELETES_KEY_PREFIX`]), cut between keys.

use std::collections::BTreeMap;

use hipporag_wasm::embeddings::StaticEmbeddingsData;
use hipporag_wasm::lexical::{Bm25Data, DELETES_KEY_PREFIX, deletes_key, entry_keys};
use hipporag_wasm::pieces::{StoredTermPiece, TermPiece, TermRange, tag};

use super::cut::{boundaries, runs};
use super::{MAX_TERM_PIECES, Piece, PieceOptions, gzip_piece, term_piece_bytes};
use crate::{Error, Result};

/// What a key of the term pieces stands for.
#[derive(Debug, Clone, Copy)]
enum Entry<'a> {
    /// A deletes-dictionary key (without [`DELETES_KEY_PREFIX`]) and the entries under it.
    Deletes(&'a str, &'a [&'a str]),
    /// A BM25 term and a static word (their numbers), one of them or both.
    Lexical {
        term: Option<usize>,
        word: Option<usize>,
    },
}

/// What the term pieces are cut from.
struct Terms<'a> {
    bm25: &'a Bm25Data,
    /// Each posting's BM25 impact, what the pieces hold instead of term frequencies and the
    /// passages' lengths.
    impacts: Vec<u8>,
    statics: Option<&'a StaticEmbeddingsData>,
    /// Bytes of a sign row.
    dim_bytes: usize,
}

/// Checks that no BM25 term or static word of `bm25` and `statics` begins with
/// [`DELETES_KEY_PREFIX`], which the merge of keys would read as a deletes key.
///
/// # Errors
/// [`Error::InvalidRequest`] naming the first such term: text analysis of an index built by an
/// earlier version let a leading control character through.
pub(super) fn check_keys(bm25: &Bm25Data, statics: Option<&StaticEmbeddingsData>) -> Result<()> {
    let words: &[String] = statics.map_or(&[], |s| &s.words);
    match bm25
        .terms
        .iter()
        .chain(words)
        .find(|t| t.starts_with(DELETES_KEY_PREFIX))
    {
        Some(t) => Err(Error::InvalidRequest(format!(
            "the index holds the term {t:?}, which begins with the deletes dictionary's prefix {DELETES_KEY_PREFIX:?}: rebuild it with this version of hipporag"
        ))),
        None => Ok(()),
    }
}

/// The term pieces of `bm25` and `statics` (gzipped, unnamed) and their ranges; no term or
/// word may begin with [`DELETES_KEY_PREFIX`] ([`check_keys`]).
pub(super) fn pieces(
    bm25: &Bm25Data,
    statics: Option<&StaticEmbeddingsData>,
    opts: &PieceOptions,
) -> (Vec<TermRange>, Vec<Piece>) {
    let t = Terms {
        bm25,
        impacts: bm25.impacts(),
        statics,
        dim_bytes: statics.map_or(0, |s| s.dim as usize / 8),
    };
    let words: &[String] = statics.map_or(&[], |s| &s.words);
    let deletes = deletes_dictionary(&bm25.terms, words);
    let delete_keys: Vec<String> = deletes.keys().map(|k| deletes_key(k)).collect();
    let keys = t.keys(&delete_keys, &deletes);
    let size = |k: usize| t.size(keys[k].0, keys[k].1);
    let total = (0..keys.len()).map(size).sum::<usize>();
    let target = opts
        .term_piece_bytes
        .unwrap_or_else(|| term_piece_bytes(bm25.language))
        .max(total.div_ceil(MAX_TERM_PIECES));
    let runs = runs(keys.len(), target, size);
    let ranges = boundaries(&runs, |k| keys[k].0)
        .into_iter()
        .map(|first| TermRange { first })
        .collect();
    let pieces = crate::parallel::map(&runs, |r| {
        gzip_piece(tag::TERM, &StoredTermPiece::from(t.piece(&keys[r.clone()])))
    });
    (ranges, pieces)
}

impl<'a> Terms<'a> {
    /// Every key, sorted and distinct, with what it stands for.
    fn keys(
        &self,
        delete_keys: &'a [String],
        deletes: &'a BTreeMap<String, Vec<&'a str>>,
    ) -> Vec<(&'a str, Entry<'a>)> {
        let words: &[String] = self.statics.map_or(&[], |s| &s.words);
        let mut keys: Vec<&str> = self
            .bm25
            .terms
            .iter()
            .chain(words)
            .chain(delete_keys)
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let (mut ti, mut wi) = (0, 0);
        keys.into_iter()
            .map(|key| match key.strip_prefix(DELETES_KEY_PREFIX) {
                Some(k) => (key, Entry::Deletes(k, deletes[k].as_slice())),
                None => {
                    let term = take_if(&self.bm25.terms, &mut ti, key);
                    let word = take_if(words, &mut wi, key);
                    (key, Entry::Lexical { term, word })
                }
            })
            .collect()
    }

    /// `key`'s bytes in its piece: a BM25 term's key, its postings' gap varints and an impact
    /// byte each; a static word's key and sign row; a deletes key's key and entries.
    fn size(&self, key: &str, entry: Entry<'_>) -> usize {
        match entry {
            Entry::Deletes(k, entries) => k.len() + entries.iter().map(|e| e.len()).sum::<usize>(),
            Entry::Lexical { term, word } => {
                let term = term.map_or(0, |t| {
                    let gaps = &self.bm25.gaps[self.postings(t)];
                    key.len() + gaps.len() + gaps.iter().map(|&x| varint_len(x)).sum::<usize>()
                });
                term + word.map_or(0, |_| key.len() + self.dim_bytes)
            }
        }
    }

    /// The term piece of the keys `run`.
    fn piece(&self, run: &[(&str, Entry<'_>)]) -> TermPiece {
        let mut p = TermPiece::default();
        for &(key, entry) in run {
            match entry {
                Entry::Deletes(k, entries) => {
                    if p.deletes_ptr.is_empty() {
                        p.deletes_ptr.push(0);
                    }
                    p.deletes.push(k.to_string());
                    p.entries.extend(entries.iter().map(|e| e.to_string()));
                    p.deletes_ptr.push(p.entries.len() as u32);
                }
                Entry::Lexical { term, word } => {
                    if let Some(t) = term {
                        self.push_term(&mut p, key, t);
                    }
                    if let Some((w, s)) = word.zip(self.statics) {
                        p.words.push(key.to_string());
                        p.df.push(s.df[w]);
                        p.signs.extend_from_slice(
                            &s.signs[w * self.dim_bytes..(w + 1) * self.dim_bytes],
                        );
                    }
                }
            }
        }
        if p.ptr.is_empty() {
            p.ptr.push(0);
        }
        p
    }

    /// Adds BM25 term `t` (`key`) with its postings to `p`.
    fn push_term(&self, p: &mut TermPiece, key: &str, t: usize) {
        let postings = self.postings(t);
        if p.ptr.is_empty() {
            p.ptr.push(0);
        }
        p.terms.push(key.to_string());
        p.gaps.extend_from_slice(&self.bm25.gaps[postings.clone()]);
        p.impacts.extend_from_slice(&self.impacts[postings]);
        p.ptr.push(p.gaps.len() as u32);
    }

    /// Where term `t`'s postings are in `bm25.gaps` and `impacts`.
    fn postings(&self, t: usize) -> std::ops::Range<usize> {
        self.bm25.ptr[t] as usize..self.bm25.ptr[t + 1] as usize
    }
}

/// `*next` when `list[*next]` is `key`, then moved past it (a merge of sorted lists).
fn take_if(list: &[String], next: &mut usize, key: &str) -> Option<usize> {
    let at = *next;
    let found = list.get(at).is_some_and(|x| x == key);
    *next += usize::from(found);
    found.then_some(at)
}

/// Postcard's size of a varint.
fn varint_len(x: u32) -> usize {
    (32 - x.leading_zeros() as usize).max(1).div_ceil(7)
}

/// The deletes dictionary of `terms` and `words` ([`hipporag_wasm::lexical`]): each entry key
/// with the distinct entries listed under it, sorted.
fn deletes_dictionary<'a>(
    terms: &'a [String],
    words: &'a [String],
) -> BTreeMap<String, Vec<&'a str>> {
    let mut out: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for u in terms.iter().chain(words) {
        for k in entry_keys(u) {
            out.entry(k).or_default().push(u);
        }
    }
    for entries in out.values_mut() {
        entries.sort_unstable();
        entries.dedup();
    }
    out
}

#[cfg(test)]
mod tests {
    use hipporag_wasm::lexical::{Bm25Data, Bm25Params, DELETES_KEY_PREFIX};
    use hipporag_wasm::text::Language;

    use super::check_keys;

    /// An index built by an earlier version may hold a term in the deletes dictionary's key
    /// space: a clear error, not a panic in the merge of keys.
    #[test]
    fn a_term_in_the_deletes_key_space_is_an_error() {
        let term = format!("{DELETES_KEY_PREFIX}\u{365}");
        let docs = vec![vec!["gear".to_string(), term.clone()]];
        let bm25 = Bm25Data::build(&docs, Language::English, Bm25Params::default());
        let err = check_keys(&bm25, None).unwrap_err().to_string();
        assert!(
            err.contains(&format!("{term:?}")) && err.contains("rebuild"),
            "{err}"
        );
        let docs = vec![vec!["gear".to_string()]];
        let bm25 = Bm25Data::build(&docs, Language::English, Bm25Params::default());
        assert!(check_keys(&bm25, None).is_ok());
    }
}
