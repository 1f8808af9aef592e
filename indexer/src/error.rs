//! Errors of the indexer: corpora, OpenIE files, the LLM server, the file system, and bad
//! options, with the core's errors (`#[from]` [`hipporag_wasm::Error`]: index format, encoders)
//! wrapped whole.
//!
//! Each variant names where the problem is (file, document index, field) and what was expected,
//! so a user can fix the input without reading source code.

use std::path::PathBuf;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while building an index.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error of the retriever core (index format, encoder, request).
    #[error(transparent)]
    Core(#[from] hipporag_wasm::Error),
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
    /// Options or inputs out of range (the message names the option and the accepted values).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A stable, machine-readable name of the variant: the core's [`hipporag_wasm::Error::kind`]
    /// for wrapped core errors, else `"io"`, `"json"`, `"corpus"`, `"openie"`, `"llm"` or
    /// `"request"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Core(e) => e.kind(),
            Error::Io { .. } => "io",
            Error::Json { .. } => "json",
            Error::EmptyCorpus { .. } => "corpus",
            Error::OpenIeAlignment { .. } => "openie",
            Error::OpenIeLlm { .. } => "llm",
            Error::InvalidRequest(_) => "request",
        }
    }
}
