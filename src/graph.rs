//! Graph construction (HippoRAG §3.1, "offline indexing").
//!
//! From the OpenIE output of every passage:
//! 1. **Phrase nodes**: the subjects and objects of the triples, normalised with
//!    [`normalize_phrase`]; node ids follow the sorted order of the normalised strings, so the
//!    same input always yields the same ids.
//! 2. **Triple edges**: one undirected edge per pair of distinct phrases that share at least one
//!    triple, weighted by the number of such triples in the whole corpus (a triple whose subject
//!    and object normalise to the same phrase gives no edge, and is counted in the report).
//! 3. **Synonymy edges**: every phrase is encoded; a phrase links to at most `synonymy_k` other
//!    phrases whose cosine is ≥ τ (`synonymy_threshold`, 0.8 in the paper), weight = cosine.
//!    As in the reference, a phrase with at most 2 letters or digits seeks no synonyms (it can
//!    still be chosen by a longer phrase). A pair already joined by a triple edge keeps its
//!    triple edge (the reference overwrites the count with the cosine; we keep the stronger
//!    evidence that an extracted relation is).
//!    Note: HippoRAG's igraph graph holds each triple edge twice (h→t and t→h in an undirected
//!    graph), doubling triple weights relative to synonymy weights; we store one undirected
//!    edge weighted by the count, as the paper describes. The neighbour search is exact:
//!    blocked matrix products (`matrixmultiply::sgemm`) over row blocks in parallel (rayon).
//! 4. **Passage-node matrix** `P` (`|N| × |P|`): entry `(i, j)` counts the distinct triples of
//!    passage `j` that have phrase `i` as subject or object; it is stored transposed (`Pᵀ`, CSR by
//!    passage). With it `Pᵀ·ppr` equals the reference's passage score, the sum over a passage's
//!    unique triples of `ppr[subject] + ppr[object]` (before its min-max scaling, which does not
//!    change the ranking). Node specificity counts the passages with a non-zero entry.
//! 5. **Facts** (distinct `(subject, relation, object)`), passage embeddings of
//!    `title + "\n" + text`, and — for HippoRAG 2 mode — fact embeddings of `"subject relation object"`.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use sprs::TriMatI;

use crate::Result;
use crate::encoder::Encoder;
use crate::index::{BuildInfo, Counts, Csr, Fact, Header, IndexData, Passage, SparseMatrix};
use crate::normalize::normalize_phrase;
use crate::openie::OpenIeDoc;
use crate::vectors::{Quantization, Vectors};

/// Options of [`build_index`].
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Synonymy threshold τ (cosine); paper default 0.8.
    pub synonymy_threshold: f32,
    /// Most synonymy neighbours per phrase; default 100.
    pub synonymy_k: usize,
    /// Storage of every embedding matrix.
    pub quantization: Quantization,
    /// Also encode and store fact embeddings (needed by HippoRAG 2 mode); default off.
    pub fact_vectors: bool,
    /// Texts per encoder call.
    pub batch_size: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            synonymy_threshold: 0.8,
            synonymy_k: 100,
            quantization: Quantization::Int8,
            fact_vectors: false,
            batch_size: 256,
        }
    }
}

/// Progress callbacks for long stages (the CLI draws them with indicatif).
pub trait Progress: Sync {
    /// A stage with `total` units starts.
    fn start(&self, _stage: &str, _total: u64) {}
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// The current stage is finished.
    fn finish(&self) {}
}

/// No progress output.
impl Progress for () {}

/// What the build did, for the CLI summary.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// Triples whose subject and object normalise to the same phrase (no edge).
    pub self_loop_triples: usize,
    /// Passages with no phrase node.
    pub passages_without_phrases: usize,
    /// Counts as written to the header.
    pub counts: Counts,
    /// Each encoding stage: (stage, texts encoded, wall-clock seconds) — phrases, passages and,
    /// when built, facts. The CLI prints texts/s from these.
    pub encoding: Vec<(&'static str, usize, f64)>,
}

/// Builds the whole index payload from passages and their aligned OpenIE output.
///
/// `docs[j]` must be the extraction for `passages[j]` (see [`crate::openie::import_openie`]).
///
/// # Errors
/// [`crate::Error::InvalidRequest`] if `docs` and `passages` differ in length or the options are
/// out of range; [`crate::Error::Encoder`] from the encoder.
pub fn build_index(
    passages: Vec<Passage>,
    docs: &[OpenIeDoc],
    encoder: &dyn Encoder,
    opts: &BuildOptions,
    progress: &dyn Progress,
) -> Result<(IndexData, BuildReport)> {
    if docs.len() != passages.len() {
        return Err(crate::Error::InvalidRequest(format!(
            "{} OpenIE docs for {} passages",
            docs.len(),
            passages.len()
        )));
    }
    if !(opts.synonymy_threshold.is_finite() && (-1.0..=1.0).contains(&opts.synonymy_threshold)) {
        return Err(crate::Error::InvalidRequest(format!(
            "synonymy threshold {} is not a cosine in [-1, 1]",
            opts.synonymy_threshold
        )));
    }
    let mut report = BuildReport::default();
    let info = encoder.info();
    let dim = info.dim as usize;

    // 1. Phrase nodes, sorted.
    let normalized: Vec<Vec<(String, String, String)>> = docs
        .iter()
        .map(|d| {
            d.extracted_triples
                .iter()
                .map(|[s, r, o]| {
                    (
                        normalize_phrase(s),
                        r.trim().to_string(),
                        normalize_phrase(o),
                    )
                })
                .filter(|(s, _, o)| !s.is_empty() && !o.is_empty())
                .collect()
        })
        .collect();
    let phrase_set: BTreeSet<&str> = normalized
        .iter()
        .flatten()
        .flat_map(|(s, _, o)| [s.as_str(), o.as_str()])
        .collect();
    let phrases: Vec<String> = phrase_set.iter().map(|s| s.to_string()).collect();
    let id = |p: &str| {
        phrases
            .binary_search_by(|x| x.as_str().cmp(p))
            .expect("phrase is in the table") as u32
    };
    let n = phrases.len();

    // 2. Triple edges, facts and P.
    let mut triple_pairs: BTreeMap<(u32, u32), f32> = BTreeMap::new();
    let mut facts: BTreeSet<Fact> = BTreeSet::new();
    let mut p_t = TriMatI::<f32, u32>::new((passages.len(), n));
    for (j, triples) in normalized.iter().enumerate() {
        let mut counts: BTreeMap<u32, f32> = BTreeMap::new();
        let distinct: BTreeSet<&(String, String, String)> = triples.iter().collect();
        for (s, r, o) in distinct {
            let (a, b) = (id(s), id(o));
            *counts.entry(a).or_default() += 1.0;
            *counts.entry(b).or_default() += 1.0;
            facts.insert(Fact {
                subject: a,
                relation: r.clone(),
                object: b,
            });
            if a == b {
                report.self_loop_triples += 1;
                continue;
            }
            *triple_pairs.entry((a.min(b), a.max(b))).or_default() += 1.0;
        }
        if counts.is_empty() {
            report.passages_without_phrases += 1;
        }
        for (i, c) in counts {
            p_t.add_triplet(j, i as usize, c);
        }
    }
    let passage_phrases: SparseMatrix = p_t.to_csr();

    // 3. Embeddings and synonymy edges.
    let phrase_refs: Vec<&str> = phrases.iter().map(String::as_str).collect();
    let t = std::time::Instant::now();
    let phrase_emb = encode_all(
        encoder,
        &phrase_refs,
        "encoding phrases",
        opts.batch_size,
        progress,
    )?;
    report
        .encoding
        .push(("phrases", phrase_refs.len(), t.elapsed().as_secs_f64()));
    progress.start("synonymy edges", n as u64);
    // As in the reference, phrases with at most 2 letters or digits seek no synonyms.
    let seeks: Vec<bool> = phrases
        .iter()
        .map(|p| p.chars().filter(|c| c.is_alphanumeric()).count() > 2)
        .collect();
    let synonyms = synonymy_pairs(
        &phrase_emb,
        &seeks,
        dim,
        opts.synonymy_threshold,
        opts.synonymy_k,
        progress,
    );
    progress.finish();
    let mut edges: BTreeMap<(u32, u32), f32> = triple_pairs.clone();
    let mut synonymy_edges = 0u32;
    for ((a, b), w) in synonyms {
        if let std::collections::btree_map::Entry::Vacant(e) = edges.entry((a, b)) {
            e.insert(w);
            synonymy_edges += 1;
        }
    }
    let mut g = TriMatI::<f32, u32>::with_capacity((n, n), edges.len() * 2);
    for (&(a, b), &w) in &edges {
        g.add_triplet(a as usize, b as usize, w);
        g.add_triplet(b as usize, a as usize, w);
    }
    let graph: SparseMatrix = g.to_csr();

    let passage_texts: Vec<String> = passages.iter().map(Passage::indexed_text).collect();
    let passage_refs: Vec<&str> = passage_texts.iter().map(String::as_str).collect();
    let t = std::time::Instant::now();
    let passage_emb = encode_all(
        encoder,
        &passage_refs,
        "encoding passages",
        opts.batch_size,
        progress,
    )?;
    report
        .encoding
        .push(("passages", passage_refs.len(), t.elapsed().as_secs_f64()));
    let facts: Vec<Fact> = facts.into_iter().collect();
    let fact_vectors = if opts.fact_vectors {
        let texts: Vec<String> = facts
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}",
                    phrases[f.subject as usize], f.relation, phrases[f.object as usize]
                )
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let t = std::time::Instant::now();
        let emb = encode_all(encoder, &refs, "encoding facts", opts.batch_size, progress)?;
        report
            .encoding
            .push(("facts", refs.len(), t.elapsed().as_secs_f64()));
        Some(Vectors::from_f32(dim, &emb, opts.quantization))
    } else {
        None
    };

    let counts = Counts {
        phrases: n as u32,
        passages: passages.len() as u32,
        edges: edges.len() as u32,
        triple_edges: triple_pairs.len() as u32,
        synonymy_edges,
        facts: facts.len() as u32,
    };
    report.counts = counts.clone();
    let data = IndexData {
        header: Header {
            encoder: info,
            counts,
            build: BuildInfo {
                synonymy_threshold: opts.synonymy_threshold,
                synonymy_k: opts.synonymy_k as u32,
                quantization: opts.quantization,
                generator: format!("hipporag-wasm {}", env!("CARGO_PKG_VERSION")),
            },
        },
        phrase_vectors: Vectors::from_f32(dim, &phrase_emb, opts.quantization),
        phrases,
        graph: Csr::from_sprs(&graph),
        passage_phrases: Csr::from_sprs(&passage_phrases),
        passages,
        passage_vectors: Vectors::from_f32(dim, &passage_emb, opts.quantization),
        facts,
        fact_vectors,
    };
    Ok((data, report))
}

/// Encodes `texts` in batches, reporting progress; returns `texts.len() × dim` f32.
pub fn encode_all(
    encoder: &dyn Encoder,
    texts: &[&str],
    stage: &str,
    batch: usize,
    progress: &dyn Progress,
) -> Result<Vec<f32>> {
    progress.start(stage, texts.len() as u64);
    let mut out = Vec::with_capacity(texts.len() * encoder.info().dim as usize);
    for chunk in texts.chunks(batch.max(1)) {
        out.extend(encoder.encode(chunk)?);
        progress.advance(chunk.len() as u64);
    }
    progress.finish();
    Ok(out)
}

/// Exact synonymy neighbours: for every row `i` of the row-major `emb` (`n × dim`), the at most
/// `k` rows `j ≠ i` with cosine ≥ `tau`, highest first (lower `j` on ties). Returns the union of
/// those directed pairs as undirected pairs `(min, max) → cosine`, sorted.
///
/// Cosines come from blocked `sgemm` products of L2-normalised copies of the rows. Cosine is
/// symmetric, so only the upper triangle is computed: row block `[r0, r1)` is multiplied by rows
/// `[r0, n)` (about `n² · dim` multiply-adds in all, half of a full product), and every pair
/// above `tau` is offered to both of its rows before each row keeps its top `k`. Row blocks run
/// in parallel; the result does not depend on the thread count. Rows whose `seeks_synonyms`
/// flag is false get no neighbours of their own (they can still be another row's neighbour).
/// Memory: the normalised copy (`n × dim` f32) plus one `256 × n` f32 block per thread, plus
/// the pairs above `tau`. Measured (`examples/synonymy_scale.rs`): see README, Benchmarks.
pub fn synonymy_pairs(
    emb: &[f32],
    seeks_synonyms: &[bool],
    dim: usize,
    tau: f32,
    k: usize,
    progress: &dyn Progress,
) -> BTreeMap<(u32, u32), f32> {
    let n = emb.len().checked_div(dim).unwrap_or(0);
    assert_eq!(seeks_synonyms.len(), n, "one flag per row");
    let mut unit = emb.to_vec();
    for row in unit.chunks_exact_mut(dim.max(1)) {
        let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            row.iter_mut().for_each(|x| *x /= norm);
        }
    }
    const BLOCK: usize = 256;
    // Pairs (i, j), i < j, with cosine ≥ tau, from the upper triangle of the Gram matrix.
    let blocks: Vec<Vec<(u32, u32, f32)>> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let (r0, r1) = (b * BLOCK, ((b + 1) * BLOCK).min(n));
            let (rows, cols) = (r1 - r0, n - r0);
            let mut c = vec![0f32; rows * cols];
            // C (rows × cols) = A[r0..r1] (rows × dim) · A[r0..n]ᵀ (dim × cols); all row-major.
            unsafe {
                matrixmultiply::sgemm(
                    rows,
                    dim,
                    cols,
                    1.0,
                    unit[r0 * dim..].as_ptr(),
                    dim as isize,
                    1,
                    unit[r0 * dim..].as_ptr(),
                    1,
                    dim as isize,
                    0.0,
                    c.as_mut_ptr(),
                    cols as isize,
                    1,
                );
            }
            let mut out = Vec::new();
            for (r, row) in c.chunks_exact(cols).enumerate() {
                let i = r0 + r;
                for (jj, &s) in row.iter().enumerate().skip(r + 1) {
                    let j = r0 + jj;
                    if s >= tau && (seeks_synonyms[i] || seeks_synonyms[j]) {
                        out.push((i as u32, j as u32, s.min(1.0)));
                    }
                }
            }
            progress.advance(rows as u64);
            out
        })
        .collect();
    // Each row's candidates from both sides of the triangle, then its top k.
    let mut per_row: Vec<Vec<(u32, f32)>> = vec![Vec::new(); n];
    for (i, j, s) in blocks.into_iter().flatten() {
        if seeks_synonyms[i as usize] {
            per_row[i as usize].push((j, s));
        }
        if seeks_synonyms[j as usize] {
            per_row[j as usize].push((i, s));
        }
    }
    let mut pairs = BTreeMap::new();
    for (i, cand) in per_row.iter_mut().enumerate() {
        cand.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        cand.truncate(k);
        let i = i as u32;
        for &(j, s) in cand.iter() {
            pairs.entry((i.min(j), i.max(j))).or_insert(s);
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoder::HashedNgramEncoder;
    use crate::index::Index;

    fn doc(triples: &[[&str; 3]]) -> OpenIeDoc {
        OpenIeDoc {
            extracted_triples: triples.iter().map(|t| t.map(String::from)).collect(),
            ..Default::default()
        }
    }

    fn passage(t: &str) -> Passage {
        Passage {
            title: t.into(),
            text: format!("text of {t}"),
            url: None,
        }
    }

    #[test]
    fn builds_nodes_edges_p_and_specificity() {
        let docs = vec![
            doc(&[
                ["Alice", "works at", "Stanford"],
                ["Alice", "studies", "Alzheimer's"],
            ]),
            doc(&[
                ["Stanford", "is in", "California"],
                ["stanford", "located in", "California"],
            ]),
            doc(&[["Bob", "is", "bob"]]),
        ];
        let passages = vec![passage("a"), passage("b"), passage("c")];
        let opts = BuildOptions {
            synonymy_threshold: 0.99,
            ..Default::default()
        };
        let (data, report) =
            build_index(passages, &docs, &HashedNgramEncoder::default(), &opts, &()).unwrap();
        assert_eq!(
            data.phrases,
            vec!["alice", "alzheimer s", "bob", "california", "stanford"]
        );
        assert_eq!(report.self_loop_triples, 1);
        assert_eq!(data.header.counts.triple_edges, 3);
        let idx = Index::from_data(data).unwrap();
        // Two triples join stanford and california: weight 2.
        assert_eq!(idx.graph.get(4, 3), Some(&2.0));
        assert_eq!(idx.graph.get(3, 4), Some(&2.0));
        // Stanford occurs in passages 0 and 1: specificity 1/2; its count in passage 1 is 2.
        assert_eq!(idx.specificity[4], 0.5);
        assert_eq!(idx.passage_phrases.get(1, 4), Some(&2.0));
        assert_eq!(idx.facts.len(), 5);
    }

    /// Many blocks (n = 900 > 3 × 256), a small k and rows that seek no synonyms: the
    /// upper-triangle computation must equal a brute-force top-k per row over the full matrix.
    #[test]
    fn synonymy_across_blocks_equals_brute_force_topk() {
        let words = [
            "river", "valley", "north", "south", "city", "county", "lake", "mount", "saint", "new",
        ];
        let texts: Vec<String> = (0..900)
            .map(|i| {
                format!(
                    "{} {} {}",
                    words[i % 10],
                    words[(i / 10) % 10],
                    words[(i / 100) % 10]
                )
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let enc = HashedNgramEncoder::default();
        let emb = enc.encode(&refs).unwrap();
        let d = 384;
        let seeks: Vec<bool> = (0..900).map(|i| i % 7 != 0).collect();
        let (tau, k) = (0.6, 3);
        let got = synonymy_pairs(&emb, &seeks, d, tau, k, &());
        let mut want = BTreeMap::new();
        let row = |i: usize| &emb[i * d..(i + 1) * d];
        for i in (0..900).filter(|&i| seeks[i]) {
            let mut cand: Vec<(u32, f32)> = (0..900)
                .filter(|&j| j != i)
                .map(|j| {
                    (
                        j as u32,
                        row(i).iter().zip(row(j)).map(|(a, b)| a * b).sum(),
                    )
                })
                .filter(|&(_, c): &(u32, f32)| c >= tau)
                .collect();
            cand.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for &(j, c) in cand.iter().take(k) {
                want.entry(((i as u32).min(j), (i as u32).max(j)))
                    .or_insert(c);
            }
        }
        assert!(want.len() > 900, "the fixture must have many synonym pairs");
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>()
        );
        for (p, c) in &got {
            assert!((c - want[p]).abs() < 1e-5, "{p:?}: {c} vs {}", want[p]);
        }
    }

    #[test]
    fn synonymy_is_exact_topk_above_tau() {
        let enc = HashedNgramEncoder::default();
        let words = [
            "stanford university",
            "stanford univ",
            "university of stanford",
            "alzheimer",
            "alzheimers",
            "paris",
        ];
        let emb = enc.encode(&words).unwrap();
        let pairs = synonymy_pairs(&emb, &[true; 6], 384, 0.5, 100, &());
        // Brute force.
        let d = 384;
        for i in 0..words.len() {
            for j in i + 1..words.len() {
                let c: f32 = emb[i * d..(i + 1) * d]
                    .iter()
                    .zip(&emb[j * d..(j + 1) * d])
                    .map(|(a, b)| a * b)
                    .sum();
                assert_eq!(
                    pairs.contains_key(&(i as u32, j as u32)),
                    c >= 0.5,
                    "{} ~ {}: {c}",
                    words[i],
                    words[j]
                );
            }
        }
        let top1 = synonymy_pairs(&emb, &[true; 6], 384, -1.0, 1, &());
        assert!(top1.len() <= words.len());
    }
}
