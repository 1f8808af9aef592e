//! The retriever: one loaded index answering queries, natively and in wasm alike.
//!
//! Modes ([`Mode`]):
//! * `hipporag1` — HippoRAG §3.2: query entities → seeds (nearest phrase nodes) weighted by node
//!   specificity → personalized PageRank over the phrase graph → passages ranked by `Pᵀ·ppr`.
//! * `hipporag2` — HippoRAG 2 (arXiv 2502.14802) without its LLM filter: the query embedding →
//!   top `linking_top_k` facts by cosine ([`link_facts`]) → seed phrases weighted by fact score ×
//!   node specificity, top `linking_top_k` kept ([`fact_seeds`]) → plus every passage node
//!   weighted by its min-max-normalised dense score × `passage_node_weight` (0.05) → PPR over
//!   phrase and passage nodes ([`crate::graph`]) → passages ranked by their own PPR
//!   probability. A caller with an LLM may pass the facts that survive its recognition-memory
//!   filter ([`QueryInput::fact_ids`]); the reference's defaults are `linking_top_k` = 5,
//!   passage node weight 0.05, damping 0.5.
//! * `dense` — cosine of the query embedding with each passage embedding (the dense baseline).
//! * `bm25` — BM25 over passage terms ([`crate::lexical`]; the lexical baseline).
//! * `hybrid` — BM25 (fused by page with static word embeddings, and with dense scores, when the
//!   index has them) mixed with the personalized PageRank of the query's seeds over the graph
//!   of `hipporag2`, the graph's share decided per query: [`crate::search`] owns the ranking,
//!   and the index in pieces ranks with the same function. Passages are ranked by the mix.
//!   It needs no neural model at query time.
//!
//! **Fallback.** A `hipporag1` query with no query entity (the caller's NER and the built-in
//! extractor found none), or a `hipporag2` query with no fact left (as the reference does), is
//! answered by dense ranking when a query embedding is given, and [`RetrieveResult::fallback`]
//! says so; without a query embedding it is an error. The ranking is never a uniform PPR over
//! all nodes.

use serde::Serialize;

use std::borrow::Cow;

use super::excerpt::excerpt;
use super::options::{Mode, PUSH_EPSILON, PprMethod, RetrieveOptions};
use super::question::searched_part;
use super::ranking::{HybridQuery, bm25_scores, check_options, has_graph_share, hybrid};
use super::reader::IndexReader;
use crate::embeddings::{CodeScorer, HASHED_NGRAM_ID, StaticVocabulary};
use crate::graph::{
    LinkedFact, Seed, check_dims, fact_seeds, link_entities, link_facts, reset_vector,
};
use crate::graph::{MinMax, PhraseLookup, top_k};
use crate::graph::{PhraseScore, RankedPassage, passage_scores, ranked, top_phrases};
use crate::graph::{
    PprOptions, PprResult, inverse_degrees, personalized_pagerank, personalized_pagerank_push,
};
use crate::graph::{PprVector, PushState, phrase_ppr_vector_with};
use crate::index::Index;
use crate::index::SparseMatrix;
use crate::lexical::{QueryTerms, TermDictionary};
use crate::text::Language;
use crate::{Error, Result};

/// The query as the retriever sees it: entities and embeddings computed by the caller.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueryInput<'a> {
    /// The question's text: the `bm25` and `hybrid` modes analyse it into BM25 terms.
    pub question: Option<&'a str>,
    /// Query entities (caller's NER, or [`Retriever::extract_entities`]).
    pub entities: &'a [String],
    /// Their embeddings, row-major `entities.len() × dim`.
    pub embeddings: &'a [f32],
    /// The whole query's embedding (`dim` values): HippoRAG 2, dense mode and the fallback.
    pub query_embedding: Option<&'a [f32]>,
    /// HippoRAG 2: the fact ids kept by a recognition-memory filter (e.g. an LLM), chosen from
    /// [`Retriever::link_facts`]; `None` keeps the top `linking_top_k` facts unfiltered.
    pub fact_ids: Option<&'a [u32]>,
}

/// A question prepared by [`Retriever::prepare_query`]: its query entities and the embeddings
/// of the question (row 0) and of each entity (rows 1..), row-major, `(1 + entities) × dim`.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedQuery {
    /// The question.
    pub question: String,
    /// Query entities.
    pub entities: Vec<String>,
    /// The question's embedding, then one per entity.
    pub embeddings: Vec<f32>,
    /// Embedding dimension.
    pub dim: usize,
}

impl PreparedQuery {
    /// The retriever's input: every entity with its embedding, and the question's embedding.
    pub fn input(&self) -> QueryInput<'_> {
        QueryInput {
            question: Some(&self.question),
            entities: &self.entities,
            embeddings: &self.embeddings[self.dim..],
            query_embedding: Some(&self.embeddings[..self.dim]),
            fact_ids: None,
        }
    }
}

/// A ranking with its explanation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetrieveResult {
    /// The mode that produced the ranking (differs from the request after a fallback).
    pub mode: Mode,
    /// Why the requested mode was not used, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// HippoRAG 2: the facts linked to the query (after the filter, if any).
    pub facts: Vec<LinkedFact>,
    /// Query entities (HippoRAG 2: facts) → seed phrases (cosine, specificity, reset weight).
    pub seeds: Vec<Seed>,
    /// The phrases with the highest PPR probability.
    pub top_phrases: Vec<PhraseScore>,
    /// Ranked passages with their contributing phrases.
    pub passages: Vec<RankedPassage>,
    /// PPR work: Gauss–Seidel sweeps or forward pushes ([`crate::graph::PprResult::steps`]);
    /// 0 for dense ranking.
    pub ppr_steps: u32,
    /// The damping factor of the ranking's personalized PageRank (the request's
    /// [`RetrieveOptions::damping`]); 0 for a ranking without a walk (`bm25`, `dense`).
    pub damping: f64,
}

/// A loaded index plus the per-graph constants retrieval needs.
#[derive(Debug, Clone)]
pub struct Retriever {
    index: Index,
    inv_degree: Vec<f64>,
    /// The phrase + passage graph and its inverse degrees (HippoRAG 2 and hybrid modes), when
    /// the index has fact embeddings or BM25.
    passage_graph: Option<(SparseMatrix, Vec<f64>)>,
    /// Push states of the passage graph's size, reused by [`IndexReader::ppr_vector`].
    push_states: PushStates,
}

/// Spare [`PushState`]s, so that the seeds of every query share a few allocations of the
/// passage graph's size instead of each making one; a clone starts with none.
#[derive(Debug, Default)]
struct PushStates(std::sync::Mutex<Vec<PushState>>);

impl Clone for PushStates {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// One query's personalized PageRank problem ([`Retriever::ppr_problem`]).
#[derive(Debug, Clone)]
pub struct PprProblem<'a> {
    /// `HippoRag1` (phrase graph) or `HippoRag2` (phrase + passage graph).
    pub mode: Mode,
    /// The symmetric graph PPR runs on: `|N| × |N|` (hipporag1) or `(|N|+|P|)²` (hipporag2).
    pub graph: &'a SparseMatrix,
    /// Its [`inverse_degrees`].
    pub inv_degree: &'a [f64],
    /// The unnormalised reset (personalisation) weights, one per graph node.
    pub reset: Vec<f64>,
    /// The seed phrases behind `reset`.
    pub seeds: Vec<Seed>,
    /// HippoRAG 2: the linked facts behind the seeds (empty for hipporag1).
    pub facts: Vec<LinkedFact>,
}

impl PprProblem<'_> {
    /// Passage scores from this problem's PPR vector `ppr`: `Pᵀ·ppr` for hipporag1
    /// ([`passage_scores`]), the passage nodes' own probabilities `ppr[|N|..]` for hipporag2.
    pub fn passage_scores(&self, index: &Index, ppr: &[f64]) -> Vec<f64> {
        match self.mode {
            Mode::HippoRag2 => ppr[index.phrases.len()..].to_vec(),
            _ => passage_scores(index, ppr),
        }
    }
}

impl Retriever {
    /// Validates and loads index bytes (see [`crate::index`] for the errors).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Ok(Self::from_index(Index::from_bytes(bytes)?))
    }

    /// [`Retriever::from_bytes`] on bytes it keeps ([`Index::from_vec`]: no copy).
    pub fn from_vec(bytes: Vec<u8>) -> Result<Self> {
        Ok(Self::from_index(Index::from_vec(bytes)?))
    }

    /// Wraps a loaded index.
    pub fn from_index(index: Index) -> Self {
        let inv_degree = inverse_degrees(&index.graph);
        let needs_passage_nodes = index.fact_vectors.is_some() || index.bm25.is_some();
        let passage_graph = needs_passage_nodes.then(|| {
            let g = crate::graph::build_passage_graph(&index);
            let inv = inverse_degrees(&g);
            (g, inv)
        });
        Self {
            index,
            inv_degree,
            passage_graph,
            push_states: PushStates::default(),
        }
    }

    /// The index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// Query entities found by the built-in extractor ([`crate::graph`]) in the part of
    /// `question` that is searched ([`searched_part`]).
    pub fn extract_entities(&self, question: &str) -> Vec<String> {
        crate::graph::extract_query_entities(searched_part(question, self.language()), &self.index)
    }

    /// Prepares a question the way every caller does (HippoRAG's `retrieve`: NER, then one
    /// encoder call): `entities` (the caller's NER) or, when `None`, the built-in extractor's;
    /// then the question and the entities encoded together by `encoder`, which must be the
    /// index's encoder (its header's `encoder.id`).
    ///
    /// # Errors
    /// The encoder's error; [`Error::DimensionMismatch`] when it gives vectors of another size.
    pub fn prepare_query(
        &self,
        question: &str,
        entities: Option<Vec<String>>,
        encoder: &dyn crate::embeddings::Encoder,
    ) -> Result<PreparedQuery> {
        let entities = entities.unwrap_or_else(|| self.extract_entities(question));
        let mut texts = vec![question];
        texts.extend(entities.iter().map(String::as_str));
        let embeddings = encoder.encode(&texts)?;
        check_dims(&self.index, "embeddings", embeddings.len(), texts.len())?;
        Ok(PreparedQuery {
            question: question.to_string(),
            entities,
            embeddings,
            dim: self.index.dim(),
        })
    }

    /// Ranks passages for one query.
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] when an embedding does not fit the index's encoder;
    /// [`Error::InvalidRequest`] for `top_k == 0`, a `phrase_weight` outside [0, 1], bad PPR
    /// options, or a query with neither entities nor a query embedding.
    pub fn retrieve(&self, q: &QueryInput<'_>, opts: &RetrieveOptions) -> Result<RetrieveResult> {
        check_options(opts)?;
        if let Some(e) = q.query_embedding {
            check_dims(&self.index, "queryEmbedding", e.len(), 1)?;
        }
        match opts.mode {
            Mode::Dense => self.dense(q, opts, None),
            Mode::Bm25 => {
                let scores = bm25_scores(self, question(q, self.language())?)?;
                let top = top_k(&scores, opts.top_k);
                Ok(RetrieveResult {
                    mode: Mode::Bm25,
                    fallback: None,
                    facts: Vec::new(),
                    seeds: Vec::new(),
                    top_phrases: Vec::new(),
                    passages: ranked(&self.index, &top, None, 0),
                    ppr_steps: 0,
                    damping: 0.0,
                })
            }
            Mode::Hybrid => self.hybrid(q, opts),
            Mode::HippoRag1 | Mode::HippoRag2 => {
                let Some(p) = self.ppr_problem(q, opts)? else {
                    return self.dense(q, opts, Some(no_seed(opts.mode).into()));
                };
                let ppr = self.run_ppr(p.graph, p.inv_degree, &p.reset, opts)?;
                let scores = p.passage_scores(&self.index, &ppr.scores);
                let top = top_k(&scores, opts.top_k);
                Ok(RetrieveResult {
                    mode: p.mode,
                    fallback: None,
                    top_phrases: top_phrases(&self.index, &ppr.scores, opts.top_phrases),
                    passages: ranked(&self.index, &top, Some(&ppr.scores), opts.contributions),
                    ppr_steps: ppr.steps(),
                    damping: opts.damping,
                    facts: p.facts,
                    seeds: p.seeds,
                })
            }
        }
    }

    /// HippoRAG 2's query-to-triple linking: the `k` facts closest to the query embedding.
    ///
    /// # Errors
    /// See [`link_facts`].
    pub fn link_facts(&self, query_embedding: &[f32], k: usize) -> Result<Vec<LinkedFact>> {
        link_facts(&self.index, query_embedding, k)
    }

    /// The personalized PageRank problem a query poses in `hipporag1` or `hipporag2` mode: the
    /// graph, its inverse degrees and the reset vector that [`Retriever::retrieve`] hands to
    /// its PPR solver ([`personalized_pagerank`] or, per [`RetrieveOptions::ppr_method`],
    /// [`personalized_pagerank_push`]), with the seeds (and HippoRAG 2's linked facts) behind
    /// it. `retrieve` itself calls this, so an exported problem is exactly what it solved.
    ///
    /// * `hipporag1`: graph = the phrase graph (`|N|` nodes); `reset[i]` = the node specificity of
    ///   each seed phrase `i` ([`link_entities`], [`reset_vector`]), 0 elsewhere.
    /// * `hipporag2`: graph = phrase + passage nodes ([`crate::graph`], `|N| + |P|`);
    ///   `reset` = the seed weights of [`fact_seeds`] on phrases, plus on every passage node
    ///   `|N| + j` its min-max-normalised dense score × `passage_node_weight`.
    ///
    /// The reset vector is unnormalised (PPR rescales it to sum 1, as igraph does). The
    /// `hybrid` mode sums each seed's own PPR vector instead ([`crate::search`]) and poses no
    /// single problem.
    ///
    /// Returns `None` when the query has no seed (no query entity; no fact left), the case
    /// `retrieve` answers by dense ranking, saying why in [`RetrieveResult::fallback`].
    ///
    /// # Errors
    /// As [`Retriever::retrieve`]; [`Error::InvalidRequest`] for `dense`, `bm25` and `hybrid`.
    pub fn ppr_problem(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
    ) -> Result<Option<PprProblem<'_>>> {
        match opts.mode {
            Mode::Dense | Mode::Bm25 | Mode::Hybrid => Err(Error::InvalidRequest(format!(
                "{} mode poses no single personalized PageRank problem",
                opts.mode
            ))),
            Mode::HippoRag1 => {
                let seeds = self.entity_seeds(q, opts)?;
                if seeds.is_empty() {
                    return Ok(None);
                }
                Ok(Some(PprProblem {
                    mode: Mode::HippoRag1,
                    graph: &self.index.graph,
                    inv_degree: &self.inv_degree,
                    reset: reset_vector(self.index.phrases.len(), &seeds),
                    seeds,
                    facts: Vec::new(),
                }))
            }
            Mode::HippoRag2 => self.hipporag2_problem(q, opts),
        }
    }

    /// `hipporag1`'s linking: each query entity of `q` → its nearest phrase node, weighted by
    /// node specificity ([`link_entities`]).
    fn entity_seeds(&self, q: &QueryInput<'_>, opts: &RetrieveOptions) -> Result<Vec<Seed>> {
        link_entities(
            &self.index,
            q.entities,
            q.embeddings,
            opts.linking_candidates,
        )
    }

    /// The excerpt of a result's `text` for `question` ([`super::excerpt`]).
    pub fn excerpt(&self, text: &str, question: &str) -> Vec<String> {
        excerpt(self, text, question)
    }

    fn hipporag2_problem(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
    ) -> Result<Option<PprProblem<'_>>> {
        let Some(qe) = q.query_embedding else {
            return Err(Error::InvalidRequest(
                "hipporag2 mode needs queryEmbedding".into(),
            ));
        };
        let Some((graph, inv_degree)) = &self.passage_graph else {
            return link_facts(&self.index, qe, 0)
                .map(|_| unreachable!("link_facts fails without fact embeddings"));
        };
        let mut facts = link_facts(
            &self.index,
            qe,
            opts.linking_top_k.max(q.fact_ids.map_or(0, <[u32]>::len)),
        )?;
        if let Some(keep) = q.fact_ids {
            // Keep the filter's choice, in the filter's order, among the linked candidates.
            let by_id: Vec<LinkedFact> = keep
                .iter()
                .filter_map(|id| facts.iter().find(|f| f.fact_id == *id).cloned())
                .collect();
            facts = by_id;
        }
        facts.truncate(opts.linking_top_k);
        if facts.is_empty() {
            return Ok(None);
        }
        let seeds = fact_seeds(&self.index, &facts, opts.linking_top_k);
        let n = self.index.phrases.len();
        let mut reset = reset_vector(graph.rows(), &seeds);
        let dense = self.dense_scores(qe)?;
        let range = MinMax::of(dense.iter().copied());
        for (j, &d) in dense.iter().enumerate() {
            reset[n + j] = range.scale(d) * opts.passage_node_weight;
        }
        Ok(Some(PprProblem {
            mode: Mode::HippoRag2,
            graph,
            inv_degree,
            reset,
            seeds,
            facts,
        }))
    }

    /// The `hybrid` mode's ranking of every passage, through the path the index in pieces
    /// shares ([`super::hybrid`]), with this index's extras: a neural encoder's dense scores
    /// and seeds linked by embedding (unless `opts.exact_seeds`). `None` when neither the
    /// passage share nor the graph share scores a passage. Its shares and per-query signals
    /// are what `hipporag eval --features` writes for learning a ranking.
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] without a question; the index's read errors.
    pub fn hybrid_ranking(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
    ) -> Result<Option<super::Hybrid>> {
        let question = question(q, self.language())?;
        let dense = match q.query_embedding {
            Some(qe)
                if opts.dense_weight > 0.0 && self.index.header.encoder.id != HASHED_NGRAM_ID =>
            {
                Some(self.dense_scores(qe)?)
            }
            _ => None,
        };
        let embedded = q.embeddings.len() == q.entities.len() * self.index.dim();
        let linked =
            if has_graph_share(opts) && !opts.exact_seeds && embedded && !q.entities.is_empty() {
                // Nearest phrase nodes; a node linked twice is one seed (as `reset_vector` keeps it).
                let mut linked = self.entity_seeds(q, opts)?;
                let mut seen = std::collections::HashSet::new();
                linked.retain(|s| seen.insert(s.phrase_id));
                Some(linked)
            } else {
                None
            };
        let query = HybridQuery {
            question,
            entities: q.entities,
            linked: linked.as_deref(),
            dense: dense.as_deref(),
            // The single file ranks every passage (the site's JS filters its results).
            allowed: None,
        };
        hybrid(self, &query, opts)
    }

    /// The `hybrid` mode ([`Retriever::hybrid_ranking`]), with the explanation's phrases and
    /// contributions from the seeds' whole walk (the PPR vectors keep only each seed's best
    /// passages).
    fn hybrid(&self, q: &QueryInput<'_>, opts: &RetrieveOptions) -> Result<RetrieveResult> {
        let Some(h) = self.hybrid_ranking(q, opts)? else {
            return self.dense(
                q,
                opts,
                Some(
                    "no query entity and no query term in the index: ranked by dense retrieval"
                        .into(),
                ),
            );
        };
        let walk = match &self.passage_graph {
            Some((graph, inv_degree)) if !h.seeds.is_empty() => {
                let reset = reset_vector(graph.rows(), &h.seeds);
                Some(self.run_ppr(graph, inv_degree, &reset, opts)?)
            }
            _ => None,
        };
        let top = top_k(&h.scores, opts.top_k);
        let walked = walk.as_ref().map(|w| w.scores.as_slice());
        Ok(RetrieveResult {
            mode: Mode::Hybrid,
            fallback: None,
            facts: Vec::new(),
            top_phrases: walked
                .map_or_else(Vec::new, |w| top_phrases(&self.index, w, opts.top_phrases)),
            passages: ranked(&self.index, &top, walked, opts.contributions),
            ppr_steps: walk.as_ref().map_or(0, PprResult::steps),
            damping: opts.damping,
            seeds: h.seeds,
        })
    }

    fn run_ppr(
        &self,
        graph: &SparseMatrix,
        inv_degree: &[f64],
        reset: &[f64],
        opts: &RetrieveOptions,
    ) -> Result<PprResult> {
        let method = match (opts.ppr_method, opts.mode) {
            (PprMethod::Auto, Mode::HippoRag1 | Mode::Hybrid) => PprMethod::Push,
            (PprMethod::Auto, _) => PprMethod::Exact,
            (m, _) => m,
        };
        match method {
            PprMethod::Auto | PprMethod::Exact => {
                let o = PprOptions {
                    damping: opts.damping,
                    tolerance: opts.tolerance,
                    max_iterations: opts.max_iterations,
                };
                personalized_pagerank(graph, inv_degree, reset, &o)
            }
            PprMethod::Push => personalized_pagerank_push(
                graph,
                inv_degree,
                reset,
                opts.damping,
                opts.push_epsilon.unwrap_or(PUSH_EPSILON),
            ),
        }
    }

    /// Dense scores: cosine of the query embedding with every passage embedding.
    pub fn dense_scores(&self, query_embedding: &[f32]) -> Result<Vec<f64>> {
        check_dims(&self.index, "queryEmbedding", query_embedding.len(), 1)?;
        let mut s = Vec::new();
        self.index
            .passage_vectors
            .cosine_all(query_embedding, &mut s);
        Ok(s.into_iter().map(f64::from).collect())
    }

    fn dense(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
        fallback: Option<String>,
    ) -> Result<RetrieveResult> {
        let Some(e) = q.query_embedding else {
            return Err(Error::InvalidRequest(match fallback {
                Some(_) => "no query entity and no queryEmbedding: nothing to rank by".into(),
                None => "dense mode needs queryEmbedding".into(),
            }));
        };
        let scores = self.dense_scores(e)?;
        let top = top_k(&scores, opts.top_k);
        Ok(RetrieveResult {
            mode: Mode::Dense,
            fallback,
            facts: Vec::new(),
            seeds: Vec::new(),
            top_phrases: Vec::new(),
            passages: ranked(&self.index, &top, None, 0),
            ppr_steps: 0,
            damping: 0.0,
        })
    }
}

/// The part of `q`'s question that the `bm25` and `hybrid` modes analyse ([`searched_part`]).
fn question<'a>(q: &QueryInput<'a>, language: Language) -> Result<&'a str> {
    q.question
        .map(|question| searched_part(question, language))
        .ok_or_else(|| Error::InvalidRequest("bm25 and hybrid modes need the question".into()))
}

/// Why a `hipporag1` or `hipporag2` query without a seed was ranked by dense retrieval.
fn no_seed(mode: Mode) -> &'static str {
    match mode {
        Mode::HippoRag2 => "no fact linked to the query: ranked by dense retrieval",
        _ => "no query entity: ranked by dense retrieval",
    }
}

/// The single file as a search reads it: the whole dictionary and vocabulary, every passage
/// code, and each phrase node's PPR vector computed when asked for, at any damping factor.
impl IndexReader for Retriever {
    fn language(&self) -> Language {
        self.index
            .bm25
            .as_ref()
            .map_or(self.index.header.build.language, |b| b.language())
    }

    fn passages(&self) -> usize {
        self.index.passages.len()
    }

    fn pages(&self) -> &[u32] {
        &self.index.pages
    }

    fn dictionary(&self) -> Option<&dyn TermDictionary> {
        self.index.bm25.as_ref().map(|b| b as &dyn TermDictionary)
    }

    fn bm25_scores(&self, query: &QueryTerms) -> Result<Vec<f64>> {
        let bm25 = self
            .index
            .bm25
            .as_ref()
            .ok_or_else(|| Error::InvalidRequest("the index has no BM25 index".into()))?;
        Ok(bm25.expanded_scores(query, self.index.passages.len()))
    }

    fn static_vocabulary(&self) -> Option<&dyn StaticVocabulary> {
        self.index
            .static_embeddings
            .as_ref()
            .map(|s| s as &dyn StaticVocabulary)
    }

    fn static_scores(&self, query: &CodeScorer) -> Vec<f64> {
        self.index
            .static_embeddings
            .as_ref()
            .map_or_else(|| vec![0.0; self.passages()], |s| s.scores(query))
    }

    fn phrases(&self) -> &dyn PhraseLookup {
        &self.index
    }

    fn ppr_vector(&self, id: u32, damping: f64) -> Result<Option<Cow<'_, PprVector>>> {
        let Some((graph, inv_degree)) = &self.passage_graph else {
            return Ok(None);
        };
        let n = self.index.phrases.len();
        // A spare state, or a new one; each push leaves its state zeroed for the next.
        let spare = self.push_states.0.lock().ok().and_then(|mut s| s.pop());
        let mut state = spare.unwrap_or_else(|| PushState::new(graph.rows()));
        let v = phrase_ppr_vector_with(&mut state, graph, inv_degree, n, id, damping);
        if let Ok(mut spares) = self.push_states.0.lock() {
            spares.push(state);
        }
        v.map(|v| Some(Cow::Owned(v)))
    }
}
