//! The site's caches in `DIR/.hipporag-cache/`: per-passage OpenIE output (the append-only
//! JSON Lines cache of [`crate::openie::cache`], keyed by the SHA-256 of the passage's title,
//! text, heading path and code lines, and of what its extraction reads of the site's corpus
//! statistics) and embeddings (`vectors.<encoder>.bin`, keyed by the SHA-256 of the
//! text, rewritten whole after each build with the texts the build encoded or reused; not for
//! the hashed n-gram encoder, [`VectorCache`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use super::SitePassage;
use crate::Result;
use crate::hex::hex;
use crate::openie::OpenIeDoc;
use crate::openie::cache::{Cache, CacheRecord};
use crate::openie::rules::{RuleExtractor, RuleOptions};
use hipporag_wasm::embeddings::{Encoder, EncoderInfo, HASHED_NGRAM_ID};
use hipporag_wasm::text::Language;

/// The extractor recorded in the OpenIE cache's `model` field.
const EXTRACTOR: &str = "rules";
/// Recorded in the OpenIE cache's `prompts` field; bump when the extraction output changes, so
/// cached entries are not reused.
const OPENIE_CACHE_VERSION: &str = "site-rules-v5";

/// The cache key of a passage's extraction by `ex`: SHA-256 over the cache version, the
/// language's code when it is not English (English keys predate languages), title, text,
/// heading path (each length-prefixed), code line indices and what the extraction reads of
/// the corpus statistics ([`RuleExtractor::statistics_read`]), so that a page that changes
/// whether a word is common re-extracts the passages that hold it.
fn openie_key(p: &SitePassage, ex: &RuleExtractor) -> String {
    let mut h = Sha256::new();
    h.update(OPENIE_CACHE_VERSION.as_bytes());
    if p.language != Language::English {
        h.update(p.language.code().as_bytes());
    }
    for part in [&p.passage.title, &p.passage.text] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    for s in &p.headings {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    }
    h.update((p.code_lines.len() as u64).to_le_bytes());
    for &k in &p.code_lines {
        h.update((k as u64).to_le_bytes());
    }
    let mut texts = vec![p.passage.title.as_str(), p.passage.text.as_str()];
    texts.extend(p.headings.iter().map(String::as_str));
    let read = ex.statistics_read(&texts);
    h.update((read.len() as u64).to_le_bytes());
    for w in &read {
        h.update((w.len() as u64).to_le_bytes());
        h.update(w.as_bytes());
    }
    hex(&h.finalize())
}

/// The rule extractor's document for every passage, from the cache at `path` when it holds
/// the passage and extracted (and appended to it) otherwise. When the file held anything else
/// (records of passages no longer on the site, of another extractor version, damaged lines),
/// it is rewritten with this build's records alone ([`Cache::rewrite`]). Returns the
/// documents (`idx` set) and how many came from the cache.
///
/// # Errors
/// [`crate::Error::Io`] when the cache cannot be read or appended to.
pub fn extract_cached(site: &[SitePassage], path: &Path) -> Result<(Vec<OpenIeDoc>, usize)> {
    let (mut cache, loaded) = Cache::open(path, EXTRACTOR, OPENIE_CACHE_VERSION)?;
    // Docs headings: page names as topics, no question or heading-path nodes; one extractor
    // per language, with the corpus statistics of the site's passages in that language, as
    // `hipporag index` reads a corpus ([`RuleExtractor::for_corpus`]): a sentence-initial
    // "Published" or "Currently" is no phrase node.
    let ex = Language::ALL.map(|language| {
        let texts = site
            .iter()
            .filter(|p| p.language == language)
            .map(|p| p.passage.text.as_str());
        RuleExtractor::for_texts(
            texts,
            RuleOptions {
                docs_headings: true,
                language,
                ..Default::default()
            },
        )
    });
    let mut reused = 0;
    let mut docs: Vec<OpenIeDoc> = Vec::with_capacity(site.len());
    // A cached record moves into its passage's document (the cache's records and the documents
    // are each hundreds of megabytes on a large site); a passage whose key came before (a
    // duplicated page) copies that passage's document, and counts as reused when that one
    // was. `first`: each key's first passage, and whether it came from the cache.
    let mut records = loaded.records;
    let mut first: HashMap<String, (usize, bool)> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let record = |hash: String, doc: &OpenIeDoc| CacheRecord {
        hash,
        model: EXTRACTOR.into(),
        prompts: OPENIE_CACHE_VERSION.into(),
        entities: doc.extracted_entities.clone(),
        triples: doc.extracted_triples.clone(),
        tokens: 0,
        repaired: false,
        malformed_triples: 0,
    };
    for (i, p) in site.iter().enumerate() {
        let ex = &ex[p.language.ordinal()];
        let key = openie_key(p, ex);
        let (entities, triples, cached) = if let Some(&(j, cached)) = first.get(&key) {
            let d: &OpenIeDoc = &docs[j];
            (
                d.extracted_entities.clone(),
                d.extracted_triples.clone(),
                cached,
            )
        } else if let Some(r) = records.remove(&key) {
            (r.entities, r.triples, true)
        } else {
            let heads: Vec<&str> = p.headings.iter().skip(1).map(String::as_str).collect();
            let doc = ex.extract_with_code(&p.passage, &heads, &p.code_lines);
            cache.append(&record(key.clone(), &doc))?;
            (doc.extracted_entities, doc.extracted_triples, false)
        };
        reused += usize::from(cached);
        if !first.contains_key(&key) {
            first.insert(key.clone(), (i, cached));
            order.push(key);
        }
        docs.push(OpenIeDoc {
            idx: Some(i),
            passage: p.passage.indexed_text(),
            extracted_entities: entities,
            extracted_triples: triples,
        });
    }
    // Records left over are of passages no longer on the site.
    if loaded.other_model > 0 || !loaded.damaged_lines.is_empty() || !records.is_empty() {
        drop(records);
        cache.rewrite(order.into_iter().map(|k| {
            let j = first[&k].0;
            record(k, &docs[j])
        }))?;
    }
    Ok((docs, reused))
}

/// An encoder that answers from (and records into) a cache keyed by SHA-256 of the text.
///
/// The built-in hashed n-gram encoder ([`HASHED_NGRAM_ID`]) is not cached: it is a pure
/// function of the text that computes faster than its cache reads (Debian's rust-doc: 330,419
/// texts in about 0.5 s, against a 509 MB cache file read, hashed and written again on every
/// build, and held in memory through it). Its texts count as encoded, and a cache file left by
/// an earlier build is removed.
pub struct VectorCache<'a> {
    inner: &'a dyn Encoder,
    path: PathBuf,
    /// Whether vectors are stored (every encoder but the hashed n-gram one).
    store: bool,
    cache: Mutex<HashMap<[u8; 32], Vec<f32>>>,
    hits: AtomicUsize,
    misses: AtomicUsize,
}

impl<'a> VectorCache<'a> {
    /// The cache of `encoder` in `dir` (`vectors.<encoder id slug>.bin`); an unreadable or
    /// missing file is an empty cache.
    pub fn open(dir: &Path, encoder: &'a dyn Encoder) -> Self {
        Self::open_named(dir, "vectors", encoder)
    }

    /// The cache of `encoder` in `dir` under its own file, `<name>.<encoder id slug>.bin` (the
    /// static word vectors keep theirs apart from the passage and phrase vectors).
    pub fn open_named(dir: &Path, name: &str, encoder: &'a dyn Encoder) -> Self {
        let path = dir.join(format!(
            "{name}.{}.bin",
            super::html::slug(&encoder.info().id)
        ));
        let store = encoder.info().id != HASHED_NGRAM_ID;
        let cache = std::fs::read(&path)
            .ok()
            .filter(|_| store)
            .and_then(|b| postcard::from_bytes::<Vec<([u8; 32], Vec<f32>)>>(&b).ok())
            .map(|v| v.into_iter().collect())
            .unwrap_or_default();
        Self {
            inner: encoder,
            path,
            store,
            cache: Mutex::new(cache),
            hits: AtomicUsize::new(0),
            misses: AtomicUsize::new(0),
        }
    }

    /// Writes the cache (atomically; for the hashed n-gram encoder, removes any cache file
    /// instead); returns (texts answered from it, texts encoded).
    ///
    /// # Errors
    /// [`crate::Error::Io`] naming the cache file.
    pub fn save(self) -> Result<(usize, usize)> {
        if !self.store {
            match std::fs::remove_file(&self.path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(crate::Error::io(&self.path, e)),
            }
            return Ok((self.hits.into_inner(), self.misses.into_inner()));
        }
        let cache = self.cache.into_inner().expect("cache lock");
        let mut rows: Vec<(&[u8; 32], &Vec<f32>)> = cache.iter().collect();
        rows.sort_by_key(|(k, _)| **k);
        let bytes = postcard::to_allocvec(&rows).expect("postcard to a Vec");
        crate::files::write_atomic(&self.path, &bytes)?;
        Ok((self.hits.into_inner(), self.misses.into_inner()))
    }
}

impl Encoder for VectorCache<'_> {
    fn info(&self) -> EncoderInfo {
        self.inner.info()
    }

    fn encode(&self, texts: &[&str]) -> hipporag_wasm::Result<Vec<f32>> {
        if !self.store {
            self.misses.fetch_add(texts.len(), Ordering::Relaxed);
            return self.inner.encode(texts);
        }
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
        self.hits
            .fetch_add(texts.len() - missing.len(), Ordering::Relaxed);
        self.misses.fetch_add(missing.len(), Ordering::Relaxed);
        let mut out = Vec::with_capacity(texts.len() * dim);
        for k in &keys {
            out.extend_from_slice(&cache[k]);
        }
        Ok(out)
    }
}
