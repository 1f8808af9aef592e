//! The sparse matrix type shared by the graph, the passage-node matrix and PPR.

/// A sparse matrix in CSR with `f32` values and `u32` indices (sprs): the phrase graph
/// (`|N| × |N|`, symmetric), `Pᵀ` (`|P| × |N|`) and `P` (`|N| × |P|`).
pub type SparseMatrix = sprs::CsMatI<f32, u32>;
