#![warn(missing_docs)]
//! # hipporag-wasm
//!
//! HippoRAG multi-hop retrieval (Gutiérrez et al., NeurIPS 2024, arXiv 2405.14831): the retriever
//! core, the crate the browser loads as WebAssembly. It reads an index (the bytes the
//! `hipporag-indexer` crate writes), links query entities to phrase nodes, runs personalized
//! PageRank and ranks passages, natively and in wasm alike. It has no dependency that cannot
//! run in a browser; its one feature, `bindings` (default), exports the retriever's wasm API.
//!
//! ## The data path, module by module
//!
//! ```text
//!  [hipporag-indexer]  corpus ──► openie ──► graph (+ synonymy) ──► index bytes (postcard)
//!                                                                      │
//!  [this crate]                                                        ▼
//!      index ──► query entities ──► linking (seeds) ──► ppr ──► rank ──► ranked passages
//! ```
//!
//! * [`analysis`] — the terms of a text (word boundaries, stemming), for BM25.
//! * [`bm25`] — BM25 over passage terms (the `bm25` and `hybrid` modes).
//! * [`excerpt`] — a result's excerpt: the window with the most query terms, those marked.
//! * [`expansion`] — the word being typed matched as a prefix, a misspelt word within one edit.
//! * [`static_embeddings`] — static word embeddings distilled from the index-time encoder: the
//!   `hybrid` mode's semantic passage score with no model at query time.
//! * [`index`] — the index file: header, payload, validation ([`Index`]).
//! * [`vectors`] — embedding matrices, f32 or int8-quantised, and cosine search over them.
//! * [`normalize`] — the phrase normalisation shared by indexing and querying.
//! * [`encoder`] — the [`encoder::Encoder`] trait and the download-free hashed n-gram encoder.
//! * [`names`] — what marks a name in text, shared by the indexer's rule extractor and
//!   [`query`].
//! * [`query`] — the no-LLM query-entity extractor (longest phrase matches + capitalised spans).
//! * [`linking`] — query entities → query nodes (seeds) weighted by node specificity; HippoRAG 2's
//!   query-to-triple linking.
//! * [`passage_graph`] — HippoRAG 2's graph: phrase nodes plus passage nodes.
//! * [`ppr`] — personalized PageRank on the CSR graph: Gauss–Seidel iteration and forward push.
//! * [`rank`] — passage scores `Pᵀ·ppr` and the explanation; [`scores`] — top-k and min-max.
//! * [`retriever`] — the public entry point tying linking, PPR and ranking together.
//! * [`subgraph`] — the edges among chosen phrase nodes (the explanation's activated subgraph).
//! * [`error`] — [`Error`] and the index [`error::FormatError`].
//! * [`split`] — the index in pieces that a static site serves, and [`split::SplitIndex`], its
//!   query side (the `hipporag-search` crate is its small wasm module).
//! * `wasm` — the wasm-bindgen API (`Retriever.fromBytes`, `retrieve`, `subgraph`), on wasm32
//!   with the default `bindings` feature; `js_error` — core errors as JS `Error`s, on wasm32.
//!
//! ## Example
//!
//! The paper's running example in miniature: the indexer builds the bytes offline, the
//! retriever answers a two-hop question from them (natively here; `Retriever.fromBytes` and
//! `retrieve` in the browser).
//!
//! ```
//! use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
//! use hipporag_wasm::encoder::HashedNgramEncoder;
//! use hipporag_wasm::index::Passage;
//! use hipporag_wasm::{RetrieveOptions, Retriever};
//!
//! let triple = |s: &str, r: &str, o: &str| [s.to_string(), r.to_string(), o.to_string()];
//! let passage = |title: &str, text: &str| Passage {
//!     title: title.into(),
//!     text: text.into(),
//!     url: None,
//! };
//! let mut graph = GraphBuilder::new();
//! graph.add_passage(
//!     passage("Thomas Südhof", "Thomas Südhof is a professor at Stanford University."),
//!     &[triple("Thomas Südhof", "professor at", "Stanford University")],
//! );
//! graph.add_passage(
//!     passage("Südhof's research", "Südhof studies the neuroscience of Alzheimer's disease."),
//!     &[triple("Thomas Südhof", "researches", "Alzheimer's disease")],
//! );
//! graph.add_passage(
//!     passage("Paris", "Paris is the capital of France."),
//!     &[triple("Paris", "capital of", "France")],
//! );
//! let encoder = HashedNgramEncoder::default();
//! let (data, _) = graph.build(&encoder, &BuildOptions::default(), &())?;
//! let bytes = data.to_bytes(); // what `hipporag index` writes
//!
//! let retriever = Retriever::from_bytes(&bytes)?;
//! let question = "Which Stanford University professor works on Alzheimer's disease?";
//! let query = retriever.prepare_query(question, None, &encoder)?;
//! let result = retriever.retrieve(&query.input(), &RetrieveOptions::default())?;
//! // Phrase nodes found verbatim first, then capitalised spans ("Alzheimer's").
//! assert_eq!(query.entities[..2], ["stanford university", "alzheimer s disease"]);
//! assert_ne!(result.passages[0].title, "Paris");
//! assert_eq!(result.passages.last().unwrap().title, "Paris");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ARCHITECTURE.md (at the repository root) says which crate owns which step and what each may
//! import.

pub mod analysis;
pub mod bm25;
pub mod deletes;
pub mod encoder;
pub mod error;
pub mod excerpt;
pub mod expansion;
pub mod fusion;
pub mod index;
pub mod length_norm;
pub mod linking;
pub mod names;
pub mod normalize;
pub mod passage_graph;
pub mod ppr;
pub mod ppr_vectors;
pub mod query;
pub mod rank;
pub mod retriever;
pub mod scores;
pub mod sparse;
pub mod split;
pub mod static_embeddings;
pub mod subgraph;
pub mod vectors;

#[cfg(all(target_arch = "wasm32", feature = "bindings"))]
pub mod wasm;

#[cfg(target_arch = "wasm32")]
pub mod js_error;

pub use error::{Error, FormatError, FormatProblem, Result};
pub use index::Index;
pub use retriever::{Mode, PprProblem, RetrieveOptions, Retriever};
