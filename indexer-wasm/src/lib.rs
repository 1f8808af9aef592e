//! `hipporag-indexer-wasm`: the in-browser indexer (issue "Private documents"). A page loads
//! it only when the user indexes their own files; it runs [`hipporag_indexer::pipeline`], the
//! function `hipporag index --corpus C` (no OpenIE file, the lexical encoder) runs, so the
//! bytes it returns equal the binary's for the same passages and options
//! (`tests/js/indexer.test.mjs` checks it on musique_train).
//!
//! What is not here: threads (the build runs on the caller's thread — a Web Worker's, so the
//! page stays responsive), jieba (Chinese text gives only its Latin-script phrases; BM25 and
//! the query side are unchanged), LLM OpenIE and the MiniLM encoder.

use serde::Deserialize;

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
}

impl Default for IndexOptions {
    fn default() -> Self {
        let b = hipporag_indexer::graph::BuildOptions::default();
        Self {
            language: "auto".into(),
            fact_vectors: false,
            dim: hipporag_wasm::encoder::HashedNgramEncoder::DEFAULT_DIM,
            synonymy_threshold: b.synonymy_threshold,
            synonymy_k: b.synonymy_k,
        }
    }
}

/// The index bytes of `passages` built with `opts` (see the crate docs); `progress` gets each
/// stage's start, advances and end.
///
/// # Errors
/// [`hipporag_indexer::Error::InvalidRequest`] for an unknown language tag, a zero dimension or
/// no passages; the graph build's errors.
pub fn build_index(
    passages: Vec<hipporag_wasm::index::Passage>,
    opts: &IndexOptions,
    progress: &dyn hipporag_indexer::progress::Progress,
) -> hipporag_indexer::Result<Vec<u8>> {
    use hipporag_indexer::Error;
    use hipporag_wasm::analysis::Language;
    let language = match opts.language.as_str() {
        "auto" => None,
        tag => Some(Language::from_tag(tag).ok_or_else(|| {
            Error::InvalidRequest(format!(
                "options.language {tag:?}: expected \"auto\" or a tag of en, ru or zh"
            ))
        })?),
    };
    if opts.dim == 0 {
        return Err(Error::InvalidRequest(
            "options.dim: expected a positive dimension".into(),
        ));
    }
    let build = hipporag_indexer::graph::BuildOptions {
        synonymy_threshold: opts.synonymy_threshold,
        synonymy_k: opts.synonymy_k,
        fact_vectors: opts.fact_vectors,
        ..Default::default()
    };
    let encoder = hipporag_wasm::encoder::HashedNgramEncoder::new(opts.dim);
    let (data, _) =
        hipporag_indexer::pipeline::index_passages(passages, language, &encoder, &build, progress)?;
    Ok(data.to_bytes())
}

#[cfg(target_arch = "wasm32")]
mod bindings {
    use wasm_bindgen::prelude::*;

    use super::{IndexOptions, build_index};
    use hipporag_wasm::index::Passage;

    /// [`IndexOptions`]' fields as JS names them.
    const OPTION_NAMES: &[&str] = &[
        "language",
        "factVectors",
        "dim",
        "synonymyThreshold",
        "synonymyK",
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

    /// `buildIndex(passages, options?, progress?)`: the index bytes (a `Uint8Array`, the same
    /// bytes `hipporag index` writes) of `passages` (`[{title, text, url?}]`), built with the
    /// rule extractor and the hashed encoder. `options`: `{language?: "auto" | "en" | "ru" |
    /// "zh", factVectors?, dim?, synonymyThreshold?, synonymyK?}`. `progress(stage, done,
    /// total)` is called as each stage (`OpenIE`, `encoding phrases`, `synonymy edges`,
    /// `encoding passages`, `encoding facts`) advances. Throws an `Error` with `kind`
    /// `request` naming the passage or option at fault, or the indexer's kind.
    #[wasm_bindgen(js_name = buildIndex)]
    pub fn build_index_js(
        passages: js_sys::Array,
        options: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Vec<u8>, JsValue> {
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
        let opts: IndexOptions = if options.is_undefined() || options.is_null() {
            IndexOptions::default()
        } else {
            // serde-wasm-bindgen reads only the fields it knows: a misspelt option would be
            // ignored silently, so every key is checked first.
            if let Some(o) = options.dyn_ref::<js_sys::Object>() {
                for key in js_sys::Object::keys(o).iter() {
                    let key = key.as_string().unwrap_or_default();
                    if !OPTION_NAMES.contains(&key.as_str()) {
                        return Err(js_error(
                            &format!(
                                "options.{key}: unknown option; expected one of {OPTION_NAMES:?}"
                            ),
                            "request",
                        ));
                    }
                }
            }
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| js_error(&format!("options: {e}"), "request"))?
        };
        let progress = JsProgress {
            callback: progress,
            stage: Default::default(),
        };
        build_index(ps, &opts, &progress).map_err(|e| js_error(&e.to_string(), e.kind()))
    }
}
