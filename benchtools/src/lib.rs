//! Benchmark tools for hipporag-wasm, kept outside the product crates:
//!
//! * [`synthetic`] — seeded synthetic indexes of HippoRAG 2's MuSiQue size (Chung–Lu degrees),
//!   built with the indexer's [`hipporag_indexer::graph::GraphBuilder`];
//! * [`export`] — a mode's graph, reset vectors and PPR vectors as `.npz`, for the igraph
//!   reference (`bench/igraph_reference.py`).
//!
//! The `hipporag-bench` binary runs both (`generate`, `export-graph`).

pub mod export;
pub mod synthetic;
