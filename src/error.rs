//! Error type shared by every stage.
//!
//! Each variant names where the problem is (file, document index, field or byte offset) and what
//! was expected, so a user can fix the input without reading source code. In wasm every error
//! becomes a JS `Error` whose `message` is this `Display` text.

use std::path::PathBuf;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong, from reading a corpus to answering a query.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A JSON or JSON Lines file is not valid JSON of the expected shape.
    #[error("{path}: {message}")]
    Json {
        /// The file.
        path: PathBuf,
        /// serde_json's message (it names line and column) or the field that is wrong.
        message: String,
    },
    /// A corpus has no passages.
    #[error(
        "{path}: the corpus has no passages (expected a JSON array of {{\"title\", \"text\"}} objects)"
    )]
    EmptyCorpus {
        /// The corpus file.
        path: PathBuf,
    },
    /// An OpenIE file cannot be aligned with the corpus it is imported for.
    #[error("{path}: docs[{doc}].{field}: {message}")]
    OpenIeAlignment {
        /// The OpenIE file.
        path: PathBuf,
        /// Index into `docs` (and into the corpus).
        doc: usize,
        /// The field that disagrees (`passage`, `docs`, …).
        field: &'static str,
        /// What was expected and what was found.
        message: String,
    },
    /// The LLM server cannot be used for OpenIE (bad URL, or it answers 401, 403 or 404).
    #[error("OpenIE LLM at {url}: {message}")]
    OpenIeLlm {
        /// The chat-completions endpoint.
        url: String,
        /// What the server answered (status and excerpt), never the API key.
        message: String,
    },
    /// The bytes do not start with the index magic `HIPPORAG`.
    #[error("not a hipporag index: the first 8 bytes are {found:?}, expected \"HIPPORAG\"")]
    BadMagic {
        /// The first bytes found (lossy UTF-8).
        found: String,
    },
    /// The index was written by an unknown format version.
    #[error(
        "index format version {found} is not supported (this build reads version {supported}); rebuild the index with this version of `hipporag index`"
    )]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The index is shorter than its header says.
    #[error("index truncated: {found} bytes, the header announces {expected}")]
    Truncated {
        /// Bytes announced by the header (prefix + payload).
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// The payload's Adler-32 checksum does not match the header.
    #[error("index corrupt: payload Adler-32 is {found:#010x}, the header says {expected:#010x}")]
    Checksum {
        /// Adler-32 in the header.
        expected: u32,
        /// Adler-32 of the bytes present.
        found: u32,
    },
    /// The payload passed the checksum but does not decode or is structurally inconsistent.
    #[error("index invalid at {field}: {message}")]
    InvalidIndex {
        /// The field of the index that is wrong (`graph.indptr`, `phrase_vectors`, …).
        field: &'static str,
        /// What was expected and what was found.
        message: String,
    },
    /// Query embeddings do not match the index's encoder dimension.
    #[error(
        "{what}: expected {expected} values ({rows} × dim {dim}) for the index's encoder `{encoder}`, got {found}"
    )]
    DimensionMismatch {
        /// Which input (`embeddings`, `queryEmbedding`).
        what: &'static str,
        /// Values expected.
        expected: usize,
        /// Values given.
        found: usize,
        /// Rows (query entities) the caller announced.
        rows: usize,
        /// The index's embedding dimension.
        dim: usize,
        /// The index's encoder id.
        encoder: String,
    },
    /// A request is missing something it needs or has a value out of range.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// An encoder failed.
    #[error("encoder {encoder}: {message}")]
    Encoder {
        /// Encoder id.
        encoder: String,
        /// What failed.
        message: String,
    },
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
