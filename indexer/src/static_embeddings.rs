//! Builds the static word embeddings of a corpus
//! ([`hipporag_wasm::static_embeddings::StaticEmbeddingsData`]; the module docs there say what
//! they are and why).
//!
//! ```text
//!  passages ──► words (title + "\n" + text) ──► vocabulary (df ≥ MIN_DF, sorted)
//!           ──► each word encoded alone ──► sign bits ──► passage vectors (count × IDF)
//! ```
//!
//! Deterministic: the same passages and encoder give the same bytes.

use std::collections::BTreeMap;

use hipporag_wasm::encoder::Encoder;
use hipporag_wasm::index::Passage;
use hipporag_wasm::static_embeddings::{MIN_DF, StaticEmbeddingsData, idf, text_vector, words};
use hipporag_wasm::vectors::{Quantization, Vectors};

use crate::graph::encode_all;
use crate::progress::Progress;
use crate::{Error, Result};

/// Encodes the vocabulary of `passages` with `encoder` (in batches of `batch`) and returns the
/// static word embeddings, passage vectors stored as `quantization`.
///
/// # Errors
/// The encoder's; [`Error::InvalidRequest`] when its dimension is not a multiple of 8.
pub fn build(
    passages: &[Passage],
    encoder: &dyn Encoder,
    quantization: Quantization,
    batch: usize,
    progress: &dyn Progress,
) -> Result<StaticEmbeddingsData> {
    let info = encoder.info();
    let dim = info.dim as usize;
    if dim == 0 || dim % 8 != 0 {
        return Err(Error::InvalidRequest(format!(
            "static embeddings need a dimension that is a multiple of 8; {} has {dim}",
            info.id
        )));
    }
    // Per passage: word → count; over the corpus: word → passages holding it.
    let counts: Vec<BTreeMap<String, u32>> = passages
        .iter()
        .map(|p| {
            let mut c = BTreeMap::new();
            for w in words(&p.indexed_text()) {
                *c.entry(w).or_insert(0) += 1;
            }
            c
        })
        .collect();
    let mut df: BTreeMap<&str, u32> = BTreeMap::new();
    for c in &counts {
        for w in c.keys() {
            *df.entry(w).or_insert(0) += 1;
        }
    }
    df.retain(|_, n| *n >= MIN_DF);
    let vocab: Vec<&str> = df.keys().copied().collect();
    let vectors = encode_all(encoder, &vocab, "encoding words", batch, progress)?;
    let mut signs = vec![0u8; vocab.len() * dim / 8];
    for (row, v) in vectors.chunks_exact(dim).enumerate() {
        for (k, x) in v.iter().enumerate() {
            if *x >= 0.0 {
                signs[row * dim / 8 + k / 8] |= 1 << (k % 8);
            }
        }
    }
    let weights: Vec<f32> = df.values().map(|&f| idf(f, passages.len())).collect();
    let mut pv = Vec::with_capacity(passages.len() * dim);
    for c in &counts {
        let rows = c.iter().filter_map(|(w, &n)| {
            let r = vocab.binary_search(&w.as_str()).ok()?;
            Some((r, n as f32 * weights[r]))
        });
        pv.extend(text_vector(&signs, dim, rows).unwrap_or_else(|| vec![0.0; dim]));
    }
    Ok(StaticEmbeddingsData {
        model: info.id,
        dim: dim as u32,
        words: vocab.iter().map(|w| w.to_string()).collect(),
        df: df.values().copied().collect(),
        signs,
        passages: Vectors::from_f32(dim, &pv, quantization),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hipporag_wasm::encoder::HashedNgramEncoder;
    use hipporag_wasm::static_embeddings::StaticEmbeddings;

    #[test]
    fn vocabulary_is_words_of_two_passages_and_queries_find_their_passage() {
        let ps = [
            Passage::new("Sorting", "Sort a list in place with list.sort()."),
            Passage::new("Sorted", "sorted() returns a new sorted list."),
            Passage::new("Files", "Open a file with open(); read the file."),
            Passage::new("Paths", "Join paths with os.path.join; open the file."),
        ];
        let enc = HashedNgramEncoder::default();
        let d = build(&ps, &enc, Quantization::F32, 2, &()).unwrap();
        // "sort" and "sorted" are each in one passage only (a title counts with its text).
        assert_eq!(d.words, ["a", "file", "list", "open", "the", "with"]);
        assert_eq!(d.df, [3, 2, 2, 2, 2, 3]);
        assert_eq!(build(&ps, &enc, Quantization::F32, 3, &()).unwrap(), d);
        let s = StaticEmbeddings::from_data(d, ps.len()).unwrap();
        let scores = s.scores("how do I open a file").unwrap();
        let best = (0..4)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap();
        assert!(best == 2 || best == 3, "{scores:?}");
    }
}
