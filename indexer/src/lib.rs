#![warn(missing_docs)]
//! # hipporag-indexer
//!
//! HippoRAG's offline indexing (arXiv 2405.14831 §3.1) for the `hipporag-wasm` retriever: a
//! corpus of passages → OpenIE (named entities and triples: HippoRAG's files, the no-LLM rule
//! extractor, or an OpenAI-compatible LLM) → phrase nodes, triple edges, synonymy edges and the
//! passage-node matrix ([`graph::GraphBuilder`]) → the index bytes the retriever loads.
//!
//! The crate builds for wasm32 with `--no-default-features`: the rule extractor, the hashed
//! encoder, graph and synonymy construction and the index writer stay; the file system
//! (`fs`), rayon (`parallel`), the LLM client (`llm`), `hipporag site` (`site`) and candle
//! (`minilm`) are features.
//!
//! * [`corpus`] — passages `[{title, text, url?}]` from JSON or JSON Lines.
//! * [`datasets`] — the question files of MuSiQue, SQuAD, HotpotQA and 2WikiMultihopQA.
//! * [`language`] — the corpus language by detection, when the user does not name it.
//! * [`pipeline`] — passages → rules → index, as `hipporag index` and the browser run it.
//! * [`openie`] — OpenIE documents: import, the rule extractor, the LLM client and its cache.
//! * [`graph`] — [`graph::GraphBuilder`] and exact synonymy neighbours.
//! * [`bm25`] — the BM25 index of the passages.
//! * [`static_embeddings`] — static word embeddings distilled from an encoder (the hybrid
//!   mode's semantic signal with no model at query time).
//! * [`ivf`] — the IVF clusters of the static passage codes: k-means, bounded clusters.
//! * [`parallel`] — order-preserving parallel maps (feature `parallel`).
//! * [`eval`] — recall@k on those question files, and page-level recall on docs questions.
//! * [`site`] — `hipporag site DIR` (feature `site`).
//! * [`files`] — atomic file writes and reading index files (feature `fs`).

pub mod bm25;
pub mod corpus;
pub mod datasets;
pub mod error;
pub mod eval;
#[cfg(feature = "fs")]
pub mod files;
pub mod graph;
pub mod hex;
pub mod ivf;
pub mod json;
pub mod language;
pub mod lexicon;
#[cfg(feature = "minilm")]
pub mod minilm;
pub mod openie;
pub mod parallel;
pub mod pieces;
pub mod pipeline;
pub mod progress;
#[cfg(feature = "site")]
pub mod site;
pub mod static_embeddings;

pub use error::{Error, Result};
