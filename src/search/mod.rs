//! Ranking a question: the options of a search ([`RetrieveOptions`]); what a search reads of
//! an index ([`IndexReader`]), which the single file and the index in pieces both implement;
//! the one path both rank `bm25` ([`bm25_scores`]) and `hybrid` ([`hybrid`], mixing the shares
//! by [`hybrid_scores`]) through, optionally among the passages a filter lets through
//! ([`HybridQuery::allowed`], [`top_k_within`]); the single-file [`Retriever`], which adds
//! HippoRAG 1 and 2 and dense retrieval; and a result's excerpt ([`excerpt`]).

mod excerpt;
mod fusion;
mod options;
mod question;
mod ranking;
mod reader;
mod retriever;
#[cfg(all(target_arch = "wasm32", feature = "bindings"))]
mod wasm;

pub use excerpt::{EXCERPT_WORDS, excerpt};
pub use fusion::{
    AGREEMENT_DEPTH, AGREEMENT_FLOOR, AGREEMENT_FULL, DENSE_RRF_WEIGHT, FIRST_PLACE_GRAPH_SHARE,
    FIRST_PLACE_LEAD, FLAT_GRAPH_PEAK, HybridScores, HybridWeights, KEPT_PASSAGES, KEPT_WITHIN,
    MAX_GRAPH_WEIGHT, MAX_NAME_PASSAGES, NAME_SHARE_FULL, PassageSignals, RRF_DEPTH, RRF_K,
    agreement, graph_share, graph_weight, hybrid_passage_share, hybrid_scores, is_allowed,
    keep_passage_share_best, mask_disallowed, name_factor, order_first_five_where_graph_flat,
    page_rrf, page_rrf_within, passage_share, put_leading_passage_first,
};
pub use options::{
    HYBRID_DENSE_WEIGHT, HYBRID_STATIC_WEIGHT, Mode, PUSH_EPSILON, PprMethod, RetrieveOptions,
    parse_option,
};
pub use question::{MAX_QUESTION_TERMS, counted_terms, searched_part};
pub use ranking::{
    Hybrid, HybridQuery, bm25_query, bm25_scores, bm25_upper_bound, check_allowed, check_options,
    has_graph_share, hybrid, is_question_stopword, misspelt, static_query_vector, static_scores,
    top_k_within,
};
pub use reader::IndexReader;
pub use retriever::{PprProblem, PreparedQuery, QueryInput, RetrieveResult, Retriever};
#[cfg(all(target_arch = "wasm32", feature = "bindings"))]
pub use wasm::{WasmRetriever, hashed_ngram_encode};
