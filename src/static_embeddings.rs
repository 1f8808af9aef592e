//! Static word embeddings: a semantic passage score with no neural model at query time.
//!
//! The Model2Vec idea (Tulkens & van Dongen, 2024: distil a sentence encoder into one vector per
//! vocabulary token) in its simplest form, measured on Python's docs before it was adopted
//! (README, "Hybrid ranking"):
//!
//! * **vocabulary** — the corpus' [`words`] held by at least [`MIN_DF`] passages;
//! * **word vectors** — each word encoded alone by the index-time sentence encoder
//!   (all-MiniLM-L6-v2), kept as its **sign bits** (1 bit per dimension: on the CoNaLa `dev`
//!   split, 1-bit d384 ranked as well as f32 at 1/32 of the bytes);
//! * **text vector** — the L2-normalised sum of the ±1 word vectors of a text's known words,
//!   each weighted by its count × BM25's IDF `ln(1 + (N − df + 0.5) / (df + 0.5))`
//!   (`N` passages; IDF weighting beat Model2Vec's Zipf weighting on `dev`);
//! * **score** — cosine of the query's text vector with each passage's, stored at index time
//!   ([`StaticEmbeddingsData::passages`], the same passage text as the encoder's:
//!   `title + "\n" + text`).
//!
//! A query touches only the rows of its own words, so the browser never needs a tokenizer model.

use serde::{Deserialize, Serialize};

use crate::error::FormatProblem;
use crate::vectors::{VectorIndex, Vectors};
use crate::{Error, Result};

/// Fewest passages a word must occur in to get a vector (rarer words are mostly typos, ids and
/// numbers, and cost 48 bytes each).
pub const MIN_DF: u32 = 2;

/// The words of `text` for static embeddings: maximal runs of alphanumeric characters and `_`,
/// lowercased (Python's `\w+` on lowercased text, the prototype's tokenisation).
///
/// ```
/// use hipporag_wasm::static_embeddings::words;
/// assert_eq!(
///     words("Use os.path.join() with __init__, DON'T").collect::<Vec<_>>(),
///     ["use", "os", "path", "join", "with", "__init__", "don", "t"]
/// );
/// ```
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
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
    /// The passages' text vectors, `|P| × dim` (int8 by default).
    pub passages: Vectors,
}

/// [`StaticEmbeddingsData`] checked and ready to score.
#[derive(Debug, Clone)]
pub struct StaticEmbeddings {
    model: String,
    dim: usize,
    words: Vec<String>,
    idf: Vec<f32>,
    signs: Vec<u8>,
    passages: VectorIndex,
}

fn invalid(message: String) -> Error {
    FormatProblem::Invalid {
        field: "static_embeddings",
        message,
    }
    .into()
}

/// The L2-normalised weighted sum of ±1 sign rows: `rows` yields (row, weight); `None` when no
/// row has positive weight. Shared by the indexer (passage vectors) and queries.
pub fn text_vector(
    signs: &[u8],
    dim: usize,
    rows: impl IntoIterator<Item = (usize, f32)>,
) -> Option<Vec<f32>> {
    let bytes = dim / 8;
    let mut v = vec![0f32; dim];
    let mut any = false;
    for (row, w) in rows {
        if w <= 0.0 {
            continue;
        }
        any = true;
        let code = &signs[row * bytes..(row + 1) * bytes];
        for (k, x) in v.iter_mut().enumerate() {
            if code[k / 8] >> (k % 8) & 1 == 1 {
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

impl StaticEmbeddings {
    /// Checks `d` against an index of `passages` passages.
    ///
    /// # Errors
    /// [`FormatProblem::Invalid`] (field `static_embeddings`) naming what does not fit: a
    /// dimension that is not a positive multiple of 8, unsorted or repeated words, `df` or
    /// `signs` of the wrong length, a `df` of 0 or above `passages`, passage vectors of the
    /// wrong shape.
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
                "word {:?} has df {}, expected 1..={passages}",
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
        d.passages
            .check(passages, dim)
            .map_err(|m| invalid(format!("passages: {m}")))?;
        Ok(Self {
            idf: d.df.iter().map(|&f| idf(f, passages)).collect(),
            model: d.model,
            dim,
            words: d.words,
            signs: d.signs,
            passages: VectorIndex::new(d.passages),
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
    /// the vocabulary.
    pub fn embed(&self, text: &str) -> Option<Vec<f32>> {
        let rows: Vec<(usize, f32)> = words(text)
            .filter_map(|w| self.row(&w))
            .map(|r| (r, self.idf[r]))
            .collect();
        text_vector(&self.signs, self.dim, rows)
    }

    /// Cosine of `text`'s vector with every passage's (`|P|` values in passage order), or `None`
    /// when `text` has no word of the vocabulary.
    pub fn scores(&self, text: &str) -> Option<Vec<f64>> {
        let q = self.embed(text)?;
        let mut s = Vec::new();
        self.passages.cosine_all(&q, &mut s);
        Some(s.into_iter().map(f64::from).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::Quantization;

    fn data() -> StaticEmbeddingsData {
        // Two 8-d words: "list" = all +1, "sort" = +1 on the first four dims only.
        let passages = [
            text_vector(&[0xff, 0x0f], 8, [(0, 1.0)]).unwrap(),
            text_vector(&[0xff, 0x0f], 8, [(1, 1.0)]).unwrap(),
        ]
        .concat();
        StaticEmbeddingsData {
            model: "test".into(),
            dim: 8,
            words: vec!["list".into(), "sort".into()],
            df: vec![1, 1],
            signs: vec![0xff, 0x0f],
            passages: Vectors::from_f32(8, &passages, Quantization::F32),
        }
    }

    #[test]
    fn a_query_scores_the_passage_of_its_word_highest() {
        let s = StaticEmbeddings::from_data(data(), 2).unwrap();
        let sort = s.scores("Sorting? no: SORT").unwrap();
        assert!(
            (sort[1] - 1.0).abs() < 1e-6 && sort[0].abs() < 1e-6,
            "{sort:?}"
        );
        let list = s.scores("a list").unwrap();
        assert!(
            (list[0] - 1.0).abs() < 1e-6 && list[1].abs() < 1e-6,
            "{list:?}"
        );
        assert!(s.scores("nothing known").is_none());
    }

    #[test]
    fn malformed_data_names_the_problem() {
        let mut d = data();
        d.words.reverse();
        let e = StaticEmbeddings::from_data(d, 2).unwrap_err().to_string();
        assert!(
            e.contains("static_embeddings") && e.contains("sorted"),
            "{e}"
        );
        let mut d = data();
        d.signs.pop();
        let e = StaticEmbeddings::from_data(d, 2).unwrap_err().to_string();
        assert!(e.contains("sign bytes"), "{e}");
        let mut d = data();
        d.df[0] = 3;
        let e = StaticEmbeddings::from_data(d, 2).unwrap_err().to_string();
        assert!(e.contains("df 3"), "{e}");
        assert!(StaticEmbeddings::from_data(data(), 3).is_err());
        let mut d = data();
        d.dim = 12;
        assert!(StaticEmbeddings::from_data(d, 2).is_err());
    }
}
