//! The personalized PageRank vector of one phrase node, cut to its best passages: what the
//! hybrid ranking's graph share is summed from ([`crate::search`]), and what a site's phrase
//! pieces store per phrase node so that a page needs no graph ([`crate::pieces`]).
//!
//! Personalized PageRank is linear in its reset vector (Jeh & Widom, "Scaling personalized
//! web search", WWW 2003, the linearity theorem): the PPR vector of the reset vector `Σ wᵢ eᵢ`
//! is `Σ wᵢ PPR(eᵢ)`. So the walk from a query's seeds is the weighted sum of each seed's own
//! walk, and each phrase node's walk can be computed once, when the index is built. The walk is
//! HippoRAG 2's: over phrase and passage nodes ([`crate::graph`]), damping 0.5, and a
//! passage's score is its passage node's probability.
//!
//! Each vector keeps its [`PPR_VECTOR_PASSAGES`] best passages, quantised to one byte each
//! (`code / 255 × scale`, `scale` the largest probability). The single file computes the same
//! vector at query time with the same function, so both rank with the same numbers.

use serde::{Deserialize, Serialize};

use std::collections::{HashMap, VecDeque};

use crate::graph::ppr::Neighbours;
use crate::graph::top_k;
use crate::index::SparseMatrix;
use crate::{Error, Result};

/// Passages kept per phrase node's PPR vector: more kept no better ranking (docs/tuning.md,
/// the musique rules row).
pub const PPR_VECTOR_PASSAGES: usize = 16;

/// The forward push's residual bound for one phrase node's vector (per unit of weighted
/// degree, as [`crate::graph::personalized_pagerank_push`] bounds it). One seed's mass is 1. A
/// finer bound ranked no better and a coarser one worse (docs/tuning.md).
pub const PPR_VECTOR_EPSILON: f64 = 1e-5;

/// A phrase node's PPR vector over passages: its best [`PPR_VECTOR_PASSAGES`] passages at most,
/// ascending ids, with one-byte codes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PprVector {
    /// Passage ids, ascending.
    pub passages: Vec<u32>,
    /// One code per passage, 1–255: the probability is `code / 255 × scale`.
    pub codes: Vec<u8>,
    /// The largest probability kept (the passage with code 255), > 0 when any passage is kept.
    pub scale: f32,
}

impl PprVector {
    /// The probability of the `k`-th kept passage (`code / 255 × scale`).
    pub fn probability(&self, k: usize) -> f64 {
        f64::from(self.codes[k]) / 255.0 * f64::from(self.scale)
    }

    /// `(passage, probability)` of every kept passage, ascending ids.
    pub fn entries(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        (0..self.passages.len()).map(|k| (self.passages[k], self.probability(k)))
    }
}

/// The PPR vector of phrase node `phrase` alone: personalized PageRank with reset vector
/// `e_phrase` over `graph` (phrase nodes `0..phrases`, then one node per passage, as
/// [`crate::graph::build_passage_graph`] lays them out; `inv_degree` its
/// [`crate::graph::inverse_degrees`]) at `damping`, by forward push to [`PPR_VECTOR_EPSILON`]
/// (the walk of [`crate::graph::personalized_pagerank_push`], with its state kept only for the
/// nodes the push reaches, so that the indexer can compute every phrase node's vector without
/// touching the whole graph each time); then its passage nodes' probabilities, the best
/// [`PPR_VECTOR_PASSAGES`] (ties to the lower id), quantised, with the passages whose code
/// rounds to 0 left out. Damping 0 gives the empty vector (no mass leaves the phrase node).
///
/// # Errors
/// [`Error::InvalidRequest`] when `phrase` is not a phrase node of `graph`, `inv_degree` does
/// not fit it, or `damping` is outside `[0, 1)`.
pub fn phrase_ppr_vector(
    graph: &SparseMatrix,
    inv_degree: &[f64],
    phrases: usize,
    phrase: u32,
    damping: f64,
) -> Result<PprVector> {
    let n = graph.rows();
    let seed = phrase as usize;
    if seed >= phrases || phrases > n || inv_degree.len() != n || graph.cols() != n {
        return Err(Error::InvalidRequest(format!(
            "PPR vector of phrase {phrase}: {phrases} phrase nodes in a {}×{} graph with {} \
             inverse degrees",
            graph.rows(),
            graph.cols(),
            inv_degree.len()
        )));
    }
    if !(0.0..1.0).contains(&damping) {
        return Err(Error::InvalidRequest(format!(
            "damping {damping} is not in [0, 1)"
        )));
    }
    if damping == 0.0 {
        return Ok(PprVector::default());
    }
    let neighbours = Neighbours::of(graph);
    // Push test ρ_u > ε·max(d_u, 1), as in `personalized_pagerank_push`.
    let factor = |u: usize| {
        let i = inv_degree[u];
        if i > 0.0 && i < 1.0 { i } else { 1.0 }
    };
    // node → (estimate, residual, queued)
    let mut state: HashMap<usize, (f64, f64, bool)> = HashMap::new();
    state.insert(seed, (0.0, 1.0, true));
    let mut queue = VecDeque::from([seed]);
    while let Some(u) = queue.pop_front() {
        let s = state.get_mut(&u).expect("a queued node has state");
        let mass = std::mem::take(&mut s.1);
        s.0 += (1.0 - damping) * mass;
        s.2 = false;
        let spread = damping * mass;
        let mut touch = |v: usize, add: f64| {
            let s = state.entry(v).or_insert((0.0, 0.0, false));
            s.1 += add;
            if !s.2 && s.1 * factor(v) > PPR_VECTOR_EPSILON {
                s.2 = true;
                queue.push_back(v);
            }
        };
        if !neighbours.spread(u, spread, inv_degree, &mut touch) {
            // A dangling node restarts from the reset vector: the seed.
            touch(seed, spread);
        }
    }
    let mut passages: Vec<(usize, f64)> = state
        .into_iter()
        .filter(|&(v, s)| v >= phrases && s.0 > 0.0)
        .map(|(v, s)| (v - phrases, s.0))
        .collect();
    passages.sort_unstable_by_key(|p| p.0);
    let scores: Vec<f64> = passages.iter().map(|p| p.1).collect();
    let best: Vec<(usize, f64)> = top_k(&scores, PPR_VECTOR_PASSAGES)
        .into_iter()
        .map(|(k, x)| (passages[k].0, x))
        .collect();
    Ok(quantise(&best))
}

/// `(passage, probability)` pairs, best first (ties to the lower id), as a [`PprVector`].
fn quantise(best: &[(usize, f64)]) -> PprVector {
    let max = best.first().map_or(0.0, |b| b.1);
    if max <= 0.0 || !max.is_finite() {
        return PprVector::default();
    }
    let mut kept: Vec<(u32, u8)> = best
        .iter()
        .map(|&(j, x)| (j as u32, (x / max * 255.0).round() as u8))
        .filter(|&(_, c)| c > 0)
        .collect();
    kept.sort_unstable();
    PprVector {
        passages: kept.iter().map(|k| k.0).collect(),
        codes: kept.iter().map(|k| k.1).collect(),
        scale: max as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::inverse_degrees;

    /// Phrases 0–1 and passages 2–4 (ids 0–2): 0–1 linked, 0 in passages 0 and 1, 1 in 2.
    fn graph() -> SparseMatrix {
        let edges = [(0, 1), (0, 2), (0, 3), (1, 4)];
        let mut tri = sprs::TriMatI::<f32, u32>::new((5, 5));
        for (a, b) in edges {
            tri.add_triplet(a, b, 1.0f32);
            tri.add_triplet(b, a, 1.0f32);
        }
        tri.to_csr()
    }

    #[test]
    fn a_phrase_nodes_vector_ranks_its_own_passages_first_and_quantises_to_its_maximum() {
        let g = graph();
        let inv = inverse_degrees(&g);
        let v = phrase_ppr_vector(&g, &inv, 2, 0, 0.5).unwrap();
        assert_eq!(v.passages, [0, 1, 2]);
        // Passages 0 and 1 hold phrase 0 and are tied at the top; passage 2 is two hops away.
        assert_eq!(v.codes[0], 255);
        assert_eq!(v.codes[1], 255);
        assert!(v.codes[2] > 0 && v.codes[2] < 255, "{v:?}");
        assert!((v.probability(0) - f64::from(v.scale)).abs() < 1e-12);
        // No walk, no passage.
        assert_eq!(
            phrase_ppr_vector(&g, &inv, 2, 0, 0.0).unwrap(),
            PprVector::default()
        );
    }

    #[test]
    fn the_local_push_gives_the_dense_push_s_best_passages() {
        // A seeded random graph of 40 phrase and 30 passage nodes, with dangling nodes.
        let (np, nq) = (40usize, 30usize);
        let n = np + nq;
        let mut tri = sprs::TriMatI::<f32, u32>::new((n, n));
        let mut x = 12345u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        for _ in 0..120 {
            let (a, b) = (next() % np, next() % n);
            if a != b {
                let w = 1.0 + (next() % 3) as f32;
                tri.add_triplet(a, b, w);
                tri.add_triplet(b, a, w);
            }
        }
        let g: SparseMatrix = tri.to_csr();
        let inv = inverse_degrees(&g);
        for phrase in 0..np as u32 {
            let v = phrase_ppr_vector(&g, &inv, np, phrase, 0.5).unwrap();
            let mut reset = vec![0.0; n];
            reset[phrase as usize] = 1.0;
            let dense = crate::graph::personalized_pagerank(
                &g,
                &inv,
                &reset,
                &crate::graph::PprOptions {
                    damping: 0.5,
                    tolerance: 1e-12,
                    max_iterations: 1000,
                },
            )
            .unwrap();
            for (j, p) in v.entries() {
                let exact = dense.scores[np + j as usize];
                // One code step of the scale, plus the push's residual.
                assert!(
                    (p - exact).abs() <= f64::from(v.scale) / 255.0 + 1e-4,
                    "phrase {phrase}, passage {j}: {p} against {exact}"
                );
            }
        }
        let e = phrase_ppr_vector(&g, &inv, np, np as u32, 0.5).unwrap_err();
        assert!(e.to_string().contains("PPR vector of phrase 40"), "{e}");
    }

    #[test]
    fn quantise_drops_codes_that_round_to_zero_and_sorts_by_passage() {
        let v = quantise(&[(7, 1.0), (3, 0.5), (9, 0.001)]);
        assert_eq!(v.passages, [3, 7]);
        assert_eq!(v.codes, [128, 255]);
        assert_eq!(v.scale, 1.0);
        assert_eq!(quantise(&[]), PprVector::default());
    }
}
