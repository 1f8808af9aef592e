//! Errors of the retriever core, layered as tantivy layers its errors.
//!
//! * [`FormatError`] — index bytes that cannot be used: wrong magic, unknown version,
//!   truncation, checksum mismatch, or structural damage. It carries the name of what was being
//!   read (a file path or a piece name, when the caller knows it: [`Error::in_source`]) and a
//!   [`FormatProblem`] saying what was expected.
//! * [`Error`] — everything the core can return: a [`FormatError`] (`#[from]`), query inputs of
//!   the wrong shape, invalid requests, encoder failures.
//!
//! The indexer crate (`hipporag-indexer`) has its own error for corpora, OpenIE files and the
//! file system, with `#[from]` this one. In wasm every error is thrown as a JS `Error` whose
//! `message` is the `Display` text and whose `kind` is [`Error::kind`], so callers (and tests)
//! match kinds, not substrings.

#[cfg(target_arch = "wasm32")]
mod js;

#[cfg(target_arch = "wasm32")]
pub use js::{js_error, to_js_error};

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while loading an index or answering a query.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Index bytes that cannot be used.
    #[error(transparent)]
    Format(#[from] FormatError),
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
    /// A stable, machine-readable name of the variant, given to JS as `error.kind`:
    /// `"format"` (with [`FormatProblem::kind`] for the detail, e.g. `"format.checksum"`),
    /// `"dimension"`, `"request"` or `"encoder"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Format(f) => f.problem.kind(),
            Error::DimensionMismatch { .. } => "dimension",
            Error::InvalidRequest(_) => "request",
            Error::Encoder { .. } => "encoder",
        }
    }

    /// Names the file or piece a [`FormatError`] came from (other errors are returned as they
    /// are). Loading functions take bytes and do not know where they came from; their callers
    /// do.
    pub fn in_source(self, origin: impl Into<String>) -> Self {
        match self {
            Error::Format(mut f) => {
                f.origin = Some(origin.into());
                Error::Format(f)
            }
            e => e,
        }
    }
}

/// Index bytes that cannot be used, with the file or piece they came from.
#[derive(Debug, thiserror::Error)]
#[error("{}{problem}", .origin.as_deref().map(|s| format!("{s}: ")).unwrap_or_default())]
pub struct FormatError {
    /// The file path or piece name, when known.
    pub origin: Option<String>,
    /// What is wrong.
    pub problem: FormatProblem,
}

impl From<FormatProblem> for FormatError {
    fn from(problem: FormatProblem) -> Self {
        FormatError {
            origin: None,
            problem,
        }
    }
}

impl From<FormatProblem> for Error {
    fn from(problem: FormatProblem) -> Self {
        Error::Format(problem.into())
    }
}

/// What is wrong with index bytes (see [`crate::index`] for the layout each check reads).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormatProblem {
    /// The bytes do not start with the index magic `HIPPORAG`.
    #[error("not a hipporag index: the first 8 bytes are \"{}\", expected \"HIPPORAG\"", found.escape_default())]
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
    Invalid {
        /// The field of the index that is wrong (`graph.indptr`, `phrase_vectors`, …).
        field: &'static str,
        /// What was expected and what was found.
        message: String,
    },
}

impl FormatProblem {
    /// `"format.magic"`, `"format.version"`, `"format.truncated"`, `"format.checksum"` or
    /// `"format.invalid"`.
    pub fn kind(&self) -> &'static str {
        match self {
            FormatProblem::BadMagic { .. } => "format.magic",
            FormatProblem::UnsupportedVersion { .. } => "format.version",
            FormatProblem::Truncated { .. } => "format.truncated",
            FormatProblem::Checksum { .. } => "format.checksum",
            FormatProblem::Invalid { .. } => "format.invalid",
        }
    }
}
