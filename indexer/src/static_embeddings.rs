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

/// Passages per IVF cluster the indexer aims at, up to [`max_clusters`]: `C = clamp(|P| / 32,
/// 1, max_clusters(|P|))`.
pub const PASSAGES_PER_CLUSTER: usize = 32;
/// IVF clusters a corpus of `n` coded passages may have: `max(256, ⌊2√n⌋)`, which grows
/// past 256 from 16,384 passages on.
///
/// A first search in the index in pieces fetches every centroid (the meta piece,
/// `C × dim / 8` bytes) and [`NPROBE`] clusters of about `n / C` passage codes each
/// (`dim / 8 + 1` bytes a passage with its id), so its IVF bytes `≈ (dim / 8)·(C + NPROBE·n / C)`
/// are least at `C = √(NPROBE·n) = 4√n`; a fixed 256 made them grow linearly with the site.
/// Half the optimum, `2√n`, costs 25% more bytes than it and leaves every site under 16,384
/// passages (Python's docs among them, where `4√n` ranked lower on the CoNaLa `dev` split) at
/// 256 clusters. docs/benchmarks.md, "Site size", has the bytes on Debian's rust-doc.
pub fn max_clusters(n: usize) -> usize {
    256usize.max((2.0 * (n as f64).sqrt()) as usize)
}
/// Clusters a query scores: 16 (of 256 on Python's docs, chosen on the CoNaLa `dev` split:
/// docs/index-format.md, "Static passage codes", has the sweep), all of them for a corpus of fewer than
/// `16 × 32` passages.
pub const NPROBE: usize = 16;
/// Lloyd rounds of the spherical k-means.
pub const KMEANS_ROUNDS: usize = 15;
/// The most passages an IVF cluster holds, in percent of the mean `⌈n / C⌉`: 150. Unbounded,
/// k-means left some clusters several times the mean, and a query's probes picked the large
/// ones most; bounded, a probe costs at most 1.5× the mean. Chosen on the CoNaLa `dev` split
/// (docs/index-format.md, "Bounded clusters").
pub const CLUSTER_CAPACITY_PERCENT: usize = 150;
/// Nearest centroids per passage the capacity-bounded assignment considers first.
pub const ASSIGNMENT_CANDIDATES: usize = 16;

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
    let k = (n_coded / PASSAGES_PER_CLUSTER).clamp(1, max_clusters(n_coded));
    progress.start("IVF clusters", KMEANS_ROUNDS as u64 + 1);
    let (centroids, clusters) = kmeans(&codes, &coded, dim, k, progress);
    progress.finish();
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
/// Reports a unit per round and one for the final assignment. Returns the centroids as sign
/// bits and each passage's cluster ([`NO_CLUSTER`] where
/// `coded` is false). In the Lloyd rounds a passage goes to the centroid with the highest
/// cosine, ties to the lower id, and an emptied cluster keeps its centroid; the final
/// assignment bounds every cluster at [`CLUSTER_CAPACITY_PERCENT`] of the mean
/// ([`bounded_assignment`]), and the centroids returned are its clusters' means.
/// Deterministic: no randomness, and the same arithmetic with or without threads.
fn kmeans(
    codes: &[u8],
    coded: &[bool],
    dim: usize,
    k: usize,
    progress: &dyn Progress,
) -> (Vec<u8>, Vec<u32>) {
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
        centroids = cluster_means(&units, &assign, centroids, dim);
        progress.advance(1);
    }
    // Capacity-bounded final assignment, then the centroids of the clusters as assigned.
    let cap = ids.len().div_ceil(k) * CLUSTER_CAPACITY_PERCENT / 100;
    assign = bounded_assignment(&units, &centroids, cap.max(1));
    centroids = cluster_means(&units, &assign, centroids, dim);
    progress.advance(1);
    for (&j, &c) in ids.iter().zip(&assign) {
        clusters[j] = c;
    }
    (
        centroids.iter().flat_map(|v| sign_bits(v)).collect(),
        clusters,
    )
}

/// The dot product of two vectors of one length, summed in 8 lanes (element `d` into lane
/// `d % 8`, the lanes then added in order; a tail shorter than 8 after them), so that the
/// compiler can keep the lanes in SIMD registers: a sum in one chain, as `Iterator::sum`
/// adds, waits on each addition. The k-means computes `passages × clusters` of these every
/// round. Deterministic: the same order on every target, with or without threads.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Each cluster's normalised mean of its members' unit vectors; an empty cluster keeps its
/// centroid.
fn cluster_means(
    units: &[Vec<f32>],
    assign: &[u32],
    mut centroids: Vec<Vec<f32>>,
    dim: usize,
) -> Vec<Vec<f32>> {
    let mut sums = vec![vec![0f32; dim]; centroids.len()];
    for (u, &c) in units.iter().zip(assign) {
        for (s, x) in sums[c as usize].iter_mut().zip(u) {
            *s += x;
        }
    }
    for (c, s) in sums.into_iter().enumerate() {
        let norm = s.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            centroids[c] = s.iter().map(|x| x / norm).collect();
        }
    }
    centroids
}

/// Each unit vector's cluster such that no cluster holds more than `cap` (`cap × centroids`
/// must be at least `units`): the pairs of a vector and one of its [`ASSIGNMENT_CANDIDATES`]
/// nearest centroids, by descending cosine (ties: lower vector, then lower centroid), each
/// vector to the first with room; a vector whose candidates all filled up goes to its
/// nearest centroid with room. Greedy capacity-constrained assignment, as balanced k-means
/// approximates it (Malinen & Fränti, S+SSPR 2014, solve it exactly as a transport problem).
fn bounded_assignment(units: &[Vec<f32>], centroids: &[Vec<f32>], cap: usize) -> Vec<u32> {
    let ranked = |u: &[f32]| -> Vec<(f32, u32)> {
        let mut r: Vec<(f32, u32)> = centroids
            .iter()
            .enumerate()
            .map(|(c, v)| (dot(u, v), c as u32))
            .collect();
        r.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        r
    };
    // The nearest few, as the first of `ranked` (the order is total), without sorting the rest.
    let near = |u: &Vec<f32>| -> Vec<(f32, u32)> {
        let by = |a: &(f32, u32), b: &(f32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        let mut r: Vec<(f32, u32)> = centroids
            .iter()
            .enumerate()
            .map(|(c, v)| (dot(u, v), c as u32))
            .collect();
        if r.len() > ASSIGNMENT_CANDIDATES {
            r.select_nth_unstable_by(ASSIGNMENT_CANDIDATES, by);
            r.truncate(ASSIGNMENT_CANDIDATES);
        }
        r.sort_unstable_by(by);
        r
    };
    #[cfg(feature = "parallel")]
    let candidates: Vec<Vec<(f32, u32)>> = {
        use rayon::prelude::*;
        units.par_iter().map(near).collect()
    };
    #[cfg(not(feature = "parallel"))]
    let candidates: Vec<Vec<(f32, u32)>> = units.iter().map(near).collect();
    let mut pairs: Vec<(f32, u32, u32)> = candidates
        .iter()
        .enumerate()
        .flat_map(|(j, r)| r.iter().map(move |&(x, c)| (x, j as u32, c)))
        .collect();
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut assign = vec![u32::MAX; units.len()];
    let mut size = vec![0usize; centroids.len()];
    for (_, j, c) in pairs {
        if assign[j as usize] == u32::MAX && size[c as usize] < cap {
            assign[j as usize] = c;
            size[c as usize] += 1;
        }
    }
    for (j, u) in units.iter().enumerate() {
        if assign[j] == u32::MAX {
            let c = ranked(u)
                .into_iter()
                .map(|(_, c)| c)
                .find(|&c| size[c as usize] < cap)
                .expect("cap × clusters ≥ passages");
            assign[j] = c;
            size[c as usize] += 1;
        }
    }
    assign
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

    #[test]
    fn dot_in_lanes_is_the_dot_product() {
        for n in [0, 5, 8, 13, 384] {
            let a: Vec<f32> = (0..n).map(|d| ((d * 7 % 11) as f32 - 5.0) / 3.0).collect();
            let b: Vec<f32> = (0..n).map(|d| ((d * 5 % 13) as f32 - 6.0) / 4.0).collect();
            let exact: f64 = a
                .iter()
                .zip(&b)
                .map(|(x, y)| f64::from(*x) * f64::from(*y))
                .sum();
            assert!((f64::from(dot(&a, &b)) - exact).abs() < 1e-4, "{n}");
        }
    }

    #[test]
    fn bounded_assignment_fills_the_nearest_clusters_up_to_the_cap() {
        // Five vectors nearest centroid 0 (cosines 0.99 … 0.95 with it), one nearest 1.
        let unit = |x: f32| vec![x, (1.0 - x * x).sqrt()];
        let units: Vec<Vec<f32>> = [0.99, 0.98, 0.97, 0.96, 0.95, 0.1]
            .into_iter()
            .map(unit)
            .collect();
        let centroids = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![-1.0, 0.0]];
        // Unbounded: all but the last in cluster 0.
        assert_eq!(
            bounded_assignment(&units, &centroids, 6),
            [0, 0, 0, 0, 0, 1]
        );
        // At most 2 a cluster, pairs by descending cosine: the last (0.995 with 1) and the
        // two nearest 0 go first; of the rest, the one nearest 1 (0.95 with 0, 0.31 with 1)
        // fills it, and the two left over go to the only cluster with room (2).
        assert_eq!(
            bounded_assignment(&units, &centroids, 2),
            [0, 0, 2, 2, 1, 1]
        );
    }

    #[test]
    fn no_cluster_of_a_skewed_corpus_passes_the_capacity() {
        // 40 passages about files and 8 about lists: unbounded, the files' cluster would hold
        // far more than the mean of ⌈48 / 2⌉ = 24.
        let mut ps: Vec<Passage> = (0..40)
            .map(|i| {
                Passage::new(
                    format!("Files {i}"),
                    format!("Open the file {i}, read the file, close the file."),
                )
            })
            .collect();
        ps.extend((0..8).map(|i| {
            Passage::new(
                format!("Lists {i}"),
                format!("Sort the list {i} in place; lists sort."),
            )
        }));
        let enc = HashedNgramEncoder::default();
        let stop = crate::bm25::stopwords(hipporag_wasm::analysis::Language::English);
        let d = build(&ps, &enc, &stop, 8, &()).unwrap();
        let c = d.centroids.len() / (d.dim as usize / 8);
        let mut sizes = vec![0usize; c];
        for &k in &d.clusters {
            sizes[k as usize] += 1;
        }
        let cap = ps.len().div_ceil(c) * CLUSTER_CAPACITY_PERCENT / 100;
        assert!(sizes.iter().all(|&n| n <= cap), "{sizes:?}, cap {cap}");
        assert_eq!(sizes.iter().sum::<usize>(), ps.len());
    }

    #[test]
    fn clusters_stay_at_256_up_to_16384_passages_then_grow_as_2_sqrt_n() {
        // Python's docs and musique_train keep their clusters; rust-doc gets 901.
        assert_eq!(max_clusters(8_767), 256);
        assert_eq!(max_clusters(16_384), 256);
        assert_eq!(max_clusters(32_821), 362);
        assert_eq!(max_clusters(203_321), 901);
        let k = |n: usize| (n / PASSAGES_PER_CLUSTER).clamp(1, max_clusters(n));
        assert_eq!((k(1_890), k(8_767), k(203_321)), (59, 256, 901));
    }
}
