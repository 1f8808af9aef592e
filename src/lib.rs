//! # hipporag-wasm
//!
//! HippoRAG multi-hop retrieval (Gutiérrez et al., NeurIPS 2024, arXiv 2405.14831) as a native
//! indexer and a WebAssembly retriever that runs entirely in the browser.
//!
//! ## The data path, module by module
//!
//! ```text
//!  corpus ──► openie ──► graph (+ synonymy) ──► index (postcard bytes)     [native: `hipporag index`]
//!                                                   │
//!                                                   ▼
//!            query entities ──► linking ──► ppr ──► rank ──► ranked passages  [native or wasm]
//! ```
//!
//! * [`corpus`] — passages `[{title, text, url?}]` from JSON or JSON Lines (indexer feature).
//! * [`openie`] — named entities and triples per passage: HippoRAG's OpenIE files, the no-LLM
//!   rule extractor (`openie::rules`), and LLM OpenIE with cache and resume (`openie::llm`,
//!   feature `llm`) (indexer).
//! * [`normalize`] — the phrase normalisation shared by indexing and querying.
//! * [`encoder`] — the [`encoder::Encoder`] trait and the download-free hashed n-gram default.
//! * [`graph`] — phrase nodes, triple edges, synonymy edges, the passage-node matrix P (indexer).
//! * [`vectors`] — embedding matrices, f32 or int8-quantised, and cosine search over them.
//! * [`index`] — the index file: header, payload, validation, atomic writes.
//! * [`query`] — the no-LLM query-entity extractor (longest phrase matches + capitalised spans).
//! * [`linking`] — query entities → query nodes (seeds) weighted by node specificity; HippoRAG 2's
//!   query-to-triple linking.
//! * [`passage_graph`] — HippoRAG 2's graph: phrase nodes plus passage nodes.
//! * [`ppr`] — personalized PageRank on the CSR graph: Gauss–Seidel iteration and forward push.
//! * [`rank`] — passage scores `Pᵀ·ppr`, top-k and the explanation.
//! * [`retriever`] — the public entry point tying linking, PPR and ranking together.
//! * [`subgraph`] — the edges among chosen phrase nodes (the explanation's activated subgraph).
//! * `wasm` — the wasm-bindgen API (`Retriever.fromBytes`, `retrieve`, `subgraph`), on wasm32 only.
//! * [`eval`] — recall@k on MuSiQue-style question files (indexer).
//! * [`site`] — `hipporag site DIR`: a built static site's pages → passages at headings with
//!   `url#anchor` → an index, the wasm and a default UI in `DIR/_hipporag/` (site feature).
//! * `cli` — the `hipporag` companion binary (cli feature).
//! * [`export`] — `hipporag export-graph`: graphs, reset vectors and PPR vectors for an
//!   independent reference (igraph) (cli feature).
//! * [`synthetic`] — `hipporag generate`: seeded synthetic indexes at HippoRAG 2's MuSiQue
//!   scale, for benchmarks (cli feature).

pub mod encoder;
pub mod error;
pub mod index;
pub mod linking;
pub mod normalize;
pub mod passage_graph;
pub mod ppr;
pub mod query;
pub mod rank;
pub mod retriever;
pub mod subgraph;
pub mod vectors;

#[cfg(feature = "indexer")]
pub mod corpus;
#[cfg(feature = "indexer")]
pub mod eval;
#[cfg(feature = "indexer")]
pub mod graph;
#[cfg(feature = "indexer")]
pub mod json;
#[cfg(feature = "indexer")]
pub mod openie;

#[cfg(feature = "site")]
pub mod site;

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod export;
#[cfg(feature = "cli")]
pub mod synthetic;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, Result};
pub use index::Index;
pub use retriever::{Mode, PprProblem, RetrieveOptions, Retriever};
