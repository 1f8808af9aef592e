//! The retriever: one loaded index answering queries, natively and in wasm alike.
//!
//! Modes ([`Mode`]):
//! * `hipporag1` — HippoRAG §3.2: query entities → seeds (nearest phrase nodes) weighted by node
//!   specificity → personalized PageRank over the phrase graph → passages ranked by `Pᵀ·ppr`.
//! * `dense` — cosine of the query embedding with each passage embedding (the dense baseline).
//!
//! **Fallback.** A `hipporag1` query with no query entity (the caller's NER and the built-in
//! extractor found none) is answered by dense ranking when a query embedding is given, and
//! [`RetrieveResult::fallback`] says so; without a query embedding it is an error. The ranking is
//! never a uniform PPR over all nodes.

use serde::{Deserialize, Serialize};

use crate::index::Index;
use crate::linking::{Seed, check_dims, link_entities, reset_vector};
use crate::ppr::{PprOptions, inverse_degrees, personalized_pagerank};
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
    /// Dense retrieval: query–passage cosine.
    #[serde(rename = "dense")]
    #[cfg_attr(feature = "cli", value(name = "dense"))]
    Dense,
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
    /// Top PPR phrases reported in the explanation.
    pub top_phrases: usize,
    /// Contributing phrases reported per passage.
    pub contributions: usize,
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
            top_phrases: 10,
            contributions: 5,
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
    /// The whole query's embedding (`dim` values): dense mode and the no-entity fallback.
    pub query_embedding: Option<&'a [f32]>,
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
    /// Query entities → seed phrases (cosine, specificity).
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
}

impl Retriever {
    /// Validates and loads index bytes (see [`crate::index`] for the errors).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Ok(Self::from_index(Index::from_bytes(bytes)?))
    }

    /// Wraps a loaded index.
    pub fn from_index(index: Index) -> Self {
        let inv_degree = inverse_degrees(&index.graph);
        Self { index, inv_degree }
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
            Mode::HippoRag1 => {
                let seeds = link_entities(&self.index, q.entities, q.embeddings)?;
                if seeds.is_empty() {
                    return self.dense(
                        q,
                        opts,
                        Some("no query entity: ranked by dense retrieval".into()),
                    );
                }
                let reset = reset_vector(&self.index, &seeds);
                let ppr = personalized_pagerank(
                    &self.index.graph,
                    &self.inv_degree,
                    &reset,
                    &self.ppr_options(opts),
                )?;
                let scores = passage_scores(&self.index, &ppr.scores);
                let top = top_k(&scores, opts.top_k);
                Ok(RetrieveResult {
                    mode: Mode::HippoRag1,
                    fallback: None,
                    seeds,
                    top_phrases: top_phrases(&self.index, &ppr.scores, opts.top_phrases),
                    passages: ranked(&self.index, &top, Some(&ppr.scores), opts.contributions),
                    ppr_iterations: ppr.iterations,
                })
            }
        }
    }

    fn ppr_options(&self, opts: &RetrieveOptions) -> PprOptions {
        PprOptions {
            damping: opts.damping,
            tolerance: opts.tolerance,
            max_iterations: opts.max_iterations,
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
        let (data, _) = build_index(
            passages,
            &docs,
            &HashedNgramEncoder::default(),
            &BuildOptions::default(),
            &(),
        )
        .unwrap();
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
}
