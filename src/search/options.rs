//! The options of a search, with their string forms: what the CLI, the wasm API and the
//! index in pieces accept. This module imports nothing else from the crate.

use serde::{Deserialize, Serialize};
use strum::{Display, EnumString, IntoStaticStr, VariantArray};

/// Retrieval mode; its string form is its lowercase name (`hipporag1`, `hybrid`, …).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    Display,
    EnumString,
    IntoStaticStr,
    VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Mode {
    /// HippoRAG 1 (§3.2): query entities linked to phrase nodes, personalized PageRank over the
    /// phrase graph, passages ranked by `Pᵀ·ppr`.
    #[default]
    HippoRag1,
    /// HippoRAG 2: query-to-triple linking, passage nodes in the graph, passages ranked by
    /// their own PPR probability.
    HippoRag2,
    /// Dense retrieval: query–passage cosine.
    Dense,
    /// BM25 over passage terms.
    Bm25,
    /// BM25 (fused with static word embeddings) mixed with the seeds' personalized PageRank,
    /// the graph's share decided per query ([`crate::search::hybrid_scores`]).
    Hybrid,
}

/// How personalized PageRank is computed; its string form is its lowercase name.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    Display,
    EnumString,
    IntoStaticStr,
    VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum PprMethod {
    /// Forward push for `hipporag1` and `hybrid` (a few seeds keep the push local), the exact
    /// solver for `hipporag2` (every passage node is a seed).
    #[default]
    Auto,
    /// Gauss–Seidel iteration to `tolerance` ([`crate::graph::personalized_pagerank`]).
    Exact,
    /// Forward push to `push_epsilon` ([`crate::graph::personalized_pagerank_push`]).
    Push,
}

/// `s` as an options enum `T` (its string form), or a message naming `what`, `s` and the
/// accepted forms: `unknown mode "x": expected one of hipporag1, hipporag2, …`.
pub fn parse_option<T>(what: &str, s: &str) -> Result<T, String>
where
    T: std::str::FromStr + VariantArray + Copy + Into<&'static str>,
{
    s.parse().map_err(|_| {
        let names: Vec<&str> = T::VARIANTS.iter().map(|&v| v.into()).collect();
        format!(
            "unknown {what} \"{s}\": expected one of {}",
            names.join(", ")
        )
    })
}

/// Options of one retrieval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RetrieveOptions {
    /// Passages to return.
    pub top_k: usize,
    /// Retrieval mode.
    pub mode: Mode,
    /// The damping factor of personalized PageRank (probability of following an edge): 0.5,
    /// HippoRAG's.
    pub damping: f64,
    /// The exact solver stops when an iteration moves the PPR vector by less, in L1: 1e-12.
    pub tolerance: f64,
    /// The exact solver's iteration cap: 200.
    pub max_iterations: u32,
    /// PPR algorithm (`ppr` in the wasm API's request).
    #[serde(rename = "ppr")]
    pub ppr_method: PprMethod,
    /// Forward-push residual bound per unit of weighted degree; `None` (the default) takes
    /// [`PUSH_EPSILON`]. (Hybrid mode's seed vectors are computed to
    /// [`crate::graph::PPR_VECTOR_EPSILON`], as the index in pieces stores them.)
    pub push_epsilon: Option<f64>,
    /// Top PPR phrases reported in the explanation.
    pub top_phrases: usize,
    /// Contributing phrases reported per passage.
    pub contributions: usize,
    /// HippoRAG 2: facts linked to the query, and seed phrases kept (reference: 5).
    pub linking_top_k: usize,
    /// HippoRAG 1 seed linking: rows rescored per entity after the binary-code prefilter; 0,
    /// the default, scans every phrase exactly (docs/tuning.md, "Measurements behind the code").
    pub linking_candidates: usize,
    /// HippoRAG 2: reset weight scale of passage nodes (reference: 0.05).
    pub passage_node_weight: f64,
    /// Hybrid: the graph share's weight `w` in [0, 1] ([`crate::search`]); `None` (the
    /// default) decides it per query ([`crate::search::graph_weight`]).
    pub phrase_weight: Option<f64>,
    /// Hybrid, indexes with a neural encoder and no static word embeddings: the dense passage
    /// scores' share beside BM25's 1 in the passage share ([`crate::search::passage_share`]).
    /// With static word embeddings the dense scores join their reciprocal-rank fusion by page
    /// instead, at [`crate::search::DENSE_RRF_WEIGHT`], and this only turns them off (0) or on
    /// (> 0).
    pub dense_weight: f64,
    /// Hybrid, indexes with static word embeddings ([`crate::embeddings`]): the static
    /// scores' weight beside BM25's 1 in the reciprocal-rank fusion of the two
    /// ([`crate::search::page_rrf`]) that makes the passage share, for a question without
    /// names; a question's title-case names lower it where the graph agrees
    /// ([`crate::search::hybrid_passage_share`]).
    pub static_weight: f64,
    /// Hybrid: seed only the query entities that are phrase nodes
    /// ([`crate::graph::entity_seeds`]), as the index in pieces does (it cannot scan every
    /// phrase embedding). `false` (the default) links every entity to its nearest phrase node
    /// when its embedding is given ([`crate::graph::link_entities`], HippoRAG §3.2), and
    /// exactly otherwise.
    pub exact_seeds: bool,
}

impl Default for RetrieveOptions {
    fn default() -> Self {
        Self {
            top_k: 5,
            mode: Mode::default(),
            damping: 0.5,
            tolerance: 1e-12,
            max_iterations: 200,
            ppr_method: PprMethod::default(),
            push_epsilon: None,
            top_phrases: 10,
            contributions: 5,
            linking_top_k: 5,
            linking_candidates: 0,
            passage_node_weight: 0.05,
            phrase_weight: None,
            dense_weight: HYBRID_DENSE_WEIGHT,
            static_weight: HYBRID_STATIC_WEIGHT,
            exact_seeds: false,
        }
    }
}

/// Hybrid mode's default [`RetrieveOptions::dense_weight`] (docs/tuning.md, "Hybrid ranking").
pub const HYBRID_DENSE_WEIGHT: f64 = 8.0;
/// Hybrid mode's default [`RetrieveOptions::static_weight`]: equal weights in the fusion of
/// BM25 and static scores (docs/tuning.md, "Hybrid ranking", has the dev-split figures).
pub const HYBRID_STATIC_WEIGHT: f64 = 1.0;
/// Forward push's default residual bound per unit of weighted degree (`tests/musique_e2e.rs`
/// checks that it gives the exact solver's top 5).
pub const PUSH_EPSILON: f64 = 1e-7;
