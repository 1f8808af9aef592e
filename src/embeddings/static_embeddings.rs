//! Static word embeddings: a semantic passage score with no neural model at query time.
//!
//! The Model2Vec idea (Tulkens & van Dongen, 2024: distil a sentence encoder into one vector per
//! vocabulary token) in its simplest form, measured on Python's docs before it was adopted
//! (docs/tuning.md, "Hybrid ranking"):
//!
//! * **vocabulary** — the corpus' [`static_words`] held by at least [`MIN_DF`] passages;
//! * **word vectors** — each word encoded alone by the index-time sentence encoder
//!   (all-MiniLM-L6-v2), kept as its **sign bits** (1 bit per dimension, which ranks as well as
//!   f32 at a thirty-second of the bytes: docs/tuning.md, "Hybrid ranking");
//! * **text vector** — the L2-normalised sum of the ±1 word vectors of a text's known words,
//!   each weighted by its count × BM25's IDF `ln(1 + (N − df + 0.5) / (df + 0.5))`
//!   (`N` passages; IDF weighting beat Model2Vec's Zipf weighting on `dev`);
//! * **passage codes** — the sign bits of each passage's text vector (`title + "\n" + text`,
//!   the encoder's passage text), `dim / 8` bytes a passage;
//! * **an inverted file (IVF)** over the codes — spherical k-means puts each passage in one of
//!   `C` clusters (centroids stored as sign bits); a query scores only the passages of the
//!   [`StaticEmbeddingsData::nprobe`] clusters whose centroids are nearest its vector
//!   ([`probe`]), the others get no static score (0). This is what lets a browser fetch a
//!   query's share of the codes alone (the site index in pieces, [`crate::pieces`]); measured
//!   against the int8 vectors it replaced in docs/index-format.md, "Static passage codes".
//! * **score** — [`CodeScorer`]: `2 + cos(q, code)`, with `code` read as ±1 per dimension,
//!   so that every probed passage scores above the unprobed 0.
//!
//! A query touches only the rows of its own words and the codes of its probed clusters, so the
//! browser never needs a tokenizer model.

use serde::{Deserialize, Serialize};

use crate::error::FormatProblem;
use crate::text::is_neighbour;
use crate::text::{MAX_EXPANSIONS, MIN_PREFIX_CHARS};
use crate::{Error, Result};

/// Fewest passages a word must occur in to get a vector (rarer words are mostly typos, ids and
/// numbers, and cost 48 bytes each).
pub const MIN_DF: u32 = 2;

/// [`StaticEmbeddingsData::clusters`] of a passage with no word of the vocabulary: it has no
/// code worth scoring and is in no cluster.
pub const NO_CLUSTER: u32 = u32::MAX;

/// The words of `text` for static embeddings: maximal runs of alphanumeric characters and `_`,
/// lowercased (Python's `\w+` on lowercased text, the prototype's tokenisation). So no word
/// holds a control character, nor begins with the deletes dictionary's prefix
/// ([`crate::lexical::DELETES_KEY_PREFIX`]).
///
/// ```
/// use hipporag_wasm::embeddings::static_words;
/// assert_eq!(
///     static_words("Use os.path.join() with __init__, DON'T").collect::<Vec<_>>(),
///     ["use", "os", "path", "join", "with", "__init__", "don", "t"]
/// );
/// ```
pub fn static_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// BM25's IDF of a word held by `df` of `n` passages (Lucene's form, always positive).
pub fn idf(df: u32, n: usize) -> f32 {
    let (df, n) = (f64::from(df), n as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// The stored form (see the module docs), as [`crate::index::IndexData::static_embeddings`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaticEmbeddingsData {
    /// The encoder id the words were encoded with (e.g. `sentence-transformers/all-MiniLM-L6-v2`).
    pub model: String,
    /// Dimensions per word vector; a positive multiple of 8.
    pub dim: u32,
    /// The vocabulary, sorted and distinct; a word's position is its row.
    pub words: Vec<String>,
    /// Passages holding each word (`words.len()` entries, each ≥ 1).
    pub df: Vec<u32>,
    /// Sign bits, `words.len() × dim / 8` bytes: bit `k % 8` (least significant first) of byte
    /// `row × dim / 8 + k / 8` is set when dimension `k` of the word's vector is ≥ 0.
    pub signs: Vec<u8>,
    /// The passages' codes: the sign bits of their text vectors, `|P| × dim / 8` bytes laid out
    /// as `signs` (all zero for a passage in [`NO_CLUSTER`]).
    pub codes: Vec<u8>,
    /// The IVF centroids as sign bits, `C × dim / 8` bytes (`C` ≥ 1).
    pub centroids: Vec<u8>,
    /// The cluster of each passage (`|P|` entries, each `< C` or [`NO_CLUSTER`]).
    pub clusters: Vec<u32>,
    /// Clusters a query scores (1..=`C`).
    pub nprobe: u32,
}

/// [`StaticEmbeddingsData`] checked and ready to score.
#[derive(Debug, Clone)]
pub struct StaticEmbeddings {
    model: String,
    dim: usize,
    words: Vec<String>,
    df: Vec<u32>,
    passages: usize,
    signs: Vec<u8>,
    codes: Vec<u8>,
    centroids: Vec<u8>,
    nprobe: usize,
    /// The passages of each cluster, ascending.
    members: Vec<Vec<u32>>,
}

fn invalid(message: String) -> Error {
    FormatProblem::Invalid {
        field: "static_embeddings",
        message,
    }
    .into()
}

/// Whether dimension `k` of a sign-bit code is set (the vector's value there is ≥ 0).
fn bit(code: &[u8], k: usize) -> bool {
    code[k / 8] >> (k % 8) & 1 == 1
}

/// The L2-normalised weighted sum of ±1 sign rows (`dim / 8` bytes each, laid out as
/// [`StaticEmbeddingsData::signs`]) with their weights; `None` when no row has positive weight.
/// Shared by the indexer (passage vectors) and queries, so both sum in the same order.
pub fn text_vector<'a>(
    dim: usize,
    rows: impl IntoIterator<Item = (&'a [u8], f32)>,
) -> Option<Vec<f32>> {
    let mut v = vec![0f32; dim];
    let mut any = false;
    for (code, w) in rows {
        if w <= 0.0 {
            continue;
        }
        any = true;
        for (k, x) in v.iter_mut().enumerate() {
            if bit(code, k) {
                *x += w;
            } else {
                *x -= w;
            }
        }
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if !any || norm == 0.0 {
        return None;
    }
    v.iter_mut().for_each(|x| *x /= norm);
    Some(v)
}

/// The sign bits of `v` (`v.len() / 8` bytes, laid out as [`StaticEmbeddingsData::signs`]).
pub fn sign_bits(v: &[f32]) -> Vec<u8> {
    let mut out = vec![0u8; v.len().div_ceil(8)];
    for (k, &x) in v.iter().enumerate() {
        if x >= 0.0 {
            out[k / 8] |= 1 << (k % 8);
        }
    }
    out
}

/// Scores sign-bit codes against one unit query vector `q` (`dim` values): `2 + cos(q, code)`,
/// with `code` read as ±1 per dimension (norm `√dim`), in [1, 3], above the 0 of an unscored
/// passage.
///
/// The dot product is summed a byte of the code at a time from a table built once per query:
/// entry `(i, v)` holds `Σ ±q[8i + b]` over the 8 bits `b` of byte value `v` (+ where the bit
/// is set), so a code of `dim / 8` bytes costs `dim / 8` lookups instead of `dim` bit tests.
/// Both sums run in a fixed order in f32, so every platform gives the same value.
#[derive(Debug, Clone)]
pub struct CodeScorer {
    /// `dim / 8 × 256` partial dot products.
    table: Vec<f32>,
    /// `√dim`.
    norm: f32,
}

impl CodeScorer {
    /// The table for `q` (its length a multiple of 8).
    pub fn new(q: &[f32]) -> Self {
        let mut table = Vec::with_capacity(q.len() / 8 * 256);
        for dims in q.chunks_exact(8) {
            for v in 0..256u32 {
                let mut dot = 0f32;
                for (b, &x) in dims.iter().enumerate() {
                    if v >> b & 1 == 1 {
                        dot += x;
                    } else {
                        dot -= x;
                    }
                }
                table.push(dot);
            }
        }
        Self {
            table,
            norm: (q.len() as f32).sqrt(),
        }
    }

    /// `2 + cos(q, code)` for a code of `dim / 8` bytes.
    pub fn score(&self, code: &[u8]) -> f64 {
        let mut dot = 0f32;
        for (i, &v) in code.iter().enumerate() {
            dot += self.table[i * 256 + usize::from(v)];
        }
        2.0 + f64::from(dot / self.norm)
    }
}

/// The `nprobe` clusters whose centroids (sign bits, `dim / 8` bytes each) score highest
/// against the query ([`CodeScorer::score`]), best first, ties to the lower id.
pub fn probe(q: &CodeScorer, centroids: &[u8], nprobe: usize) -> Vec<u32> {
    let bytes = q.table.len() / 256;
    let mut scored: Vec<(u32, f64)> = centroids
        .chunks_exact(bytes)
        .enumerate()
        .map(|(c, code)| (c as u32, q.score(code)))
        .collect();
    scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(nprobe);
    scored.into_iter().map(|(c, _)| c).collect()
}

/// A static vocabulary ([`StaticEmbeddingsData::words`] with their sign rows and document
/// frequencies), as the single file holds it whole and the index in pieces holds it in the key
/// ranges of its term pieces.
pub trait StaticVocabulary {
    /// Dimensions of a word vector (a multiple of 8; a sign row is `dim / 8` bytes).
    fn dim(&self) -> usize;
    /// Passages in the index, `N` of [`idf`].
    fn passages(&self) -> usize;
    /// The sign row and document frequency of `word`, if it is in the vocabulary.
    fn word(&self, word: &str) -> Option<(&[u8], u32)>;
    /// Calls `f(word, sign row, document frequency)` for every word beginning with `prefix`,
    /// in word order.
    fn words_with_prefix<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a [u8], u32));
    /// Calls `f(word, sign row, document frequency)` for every neighbour of the misspelt word
    /// `word` ([`crate::text::is_neighbour`]), in word order. By default, from the words
    /// beginning with its first character.
    fn neighbours<'a>(&'a self, word: &str, f: &mut dyn FnMut(&str, &'a [u8], u32)) {
        let Some((first, _)) = word.char_indices().nth(1) else {
            return;
        };
        self.words_with_prefix(&word[..first], &mut |w, row, df| {
            if is_neighbour(word, w) {
                f(w, row, df);
            }
        });
    }
}

/// The word of `text` being typed: its last [`static_words`] item, when `text` ends inside it (in an
/// alphanumeric character or `_`) and it has at least
/// [`crate::text::MIN_PREFIX_CHARS`] characters, as [`crate::lexical`] finds the word
/// being typed for BM25.
pub fn typed_word(text: &str) -> Option<String> {
    let ends_in_word = text
        .chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    let last = static_words(text).last().filter(|_| ends_in_word)?;
    (last.chars().count() >= MIN_PREFIX_CHARS).then_some(last)
}

/// The static query vector of `text`: [`text_vector`] of its [`static_words`] in order, each with its
/// sign row and [`idf`] when it is in `vocabulary`; `None` when no word is.
///
/// Two kinds of word the vocabulary lacks stand for the words the reader likely meant, when
/// another word of `text` is in the vocabulary (so the vector never rests on a guess alone;
/// BM25 still matches the same words, [`crate::lexical`]):
///
/// * **the word being typed** ([`typed_word`]) stands for the [`MAX_EXPANSIONS`] most
///   frequent words it begins (when it begins none and is one of `misspelt`, for its
///   neighbours, as below);
/// * **a misspelt word** (one of `misspelt`: the words BM25 matches to their neighbours,
///   [`crate::lexical::misspelt_words`]) stands for the [`MAX_EXPANSIONS`] most frequent of
///   its neighbours in the vocabulary ([`StaticVocabulary::neighbours`]).
///
/// Either way word `w` gets weight `idf(w) · df(w) / Σ df` (most frequent first, by document
/// frequency then word order): the expected vector of the word meant, under the corpus' word
/// frequencies. A word the vocabulary has is never expanded, so a finished, well-spelt
/// question ranks as it did. Chosen on the CoNaLa `dev` split with `query_variants.py`'s
/// half-typed and misspelt questions (docs/tuning.md, "Prefix and fuzzy matching").
/// [`StaticEmbeddings::embed`] and the index in pieces ([`crate::pieces`]) both call it.
pub fn query_vector(
    text: &str,
    vocabulary: &dyn StaticVocabulary,
    misspelt: &[String],
) -> Option<Vec<f32>> {
    let n = vocabulary.passages();
    let all: Vec<String> = static_words(text).collect();
    let known: Vec<bool> = all.iter().map(|w| vocabulary.word(w).is_some()).collect();
    let typed = typed_word(text).is_some();
    let mut rows: Vec<(&[u8], f32)> = Vec::new();
    for (k, w) in all.iter().enumerate() {
        if let Some((row, df)) = vocabulary.word(w) {
            rows.push((row, idf(df, n)));
            continue;
        }
        let beside_known = known.iter().enumerate().any(|(j, &x)| x && j != k);
        if !beside_known {
            continue;
        }
        let mut found: Vec<(&[u8], u32, usize)> = Vec::new();
        if typed && k + 1 == all.len() {
            vocabulary.words_with_prefix(w, &mut |_, row, df| {
                found.push((row, df, found.len()));
            });
        }
        // A misspelt word; the word being typed is one only when BM25's dictionary has no
        // completion of it ([`crate::lexical::misspelt_words`]).
        if found.is_empty() && misspelt.contains(w) {
            vocabulary.neighbours(w, &mut |_, row, df| {
                found.push((row, df, found.len()));
            });
        }
        found.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
        found.truncate(MAX_EXPANSIONS);
        let total: f64 = found.iter().map(|f| f64::from(f.1)).sum();
        rows.extend(
            found
                .iter()
                .map(|&(row, df, _)| (row, idf(df, n) * (f64::from(df) / total) as f32)),
        );
    }
    text_vector(vocabulary.dim(), rows)
}

/// Checks the IVF fields of `d` for `passages` passages and returns each cluster's members.
fn check_ivf(d: &StaticEmbeddingsData, passages: usize) -> Result<Vec<Vec<u32>>> {
    let bytes = d.dim as usize / 8;
    if d.codes.len() != passages * bytes {
        return Err(invalid(format!(
            "{} code bytes for {passages} passages of {} dimensions (expected {})",
            d.codes.len(),
            d.dim,
            passages * bytes
        )));
    }
    if d.centroids.is_empty() || d.centroids.len() % bytes != 0 {
        return Err(invalid(format!(
            "{} centroid bytes: expected a positive multiple of {bytes}",
            d.centroids.len()
        )));
    }
    let c = d.centroids.len() / bytes;
    if d.nprobe == 0 || d.nprobe as usize > c {
        return Err(invalid(format!("nprobe {} outside 1..={c}", d.nprobe)));
    }
    if d.clusters.len() != passages {
        return Err(invalid(format!(
            "{} cluster entries for {passages} passages",
            d.clusters.len()
        )));
    }
    let mut members = vec![Vec::new(); c];
    for (j, &k) in d.clusters.iter().enumerate() {
        match members.get_mut(k as usize) {
            Some(m) => m.push(j as u32),
            None if k == NO_CLUSTER => {}
            None => {
                return Err(invalid(format!(
                    "passage {j} is in cluster {k}, expected < {c}"
                )));
            }
        }
    }
    Ok(members)
}

impl StaticEmbeddings {
    /// Checks `d` against an index of `passages` passages.
    ///
    /// # Errors
    /// [`FormatProblem::Invalid`] (field `static_embeddings`) naming what does not fit: a
    /// dimension that is not a positive multiple of 8, unsorted or repeated words, `df` or
    /// `signs` of the wrong length, a `df` of 0 or above `passages`, codes, centroids or
    /// clusters of the wrong shape, a cluster id out of range, `nprobe` outside 1..=`C`.
    pub fn from_data(d: StaticEmbeddingsData, passages: usize) -> Result<Self> {
        let dim = d.dim as usize;
        if dim == 0 || dim % 8 != 0 {
            return Err(invalid(format!(
                "dim {dim} is not a positive multiple of 8"
            )));
        }
        if let Some(i) = d.words.windows(2).position(|w| w[0] >= w[1]) {
            return Err(invalid(format!(
                "words are not sorted and distinct at {}",
                i + 1
            )));
        }
        if d.df.len() != d.words.len() {
            return Err(invalid(format!(
                "{} df entries for {} words",
                d.df.len(),
                d.words.len()
            )));
        }
        if let Some(i) = d.df.iter().position(|&f| f == 0 || f as usize > passages) {
            return Err(invalid(format!(
                "word \"{}\" has df {}, expected 1..={passages}",
                d.words[i], d.df[i]
            )));
        }
        if d.signs.len() != d.words.len() * dim / 8 {
            return Err(invalid(format!(
                "{} sign bytes for {} words of {dim} dimensions (expected {})",
                d.signs.len(),
                d.words.len(),
                d.words.len() * dim / 8
            )));
        }
        let members = check_ivf(&d, passages)?;
        Ok(Self {
            df: d.df,
            passages,
            model: d.model,
            dim,
            words: d.words,
            signs: d.signs,
            codes: d.codes,
            centroids: d.centroids,
            nprobe: d.nprobe as usize,
            members,
        })
    }

    /// The encoder id the word vectors came from.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Words in the vocabulary.
    pub fn vocabulary_len(&self) -> usize {
        self.words.len()
    }

    /// The row of `word`, if it is in the vocabulary.
    pub fn row(&self, word: &str) -> Option<usize> {
        self.words.binary_search_by(|w| w.as_str().cmp(word)).ok()
    }

    /// The text vector of `text` (`dim` values, unit length), or `None` when it has no word of
    /// the vocabulary ([`query_vector`], with its `misspelt` words).
    pub fn embed(&self, text: &str, misspelt: &[String]) -> Option<Vec<f32>> {
        query_vector(text, self, misspelt)
    }

    /// The static score of every passage for the query vector `q` (`|P|` values in passage
    /// order): the [`CodeScorer::score`] of each passage in the clusters [`probe`] picks for
    /// it, 0 for the others.
    pub fn scores(&self, q: &CodeScorer) -> Vec<f64> {
        let bytes = self.dim / 8;
        let mut s = vec![0.0; self.codes.len() / bytes];
        for c in probe(q, &self.centroids, self.nprobe) {
            for &j in &self.members[c as usize] {
                let j = j as usize;
                s[j] = q.score(&self.codes[j * bytes..(j + 1) * bytes]);
            }
        }
        s
    }
}

impl StaticVocabulary for StaticEmbeddings {
    fn dim(&self) -> usize {
        self.dim
    }

    fn passages(&self) -> usize {
        self.passages
    }

    fn word(&self, word: &str) -> Option<(&[u8], u32)> {
        let r = self.row(word)?;
        let bytes = self.dim / 8;
        Some((&self.signs[r * bytes..(r + 1) * bytes], self.df[r]))
    }

    fn words_with_prefix<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a [u8], u32)) {
        let bytes = self.dim / 8;
        let from = self.words.partition_point(|w| w.as_str() < prefix);
        for (r, w) in self.words.iter().enumerate().skip(from) {
            if !w.starts_with(prefix) {
                break;
            }
            f(w, &self.signs[r * bytes..(r + 1) * bytes], self.df[r]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Control characters split words, combining marks after them included.
    #[test]
    fn static_words_hold_no_control_character() {
        for c in (0..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let text = format!("H{c}\u{6df}\u{365} a.{c}\u{301}b_{c}x");
            let w: Vec<String> = static_words(&text).collect();
            assert!(w.iter().all(|w| !w.contains(char::is_control)), "{w:?}");
        }
    }

    fn data() -> StaticEmbeddingsData {
        // Two 8-d words: "list" = all +1, "sort" = +1 on the first four dims only; passage 0
        // is "list", passage 1 "sort", each its own cluster, both probed.
        StaticEmbeddingsData {
            model: "test".into(),
            dim: 8,
            words: vec!["list".into(), "sort".into()],
            df: vec![1, 1],
            signs: vec![0xff, 0x0f],
            codes: vec![0xff, 0x0f],
            centroids: vec![0xff, 0x0f],
            clusters: vec![0, 1],
            nprobe: 2,
        }
    }

    #[test]
    fn a_query_scores_the_passage_of_its_word_highest() {
        let s = StaticEmbeddings::from_data(data(), 2).unwrap();
        let scores = |text: &str| Some(s.scores(&CodeScorer::new(&s.embed(text, &[])?)));
        let sort = scores("Sorting? no: SORT").unwrap();
        assert!(
            (sort[1] - 3.0).abs() < 1e-6 && (sort[0] - 2.0).abs() < 1e-6,
            "{sort:?}"
        );
        let list = scores("a list").unwrap();
        assert!(
            (list[0] - 3.0).abs() < 1e-6 && (list[1] - 2.0).abs() < 1e-6,
            "{list:?}"
        );
        assert!(scores("nothing known").is_none());
    }

    #[test]
    fn the_word_being_typed_stands_for_the_words_it_begins() {
        let s = StaticEmbeddings::from_data(data(), 2).unwrap();
        // "sor" begins "sort" alone; ended by a space, shorter than 3, or with no other word of
        // the vocabulary, it is not expanded.
        assert_eq!(
            s.embed("a list to sor", &[]),
            s.embed("a list to sort", &[])
        );
        assert_eq!(s.embed("a list to sor ", &[]), s.embed("a list", &[]));
        assert_eq!(s.embed("a list so", &[]), s.embed("a list", &[]));
        assert!(s.embed("how to sor", &[]).is_none());
        // A word the vocabulary has is not expanded: "list" is not "list" + its completions.
        let s = four_words();
        let sort = (&[0x3c_u8][..], idf(1, 2));
        assert_eq!(
            s.embed("sort list", &[]),
            text_vector(8, [sort, (&[0xff_u8][..], idf(2, 2))])
        );
        // An unknown prefix stands for its completions, each weighted IDF × df / Σ df.
        let want = text_vector(
            8,
            [
                sort,
                (&[0xf0_u8][..], idf(1, 2) / 4.0),
                (&[0xff_u8][..], idf(2, 2) / 2.0),
                (&[0x0f_u8][..], idf(1, 2) / 4.0),
            ],
        );
        assert_eq!(s.embed("sort lis", &[]), want);
    }

    /// "lisp", "list" (df 2), "listing" and "sort" in 8 dimensions, over 2 passages.
    fn four_words() -> StaticEmbeddings {
        let mut d = data();
        d.words = vec![
            "lisp".into(),
            "list".into(),
            "listing".into(),
            "sort".into(),
        ];
        d.df = vec![1, 2, 1, 1];
        d.signs = vec![0xf0, 0xff, 0x0f, 0x3c];
        StaticEmbeddings::from_data(d, 2).unwrap()
    }

    #[test]
    fn a_misspelt_word_stands_for_its_neighbours() {
        let s = four_words();
        let misspelt = ["lsit".to_string()];
        // "lsit" is one swap from "list" alone: it stands for "list", with its own weight.
        assert_eq!(s.embed("sort lsit.", &misspelt), s.embed("sort list.", &[]));
        // A word not named misspelt is left out, as before; so is one with no other word of
        // the vocabulary beside it.
        assert_eq!(s.embed("sort lsit.", &[]), s.embed("sort", &[]));
        assert!(s.embed("lsit.", &misspelt).is_none());
        // "lisq" is one edit from "lisp" and from "list": each weighted IDF × df / Σ df.
        let want = text_vector(
            8,
            [
                (&[0x3c_u8][..], idf(1, 2)),
                (&[0xf0_u8][..], idf(1, 2) / 3.0),
                (&[0xff_u8][..], idf(2, 2) * 2.0 / 3.0),
            ],
        );
        assert_eq!(s.embed("sort lisq.", &["lisq".to_string()]), want);
    }

    #[test]
    fn only_probed_clusters_are_scored() {
        let mut d = data();
        d.nprobe = 1;
        let scores = |s: &StaticEmbeddings, text: &str| {
            s.scores(&CodeScorer::new(&s.embed(text, &[]).unwrap()))
        };
        let s = StaticEmbeddings::from_data(d, 2).unwrap();
        assert_eq!(scores(&s, "sort")[0], 0.0);
        assert_eq!(scores(&s, "list")[1], 0.0);
        let mut d = data();
        d.clusters[1] = NO_CLUSTER;
        let s = StaticEmbeddings::from_data(d, 2).unwrap();
        assert_eq!(scores(&s, "sort")[1], 0.0);
    }

    #[test]
    fn probe_orders_centroids_by_score_then_id() {
        let q = CodeScorer::new(&text_vector(8, [(&[0x0f_u8][..], 1.0)]).unwrap());
        assert_eq!(probe(&q, &[0xff, 0x0f, 0x0f], 3), [1, 2, 0]);
        assert_eq!(probe(&q, &[0xff, 0x0f, 0x0f], 1), [1]);
    }

    #[test]
    fn malformed_data_names_the_problem() {
        let check = |f: fn(&mut StaticEmbeddingsData), want: &str| {
            let mut d = data();
            f(&mut d);
            let e = StaticEmbeddings::from_data(d, 2).unwrap_err().to_string();
            assert!(e.contains("static_embeddings") && e.contains(want), "{e}");
        };
        check(|d| d.words.reverse(), "sorted");
        check(|d| _ = d.signs.pop(), "sign bytes");
        check(|d| d.df[0] = 3, "df 3");
        check(|d| d.dim = 12, "multiple of 8");
        check(|d| _ = d.codes.pop(), "code bytes");
        check(|d| d.centroids.clear(), "centroid bytes");
        check(|d| d.nprobe = 3, "nprobe 3");
        check(|d| d.clusters[0] = 2, "cluster 2");
        check(|d| _ = d.clusters.pop(), "cluster entries");
        assert!(StaticEmbeddings::from_data(data(), 3).is_err());
    }
}
