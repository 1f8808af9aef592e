//! Ranking a question: the options of a search ([`RetrieveOptions`]), the hybrid ranking
//! ([`hybrid_scores`]), the single-file [`Retriever`] with HippoRAG 1 and 2, dense and BM25,
//! and a result's excerpt ([`excerpt`]).

mod excerpt;
mod fusion;
mod options;
mod retriever;
#[cfg(all(target_arch = "wasm32", feature = "bindings"))]
mod wasm;

pub use excerpt::{EXCERPT_WORDS, excerpt};
pub use fusion::{
    AGREEMENT_DEPTH, AGREEMENT_FLOOR, AGREEMENT_FULL, DENSE_RRF_WEIGHT, HybridScores,
    HybridWeights, MAX_GRAPH_WEIGHT, MAX_NAME_PASSAGES, NAME_SHARE_FULL, PassageSignals, RRF_DEPTH,
    RRF_K, agreement, graph_share, graph_weight, hybrid_passage_share, hybrid_scores, name_factor,
    page_rrf, passage_share,
};
pub use options::{
    HYBRID_DENSE_WEIGHT, HYBRID_STATIC_WEIGHT, Mode, PUSH_EPSILON, PprMethod, RetrieveOptions,
    parse_option,
};
pub use retriever::{PprProblem, PreparedQuery, QueryInput, RetrieveResult, Retriever};
#[cfg(all(target_arch = "wasm32", feature = "bindings"))]
pub use wasm::{WasmRetriever, hashed_ngram_encode};
