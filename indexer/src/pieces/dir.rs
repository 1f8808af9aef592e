//! Reading an index in pieces from a directory, as a page does.

use hipporag_wasm::pieces::{Pieces, parse_meta_name};
use hipporag_wasm::search::RetrieveOptions;

use crate::{Error, Result};

/// Reads an index in pieces from a directory, as a page fetches it: each piece by its name,
/// then decompressed (gzip's CRC-32 checked).
#[derive(Debug, Clone)]
pub struct PieceDir {
    dir: std::path::PathBuf,
}

impl PieceDir {
    /// The pieces in `dir` (a site's `_hipporag/index/`).
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The decompressed bytes of the piece named `name`.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file when it cannot be read or is not a whole gzip member
    /// (a damaged piece fails its CRC-32).
    pub fn read(&self, name: &str) -> Result<Vec<u8>> {
        use std::io::Read;
        let path = self.dir.join(name);
        let stored = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(stored.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| Error::io(&path, e))?;
        Ok(out)
    }

    /// Loads the meta piece named `meta` (`{hash}.bin`).
    ///
    /// # Errors
    /// As [`PieceDir::read`] and [`Pieces::from_meta`]; [`Error::InvalidRequest`] for a
    /// name that is not 16 hex digits + `.bin`.
    pub fn open(&self, meta: &str) -> Result<Pieces> {
        parse_meta_name(meta).ok_or_else(|| {
            Error::InvalidRequest(format!(
                "{meta}: not a meta piece name ({{16 hex digits}}.bin)"
            ))
        })?;
        Ok(Pieces::from_meta(&self.read(meta)?).map_err(|e| e.in_source(meta))?)
    }

    /// Loads what `question` needs into `index` ([`Pieces::load`]) and ranks
    /// ([`Pieces::search`]).
    ///
    /// # Errors
    /// As [`PieceDir::read`], [`Pieces::add`], [`Pieces::search`].
    pub fn search(
        &self,
        index: &mut Pieces,
        question: &str,
        opts: &RetrieveOptions,
    ) -> Result<Vec<(usize, f64)>> {
        index.load(question, &mut |name| self.read(name))?;
        Ok(index.search(question, opts)?)
    }
}
