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
//! Each concern is a directory of private modules; its `mod.rs` says what it exports, and
//! each layer imports only the layers listed before it (ARCHITECTURE.md, checked by
//! `tests/layering.rs`):
//!
//! * [`error`] — [`Error`] and the index bytes' [`FormatError`].
//! * [`text`] — text analysis: a text's terms in its language, the phrase normalisation and
//!   the name rules shared by the indexer and the query side, and which words count as near
//!   one another for a search box.
//! * [`embeddings`] — the [`embeddings::Encoder`] trait and the built-in hashed encoder, the
//!   index's embedding matrices, and static word embeddings (a semantic passage score with no
//!   model at query time).
//! * [`lexical`] — BM25 over passage terms, the query expansion of the word being typed and of
//!   a misspelt word, and the deletes dictionary.
//! * [`index`] — the single-file index: its bytes and the loaded [`Index`].
//! * [`graph`] — query entities, their linking to seeds by node specificity, HippoRAG 2's
//!   passage graph, personalized PageRank, the phrase nodes' PPR vectors, ranking and its
//!   explanation.
//! * [`search`] — the options of a search, the hybrid ranking, the single-file [`Retriever`]
//!   and, on wasm32 with the default `bindings` feature, its wasm API.
//! * [`pieces`] — the index in pieces that a static site serves, and [`Pieces`], its query side
//!   (the `hipporag-pieces-wasm` crate is its small wasm module).
//!
//! ## Example
//!
//! The paper's running example in miniature: the indexer builds the bytes offline, the
//! retriever answers a two-hop question from them (natively here; `Retriever.fromBytes` and
//! `retrieve` in the browser).
//!
//! ```
//! use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
//! use hipporag_wasm::embeddings::HashedNgramEncoder;
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

pub mod embeddings;
pub mod error;
pub mod graph;
pub mod index;
pub mod lexical;
pub mod pieces;
pub mod search;
pub mod text;

pub use error::{Error, FormatError, FormatProblem, Result};
pub use index::Index;
pub use pieces::Pieces;
pub use search::{Mode, PprMethod, PprProblem, RetrieveOptions, Retriever};
