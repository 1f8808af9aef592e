//! Lexical retrieval: BM25 over the passages' terms ([`Bm25`]), with a search box's query
//! expansion ([`query_terms`]: the word being typed, a misspelt word) and the deletes
//! dictionary that finds a misspelt word's neighbours in key ranges ([`query_keys`],
//! [`entry_keys`]).

mod bm25;
mod deletes;
mod expansion;
mod length_norm;

pub(crate) use bm25::check_postings;
pub use bm25::{
    Bm25, Bm25Builder, Bm25Data, Bm25Params, IMPACT_LEVELS, ImpactPostings, idf, impact,
    impact_factor,
};
pub use deletes::{
    DELETES_KEY_PREFIX, KEY_CHARS, deletes_key, entry_keys, head, is_entry, query_keys,
};
pub use expansion::{
    FUZZY_WEIGHT, Misspelt, PREFIX_WEIGHT, QueryTerms, TermDictionary, misspelt_words, query_terms,
    typed_term, word_neighbour_terms,
};
