//! The per-passage cache of LLM OpenIE results: an append-only JSON Lines file.
//!
//! One line per extracted passage, written (one `write` call, then flushed to the OS) as soon as
//! the passage's two LLM calls have succeeded, so a run killed at any point loses at most the
//! passages in flight. Lines are keyed by the SHA-256 of the passage text (`title + "\n" +
//! text`) and carry the model and prompt version they were made with; a rerun reuses a line
//! only for the same passage, model and prompts. Identical passages share one line.
//!
//! A kill can leave a partial last line; it is skipped on reading (and counted), and the next
//! append first ends it with a newline so that new lines stay whole.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Triple;
use crate::{Error, Result};

/// Lowercase hex SHA-256 of a passage's text: the cache key.
pub fn passage_hash(passage: &str) -> String {
    let digest = Sha256::digest(passage.as_bytes());
    crate::hex::hex(&digest)
}

/// One cached extraction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheRecord {
    /// The cache key: [`passage_hash`] of the passage for LLM OpenIE; `hipporag site` keys rule
    /// extractions by text and heading path (`site::cache`).
    pub hash: String,
    /// The model that answered.
    pub model: String,
    /// The prompt version ([`super::prompts::PROMPT_VERSION`]).
    pub prompts: String,
    /// Named entities (step 1).
    pub entities: Vec<String>,
    /// Triples (step 2).
    pub triples: Vec<Triple>,
    /// Tokens the two calls used, as the server reported them (0 when it did not).
    #[serde(default)]
    pub tokens: u64,
    /// True when a reply had to be repaired (e.g. cut off at the token limit).
    #[serde(default)]
    pub repaired: bool,
    /// Elements of the triple list that were not three strings (dropped).
    #[serde(default)]
    pub malformed_triples: usize,
}

/// What was read from an existing cache file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Usable records by passage hash (the last line wins).
    pub records: HashMap<String, CacheRecord>,
    /// Lines made with another model or prompt version (ignored).
    pub other_model: usize,
    /// 1-based numbers of lines that are not a record (a partial last line after a kill).
    pub damaged_lines: Vec<usize>,
}

/// The open cache file.
#[derive(Debug)]
pub struct Cache {
    file: File,
    path: PathBuf,
}

impl Cache {
    /// Reads `path` (if it exists) for records of `model` and `prompts`, and opens it for
    /// appending (creating it and its directory if needed).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read, created or written.
    pub fn open(path: &Path, model: &str, prompts: &str) -> Result<(Cache, Loaded)> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        let mut text = Vec::new();
        file.read_to_end(&mut text)
            .map_err(|e| Error::io(path, e))?;
        let mut loaded = Loaded::default();
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<CacheRecord>(line) {
                Ok(r) if r.model == model && r.prompts == prompts => {
                    loaded.records.insert(r.hash.clone(), r);
                }
                Ok(_) => loaded.other_model += 1,
                Err(_) => loaded.damaged_lines.push(i + 1),
            }
        }
        if text.last().is_some_and(|&b| b != b'\n') {
            file.seek(SeekFrom::End(0))
                .map_err(|e| Error::io(path, e))?;
            file.write_all(b"\n").map_err(|e| Error::io(path, e))?;
        }
        Ok((
            Cache {
                file,
                path: path.to_path_buf(),
            },
            loaded,
        ))
    }

    /// Appends one record as one line and flushes it.
    ///
    /// # Errors
    /// [`Error::Io`] when the write fails (disk full, …).
    pub fn append(&mut self, record: &CacheRecord) -> Result<()> {
        let mut line = serde_json::to_vec(record).expect("a record serialises");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.flush())
            .map_err(|e| Error::io(&self.path, e))
    }

    /// The cache file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the cache file with `records` alone, one line each in this order (atomically:
    /// a failed write leaves the old file). `hipporag site` compacts its cache this way to the
    /// passages of the build, so that edits and extractor versions do not grow it without
    /// bound.
    ///
    /// # Errors
    /// [`Error::Io`] naming the cache file.
    pub fn rewrite(self, records: impl IntoIterator<Item = CacheRecord>) -> Result<()> {
        let mut bytes = Vec::new();
        for r in records {
            serde_json::to_writer(&mut bytes, &r).expect("a record serialises");
            bytes.push(b'\n');
        }
        let path = self.path;
        drop(self.file);
        crate::files::write_atomic(&path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(hash: &str, model: &str) -> CacheRecord {
        CacheRecord {
            hash: hash.into(),
            model: model.into(),
            prompts: "p1".into(),
            entities: vec!["A".into()],
            triples: vec![["A".into(), "r".into(), "B".into()]],
            tokens: 7,
            repaired: false,
            malformed_triples: 0,
        }
    }

    #[test]
    fn hash_is_sha256_hex() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            passage_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn survives_a_partial_last_line_and_keeps_appending_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/cache.jsonl");
        {
            let (mut c, l) = Cache::open(&path, "m", "p1").unwrap();
            assert!(l.records.is_empty());
            c.append(&rec("h1", "m")).unwrap();
            c.append(&rec("h2", "other")).unwrap();
        }
        // A kill in the middle of a write.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"hash":"h3","model":"m","pro"#).unwrap();
        drop(f);
        let (mut c, l) = Cache::open(&path, "m", "p1").unwrap();
        assert_eq!(l.records.len(), 1);
        assert_eq!(l.records["h1"], rec("h1", "m"));
        assert_eq!(l.other_model, 1);
        assert_eq!(l.damaged_lines, vec![3]);
        c.append(&rec("h3", "m")).unwrap();
        drop(c);
        let (_, l) = Cache::open(&path, "m", "p1").unwrap();
        assert_eq!(
            l.records.len(),
            2,
            "the new line must not be glued to the partial one"
        );
        assert_eq!(l.damaged_lines, vec![3]);
    }
}
