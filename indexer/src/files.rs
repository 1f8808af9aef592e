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

/// A temporary directory beside `out` (in its parent, created if missing), to be filled and
/// then swapped in by [`replace_dir`].
///
/// # Errors
/// [`Error::Io`] naming the parent directory.
pub fn temp_dir_beside(out: &Path) -> Result<tempfile::TempDir> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    tempfile::Builder::new()
        .prefix(".hipporag-tmp")
        .tempdir_in(parent)
        .map_err(|e| Error::io(parent, e))
}

/// Replaces the directory `out` with `tmp` (from [`temp_dir_beside`]): the old one is renamed
/// aside, `tmp` renamed into place, the old one removed. If the swap fails the old directory
/// is put back and `tmp` removed. The new directory is made readable by everyone (0755 on
/// Unix): it is a site's public assets.
///
/// # Errors
/// [`Error::Io`] naming `out` (or the old directory when removing it fails).
pub fn replace_dir(tmp: tempfile::TempDir, out: &Path) -> Result<()> {
    let tmp_path = tmp.keep();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&tmp_path, std::fs::Permissions::from_mode(0o755));
    }
    let name = out
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let old = out.with_file_name(format!(".hipporag-tmp-old-{name}-{}", std::process::id()));
    if out.exists() {
        std::fs::rename(out, &old).map_err(|e| Error::io(out, e))?;
    }
    if let Err(e) = std::fs::rename(&tmp_path, out) {
        if old.exists() {
            let _ = std::fs::rename(&old, out);
        }
        let _ = std::fs::remove_dir_all(&tmp_path);
        return Err(Error::io(out, e));
    }
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
    }
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
