//! Files (feature `fs`): atomic writes — index files, OpenIE files and caches are never left
//! half-written in place of a good one — and reading an index file into a retriever.

use std::path::Path;

use crate::{Error, Result};

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. On any error `path` is left as it was. The file is made
/// readable by everyone (0644 on Unix): an index is a public asset of a site.
///
/// # Errors
/// [`Error::Io`] naming the temporary file or `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".hipporag-index-")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(tmp.path(), e))?;
    // Temporary files are created owner-only (0600); an index is a public asset for a site.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let perms = std::fs::Permissions::from_mode(0o644);
        tmp.as_file()
            .set_permissions(perms)
            .map_err(|e| Error::io(tmp.path(), e))?;
    }
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Creates the directory `path` will be written in, and its parents.
///
/// # Errors
/// [`Error::Io`] naming the directory.
pub fn create_parent(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    Ok(())
}

/// Reads and loads an index file.
///
/// # Errors
/// [`Error::Io`] naming the file; a format error ([`hipporag_wasm::FormatError`]) naming it too.
pub fn read_retriever(path: &Path) -> Result<hipporag_wasm::Retriever> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(hipporag_wasm::Retriever::from_vec(bytes)
        .map_err(|e| e.in_source(path.display().to_string()))?)
}
