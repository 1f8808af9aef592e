//! HippoRAG 2's graph: the phrase graph plus one node per passage (arXiv 2502.14802, §3).
//!
//! Node ids `0..|N|` are the phrase nodes, `|N|..|N|+|P|` the passage nodes (passage `j` is node
//! `|N| + j`). Edges: every phrase–phrase edge of the stored graph (triple edges weighted by
//! count, synonymy edges by cosine), plus an undirected passage–phrase edge of weight 1.0 between
//! passage `j` and each phrase that is a subject or object of one of its triples (the non-zeros
//! of `Pᵀ`) — the reference's `add_passage_edges` ("contains" edges of weight 1.0).
//!
//! It is derived at load time from data the index already stores, so the file carries no second
//! copy of the graph. Rows stay sorted: passage columns all follow phrase columns.

use sprs::CsMatI;

use crate::index::Index;
use crate::index::SparseMatrix;

/// Weight of a passage–phrase edge (reference: 1.0).
pub const PASSAGE_EDGE_WEIGHT: f32 = 1.0;

/// Builds the `(|N|+|P|)²` symmetric CSR graph described in the module docs.
pub fn build_passage_graph(index: &Index) -> SparseMatrix {
    let (n, np) = (index.phrases.len(), index.passages.len());
    let g = &index.graph;
    let (pp, pt) = (&index.phrase_passages, &index.passage_phrases);
    let nnz = g.nnz() + 2 * pt.nnz();
    let mut indptr = Vec::with_capacity(n + np + 1);
    let mut indices = Vec::with_capacity(nnz);
    let mut data = Vec::with_capacity(nnz);
    indptr.push(0u32);
    for i in 0..n {
        if let Some(row) = g.outer_view(i) {
            for (j, &w) in row.iter() {
                indices.push(j as u32);
                data.push(w);
            }
        }
        if let Some(row) = pp.outer_view(i) {
            for (j, _) in row.iter() {
                indices.push((n + j) as u32);
                data.push(PASSAGE_EDGE_WEIGHT);
            }
        }
        indptr.push(indices.len() as u32);
    }
    for j in 0..np {
        if let Some(row) = pt.outer_view(j) {
            for (i, _) in row.iter() {
                indices.push(i as u32);
                data.push(PASSAGE_EDGE_WEIGHT);
            }
        }
        indptr.push(indices.len() as u32);
    }
    CsMatI::new((n + np, n + np), indptr, indices, data)
}
