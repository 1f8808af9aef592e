//! The retriever: one loaded index answering queries, natively and in wasm alike.
//!
//! Modes ([`Mode`]):
//! * `hipporag1` — HippoRAG §3.2: query entities → seeds (nearest phrase nodes) weighted by node
//!   specificity → personalized PageRank over the phrase graph → passages ranked by `Pᵀ·ppr`.
//! * `hipporag2` — HippoRAG 2 (arXiv 2502.14802) without its LLM filter: the query embedding →
//!   top `linking_top_k` facts by cosine ([`link_facts`]) → seed phrases weighted by fact score ×
//!   node specificity, top `linking_top_k` kept ([`fact_seeds`]) → plus every passage node
//!   weighted by its min-max-normalised dense score × `passage_node_weight` (0.05) → PPR over
//!   phrase and passage nodes ([`crate::passage_graph`]) → passages ranked by their own PPR
//!   probability. A caller with an LLM may pass the facts that survive its recognition-memory
//!   filter ([`QueryInput::fact_ids`]); the reference's defaults are `linking_top_k` = 5,
//!   passage node weight 0.05, damping 0.5.
//! * `dense` — cosine of the query embedding with each passage embedding (the dense baseline).
//!
//! **Fallback.** A `hipporag1` query with no query entity (the caller's NER and the built-in
//! extractor found none), or a `hipporag2` query with no fact left (as the reference does), is
//! answered by dense ranking when a query embedding is given, and [`RetrieveResult::fallback`]
//! says so; without a query embedding it is an error. The ranking is never a uniform PPR over
//! all nodes.

use serde::{Deserialize, Serialize};

use crate::index::Index;
use crate::index::SparseMatrix;
use crate::linking::{
    LinkedFact, Seed, check_dims, fact_seeds, link_entities, link_facts, reset_vector,
};
use crate::ppr::{
    PprOptions, PprResult, inverse_degrees, personalized_pagerank, personalized_pagerank_push,
};
use crate::rank::{PhraseScore, RankedPassage, passage_scores, ranked, top_k, top_phrases};
use crate::{Error, Result};

/// Retrieval mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Mode {
    /// HippoRAG 1: NER-to-node linking, PPR over phrases, `Pᵀ·ppr`.
    #[default]
    #[serde(rename = "hipporag1")]
    #[cfg_attr(feature = "cli", value(name = "hipporag1"))]
    HippoRag1,
    /// HippoRAG 2: query-to-triple linking, passage nodes in the graph, PPR ranking of passages.
    #[serde(rename = "hipporag2")]
    #[cfg_attr(feature = "cli", value(name = "hipporag2"))]
    HippoRag2,
    /// Dense retrieval: query–passage cosine.
    #[serde(rename = "dense")]
    #[cfg_attr(feature = "cli", value(name = "dense"))]
    Dense,
}

/// How personalized PageRank is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PprMethod {
    /// Forward push for `hipporag1`, the exact solver for `hipporag2` (the default). Measured on
    /// the 100 musique_train questions in wasm (Node): push at ε = 1e-7 returns the exact top-5
    /// for 99/99 in hipporag1 mode, 0.41 ms a query against 1.67 ms exact; in hipporag2 mode
    /// every passage node is a seed, push needs ε = 1e-8 to agree on 100/100 and is then
    /// slower than the exact solver (4.5 vs 4.3 ms before Gauss–Seidel, 2.9 ms after).
    #[default]
    Auto,
    /// Gauss–Seidel iteration to `tolerance` ([`personalized_pagerank`]).
    Exact,
    /// Forward push to `push_epsilon` ([`crate::ppr::personalized_pagerank_push`]).
    Push,
}

/// Options of one retrieval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RetrieveOptions {
    /// Passages to return.
    pub top_k: usize,
    /// Retrieval mode.
    pub mode: Mode,
    /// PPR damping (probability of following an edge); HippoRAG uses 0.5.
    pub damping: f64,
    /// PPR L1 tolerance.
    pub tolerance: f64,
    /// PPR iteration cap.
    pub max_iterations: u32,
    /// PPR algorithm.
    pub ppr: PprMethod,
    /// Forward-push residual bound per unit of weighted degree.
    pub push_epsilon: f64,
    /// Top PPR phrases reported in the explanation.
    pub top_phrases: usize,
    /// Contributing phrases reported per passage.
    pub contributions: usize,
    /// HippoRAG 2: facts linked to the query, and seed phrases kept (reference: 5).
    pub linking_top_k: usize,
    /// HippoRAG 1 seed linking: rows rescored per entity after the binary-code prefilter
    /// (0 = exact scan of every phrase, the default: with the lexical encoder's sparse vectors
    /// the prefilter changes 1–3% of seeds on musique_train even at 256 candidates).
    pub linking_candidates: usize,
    /// HippoRAG 2: reset weight scale of passage nodes (reference: 0.05).
    pub passage_node_weight: f64,
}

impl Default for RetrieveOptions {
    fn default() -> Self {
        let ppr = PprOptions::default();
        Self {
            top_k: 5,
            mode: Mode::default(),
            damping: ppr.damping,
            tolerance: ppr.tolerance,
            max_iterations: ppr.max_iterations,
            ppr: PprMethod::default(),
            push_epsilon: 1e-7,
            top_phrases: 10,
            contributions: 5,
            linking_top_k: 5,
            linking_candidates: 0,
            passage_node_weight: 0.05,
        }
    }
}

/// The query as the retriever sees it: entities and embeddings computed by the caller.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueryInput<'a> {
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
    /// PPR iterations run (0 for dense).
    pub ppr_iterations: u32,
}

/// A loaded index plus the per-graph constants retrieval needs.
#[derive(Debug, Clone)]
pub struct Retriever {
    index: Index,
    inv_degree: Vec<f64>,
    /// HippoRAG 2's phrase + passage graph and its inverse degrees, when the index has facts.
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
        let passage_graph = index.fact_vectors.as_ref().map(|_| {
            let g = crate::passage_graph::build(&index);
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

    /// Query entities found by the built-in extractor ([`crate::query`]).
    pub fn extract_entities(&self, question: &str) -> Vec<String> {
        crate::query::extract_query_entities(question, &self.index)
    }

    /// Ranks passages for one query.
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] when an embedding does not fit the index's encoder;
    /// [`Error::InvalidRequest`] for `top_k == 0`, bad PPR options, or a query with neither
    /// entities nor a query embedding.
    pub fn retrieve(&self, q: &QueryInput<'_>, opts: &RetrieveOptions) -> Result<RetrieveResult> {
        if opts.top_k == 0 {
            return Err(Error::InvalidRequest("topK must be at least 1".into()));
        }
        if let Some(e) = q.query_embedding {
            check_dims(&self.index, "queryEmbedding", e.len(), 1)?;
        }
        match opts.mode {
            Mode::Dense => self.dense(q, opts, None),
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
                    ppr_iterations: ppr.iterations,
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
    /// its PPR solver ([`personalized_pagerank`] or, per [`RetrieveOptions::ppr`],
    /// [`personalized_pagerank_push`]), with the seeds (and HippoRAG 2's linked facts) behind
    /// it. `retrieve` itself calls this, so an exported problem is exactly what it solved.
    ///
    /// * `hipporag1`: graph = the phrase graph (`|N|` nodes); `reset[i]` = the node specificity of
    ///   each seed phrase `i` ([`link_entities`], [`reset_vector`]), 0 elsewhere.
    /// * `hipporag2`: graph = phrase + passage nodes ([`crate::passage_graph`], `|N| + |P|`);
    ///   `reset` = the seed weights of [`fact_seeds`] on phrases, plus on every passage node
    ///   `|N| + j` its min-max-normalised dense score × `passage_node_weight`.
    ///
    /// The reset vector is unnormalised (PPR rescales it to sum 1, as igraph does).
    ///
    /// Returns `Ok(Err(reason))` when the query has no seed (no query entity; no fact left), the
    /// case `retrieve` answers by dense ranking with that reason as [`RetrieveResult::fallback`].
    ///
    /// # Errors
    /// As [`Retriever::retrieve`]; [`Error::InvalidRequest`] for `Mode::Dense` (no PPR).
    pub fn ppr_problem(
        &self,
        q: &QueryInput<'_>,
        opts: &RetrieveOptions,
    ) -> Result<std::result::Result<PprProblem<'_>, String>> {
        match opts.mode {
            Mode::Dense => Err(Error::InvalidRequest(
                "dense mode runs no personalized PageRank".into(),
            )),
            Mode::HippoRag1 => {
                let seeds = link_entities(
                    &self.index,
                    q.entities,
                    q.embeddings,
                    opts.linking_candidates,
                )?;
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
        let (lo, hi) = dense
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &c| {
                (lo.min(c), hi.max(c))
            });
        for (j, d) in dense.iter().enumerate() {
            let norm = if hi > lo { (d - lo) / (hi - lo) } else { 1.0 };
            reset[n + j] = norm * opts.passage_node_weight;
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

    fn run_ppr(
        &self,
        graph: &SparseMatrix,
        inv_degree: &[f64],
        reset: &[f64],
        opts: &RetrieveOptions,
    ) -> Result<PprResult> {
        let method = match (opts.ppr, opts.mode) {
            (PprMethod::Auto, Mode::HippoRag1) => PprMethod::Push,
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
                opts.push_epsilon,
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
            ppr_iterations: 0,
        })
    }
}

#[cfg(all(test, feature = "indexer"))]
pub(crate) mod tests {
    use super::*;
    use crate::encoder::{Encoder, HashedNgramEncoder};
    use crate::graph::{BuildOptions, build_index};
    use crate::index::Passage;
    use crate::openie::OpenIeDoc;

    /// The paper's running example in miniature.
    pub(crate) fn tiny_index() -> Index {
        let t = |s: &[[&str; 3]]| OpenIeDoc {
            extracted_triples: s.iter().map(|t| t.map(String::from)).collect(),
            ..Default::default()
        };
        let docs = vec![
            t(&[
                ["Thomas Südhof", "professor at", "Stanford University"],
                ["Thomas Südhof", "studies", "neurotransmitter release"],
            ]),
            t(&[
                ["Thomas Südhof", "researches", "Alzheimer's disease"],
                ["Alzheimer's disease", "is a", "neurodegenerative disease"],
            ]),
            t(&[
                ["Stanford University", "located in", "California"],
                ["Stanford University", "founded in", "1891"],
            ]),
            t(&[["Paris", "capital of", "France"]]),
        ];
        let texts = [
            "Thomas Südhof is a professor at Stanford who studies neurotransmitter release.",
            "Südhof researches Alzheimer's disease, a neurodegenerative disease.",
            "Stanford University, founded in 1891, is in California.",
            "Paris is the capital of France.",
        ];
        let passages = texts
            .iter()
            .enumerate()
            .map(|(i, t)| Passage {
                title: format!("P{i}"),
                text: t.to_string(),
                url: Some(format!("/p{i}#x")),
            })
            .collect();
        let opts = BuildOptions {
            fact_vectors: true,
            ..Default::default()
        };
        let (data, _) =
            build_index(passages, &docs, &HashedNgramEncoder::default(), &opts, &()).unwrap();
        Index::from_bytes(&data.to_bytes()).unwrap()
    }

    #[test]
    fn multi_hop_through_a_shared_phrase() {
        let r = Retriever::from_index(tiny_index());
        let enc = HashedNgramEncoder::default();
        let entities = vec!["Stanford".to_string(), "Alzheimer's".to_string()];
        let refs: Vec<&str> = entities.iter().map(String::as_str).collect();
        let emb = enc.encode(&refs).unwrap();
        let q = QueryInput {
            entities: &entities,
            embeddings: &emb,
            query_embedding: None,
            fact_ids: None,
        };
        let res = r
            .retrieve(
                &q,
                &RetrieveOptions {
                    top_k: 4,
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!(res.seeds[0].phrase, "stanford university");
        assert_eq!(res.seeds[1].phrase, "alzheimer s disease");
        // The Südhof passages (0, 1) connect both seeds and outrank the Paris passage.
        let ids: Vec<u32> = res.passages.iter().map(|p| p.id).collect();
        assert_eq!(*ids.last().unwrap(), 3, "{ids:?}");
        assert!(ids[..2].contains(&0) && ids[..3].contains(&1), "{ids:?}");
        assert!(!res.passages[0].contributions.is_empty());
        assert_eq!(
            res.passages[0].url.as_deref(),
            Some(format!("/p{}#x", ids[0]).as_str())
        );
    }

    #[test]
    fn no_entity_falls_back_to_dense_or_errors() {
        let r = Retriever::from_index(tiny_index());
        let qe = HashedNgramEncoder::default()
            .encode(&["capital of France"])
            .unwrap();
        let q = QueryInput {
            entities: &[],
            embeddings: &[],
            query_embedding: Some(&qe),
            fact_ids: None,
        };
        let res = r.retrieve(&q, &RetrieveOptions::default()).unwrap();
        assert_eq!(res.mode, Mode::Dense);
        assert!(res.fallback.is_some());
        assert_eq!(res.passages[0].id, 3);
        let none = QueryInput::default();
        assert!(matches!(
            r.retrieve(&none, &RetrieveOptions::default()),
            Err(Error::InvalidRequest(_))
        ));
    }

    #[test]
    fn dimension_mismatch_is_an_error() {
        let r = Retriever::from_index(tiny_index());
        let entities = vec!["x".to_string()];
        let q = QueryInput {
            entities: &entities,
            embeddings: &[0.0; 10],
            query_embedding: None,
            fact_ids: None,
        };
        let e = r.retrieve(&q, &RetrieveOptions::default()).unwrap_err();
        assert!(
            matches!(
                e,
                Error::DimensionMismatch {
                    expected: 384,
                    found: 10,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("hashed-ngram-v1"));
    }

    #[test]
    fn hipporag2_links_facts_seeds_phrases_and_ranks_passage_nodes() {
        let r = Retriever::from_index(tiny_index());
        let enc = HashedNgramEncoder::default();
        let qe = enc
            .encode(&["thomas sudhof researches alzheimer s disease"])
            .unwrap();
        let q = QueryInput {
            query_embedding: Some(&qe),
            ..Default::default()
        };
        let opts = RetrieveOptions {
            mode: Mode::HippoRag2,
            top_k: 4,
            ..Default::default()
        };
        let res = r.retrieve(&q, &opts).unwrap();
        assert_eq!(res.mode, Mode::HippoRag2);
        assert_eq!(res.facts.len(), 5);
        assert_eq!(res.facts[0].relation, "researches", "{:?}", res.facts);
        assert_eq!(res.facts[0].score, 1.0);
        assert!(res.facts.windows(2).all(|w| w[0].cosine >= w[1].cosine));
        // Seeds: at most linking_top_k phrases, weights = mean(fact score × specificity).
        assert!(!res.seeds.is_empty() && res.seeds.len() <= 5);
        let top = &res.seeds[0];
        assert!(top.weight > 0.0 && top.weight <= f64::from(top.specificity) + 1e-12);
        // The passage holding the linked fact ranks first.
        assert_eq!(res.passages[0].id, 1, "{:?}", res.passages);
        assert!(res.passages.windows(2).all(|w| w[0].score >= w[1].score));

        // A recognition-memory filter keeping one fact: its passage still wins, seeds come from it.
        let keep = [res.facts[0].fact_id];
        let q = QueryInput {
            query_embedding: Some(&qe),
            fact_ids: Some(&keep),
            ..Default::default()
        };
        let res = r.retrieve(&q, &opts).unwrap();
        assert_eq!(res.facts.len(), 1);
        assert_eq!(res.seeds.len(), 2);
        assert_eq!(res.passages[0].id, 1);
        // A filter keeping nothing: dense fallback, said so.
        let q = QueryInput {
            query_embedding: Some(&qe),
            fact_ids: Some(&[]),
            ..Default::default()
        };
        let res = r.retrieve(&q, &opts).unwrap();
        assert_eq!(res.mode, Mode::Dense);
        assert!(res.fallback.as_deref().unwrap().contains("no fact"));
    }

    #[test]
    fn passage_graph_adds_symmetric_unit_passage_edges() {
        let idx = tiny_index();
        let g = crate::passage_graph::build(&idx);
        let (n, np) = (idx.phrases.len(), idx.passages.len());
        assert_eq!(g.rows(), n + np);
        assert_eq!(g.nnz(), idx.graph.nnz() + 2 * idx.passage_phrases.nnz());
        for (w, (i, j)) in g.iter() {
            let (i, j) = (i as usize, j as usize);
            assert_eq!(g.get(j, i), Some(w), "symmetric at ({i}, {j})");
            if i >= n || j >= n {
                assert_eq!(*w, 1.0);
            }
        }
        let paris = idx.phrase_id("paris").unwrap() as usize;
        assert_eq!(g.get(paris, n + 3), Some(&1.0));
        assert_eq!(g.get(paris, n), None);
    }
}
