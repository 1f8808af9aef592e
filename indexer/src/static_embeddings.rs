//! Builds the static word embeddings of a corpus
//! ([`hipporag_wasm::embeddings::StaticEmbeddingsData`]; the module docs there say what
//! they are and why).
//!
//! ```text
//!  passages ──► words (title + "\n" + text) ──► vocabulary (df ≥ MIN_DF, no stopword, sorted)
//!           ──► each word encoded alone ──► sign bits ──► passage vectors (count × IDF)
//!           ──► passage codes (sign bits) ──► IVF clusters ([`crate::ivf`])
//! ```
//!
//! Deterministic: the same passages and encoder give the same bytes.

use std::collections::{BTreeMap, HashSet};

use hipporag_wasm::embeddings::Encoder;
use hipporag_wasm::embeddings::{
    MIN_DF, StaticEmbeddingsData, idf, sign_bits, static_words, text_vector,
};
use hipporag_wasm::index::Passage;

use crate::graph::encode_all;
use crate::progress::Progress;
use crate::{Error, Result};
use crate::{ivf, parallel};

/// Passages per IVF cluster the indexer aims at, up to [`max_clusters`]: `C = clamp(|P| / 32,
/// 1, max_clusters(|P|))`.
pub const PASSAGES_PER_CLUSTER: usize = 32;
/// The IVF clusters of every corpus of up to 16,384 coded passages (fewer when it has fewer
/// than `256 × PASSAGES_PER_CLUSTER` passages), and the fewest of a larger one.
pub const BASE_CLUSTERS: usize = 256;
/// IVF clusters a corpus of `n` coded passages may have: `max(256, ⌊2√n⌋)`, which grows
/// past 256 from 16,384 passages on.
///
/// A first search in the index in pieces fetches every centroid (the meta piece,
/// `C × dim / 8` bytes) and [`nprobe`] clusters of about `n / C` passage codes each
/// (`dim / 8 + 1` bytes a passage with its id). With a fixed 256 clusters both grew linearly
/// with the site; `2√n` clusters make the centroids grow as `√n`, and [`nprobe`] keeps the
/// probed codes at about `16 · n / 256` passages of the largest 256-cluster corpus. It leaves
/// every site under 16,384 passages (Python's docs among them, where `4√n` ranked lower on
/// the CoNaLa `dev` split) at 256 clusters. docs/benchmarks.md, "Site size", has the bytes on
/// Debian's rust-doc.
pub fn max_clusters(n: usize) -> usize {
    BASE_CLUSTERS.max((2.0 * (n as f64).sqrt()) as usize)
}
/// Clusters a query scores in an index of [`BASE_CLUSTERS`] clusters: 16 (on Python's docs,
/// chosen on the CoNaLa `dev` split: docs/index-format.md, "Static passage codes", has the
/// sweep).
pub const NPROBE: usize = 16;

/// Clusters a query scores in an index of `c` clusters: [`NPROBE`] (all `c` when fewer) up to
/// [`BASE_CLUSTERS`], then `⌈NPROBE · 256 / c⌉`. Past 256 clusters of `n / c` passages each
/// that scores about `NPROBE · 256 · n / c²` = 1,024 passage codes whatever the site's size
/// (`c = 2√n`, [`max_clusters`]), so a query's cluster pieces do not grow with the site
/// (docs/index-format.md, "Probes that do not grow with the site", has the bytes and the
/// ranking on Debian's rust-doc).
pub fn nprobe(c: usize) -> usize {
    if c <= BASE_CLUSTERS {
        NPROBE.min(c)
    } else {
        (NPROBE * BASE_CLUSTERS).div_ceil(c).max(1)
    }
}

/// Words per encoder call of the site's build ([`build`]'s `batch`). A sentence encoder pads
/// each of its forward passes to the longest text in it; MiniLM sorts a call's texts by token
/// count before it cuts them into passes, so calls of alphabetically sorted words that are
/// large enough hold passes of nearly equal lengths. Large enough for that, small enough for
/// the progress line to move every few seconds (docs/benchmarks.md, "MiniLM over the words
/// in larger calls", has the times).
pub const WORDS_PER_CALL: usize = 4096;

/// Words a build encodes at most ([`build`]'s `max_words`): the words held by [`MIN_DF`]
/// passages or more, the most frequent first. Every real site measured holds fewer (Debian's
/// rust-doc, the largest, under 41,000; Python's docs 20,427), so their indexes are unchanged; a page
/// of generated text (a data dump, a log rendered to HTML) holds hundreds of thousands of ids
/// seen twice, each of which the encoder would run over alone: `bench/generated_site.py`'s 3
/// million words give 299,083 such words, and its build ran past 20 minutes; bounded, it takes
/// 450 s on 2 cores, 422 of them MiniLM's (docs/benchmarks.md, "A page of generated text").
/// Past the bound the
/// encoder's time does not grow with the words a site holds; the words left out are the
/// rarest, which keep their BM25 terms and get no vector, as a stopword.
pub const MAX_WORDS: usize = 100_000;

/// Encodes the vocabulary of `passages` with `encoder` (in calls of `batch` words) and returns the
/// static word embeddings: word sign rows, passage codes and their IVF clusters, and how many
/// words held by [`MIN_DF`] passages or more were left out past `max_words` ([`MAX_WORDS`]:
/// the most frequent are kept, ties by word order). Words in `stopwords` (lowercase;
/// [`crate::bm25::stopwords`]) get no vector: leaving them out ranked Python's docs better on
/// both CoNaLa splits (docs/tuning.md, "Measurements behind the code"), and a query's
/// stopwords then fetch no piece of a site's index in pieces.
///
/// # Errors
/// The encoder's; [`Error::InvalidRequest`] when its dimension is not a multiple of 8.
pub fn build(
    passages: &[Passage],
    encoder: &dyn Encoder,
    stopwords: &HashSet<String>,
    (batch, max_words): (usize, usize),
    progress: &dyn Progress,
) -> Result<(StaticEmbeddingsData, usize)> {
    let info = encoder.info();
    let dim = info.dim as usize;
    if dim == 0 || dim % 8 != 0 {
        return Err(Error::InvalidRequest(format!(
            "static embeddings need a dimension that is a multiple of 8; {} has {dim}",
            info.id
        )));
    }
    // Per passage: word → count; over the corpus: word → passages holding it.
    progress.start("word counts", passages.len() as u64);
    let counts: Vec<BTreeMap<String, u32>> = parallel::map(passages, |p| {
        let mut c = BTreeMap::new();
        for w in static_words(&p.indexed_text()) {
            *c.entry(w).or_insert(0) += 1;
        }
        c
    });
    let mut df: BTreeMap<&str, u32> = BTreeMap::new();
    for c in &counts {
        for w in c.keys() {
            *df.entry(w).or_insert(0) += 1;
        }
    }
    df.retain(|w, n| *n >= MIN_DF && !stopwords.contains(*w));
    let (words, df, left_out) = most_frequent(df, max_words);
    // Each passage's vocabulary words as (row, count), in word order (the order the passage
    // codes sum them in): the per-passage maps of every word are freed before the encoder
    // runs, where a large site's build peaks (docs/benchmarks.md, "The peak of a large build").
    let rows: Vec<Vec<(u32, u32)>> = parallel::map(&counts, |c| {
        c.iter()
            .filter_map(|(w, &n)| {
                let r = words.binary_search_by(|v| v.as_str().cmp(w)).ok()?;
                Some((r as u32, n))
            })
            .collect()
    });
    drop(counts);
    progress.advance(passages.len() as u64);
    progress.finish();
    let vocab: Vec<&str> = words.iter().map(String::as_str).collect();
    let vectors = encode_all(encoder, &vocab, "encoding words", batch, progress)?;
    drop(vocab);
    let signs: Vec<u8> = vectors.chunks_exact(dim).flat_map(sign_bits).collect();
    drop(vectors);
    let bytes = dim / 8;
    let weights: Vec<f32> = df.iter().map(|&f| idf(f, passages.len())).collect();
    progress.start("passage codes", passages.len() as u64);
    let passage_codes: Vec<Option<Vec<u8>>> = parallel::map(&rows, |r| {
        let rows = r.iter().map(|&(r, n)| {
            let r = r as usize;
            (&signs[r * bytes..(r + 1) * bytes], n as f32 * weights[r])
        });
        text_vector(dim, rows).map(|v| sign_bits(&v))
    });
    drop(rows);
    let mut codes = Vec::with_capacity(passages.len() * bytes);
    let mut coded = Vec::with_capacity(passages.len());
    for code in &passage_codes {
        match code {
            Some(code) => codes.extend_from_slice(code),
            None => codes.extend(std::iter::repeat_n(0, bytes)),
        }
        coded.push(code.is_some());
    }
    drop(passage_codes);
    progress.advance(passages.len() as u64);
    progress.finish();
    let n_coded = coded.iter().filter(|&&c| c).count();
    let k = (n_coded / PASSAGES_PER_CLUSTER).clamp(1, max_clusters(n_coded));
    progress.start("IVF clusters", ivf::KMEANS_ROUNDS as u64 + 1);
    let (centroids, clusters) = ivf::kmeans(&codes, &coded, dim, k, progress);
    progress.finish();
    let data = StaticEmbeddingsData {
        model: info.id,
        dim: dim as u32,
        words,
        df,
        signs,
        codes,
        centroids,
        clusters,
        nprobe: nprobe(k) as u32,
    };
    Ok((data, left_out))
}

/// The `max` most frequent words of `df` (word → passages holding it), ties by word order,
/// back in word order: the words, their counts, and how many were left out.
fn most_frequent(df: BTreeMap<&str, u32>, max: usize) -> (Vec<String>, Vec<u32>, usize) {
    let mut all: Vec<(&str, u32)> = df.into_iter().collect();
    let left_out = all.len().saturating_sub(max);
    if left_out > 0 {
        // Stable: equal counts keep word order.
        let mut by_df: Vec<usize> = (0..all.len()).collect();
        by_df.sort_by_key(|&i| std::cmp::Reverse(all[i].1));
        let mut keep = by_df[..max].to_vec();
        keep.sort_unstable();
        all = keep.into_iter().map(|i| all[i]).collect();
    }
    let words = all.iter().map(|&(w, _)| w.to_string()).collect();
    (words, all.into_iter().map(|(_, n)| n).collect(), left_out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hipporag_wasm::embeddings::HashedNgramEncoder;
    use hipporag_wasm::embeddings::StaticEmbeddings;

    #[test]
    fn vocabulary_is_words_of_two_passages_and_queries_find_their_passage() {
        let ps = [
            Passage::new("Sorting", "Sort a list in place with list.sort()."),
            Passage::new("Sorted", "sorted() returns a new sorted list."),
            Passage::new("Files", "Open a file with open(); read the file."),
            Passage::new("Paths", "Join paths with os.path.join; open the file."),
        ];
        let enc = HashedNgramEncoder::default();
        let stop = crate::bm25::stopwords(hipporag_wasm::text::Language::English);
        let (d, left_out) = build(&ps, &enc, &stop, (2, MAX_WORDS), &()).unwrap();
        // "sort" and "sorted" are each in one passage only (a title counts with its text);
        // "a", "the" and "with" are stopwords.
        assert_eq!(d.words, ["file", "list", "open"]);
        assert_eq!(d.df, [2, 2, 2]);
        assert_eq!(left_out, 0);
        assert_eq!(
            build(&ps, &enc, &stop, (3, MAX_WORDS), &()).unwrap(),
            (d.clone(), 0)
        );
        assert_eq!((d.centroids.len(), d.nprobe), (d.dim as usize / 8, 1));
        let s = StaticEmbeddings::from_data(d, ps.len()).unwrap();
        let q = s.embed("how do I open a file", &[]).unwrap();
        let scores = s.scores(&hipporag_wasm::embeddings::CodeScorer::new(&q));
        let best = (0..4)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap();
        assert!(best == 2 || best == 3, "{scores:?}");
    }

    #[test]
    fn past_the_bound_the_most_frequent_words_are_kept_in_word_order() {
        let ps = [
            Passage::new("", "zebra yak xylophone walrus"),
            Passage::new("", "zebra yak xylophone walrus"),
            Passage::new("", "zebra yak"),
            Passage::new("", "zebra walrus"),
        ];
        let enc = HashedNgramEncoder::default();
        let stop = HashSet::new();
        let (all, left_out) = build(&ps, &enc, &stop, (16, MAX_WORDS), &()).unwrap();
        assert_eq!((all.words.len(), left_out), (4, 0));
        // zebra 4, walrus 3, yak 3, xylophone 2: the bound of 3 leaves xylophone out; walrus
        // and yak tie and both stay; back in word order.
        let (d, left_out) = build(&ps, &enc, &stop, (16, 3), &()).unwrap();
        assert_eq!(d.words, ["walrus", "yak", "zebra"]);
        assert_eq!((d.df.clone(), left_out), (vec![3, 3, 4], 1));
        // A kept word's sign bits are the ones the unbounded build gives it.
        let row = |d: &StaticEmbeddingsData, w: &str| {
            let (r, b) = (
                d.words.iter().position(|x| x == w).unwrap(),
                d.dim as usize / 8,
            );
            d.signs[r * b..(r + 1) * b].to_vec()
        };
        assert_eq!(row(&d, "yak"), row(&all, "yak"));
        // Ties at the bound go by word order: of walrus and yak (3 each), walrus stays.
        let (d, _) = build(&ps, &enc, &stop, (16, 2), &()).unwrap();
        assert_eq!(d.words, ["walrus", "zebra"]);
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
        let stop = crate::bm25::stopwords(hipporag_wasm::text::Language::English);
        let (d, _) = build(&ps, &enc, &stop, (8, MAX_WORDS), &()).unwrap();
        let c = d.centroids.len() / (d.dim as usize / 8);
        let mut sizes = vec![0usize; c];
        for &k in &d.clusters {
            sizes[k as usize] += 1;
        }
        let cap = ps.len().div_ceil(c) * crate::ivf::CLUSTER_CAPACITY_PERCENT / 100;
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

    #[test]
    fn a_query_probes_about_1024_codes_past_256_clusters() {
        // musique_train as a site, Python's docs, rust-doc.
        assert_eq!((nprobe(59), nprobe(256), nprobe(901)), (16, 16, 5));
        assert_eq!((nprobe(4), nprobe(362), nprobe(5_000)), (4, 12, 1));
        for n in [32_821usize, 203_321, 1_000_000] {
            let c = max_clusters(n);
            let codes = nprobe(c) * n / c;
            assert!(
                (1_024..1_600).contains(&codes),
                "{n} passages: {codes} codes"
            );
        }
    }
}
