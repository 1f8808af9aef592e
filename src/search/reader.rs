//! [`IndexReader`]: what a search reads of an index. The single file ([`super::Retriever`]) and
//! the index in pieces ([`crate::pieces::Pieces`]) each implement it, so both rank through the
//! same functions ([`super::bm25`], [`super::hybrid`]), as tantivy's searchers reach BM25
//! through its `Bm25StatisticsProvider`.

use std::borrow::Cow;

use crate::Result;
use crate::embeddings::{CodeScorer, StaticVocabulary};
use crate::graph::{PhraseLookup, PprVector};
use crate::lexical::{QueryTerms, TermDictionary};
use crate::text::Language;

/// An index as a search reads it: its BM25 dictionary and postings, its static vocabulary and
/// passage codes, its phrase nodes and each one's PPR vector.
pub trait IndexReader {
    /// The language its BM25 terms were made in ([`crate::text::terms`]).
    fn language(&self) -> Language;
    /// Passages in the index, `|P|`.
    fn passages(&self) -> usize;
    /// The page of each passage (`|P|` dense page ids, [`crate::index::passage_pages`]).
    fn pages(&self) -> &[u32];
    /// The BM25 dictionary; `None` for an index built without BM25.
    fn dictionary(&self) -> Option<&dyn TermDictionary>;
    /// BM25's score of every passage for `query` (`|P|` values): its exact terms summed, each
    /// expanded word's best alternative added ([`crate::lexical::Bm25::expanded_scores`]).
    ///
    /// # Errors
    /// As the postings' checks ([`crate::lexical::Bm25::from_impacts`]).
    fn bm25_scores(&self, query: &QueryTerms) -> Result<Vec<f64>>;
    /// The static vocabulary; `None` for an index without static word embeddings.
    fn static_vocabulary(&self) -> Option<&dyn StaticVocabulary>;
    /// The static score of every passage for the query vector `query` (`|P|` values): the
    /// passages of the IVF clusters it probes scored ([`CodeScorer::score`]), 0 elsewhere.
    fn static_scores(&self, query: &CodeScorer) -> Vec<f64>;
    /// The phrase nodes, for the query-entity extractor and the seeds.
    fn phrases(&self) -> &dyn PhraseLookup;
    /// Phrase node `id`'s PPR vector at damping factor `damping`
    /// ([`crate::graph::phrase_ppr_vector`]); `None` when the index holds none for it.
    ///
    /// # Errors
    /// [`crate::Error::InvalidRequest`] for a damping factor the index cannot serve.
    fn ppr_vector(&self, id: u32, damping: f64) -> Result<Option<Cow<'_, PprVector>>>;
}
