//! The graph side of HippoRAG: query entities ([`extract_query_entities`]), their linking to
//! seeds weighted by node specificity ([`link_entities`], [`entity_seeds`]), HippoRAG 2's graph
//! of phrase and passage nodes ([`build_passage_graph`]), personalized PageRank
//! ([`personalized_pagerank`]), each phrase node's stored PPR vector ([`PprVector`]), and
//! passages ranked by it with their explanation ([`ranked`], [`subgraph`]).

mod linking;
mod passage_graph;
mod ppr;
mod ppr_vectors;
mod query_entities;
mod rank;
mod scores;
mod subgraph;

pub use linking::{
    LinkedFact, Seed, check_dims, entity_seeds, fact_seeds, link_entities, link_facts, reset_vector,
};
pub use passage_graph::{PASSAGE_EDGE_WEIGHT, build_passage_graph};
pub use ppr::{
    Convergence, PprOptions, PprResult, inverse_degrees, personalized_pagerank,
    personalized_pagerank_push,
};
pub use ppr_vectors::{
    PPR_VECTOR_EPSILON, PPR_VECTOR_PASSAGES, PprVector, PushState, phrase_ppr_vector,
    phrase_ppr_vector_with,
};
pub use query_entities::{
    MAX_SPAN, PhraseLookup, PhraseNode, extract_query_entities, is_stopword_of, lookup_keys,
    phrase_lookups,
};
pub use rank::{
    Contribution, PhraseScore, RankedPassage, contributions, passage_scores, ranked, top_phrases,
};
pub use scores::{MinMax, top_k, top_k_positive};
pub use subgraph::{EdgeKind, SubgraphEdge, subgraph};
