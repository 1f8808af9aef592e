//! The single-file index: its bytes ([`IndexData`], postcard behind a checked prefix) and the
//! loaded [`Index`], with the sparse matrix type of its graph and passage-node matrix.

mod format;
mod sparse;

pub use format::{
    BuildInfo, Counts, Csr, FORMAT_VERSION, Fact, Header, Index, IndexData, MAGIC,
    MIN_INFLECTED_CHARS, PREFIX_LEN, Passage, checksum, passage_pages,
};
pub use sparse::SparseMatrix;
