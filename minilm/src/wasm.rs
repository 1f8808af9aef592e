//! The encoder's WebAssembly API (wasm32 only), generated into `pkg/minilm/` by `build.sh`.
//!
//! ```js
//! import init, { MiniLmEncoder } from "./minilm/hipporag_minilm.js";
//! await init();
//! const enc = new MiniLmEncoder(safetensorsBytes, tokenizerJsonBytes, configJsonBytes);
//! const vectors = enc.encode(["Stanford University", "Alzheimer's"]); // Float32Array, 2 × 384
//! ```
//!
//! This is the JS-called encoder of hipporag-wasm's `search` wrapper: pass
//! `encode: async (texts) => enc.encode(texts)` when the index header's `encoder.id` is
//! `sentence-transformers/all-MiniLM-L6-v2`. Errors are thrown as JS `Error`s.

use js_sys::Float32Array;
use wasm_bindgen::prelude::*;

use crate::{MODEL_ID, MiniLm};

/// all-MiniLM-L6-v2 in the browser: 384-d, mean-pooled, L2-normalised sentence vectors.
#[wasm_bindgen(js_name = MiniLmEncoder)]
pub struct WasmMiniLm {
    inner: MiniLm,
}

#[wasm_bindgen(js_class = MiniLmEncoder)]
impl WasmMiniLm {
    /// Loads the model from the bytes of `model.safetensors`, `tokenizer.json` and
    /// `config.json` (the page fetches them). Throws naming the file that does not parse.
    #[wasm_bindgen(constructor)]
    pub fn new(
        weights: Vec<u8>,
        tokenizer_json: &[u8],
        config_json: &[u8],
    ) -> Result<WasmMiniLm, JsError> {
        MiniLm::from_bytes(weights, tokenizer_json, config_json)
            .map(|inner| WasmMiniLm { inner })
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Values per vector (384).
    #[wasm_bindgen(getter)]
    pub fn dim(&self) -> usize {
        self.inner.dim()
    }

    /// The id index headers record for this encoder.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> String {
        MODEL_ID.to_string()
    }

    /// Encodes `texts` into `texts.length × dim` values, row-major, each row of unit norm.
    pub fn encode(&self, texts: Vec<String>) -> Result<Float32Array, JsError> {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let v = self
            .inner
            .encode(&refs)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(Float32Array::from(v.as_slice()))
    }
}
