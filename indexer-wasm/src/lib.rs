//! `hipporag-indexer-wasm`: the in-browser indexer (issue "Private documents"). A page loads
//! it only when the user indexes their own files; it runs [`hipporag_indexer::pipeline`], the
//! function `hipporag index --corpus C` (no OpenIE file, the lexical encoder) runs, so the
//! bytes it returns equal the binary's for the same passages and options (for Thai, Lao, Khmer
//! and Burmese text, given the words ICU4X's segmenter finds as `lexiconWords`)
//! (`tests/js/indexer.test.mjs` checks it on musique_train, `tests/js/indexer_zh.test.mjs` on
//! Chinese text with the `jieba` feature).
//!
//! It is built twice (`./build.sh build`): `pkg/indexer/` without jieba, where Chinese text
//! gives only its Latin-script phrases, and `pkg/indexer-zh/` with the `jieba` feature
//! (jieba's dictionary and part-of-speech model, zhconv's tables: about ten times the bytes),
//! which the page loads instead when the files are Chinese ([`segments_chinese`] tells them
//! apart). BM25 and the query side are the same in both.
//!
//! What is not here: threads (the build runs on the caller's thread — a Web Worker's, so the
//! page stays responsive), LLM OpenIE and the MiniLM encoder.

use serde::{Deserialize, Serialize};

use hipporag_indexer::language::LanguageWarning;
use hipporag_indexer::openie::OpenIeDoc;
use hipporag_indexer::pipeline;
use hipporag_indexer::progress::Progress;
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::index::Passage;
use hipporag_wasm::text::Language;

/// Whether this build segments Chinese with jieba (the `jieba` feature): `true` for
/// `pkg/indexer-zh/`, whose Chinese phrases are the native `hipporag index`'s; `false` for
/// `pkg/indexer/`, which finds only the Latin-script phrases of Chinese text.
pub fn segments_chinese() -> bool {
    cfg!(feature = "jieba")
}

/// `buildIndex`'s options (all optional; the defaults are `hipporag index`'s).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexOptions {
    /// `auto` (detected from the passages) or a tag of `en`, `ru`, `zh`.
    pub language: String,
    /// Also store fact embeddings (HippoRAG 2 mode needs them), as `--fact-vectors`.
    pub fact_vectors: bool,
    /// The hashed encoder's dimension (`--dim`).
    pub dim: usize,
    /// Synonymy threshold τ on cosine (`--synonymy-threshold`).
    pub synonymy_threshold: f32,
    /// Most synonymy neighbours per phrase (`--synonymy-k`).
    pub synonymy_k: usize,
    /// The words a word segmenter found in the passages' Thai, Lao, Khmer and Burmese text (the
    /// browser's `Intl.Segmenter` with `granularity: "word"`): BM25's lexicon, as ICU4X's
    /// dictionary words are `hipporag index`'s ([`hipporag_indexer::lexicon::lexicon_of_words`]
    /// keeps those of three to eight units). `None`: no lexicon, those scripts read in units
    /// and pairs only.
    pub lexicon_words: Option<Vec<String>>,
}

impl Default for IndexOptions {
    fn default() -> Self {
        let b = hipporag_indexer::graph::BuildOptions::default();
        Self {
            language: "auto".into(),
            fact_vectors: false,
            dim: HashedNgramEncoder::DEFAULT_DIM,
            synonymy_threshold: b.synonymy_threshold,
            synonymy_k: b.synonymy_k,
            lexicon_words: None,
        }
    }
}

/// `opts.language` as a language, `None` for `auto`.
///
/// # Errors
/// [`hipporag_indexer::Error::InvalidRequest`] for a malformed tag ([`Language::read_tag`]).
fn language_option(opts: &IndexOptions) -> hipporag_indexer::Result<Option<Language>> {
    match opts.language.as_str() {
        "auto" => Ok(None),
        tag => Language::read_tag(tag).map(Some).ok_or_else(|| {
            hipporag_indexer::Error::InvalidRequest(format!(
                "options.language {tag:?}: expected \"auto\" or a BCP 47 language tag"
            ))
        }),
    }
}

/// The graph build's options and the encoder `opts` asks for.
///
/// # Errors
/// [`hipporag_indexer::Error::InvalidRequest`] for a zero dimension.
fn build_options(
    opts: &IndexOptions,
) -> hipporag_indexer::Result<(hipporag_indexer::graph::BuildOptions, HashedNgramEncoder)> {
    if opts.dim == 0 {
        return Err(hipporag_indexer::Error::InvalidRequest(
            "options.dim: expected a positive dimension".into(),
        ));
    }
    let build = hipporag_indexer::graph::BuildOptions {
        synonymy_threshold: opts.synonymy_threshold,
        synonymy_k: opts.synonymy_k,
        fact_vectors: opts.fact_vectors,
        lexicon_words: opts.lexicon_words.clone(),
        ..Default::default()
    };
    Ok((build, HashedNgramEncoder::new(opts.dim)))
}

/// The index bytes of `passages` built with `opts` (see the crate docs); `progress` gets each
/// stage's start, advances and end.
///
/// # Errors
/// [`hipporag_indexer::Error::InvalidRequest`] for an unknown language tag, a zero dimension or
/// no passages; the graph build's errors.
pub fn build_index(
    passages: Vec<Passage>,
    opts: &IndexOptions,
    progress: &dyn Progress,
) -> hipporag_indexer::Result<Vec<u8>> {
    let language = language_option(opts)?;
    let (build, encoder) = build_options(opts)?;
    let (data, _) = pipeline::index_passages(passages, language, &encoder, &build, progress)?;
    Ok(data.to_bytes())
}

/// The language of `passages` as [`build_index`] picks it for `auto`
/// ([`hipporag_indexer::language::detect`]: the majority of whatlang's per-passage answers).
pub fn detect_language(passages: &[Passage]) -> Language {
    hipporag_indexer::language::detect(passages).language
}

/// How `auto` reads a set of passages ([`language_report`]), for the page to show beside the
/// index it builds: the in-browser counterpart of `hipporag index --lang auto`'s log lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanguageReport {
    /// The analysis [`build_index`] reads every passage with ([`Language::code`]; `und` is the
    /// generic one).
    pub language: &'static str,
    /// Each language identified and its passage count
    /// ([`hipporag_indexer::language::Detection::counts`]: analysed languages by their code,
    /// others by whatlang's ISO 639-3 code).
    pub passages: Vec<(&'static str, usize)>,
    /// Each language read with an analysis not its own, when it holds a fifth or more of the
    /// passages ([`hipporag_indexer::language::Detection::warnings`]).
    pub warnings: Vec<LanguageWarning>,
}

/// [`LanguageReport`] of `passages`: the language [`detect_language`] picks, the passages per
/// language and the warnings `hipporag index --lang auto` logs for them.
pub fn language_report(passages: &[Passage]) -> LanguageReport {
    let d = hipporag_indexer::language::detect(passages);
    LanguageReport {
        language: d.language.code(),
        passages: d.counts(),
        warnings: d.warnings(passages.len()),
    }
}

/// The rule extractor's OpenIE documents for `passages` (one per passage, in order) in
/// `language`, with these passages' own corpus statistics
/// ([`pipeline::extract_passages`]): what [`build_index`] extracts when `passages` are the
/// whole corpus. The demo runs it once per file and keeps the documents.
pub fn extract_openie(
    passages: &[Passage],
    language: Language,
    progress: &dyn Progress,
) -> Vec<OpenIeDoc> {
    pipeline::extract_passages(passages, language, progress).0
}

/// The index bytes of `passages` from their OpenIE documents `docs` (one per passage, in
/// order; e.g. [`extract_openie`]'s, file by file), built with `opts` ([`pipeline::index_openie`];
/// `auto` detects the language over all `passages`): the bytes `hipporag index --corpus C
/// --openie F` writes for the same documents.
///
/// # Errors
/// [`hipporag_indexer::Error::InvalidRequest`] for an unknown language tag, a zero dimension, no
/// passages, or as many documents as passages not given; the graph build's errors.
pub fn build_index_from_openie(
    passages: Vec<Passage>,
    docs: &[OpenIeDoc],
    opts: &IndexOptions,
    progress: &dyn Progress,
) -> hipporag_indexer::Result<Vec<u8>> {
    let language = match language_option(opts)? {
        Some(l) => l,
        None => detect_language(&passages),
    };
    let (build, encoder) = build_options(opts)?;
    let (data, _) = pipeline::index_openie(passages, docs, language, &encoder, &build, progress)?;
    Ok(data.to_bytes())
}

#[cfg(target_arch = "wasm32")]
mod bindings {
    use wasm_bindgen::prelude::*;

    use super::{
        IndexOptions, Language, OpenIeDoc, Passage, build_index, build_index_from_openie,
        detect_language, extract_openie, language_report, segments_chinese,
    };

    /// [`IndexOptions`]' fields as JS names them.
    const OPTION_NAMES: &[&str] = &[
        "language",
        "factVectors",
        "dim",
        "synonymyThreshold",
        "synonymyK",
        "lexiconWords",
    ];

    /// A JS `Error` with `message` and `kind`.
    fn js_error(message: &str, kind: &str) -> JsValue {
        let e = js_sys::Error::new(message);
        let _ = js_sys::Reflect::set(&e, &"kind".into(), &kind.into());
        e.into()
    }

    /// Progress to a JS callback `(stage, done, total) => void`.
    struct JsProgress {
        callback: Option<js_sys::Function>,
        stage: std::cell::RefCell<(String, u64, u64)>,
    }

    impl JsProgress {
        fn call(&self) {
            if let Some(f) = &self.callback {
                let (stage, done, total) = self.stage.borrow().clone();
                // A throwing callback does not stop the build.
                let _ = f.call3(
                    &JsValue::NULL,
                    &stage.into(),
                    &(done as f64).into(),
                    &(total as f64).into(),
                );
            }
        }
    }

    impl hipporag_indexer::progress::Progress for JsProgress {
        fn start(&self, stage: &str, total: u64) {
            *self.stage.borrow_mut() = (stage.to_string(), 0, total);
            self.call();
        }
        fn advance(&self, n: u64) {
            let report = {
                let mut s = self.stage.borrow_mut();
                let before = s.1;
                s.1 += n;
                // At most about 100 calls per stage.
                s.2 < 100 || before * 100 / s.2.max(1) != s.1 * 100 / s.2.max(1)
            };
            if report {
                self.call();
            }
        }
        fn finish(&self) {
            {
                let mut s = self.stage.borrow_mut();
                s.1 = s.2;
            }
            self.call();
        }
    }

    /// `passages` (`[{title, text, url?}]`) read, or a `request` error naming the first bad one.
    fn read_passages(passages: &js_sys::Array) -> Result<Vec<Passage>, JsValue> {
        let mut ps = Vec::with_capacity(passages.length() as usize);
        for (i, v) in passages.iter().enumerate() {
            let p: Passage = serde_wasm_bindgen::from_value(v).map_err(|e| {
                js_error(
                    &format!("passages[{i}]: expected {{title, text, url?}}: {e}"),
                    "request",
                )
            })?;
            ps.push(p);
        }
        Ok(ps)
    }

    /// `options` read (undefined or null: the defaults), or a `request` error naming an
    /// unknown or mistyped option.
    fn read_options(options: JsValue) -> Result<IndexOptions, JsValue> {
        if options.is_undefined() || options.is_null() {
            return Ok(IndexOptions::default());
        }
        // serde-wasm-bindgen reads only the fields it knows: a misspelt option would be
        // ignored silently, so every key is checked first.
        if let Some(o) = options.dyn_ref::<js_sys::Object>() {
            for key in js_sys::Object::keys(o).iter() {
                let key = key.as_string().unwrap_or_default();
                if !OPTION_NAMES.contains(&key.as_str()) {
                    return Err(js_error(
                        &format!("options.{key}: unknown option; expected one of {OPTION_NAMES:?}"),
                        "request",
                    ));
                }
            }
        }
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error(&format!("options: {e}"), "request"))
    }

    fn progress_of(callback: Option<js_sys::Function>) -> JsProgress {
        JsProgress {
            callback,
            stage: Default::default(),
        }
    }

    fn indexer_error(e: hipporag_indexer::Error) -> JsValue {
        js_error(&e.to_string(), e.kind())
    }

    /// `buildIndex(passages, options?, progress?)`: the index bytes (a `Uint8Array`, the same
    /// bytes `hipporag index` writes) of `passages` (`[{title, text, url?}]`), built with the
    /// rule extractor and the hashed encoder. `options`: `{language?: "auto" | "en" | "ru" |
    /// "zh", factVectors?, dim?, synonymyThreshold?, synonymyK?, lexiconWords?}` (`lexiconWords`:
    /// the words `Intl.Segmenter` finds in the passages' Thai, Lao, Khmer and Burmese text). `progress(stage, done,
    /// total)` is called as each stage (`OpenIE`, `encoding phrases`, `synonymy edges`,
    /// `encoding passages`, `encoding facts`) advances. Throws an `Error` with `kind`
    /// `request` naming the passage or option at fault, or the indexer's kind.
    #[wasm_bindgen(js_name = buildIndex)]
    pub fn build_index_js(
        passages: js_sys::Array,
        options: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Vec<u8>, JsValue> {
        let ps = read_passages(&passages)?;
        let opts = read_options(options)?;
        build_index(ps, &opts, &progress_of(progress)).map_err(indexer_error)
    }

    /// `segmentsChinese()`: whether this module segments Chinese with jieba (`pkg/indexer-zh/`)
    /// or finds only the Latin-script phrases of Chinese text (`pkg/indexer/`).
    #[wasm_bindgen(js_name = segmentsChinese)]
    pub fn segments_chinese_js() -> bool {
        segments_chinese()
    }

    /// `detectLanguage(passages)`: the language `buildIndex` picks (`"en"`, `"de"`, `"ja"`, …,
    /// `"und"` for the generic analysis; [`Language::code`])
    /// for `language: "auto"` (the majority of whatlang's answers per passage).
    #[wasm_bindgen(js_name = detectLanguage)]
    pub fn detect_language_js(passages: js_sys::Array) -> Result<String, JsValue> {
        Ok(detect_language(&read_passages(&passages)?)
            .code()
            .to_owned())
    }

    /// `languageReport(passages)`: `{language, passages, warnings}` ([`super::LanguageReport`]):
    /// the analysis `buildIndex` picks for `language: "auto"` (as `detectLanguage`), each
    /// language identified with its passage count (`[[code, count], …]`), and each language
    /// holding a fifth or more of the passages that is read with an analysis not its own
    /// (`[{code, passages, hasAnalysis, message}]`, `message` one English sentence). Throws a
    /// `request` error for a bad passage.
    #[wasm_bindgen(js_name = languageReport)]
    pub fn language_report_js(passages: js_sys::Array) -> Result<JsValue, JsValue> {
        let report = language_report(&read_passages(&passages)?);
        serde_wasm_bindgen::to_value(&report).map_err(|e| js_error(&e.to_string(), "internal"))
    }

    /// `extractOpenie(passages, language, progress?)`: the rule extractor's OpenIE documents,
    /// one per passage in order, in HippoRAG's shape (`{passage, extracted_entities,
    /// extracted_triples}`), read in `language` (a BCP 47 tag) with these passages'
    /// own corpus statistics. Progress: stage `OpenIE`. Throws a `request` error for a bad
    /// passage or language.
    #[wasm_bindgen(js_name = extractOpenie)]
    pub fn extract_openie_js(
        passages: js_sys::Array,
        language: String,
        progress: Option<js_sys::Function>,
    ) -> Result<JsValue, JsValue> {
        let ps = read_passages(&passages)?;
        let language = Language::read_tag(&language).ok_or_else(|| {
            js_error(
                &format!("language {language:?}: expected a BCP 47 language tag"),
                "request",
            )
        })?;
        let docs = extract_openie(&ps, language, &progress_of(progress));
        serde_wasm_bindgen::to_value(&docs).map_err(|e| js_error(&e.to_string(), "internal"))
    }

    /// `buildIndexFromOpenie(passages, docs, options?, progress?)`: the index bytes of
    /// `passages` from their OpenIE documents (one per passage, in order: `extractOpenie`'s,
    /// file by file, or a HippoRAG OpenIE file's `docs`), the bytes `hipporag index --openie`
    /// writes for them. Options and progress as `buildIndex`'s (no `OpenIE` stage). Throws a
    /// `request` error naming a bad passage, document or option, or as many documents as
    /// passages not given.
    #[wasm_bindgen(js_name = buildIndexFromOpenie)]
    pub fn build_index_from_openie_js(
        passages: js_sys::Array,
        docs: js_sys::Array,
        options: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Vec<u8>, JsValue> {
        let ps = read_passages(&passages)?;
        let mut ds: Vec<OpenIeDoc> = Vec::with_capacity(docs.length() as usize);
        for (i, v) in docs.iter().enumerate() {
            ds.push(serde_wasm_bindgen::from_value(v).map_err(|e| {
                js_error(
                    &format!(
                        "docs[{i}]: expected {{passage, extracted_entities, extracted_triples}}: {e}"
                    ),
                    "request",
                )
            })?);
        }
        let opts = read_options(options)?;
        build_index_from_openie(ps, &ds, &opts, &progress_of(progress)).map_err(indexer_error)
    }
}
