//! Where the browser files `hipporag site` writes next to the index come from: a directory
//! (`--pkg`, `--ui`, or the source tree's `pkg/` and `www/site/`), or bytes embedded in the
//! binary at compile time (the CLI's `build.rs`, as Pagefind ships its wasm inside its binary),
//! so that an installed `hipporag` works from any directory.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// A set of named files: a directory, or `(name, bytes)` pairs compiled into the binary.
#[derive(Debug, Clone)]
pub enum Assets {
    /// Files read from this directory.
    Dir(PathBuf),
    /// Files embedded at compile time, by file name.
    Embedded(&'static [(&'static str, &'static [u8])]),
}

impl Assets {
    /// The bytes of file `name`.
    ///
    /// # Errors
    /// [`Error::Io`] naming the missing or unreadable file (for a directory: its path; for
    /// embedded files: `<embedded>/name`), with `hint` saying how to get it.
    pub fn read(&self, name: &str, hint: &str) -> Result<Cow<'static, [u8]>> {
        match self {
            Assets::Dir(_) => {
                let p = self.path(name);
                std::fs::read(&p).map(Cow::Owned).map_err(|e| {
                    let kind = e.kind();
                    Error::io(&p, std::io::Error::new(kind, format!("{e}: {hint}")))
                })
            }
            Assets::Embedded(files) => files
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| Cow::Borrowed(*b))
                .ok_or_else(|| {
                    Error::io(
                        self.path(name),
                        std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            format!("not embedded in this binary: {hint}"),
                        ),
                    )
                }),
        }
    }

    /// Checks that every file of `names` is there, without reading directory files.
    ///
    /// # Errors
    /// As [`Assets::read`], for the first missing file.
    pub fn check(&self, names: &[&str], hint: &str) -> Result<()> {
        for name in names {
            match self {
                Assets::Dir(d) if d.join(name).is_file() => {}
                Assets::Dir(d) => {
                    return Err(Error::io(
                        d.join(name),
                        std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            format!("missing: {hint}"),
                        ),
                    ));
                }
                Assets::Embedded(_) => {
                    self.read(name, hint)?;
                }
            }
        }
        Ok(())
    }

    /// The path that names file `name` in errors: its path in the directory, or
    /// `<embedded>/name`.
    pub fn path(&self, name: &str) -> PathBuf {
        match self {
            Assets::Dir(d) => d.join(name),
            Assets::Embedded(_) => Path::new("<embedded>").join(name),
        }
    }

    /// Where the files come from, for the build report: `embedded` or the directory's path.
    pub fn describe(&self) -> String {
        match self {
            Assets::Dir(d) => d.display().to_string(),
            Assets::Embedded(_) => "embedded".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_and_directory_files_read_alike_and_name_what_is_missing() {
        static FILES: &[(&str, &[u8])] = &[("a.js", b"export {}")];
        let e = Assets::Embedded(FILES);
        assert_eq!(&*e.read("a.js", "hint").unwrap(), b"export {}");
        let err = e
            .read("b.wasm", "run ./build.sh build")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("<embedded>/b.wasm") && err.contains("./build.sh build"),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.js"), b"export {}").unwrap();
        let d = Assets::Dir(dir.path().to_path_buf());
        assert_eq!(d.read("a.js", "").unwrap(), e.read("a.js", "").unwrap());
        d.check(&["a.js"], "").unwrap();
        let err = d
            .check(&["a.js", "b.wasm"], "pass --pkg")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("b.wasm") && err.contains("pass --pkg"),
            "{err}"
        );
    }
}
