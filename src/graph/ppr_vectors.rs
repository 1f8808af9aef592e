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

use std::collections::VecDeque;

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

/// The forward push's state over every node of one graph (estimate, residual, queued), kept
/// dense and reused from one phrase node's vector to the next: each push resets only the nodes
/// it touched. Two floats and two flags a node (18 MB for a million nodes).
#[derive(Debug, Clone)]
pub struct PushState {
    estimate: Vec<f64>,
    residual: Vec<f64>,
    queued: Vec<bool>,
    /// Whether a node is in `touched`.
    seen: Vec<bool>,
    /// Nodes touched since the last reset, in first-touch order.
    touched: Vec<u32>,
    queue: VecDeque<u32>,
}

impl PushState {
    /// The state of a push over a graph of `nodes` nodes, every entry zero.
    pub fn new(nodes: usize) -> Self {
        PushState {
            estimate: vec![0.0; nodes],
            residual: vec![0.0; nodes],
            queued: vec![false; nodes],
            seen: vec![false; nodes],
            touched: Vec::new(),
            queue: VecDeque::new(),
        }
    }

    /// Adds `mass` to `v`'s residual; queues `v` when it is not queued and its residual, per
    /// unit of degree (`factor`), passes [`PPR_VECTOR_EPSILON`].
    #[inline]
    fn add(&mut self, v: usize, mass: f64, factor: f64) {
        if !self.seen[v] {
            self.seen[v] = true;
            self.touched.push(v as u32);
        }
        self.residual[v] += mass;
        if !self.queued[v] && self.residual[v] * factor > PPR_VECTOR_EPSILON {
            self.queued[v] = true;
            self.queue.push_back(v as u32);
        }
    }

    /// The push's start: all of the reset vector's mass on `seed`, queued whatever its degree.
    fn start(&mut self, seed: usize) {
        self.seen[seed] = true;
        self.touched.push(seed as u32);
        self.residual[seed] = 1.0;
        self.queued[seed] = true;
        self.queue.push_back(seed as u32);
    }

    /// Every touched node back to zero.
    fn reset(&mut self) {
        for &v in &self.touched {
            let v = v as usize;
            self.estimate[v] = 0.0;
            self.residual[v] = 0.0;
            self.queued[v] = false;
            self.seen[v] = false;
        }
        self.touched.clear();
        self.queue.clear();
    }
}

/// The PPR vector of phrase node `phrase` alone: personalized PageRank with reset vector
/// `e_phrase` over `graph` (phrase nodes `0..phrases`, then one node per passage, as
/// [`crate::graph::build_passage_graph`] lays them out; `inv_degree` its
/// [`crate::graph::inverse_degrees`]) at `damping`, by forward push to [`PPR_VECTOR_EPSILON`]
/// (the walk of [`crate::graph::personalized_pagerank_push`]); then its passage nodes'
/// probabilities, the best [`PPR_VECTOR_PASSAGES`] (ties to the lower id), quantised, with the
/// passages whose code rounds to 0 left out. Damping 0 gives the empty vector (no mass leaves
/// the phrase node). It allocates a [`PushState`] of the graph's size;
/// [`phrase_ppr_vector_with`] reuses one.
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
    let mut state = PushState::new(graph.rows());
    phrase_ppr_vector_with(&mut state, graph, inv_degree, phrases, phrase, damping)
}

/// [`phrase_ppr_vector`] with `state` (made by [`PushState::new`] for `graph`'s node count)
/// for the push, which leaves it zeroed for the next: the indexer computes every phrase node's
/// vector with one state a thread. The same vector as [`phrase_ppr_vector`].
///
/// # Errors
/// As [`phrase_ppr_vector`], and [`Error::InvalidRequest`] when `state` is not of `graph`'s
/// node count.
pub fn phrase_ppr_vector_with(
    state: &mut PushState,
    graph: &SparseMatrix,
    inv_degree: &[f64],
    phrases: usize,
    phrase: u32,
    damping: f64,
) -> Result<PprVector> {
    let n = graph.rows();
    let seed = phrase as usize;
    if seed >= phrases
        || phrases > n
        || inv_degree.len() != n
        || graph.cols() != n
        || state.estimate.len() != n
    {
        return Err(Error::InvalidRequest(format!(
            "PPR vector of phrase {phrase}: {phrases} phrase nodes in a {}×{} graph with {} \
             inverse degrees and a push state of {} nodes",
            graph.rows(),
            graph.cols(),
            inv_degree.len(),
            state.estimate.len()
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
    state.start(seed);
    while let Some(u) = state.queue.pop_front() {
        let u = u as usize;
        let mass = std::mem::take(&mut state.residual[u]);
        state.estimate[u] += (1.0 - damping) * mass;
        state.queued[u] = false;
        let spread = damping * mass;
        let mut touch = |v: usize, add: f64| state.add(v, add, factor(v));
        if !neighbours.spread(u, spread, inv_degree, &mut touch) {
            // A dangling node restarts from the reset vector: the seed.
            touch(seed, spread);
        }
    }
    let mut passages: Vec<(usize, f64)> = state
        .touched
        .iter()
        .map(|&v| v as usize)
        .filter(|&v| v >= phrases && state.estimate[v] > 0.0)
        .map(|v| (v - phrases, state.estimate[v]))
        .collect();
    state.reset();
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
        // One state reused across every phrase node, in reverse order, gives each node the
        // vector a fresh state gives it.
        let mut state = PushState::new(n);
        for phrase in (0..np as u32).rev() {
            assert_eq!(
                phrase_ppr_vector_with(&mut state, &g, &inv, np, phrase, 0.5).unwrap(),
                phrase_ppr_vector(&g, &inv, np, phrase, 0.5).unwrap(),
                "phrase {phrase}"
            );
        }
        let e = phrase_ppr_vector_with(&mut PushState::new(n - 1), &g, &inv, np, 0, 0.5);
        assert!(
            e.unwrap_err()
                .to_string()
                .contains("push state of 69 nodes"),
            "a state of another graph's size"
        );
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
