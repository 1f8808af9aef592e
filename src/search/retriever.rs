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

use super::fusion::{HybridWeights, PassageSignals, hybrid_scores, name_factor};
use super::options::{Mode, PUSH_EPSILON, PprMethod, RetrieveOptions};
use crate::embeddings::HASHED_NGRAM_ID;
use crate::graph::MinMax;
use crate::graph::entity_seeds;
use crate::graph::top_k;
use crate::graph::{
    LinkedFact, Seed, check_dims, fact_seeds, link_entities, link_facts, reset_vector,
};
use crate::graph::{PhraseScore, RankedPassage, passage_scores, ranked, top_phrases};
use crate::graph::{
    PprOptions, PprResult, inverse_degrees, personalized_pagerank, personalized_pagerank_push,
};
use crate::graph::{PprVector, phrase_ppr_vector};
use crate::index::Index;
use crate::index::SparseMatrix;
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
        }
    }

    /// The index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// Query entities found by the built-in extractor ([`crate::graph`]).
    pub fn extract_entities(&self, question: &str) -> Vec<String> {
        crate::graph::extract_query_entities(question, &self.index)
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
        if opts.top_k == 0 {
            return Err(Error::InvalidRequest("topK must be at least 1".into()));
        }
        if let Some(w) = opts.phrase_weight.filter(|w| !(0.0..=1.0).contains(w)) {
            return Err(Error::InvalidRequest(format!(
                "phraseWeight must be in [0, 1], got {w}"
            )));
        }
        if let Some(e) = q.query_embedding {
            check_dims(&self.index, "queryEmbedding", e.len(), 1)?;
        }
        match opts.mode {
            Mode::Dense => self.dense(q, opts, None),
            Mode::Bm25 => {
                let scores = self.bm25_scores(q)?;
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
                let p = match self.ppr_problem(q, opts)? {
                    Ok(p) => p,
                    Err(why) => return self.dense(q, opts, Some(why)),
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
    /// Returns `Ok(Err(reason))` when the query has no seed (no query entity; no fact left), the
    /// case `retrieve` answers by dense ranking with that reason as [`RetrieveResult::fallback`].
    ///
    /// # Errors
    /// As [`Retriever::retrieve`]; [`Error::InvalidRequest`] for `dense`, `bm25` and `hybrid`.
    pub fn ppr_problem(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
    ) -> Result<std::result::Result<PprProblem<'_>, String>> {
        match opts.mode {
            Mode::Dense | Mode::Bm25 | Mode::Hybrid => Err(Error::InvalidRequest(format!(
                "{} mode poses no single personalized PageRank problem",
                opts.mode
            ))),
            Mode::HippoRag1 => {
                let seeds = self.entity_seeds(q, opts)?;
                if seeds.is_empty() {
                    return Ok(Err("no query entity: ranked by dense retrieval".into()));
                }
                Ok(Ok(PprProblem {
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

    /// The excerpt of a result's `text` for `question` ([`crate::search::excerpt`]): segments
    /// alternating unmarked and marked, the query's words marked where the BM25 dictionary has
    /// them (every query word, in an index without BM25).
    pub fn excerpt(&self, text: &str, question: &str) -> Vec<String> {
        let language = self.index.header.build.language;
        let indexed = |t: &str| {
            self.index
                .bm25
                .as_ref()
                .is_none_or(|b| b.term_id(t).is_some())
        };
        let expanded = self
            .index
            .bm25
            .as_ref()
            .map(|bm25| self.query_terms(bm25, question).expanded)
            .unwrap_or_default();
        crate::search::excerpt(text, question, language, &indexed, &expanded)
    }

    /// `question`'s BM25 query over `bm25`, the index's ([`crate::lexical::query_terms`]).
    fn query_terms(
        &self,
        bm25: &crate::lexical::Bm25,
        question: &str,
    ) -> crate::lexical::QueryTerms {
        let index = &self.index;
        let stop = |t: &str| crate::graph::is_stopword_of(index, t);
        let words = index
            .static_embeddings
            .as_ref()
            .map(|s| s as &dyn crate::embeddings::StaticVocabulary);
        crate::lexical::query_terms(question, bm25.language(), bm25, words, &stop)
    }

    /// BM25 scores of every passage for the question of `q`, with the word being typed and
    /// misspelt words expanded ([`crate::lexical`], [`crate::lexical::Bm25::expanded_scores`]).
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] when the index has no BM25 index or `q` has no question.
    pub fn bm25_scores(&self, q: &QueryInput<'_>) -> Result<Vec<f64>> {
        let Some(bm25) = &self.index.bm25 else {
            return Err(Error::InvalidRequest(
                "the index has no BM25 index: rebuild it with this version of hipporag".into(),
            ));
        };
        let Some(question) = q.question else {
            return Err(Error::InvalidRequest(
                "bm25 and hybrid modes need the question".into(),
            ));
        };
        let query = self.query_terms(bm25, question);
        Ok(bm25.expanded_scores(&query, self.index.passages.len()))
    }

    fn hipporag2_problem(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
    ) -> Result<std::result::Result<PprProblem<'_>, String>> {
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
            return Ok(Err(
                "no fact linked to the query: ranked by dense retrieval".into(),
            ));
        }
        let seeds = fact_seeds(&self.index, &facts, opts.linking_top_k);
        let n = self.index.phrases.len();
        let mut reset = reset_vector(graph.rows(), &seeds);
        let dense = self.dense_scores(qe)?;
        let range = MinMax::of(dense.iter().copied());
        for (j, &d) in dense.iter().enumerate() {
            reset[n + j] = range.scale(d) * opts.passage_node_weight;
        }
        Ok(Ok(PprProblem {
            mode: Mode::HippoRag2,
            graph,
            inv_degree,
            reset,
            seeds,
            facts,
        }))
    }

    /// The `hybrid` mode ([`crate::search`]): the passage share of BM25 (and the static and
    /// dense scores), the graph share of the seeds' PPR vectors, mixed by the graph weight.
    /// The explanation's phrases and contributions come from the seeds' whole walk (the
    /// vectors keep only each seed's best passages).
    fn hybrid(&self, q: &QueryInput<'_>, opts: &RetrieveOptions) -> Result<RetrieveResult> {
        let lexical = self.bm25_scores(q)?;
        let name_factor = match (&self.index.bm25, q.question) {
            (Some(bm25), Some(question)) => name_factor(question, bm25.language(), bm25),
            _ => 1.0,
        };
        let statics = if opts.static_weight > 0.0 {
            self.static_scores(q)
        } else {
            None
        };
        let dense = match q.query_embedding {
            Some(qe)
                if opts.dense_weight > 0.0 && self.index.header.encoder.id != HASHED_NGRAM_ID =>
            {
                Some(self.dense_scores(qe)?)
            }
            _ => None,
        };
        let Some((graph, inv_degree)) = &self.passage_graph else {
            unreachable!("an index with BM25 has its passage graph")
        };
        let n = self.index.phrases.len();
        // With no graph share the explanation lists no seed: none would carry weight.
        let embedded = q.embeddings.len() == q.entities.len() * self.index.dim();
        let mut seeds = if opts.phrase_weight == Some(0.0) || opts.damping == 0.0 {
            Vec::new()
        } else if opts.exact_seeds || !embedded || q.entities.is_empty() {
            entity_seeds(q.entities, &self.index)
        } else {
            // Nearest phrase nodes; a node linked twice is one seed (as `reset_vector` keeps it).
            let mut linked = self.entity_seeds(q, opts)?;
            let mut seen = std::collections::HashSet::new();
            linked.retain(|s| seen.insert(s.phrase_id));
            linked
        };
        let vectors = seeds
            .iter()
            .map(|s| phrase_ppr_vector(graph, inv_degree, n, s.phrase_id, opts.damping))
            .collect::<Result<Vec<PprVector>>>()?;
        let weighted: Vec<(f64, &PprVector)> =
            seeds.iter().map(|s| s.weight).zip(&vectors).collect();
        let signals = PassageSignals {
            bm25: &lexical,
            statics: statics.as_deref(),
            dense: dense.as_deref(),
            pages: &self.index.pages,
        };
        let weights = HybridWeights {
            static_weight: opts.static_weight,
            dense_weight: opts.dense_weight,
            phrase_weight: opts.phrase_weight,
            name_factor,
        };
        let Some(h) = hybrid_scores(&signals, &weighted, &weights) else {
            return self.dense(
                q,
                opts,
                Some(
                    "no query entity and no query term in the index: ranked by dense retrieval"
                        .into(),
                ),
            );
        };
        if h.graph_weight == 0.0 {
            seeds.clear();
        }
        // Each seed's weight becomes its share of the score, as the explanation shows it.
        let mass: f64 = seeds.iter().map(|s| s.weight).sum();
        for s in &mut seeds {
            s.weight *= h.graph_weight / mass;
        }
        let walk = if seeds.is_empty() {
            None
        } else {
            let reset = reset_vector(graph.rows(), &seeds);
            Some(self.run_ppr(graph, inv_degree, &reset, opts)?)
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
            seeds,
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

    /// Static-embedding scores of the question of `q` ([`crate::embeddings`]): cosine of
    /// its static vector with every passage's (`|P|` values); `None` when the index has no static
    /// embeddings, `q` has no question, or no question word is in their vocabulary. The words
    /// BM25 matches within one edit stand for their neighbours here too
    /// ([`crate::lexical::misspelt_words`]).
    pub fn static_scores(&self, q: &QueryInput<'_>) -> Option<Vec<f64>> {
        let statics = self.index.static_embeddings.as_ref()?;
        let question = q.question?;
        let index = &self.index;
        let stop = |t: &str| crate::graph::is_stopword_of(index, t);
        let misspelt: Vec<String> = match &index.bm25 {
            Some(bm25) => {
                let lacks = |t: &str| bm25.term_id(t).is_none();
                let uncompleted =
                    |t: &str| !crate::lexical::TermDictionary::has_completion(bm25, t);
                crate::lexical::misspelt_words(
                    question,
                    bm25.language(),
                    &stop,
                    &lacks,
                    &uncompleted,
                )
                .into_iter()
                .map(|m| m.word)
                .collect()
            }
            None => Vec::new(),
        };
        statics.scores(question, &misspelt)
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
