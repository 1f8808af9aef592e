//! Paths shared by the parity tests: the reference vectors in `../shared/data` (never copied
//! into the repository) and the model directory `./build.sh model` fills.

/// `../shared/data/encoder/minilm_reference.json`, relative to the repository root.
pub const REFERENCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/data/encoder/minilm_reference.json"
);

/// Native vectors of the reference strings, written by `parity.rs` for the wasm test.
pub const NATIVE_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../target/fixtures/minilm_native.json"
);

/// The model directory: `$HIPPORAG_MODEL_DIR` when the test was built (build.sh exports it),
/// else `./build.sh model`'s default cache directory.
pub fn model_dir() -> String {
    match option_env!("HIPPORAG_MODEL_DIR") {
        Some(d) => d.to_string(),
        None => format!("{}/.cache/hipporag-wasm/all-MiniLM-L6-v2", env!("HOME")),
    }
}

/// Cosine of two vectors.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

/// The reference file: `(texts, vectors)`, 44 strings × 384 values.
pub fn parse_reference(json: &[u8]) -> (Vec<String>, Vec<Vec<f32>>) {
    let v: serde_json::Value = serde_json::from_slice(json).expect("minilm_reference.json parses");
    let texts = serde_json::from_value(v["texts"].clone()).expect("texts: strings");
    let vectors = serde_json::from_value(v["vectors"].clone()).expect("vectors: arrays of numbers");
    (texts, vectors)
}
