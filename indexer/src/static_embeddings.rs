//! Builds the static word embeddings of a corpus
//! ([`hipporag_wasm::static_embeddings::StaticEmbeddingsData`]; the module docs there say what
//! they are and why).
//!
//! ```text
//!  passages ──► words (title + "\n" + text) ──► vocabulary (df ≥ MIN_DF, no stopword, sorted)
//!           ──► each word encoded alone ──► sign bits ──► passage vectors (count × IDF)
//!           ──► passage codes (sign bits) ──► spherical k-means ──► IVF clusters
//! ```
//!
//! Deterministic: the same passages and encoder give the same bytes.

use std::collections::{BTreeMap, HashSet};

use hipporag_wasm::encoder::Encoder;
use hipporag_wasm::index::Passage;
use hipporag_wasm::static_embeddings::{
    MIN_DF, NO_CLUSTER, StaticEmbeddingsData, idf, sign_bits, text_vector, words,
};

use crate::graph::encode_all;
use crate::progress::Progress;
use crate::{Error, Result};

/// Passages per IVF cluster the indexer aims at: `C = clamp(|P| / 32, 1, 256)`.
pub const PASSAGES_PER_CLUSTER: usize = 32;
/// Most IVF clusters.
pub const MAX_CLUSTERS: usize = 256;
/// Clusters a query scores: 16 (of 256 on Python's docs, chosen on the CoNaLa `dev` split:
/// docs/index-format.md, "Static passage codes", has the sweep), all of them for a corpus of fewer than
/// `16 × 32` passages.
pub const NPROBE: usize = 16;
/// Lloyd rounds of the spherical k-means.
pub const KMEANS_ROUNDS: usize = 15;

/// Encodes the vocabulary of `passages` with `encoder` (in batches of `batch`) and returns the
/// static word embeddings: word sign rows, passage codes and their IVF clusters. Words in
/// `stopwords` (lowercase; [`crate::bm25::stopwords`]) get no vector: on the CoNaLa splits of
/// Python's docs leaving them out raised page recall@10 (dev 0.607 → 0.639, test 0.645 →
/// 0.656), and a query's stopwords then fetch no piece of a site's index in pieces.
///
/// # Errors
/// The encoder's; [`Error::InvalidRequest`] when its dimension is not a multiple of 8.
pub fn build(
    passages: &[Passage],
    encoder: &dyn Encoder,
    stopwords: &HashSet<String>,
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
    df.retain(|w, n| *n >= MIN_DF && !stopwords.contains(*w));
    let vocab: Vec<&str> = df.keys().copied().collect();
    let vectors = encode_all(encoder, &vocab, "encoding words", batch, progress)?;
    let signs: Vec<u8> = vectors.chunks_exact(dim).flat_map(sign_bits).collect();
    let bytes = dim / 8;
    let weights: Vec<f32> = df.values().map(|&f| idf(f, passages.len())).collect();
    let mut codes = Vec::with_capacity(passages.len() * bytes);
    let mut coded = Vec::with_capacity(passages.len());
    for c in &counts {
        let rows = c.iter().filter_map(|(w, &n)| {
            let r = vocab.binary_search(&w.as_str()).ok()?;
            Some((&signs[r * bytes..(r + 1) * bytes], n as f32 * weights[r]))
        });
        match text_vector(dim, rows) {
            Some(v) => {
                codes.extend(sign_bits(&v));
                coded.push(true);
            }
            None => {
                codes.extend(std::iter::repeat_n(0, bytes));
                coded.push(false);
            }
        }
    }
    let n_coded = coded.iter().filter(|&&c| c).count();
    let k = (n_coded / PASSAGES_PER_CLUSTER).clamp(1, MAX_CLUSTERS);
    let (centroids, clusters) = kmeans(&codes, &coded, dim, k);
    Ok(StaticEmbeddingsData {
        model: info.id,
        dim: dim as u32,
        words: vocab.iter().map(|w| w.to_string()).collect(),
        df: df.values().copied().collect(),
        signs,
        codes,
        centroids,
        clusters,
        nprobe: NPROBE.min(k) as u32,
    })
}

/// Spherical k-means (Lloyd, [`KMEANS_ROUNDS`] rounds) of the passage codes read as unit ±1
/// vectors, `k` centroids started from the coded passages spread over the passage order.
/// Returns the centroids as sign bits and each passage's cluster ([`NO_CLUSTER`] where
/// `coded` is false). A passage goes to the centroid with the highest cosine, ties to the
/// lower id; an emptied cluster keeps its centroid.
/// Deterministic: no randomness, and the same arithmetic with or without threads.
fn kmeans(codes: &[u8], coded: &[bool], dim: usize, k: usize) -> (Vec<u8>, Vec<u32>) {
    let bytes = dim / 8;
    let mut clusters = vec![NO_CLUSTER; coded.len()];
    let ids: Vec<usize> = (0..coded.len()).filter(|&j| coded[j]).collect();
    if ids.is_empty() {
        return (vec![0; bytes], clusters);
    }
    let s = 1.0 / (dim as f32).sqrt();
    let units: Vec<Vec<f32>> = ids
        .iter()
        .map(|&j| {
            let code = &codes[j * bytes..(j + 1) * bytes];
            (0..dim)
                .map(|d| {
                    if code[d / 8] >> (d % 8) & 1 == 1 {
                        s
                    } else {
                        -s
                    }
                })
                .collect()
        })
        .collect();
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
    let mut centroids: Vec<Vec<f32>> = (0..k).map(|c| units[c * ids.len() / k].clone()).collect();
    let nearest = |centroids: &[Vec<f32>], u: &[f32]| -> u32 {
        let mut best = (0u32, f32::NEG_INFINITY);
        for (c, v) in centroids.iter().enumerate() {
            let x = dot(v, u);
            if x > best.1 {
                best = (c as u32, x);
            }
        }
        best.0
    };
    let mut assign = vec![0u32; ids.len()];
    for _ in 0..KMEANS_ROUNDS {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            assign = units.par_iter().map(|u| nearest(&centroids, u)).collect();
        }
        #[cfg(not(feature = "parallel"))]
        {
            assign = units.iter().map(|u| nearest(&centroids, u)).collect();
        }
        let mut sums = vec![vec![0f32; dim]; k];
        for (u, &c) in units.iter().zip(&assign) {
            for (s, x) in sums[c as usize].iter_mut().zip(u) {
                *s += x;
            }
        }
        for (c, s) in sums.into_iter().enumerate() {
            let norm = dot(&s, &s).sqrt();
            if norm > 0.0 {
                centroids[c] = s.iter().map(|x| x / norm).collect();
            }
        }
    }
    for (&j, &c) in ids.iter().zip(&assign) {
        clusters[j] = c;
    }
    (
        centroids.iter().flat_map(|v| sign_bits(v)).collect(),
        clusters,
    )
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
        let stop = crate::bm25::stopwords(hipporag_wasm::analysis::Language::English);
        let d = build(&ps, &enc, &stop, 2, &()).unwrap();
        // "sort" and "sorted" are each in one passage only (a title counts with its text);
        // "a", "the" and "with" are stopwords.
        assert_eq!(d.words, ["file", "list", "open"]);
        assert_eq!(d.df, [2, 2, 2]);
        assert_eq!(build(&ps, &enc, &stop, 3, &()).unwrap(), d);
        assert_eq!((d.centroids.len(), d.nprobe), (d.dim as usize / 8, 1));
        let s = StaticEmbeddings::from_data(d, ps.len()).unwrap();
        let scores = s.scores("how do I open a file").unwrap();
        let best = (0..4)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap();
        assert!(best == 2 || best == 3, "{scores:?}");
    }
}
