//! The encoder in WebAssembly (wasm-bindgen-test, in Node): the same reference strings as
//! `parity.rs` must reach cosine ≥ 0.999 with the independent implementation's vectors, and
//! agree with the native vectors (`target/fixtures/minilm_native.json`, written by the native
//! test, which `./build.sh test` runs first) to 1e-4 in every component. Files are read with
//! Node's `fs.readFileSync`.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{NATIVE_FIXTURE, REFERENCE, cosine, model_dir, parse_reference};
use hipporag_minilm::wasm::WasmMiniLm;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "fs")]
extern "C" {
    #[wasm_bindgen(js_name = readFileSync, catch)]
    fn read_file_sync(path: &str) -> Result<js_sys::Uint8Array, JsValue>;
}

fn read(path: &str) -> Vec<u8> {
    read_file_sync(path)
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .to_vec()
}

#[wasm_bindgen_test]
fn wasm_vectors_match_the_reference_and_the_native_ones() {
    let dir = model_dir();
    let enc = WasmMiniLm::new(
        read(&format!("{dir}/model.safetensors")),
        &read(&format!("{dir}/tokenizer.json")),
        &read(&format!("{dir}/config.json")),
    )
    .unwrap_or_else(|_| panic!("the model in {dir} loads"));
    assert_eq!(enc.dim(), 384);
    let (texts, want) = parse_reference(&read(REFERENCE));
    let native: Vec<Vec<f32>> = serde_json::from_slice(&read(NATIVE_FIXTURE)).unwrap();
    assert_eq!(native.len(), texts.len());
    let got = enc.encode(texts.clone()).unwrap().to_vec();
    let mut max_diff = 0f32;
    for (i, t) in texts.iter().enumerate() {
        let g = &got[i * 384..(i + 1) * 384];
        let c = cosine(g, &want[i]);
        assert!(c >= 0.999, "{t:?}: cosine {c} with the reference");
        for (a, b) in g.iter().zip(&native[i]) {
            max_diff = max_diff.max((a - b).abs());
        }
    }
    assert!(
        max_diff <= 1e-4,
        "wasm vs native: max component difference {max_diff}"
    );
}

#[wasm_bindgen_test]
fn bad_model_bytes_throw() {
    let dir = model_dir();
    let cfg = read(&format!("{dir}/config.json"));
    let tok = read(&format!("{dir}/tokenizer.json"));
    assert!(WasmMiniLm::new(b"nope".to_vec(), &tok, &cfg).is_err());
    assert!(WasmMiniLm::new(Vec::new(), b"{", &cfg).is_err());
}
