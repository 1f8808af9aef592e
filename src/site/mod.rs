//! `hipporag site DIR`: multi-hop search for a built static site, the way Pagefind does
//! keyword search — run one command after the site builds, add one script tag and one element.
//!
//! ```text
//!  DIR/**/*.html, *.md ──► html (main content → sections at headings, url#anchor, heading path)
//!        ──► passages (≤ MAX_PASSAGE_CHARS each) ──► rule OpenIE (cached per passage)
//!        ──► graph::build_index (encoder cached per text) ──► DIR/_hipporag/ (atomically)
//! ```
//!
//! The output directory holds `index.<hash>.hipporag` (named by the first 16 hex digits of the
//! SHA-256 of its bytes, so a CDN may cache it forever), `hipporag-entry.json` (which index, its
//! encoder and counts), the retriever's wasm and JS (`hipporag_wasm_bg.wasm`,
//! `hipporag_wasm.js`, `hipporag.js`), the JS API `hipporag-site.js` (`init`, `search`,
//! `debouncedSearch`, `result.data()`, like Pagefind's) and the default UI `hipporag-ui.js` +
//! `hipporag-ui.css`. It is written to a temporary sibling directory and renamed over the old one:
//! a failed build leaves the previous `_hipporag/` as it was.
//!
//! **Incremental rebuilds.** Extraction runs the rule extractor without corpus statistics, so a
//! passage's OpenIE output depends on its own text and heading path only; it is cached in
//! `DIR/.hipporag-cache/openie.jsonl` under the SHA-256 of both. Embeddings are cached in
//! `DIR/.hipporag-cache/vectors.<encoder>.bin` under the SHA-256 of the text. A rebuild reuses
//! every unchanged passage's entry and gives the same bytes as a clean build (tested).

pub mod html;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::encoder::{Encoder, EncoderInfo};
use crate::graph::{BuildOptions, Progress, build_index};
use crate::index::Passage;
use crate::openie::OpenIeDoc;
use crate::openie::rules::{RuleExtractor, RuleOptions};
use crate::{Error, Result};

/// Longest passage, in characters: longer sections are split at line boundaries (a passage is
/// the unit a result shows and links to).
pub const MAX_PASSAGE_CHARS: usize = 1500;
/// The output directory's name inside the site.
pub const OUTPUT_DIR: &str = "_hipporag";
/// The cache directory's name inside the site.
pub const CACHE_DIR: &str = ".hipporag-cache";
/// Bump when extraction output changes, so cached OpenIE entries are not reused.
const OPENIE_CACHE_VERSION: &str = "site-rules-v1";

/// The browser assets `hipporag site` copies next to the index: file names in the wasm
/// package directory (`./build.sh build` writes `pkg/`).
pub const PKG_FILES: &[&str] = &["hipporag_wasm_bg.wasm", "hipporag_wasm.js", "hipporag.js"];

/// Options of [`build_site`].
#[derive(Debug, Clone)]
pub struct SiteOptions {
    /// The wasm package directory (`pkg/`) whose [`PKG_FILES`] are copied.
    pub pkg: PathBuf,
    /// Directory of `hipporag-site.js`, `hipporag-ui.js` and `hipporag-ui.css` (`www/site/`).
    pub ui: PathBuf,
    /// Graph build options (synonymy threshold, quantisation, …).
    pub build: BuildOptions,
    /// Shell globs over site-relative paths (`genindex*.html`, `api/**`) of pages to leave out.
    pub exclude: Vec<String>,
}

/// What a build did (printed by the CLI; the figures of the issue's note).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteReport {
    /// HTML and Markdown pages read.
    pub pages: usize,
    /// Passages indexed.
    pub passages: usize,
    /// Phrase nodes.
    pub phrases: u32,
    /// Passages whose OpenIE output came from the cache.
    pub openie_cached: usize,
    /// Texts whose embedding came from the cache (phrases, passages, facts).
    pub vectors_cached: usize,
    /// Texts encoded in this run.
    pub vectors_encoded: usize,
    /// Index file name inside the output directory.
    pub index_file: String,
    /// Index size in bytes.
    pub index_bytes: usize,
}

/// One passage with where it lives.
#[derive(Debug, Clone)]
pub struct SitePassage {
    /// Title (heading path), text and `url#anchor`.
    pub passage: Passage,
    /// Heading path, outermost first.
    pub headings: Vec<String>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Pages of `dir` (`*.html`, `*.htm`, `*.md`), sorted by path; the output and cache directories
/// and paths matching an `exclude` glob (relative to `dir`) are skipped.
///
/// # Errors
/// [`Error::Io`] naming an unreadable directory entry; [`Error::InvalidRequest`] for a bad glob.
pub fn pages(dir: &Path, exclude: &[String]) -> Result<Vec<PathBuf>> {
    let mut globs = globset::GlobSetBuilder::new();
    for g in exclude {
        globs.add(
            globset::Glob::new(g)
                .map_err(|e| Error::InvalidRequest(format!("--exclude {g:?}: not a glob: {e}")))?,
        );
    }
    let globs = globs
        .build()
        .map_err(|e| Error::InvalidRequest(format!("--exclude: {e}")))?;
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let n = e.file_name().to_string_lossy();
            !(e.depth() > 0
                && e.file_type().is_dir()
                && (n == OUTPUT_DIR || n == CACHE_DIR || n.starts_with(".hipporag-tmp")))
        })
    {
        let e = e.map_err(|err| {
            let path = err.path().unwrap_or(dir).to_path_buf();
            Error::io(&path, std::io::Error::other(err.to_string()))
        })?;
        let ext = e.path().extension().and_then(|x| x.to_str()).unwrap_or("");
        let rel = e.path().strip_prefix(dir).unwrap_or(e.path());
        if e.file_type().is_file() && matches!(ext, "html" | "htm" | "md") && !globs.is_match(rel) {
            out.push(e.path().to_path_buf());
        }
    }
    Ok(out)
}

/// Splits a page into passages: one per section, long sections cut at line boundaries into
/// pieces of at most [`MAX_PASSAGE_CHARS`] (a single longer line stays whole). `url` is the
/// page's site-relative URL (`/library/json.html`); a Markdown page's URL is its path with
/// `.html`, as static site generators publish it.
pub fn page_passages(page: &html::Page, url: &str) -> Vec<SitePassage> {
    let mut out = Vec::new();
    for s in &page.sections {
        let title = s.headings.join(" › ");
        let href = match &s.anchor {
            Some(a) => format!("{url}#{a}"),
            None => url.to_string(),
        };
        let mut chunk = String::new();
        let mut push = |chunk: &mut String| {
            if !chunk.trim().is_empty() {
                out.push(SitePassage {
                    passage: Passage {
                        title: title.clone(),
                        text: std::mem::take(chunk),
                        url: Some(href.clone()),
                    },
                    headings: s.headings.clone(),
                });
            }
            chunk.clear();
        };
        for line in s.text.lines() {
            if !chunk.is_empty() && chunk.chars().count() + line.chars().count() > MAX_PASSAGE_CHARS
            {
                push(&mut chunk);
            }
            if !chunk.is_empty() {
                chunk.push('\n');
            }
            chunk.push_str(line);
        }
        push(&mut chunk);
    }
    out
}

/// Reads every page of `dir` (less `exclude`d ones) into passages, in path order.
///
/// # Errors
/// [`Error::Io`] naming an unreadable page; [`Error::InvalidRequest`] for a bad glob.
pub fn read_site(dir: &Path, exclude: &[String]) -> Result<(usize, Vec<SitePassage>)> {
    let files = pages(dir, exclude)?;
    let mut out = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| Error::io(f, e))?;
        let text = String::from_utf8_lossy(&bytes);
        let rel = f.strip_prefix(dir).unwrap_or(f);
        let mut url = String::from("/");
        url.push_str(&rel.to_string_lossy().replace('\\', "/"));
        let page = if url.ends_with(".md") {
            url.truncate(url.len() - 3);
            url.push_str(".html");
            html::extract_markdown(&text)
        } else {
            html::extract_html(&text)
        };
        out.extend(page_passages(&page, &url));
    }
    Ok((files.len(), out))
}

/// The per-passage OpenIE cache (JSON Lines: `{"key", "doc"}`).
#[derive(Serialize, Deserialize)]
struct OpenieEntry {
    key: String,
    doc: OpenIeDoc,
}

fn openie_key(p: &SitePassage) -> String {
    let mut h = Sha256::new();
    h.update(OPENIE_CACHE_VERSION.as_bytes());
    for part in [&p.passage.title, &p.passage.text] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    for s in &p.headings {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    }
    hex(&h.finalize())
}

/// An encoder that answers from (and records into) a cache keyed by SHA-256 of the text.
struct CachedEncoder<'a> {
    inner: &'a dyn Encoder,
    cache: Mutex<HashMap<[u8; 32], Vec<f32>>>,
    hits: Mutex<usize>,
    misses: Mutex<usize>,
}

impl Encoder for CachedEncoder<'_> {
    fn info(&self) -> EncoderInfo {
        self.inner.info()
    }

    fn encode(&self, texts: &[&str]) -> Result<Vec<f32>> {
        let dim = self.inner.info().dim as usize;
        let keys: Vec<[u8; 32]> = texts
            .iter()
            .map(|t| Sha256::digest(t.as_bytes()).into())
            .collect();
        let mut cache = self.cache.lock().expect("cache lock");
        let missing: Vec<usize> = (0..texts.len())
            .filter(|&i| !cache.contains_key(&keys[i]))
            .collect();
        if !missing.is_empty() {
            let todo: Vec<&str> = missing.iter().map(|&i| texts[i]).collect();
            let v = self.inner.encode(&todo)?;
            for (&i, row) in missing.iter().zip(v.chunks_exact(dim)) {
                cache.insert(keys[i], row.to_vec());
            }
        }
        *self.hits.lock().expect("lock") += texts.len() - missing.len();
        *self.misses.lock().expect("lock") += missing.len();
        let mut out = Vec::with_capacity(texts.len() * dim);
        for k in &keys {
            out.extend_from_slice(&cache[k]);
        }
        Ok(out)
    }
}

fn read_vectors(path: &Path) -> HashMap<[u8; 32], Vec<f32>> {
    std::fs::read(path)
        .ok()
        .and_then(|b| postcard::from_bytes::<Vec<([u8; 32], Vec<f32>)>>(&b).ok())
        .map(|v| v.into_iter().collect())
        .unwrap_or_default()
}

/// Builds `dir/_hipporag/` (see the module docs); returns what it did.
///
/// # Errors
/// [`Error::Io`] naming the file that cannot be read or written (a missing asset in
/// `opts.pkg`/`opts.ui` says which `./build.sh` step makes it); [`Error::InvalidRequest`] for a
/// site without any text; encoder errors.
pub fn build_site(
    dir: &Path,
    encoder: &dyn Encoder,
    opts: &SiteOptions,
    progress: &dyn Progress,
) -> Result<SiteReport> {
    for f in PKG_FILES {
        let p = opts.pkg.join(f);
        if !p.is_file() {
            return Err(Error::io(
                &p,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "missing: build the wasm package with ./build.sh build, or pass --pkg",
                ),
            ));
        }
    }
    let (page_count, site) = read_site(dir, &opts.exclude)?;
    if site.is_empty() {
        return Err(Error::InvalidRequest(format!(
            "{}: no page with text (looked for *.html, *.htm and *.md)",
            dir.display()
        )));
    }
    let mut report = SiteReport {
        pages: page_count,
        passages: site.len(),
        ..Default::default()
    };

    // OpenIE, cached per passage.
    let cache_dir = dir.join(CACHE_DIR);
    std::fs::create_dir_all(&cache_dir).map_err(|e| Error::io(&cache_dir, e))?;
    let openie_path = cache_dir.join("openie.jsonl");
    let mut cached: HashMap<String, OpenIeDoc> = HashMap::new();
    if let Ok(text) = std::fs::read_to_string(&openie_path) {
        for line in text.lines() {
            if let Ok(e) = serde_json::from_str::<OpenieEntry>(line) {
                cached.insert(e.key, e.doc);
            }
        }
    }
    let ex = RuleExtractor::new(RuleOptions::default());
    let mut docs = Vec::with_capacity(site.len());
    let mut entries = BTreeMap::new();
    for (i, p) in site.iter().enumerate() {
        let key = openie_key(p);
        let mut doc = match cached.get(&key) {
            Some(d) => {
                report.openie_cached += 1;
                d.clone()
            }
            None => {
                let heads: Vec<&str> = p.headings.iter().skip(1).map(String::as_str).collect();
                ex.extract(&p.passage, &heads)
            }
        };
        doc.idx = None;
        entries.insert(key, doc.clone());
        doc.idx = Some(i);
        docs.push(doc);
    }
    let mut jsonl = String::new();
    for (key, doc) in entries {
        jsonl.push_str(&serde_json::to_string(&OpenieEntry { key, doc }).expect("serialisable"));
        jsonl.push('\n');
    }
    crate::index::write_atomic(&openie_path, jsonl.as_bytes())?;

    // Graph + embeddings, encoder cached per text.
    let vec_path = cache_dir.join(format!(
        "vectors.{}.bin",
        crate::site::html::slug(&encoder.info().id)
    ));
    let cached_encoder = CachedEncoder {
        inner: encoder,
        cache: Mutex::new(read_vectors(&vec_path)),
        hits: Mutex::new(0),
        misses: Mutex::new(0),
    };
    let passages: Vec<Passage> = site.into_iter().map(|p| p.passage).collect();
    let (data, build) = build_index(passages, &docs, &cached_encoder, &opts.build, progress)?;
    report.vectors_cached = *cached_encoder.hits.lock().expect("lock");
    report.vectors_encoded = *cached_encoder.misses.lock().expect("lock");
    {
        let cache = cached_encoder.cache.lock().expect("lock");
        let mut rows: Vec<(&[u8; 32], &Vec<f32>)> = cache.iter().collect();
        rows.sort_by_key(|(k, _)| **k);
        let bytes = postcard::to_allocvec(&rows).expect("postcard to a Vec");
        crate::index::write_atomic(&vec_path, &bytes)?;
    }
    report.phrases = build.counts.phrases;
    let bytes = data.to_bytes();
    report.index_bytes = bytes.len();
    report.index_file = format!("index.{}.hipporag", &hex(&Sha256::digest(&bytes))[..16]);

    // The output directory, built aside and renamed into place.
    let out = dir.join(OUTPUT_DIR);
    let tmp = tempfile::Builder::new()
        .prefix(".hipporag-tmp")
        .tempdir_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    let write = |name: &str, b: &[u8]| {
        let p = tmp.path().join(name);
        std::fs::write(&p, b).map_err(|e| Error::io(&p, e))
    };
    write(&report.index_file, &bytes)?;
    for f in PKG_FILES {
        let src = opts.pkg.join(f);
        let b = std::fs::read(&src).map_err(|e| Error::io(&src, e))?;
        write(f, &b)?;
    }
    for f in ["hipporag-site.js", "hipporag-ui.js", "hipporag-ui.css"] {
        let src = opts.ui.join(f);
        let b = std::fs::read(&src).map_err(|e| Error::io(&src, e))?;
        write(f, &b)?;
    }
    let entry = serde_json::json!({
        "index": report.index_file,
        "encoder": data.header.encoder,
        "counts": data.header.counts,
        "generator": data.header.build.generator,
    });
    write(
        "hipporag-entry.json",
        (serde_json::to_string_pretty(&entry).expect("serialisable") + "\n").as_bytes(),
    )?;
    let tmp_path = tmp.keep();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&tmp_path, std::fs::Permissions::from_mode(0o755));
    }
    let old = dir.join(format!(".hipporag-tmp-old-{}", std::process::id()));
    if out.exists() {
        std::fs::rename(&out, &old).map_err(|e| Error::io(&out, e))?;
    }
    if let Err(e) = std::fs::rename(&tmp_path, &out) {
        if old.exists() {
            let _ = std::fs::rename(&old, &out);
        }
        let _ = std::fs::remove_dir_all(&tmp_path);
        return Err(Error::io(&out, e));
    }
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
    }
    Ok(report)
}
