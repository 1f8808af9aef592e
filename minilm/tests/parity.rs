//! Native parity with an independent implementation: every string of
//! `../shared/data/encoder/minilm_reference.json` (KG phrases, MuSiQue questions, a unicode
//! string, a 2,000-character string past the 256-token truncation) must reach cosine ≥ 0.999
//! with its reference vector. Also writes the native vectors to `target/fixtures/` for the wasm
//! module's test (`tests/js/minilm_wasm.test.mjs`, on `pkg/minilm/`), which requires wasm and
//! native to agree to 1e-4.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{NATIVE_FIXTURE, REFERENCE, cosine, model_dir, parse_reference};
use hipporag_minilm::MiniLm;

#[test]
fn every_reference_string_matches_the_independent_implementation() {
    let dir = model_dir();
    let enc = MiniLm::from_dir(std::path::Path::new(&dir))
        .unwrap_or_else(|e| panic!("{e} (run ./build.sh model to fetch the model)"));
    assert_eq!(enc.dim(), 384);
    let (texts, want) = parse_reference(&std::fs::read(REFERENCE).expect(REFERENCE));
    assert_eq!(texts.len(), 44);
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let got = enc.encode(&refs).unwrap();
    let mut worst = (1.0f64, String::new());
    for (i, (t, w)) in texts.iter().zip(&want).enumerate() {
        let g = &got[i * 384..(i + 1) * 384];
        let norm: f32 = g.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{t:?}: norm {norm}");
        let c = cosine(g, w);
        if c < worst.0 {
            worst = (c, t.chars().take(40).collect());
        }
        assert!(c >= 0.999, "{t:?}: cosine {c} with the reference");
    }
    eprintln!(
        "lowest cosine with the reference: {:.6} ({:?})",
        worst.0, worst.1
    );
    // A text's vector does not depend on what else is in the call, to the bit: each forward
    // pass holds texts of one token count, so none is padded.
    for (i, t) in refs.iter().enumerate() {
        let alone = enc.encode(&[t]).unwrap();
        assert!(
            alone == got[i * 384..(i + 1) * 384],
            "{t:?}: its vector alone differs from its vector among the 44"
        );
    }
    let dir = std::path::Path::new(NATIVE_FIXTURE).parent().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let rows: Vec<&[f32]> = got.chunks_exact(384).collect();
    std::fs::write(NATIVE_FIXTURE, serde_json::to_vec(&rows).unwrap()).unwrap();
}

#[test]
fn a_bad_model_directory_is_a_clear_error() {
    let tmp = std::env::temp_dir().join("hipporag-minilm-no-model");
    std::fs::create_dir_all(&tmp).unwrap();
    let err = MiniLm::from_dir(&tmp)
        .err()
        .expect("no model there")
        .to_string();
    assert!(err.contains("model.safetensors"), "{err}");
    let dir = model_dir();
    let tok = std::fs::read(format!("{dir}/tokenizer.json")).unwrap();
    let cfg = std::fs::read(format!("{dir}/config.json")).unwrap();
    let err = MiniLm::from_bytes(b"not safetensors".to_vec(), &tok, &cfg)
        .err()
        .expect("bad weights")
        .to_string();
    assert!(err.starts_with("model.safetensors:"), "{err}");
    let err = MiniLm::from_bytes(Vec::new(), &tok, b"{\"hidden_size\": \"x\"}")
        .err()
        .expect("bad config")
        .to_string();
    assert!(err.starts_with("config.json:"), "{err}");
}

/// Int8 weights ([`hipporag_minilm::int8`]): a quarter of the bytes, and every reference
/// string's vector stays within cosine 0.99 of the independent f32 implementation's.
#[test]
fn int8_weights_stay_close_to_the_reference() {
    let dir = model_dir();
    let read = |f: &str| std::fs::read(format!("{dir}/{f}")).unwrap();
    let f32_bytes = read("model.safetensors");
    let q = hipporag_minilm::int8::quantize(&f32_bytes).unwrap();
    assert!(hipporag_minilm::int8::is_int8(&q).unwrap());
    assert!(!hipporag_minilm::int8::is_int8(&f32_bytes).unwrap());
    assert!(
        q.len() * 3 < f32_bytes.len(),
        "{} bytes against {}",
        q.len(),
        f32_bytes.len()
    );
    assert_eq!(
        hipporag_minilm::int8::quantize(&f32_bytes).unwrap(),
        q,
        "deterministic"
    );
    let err = hipporag_minilm::int8::quantize(&q)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("already int8"), "{err}");
    let (q_len, f32_len) = (q.len(), f32_bytes.len());
    let enc = MiniLm::from_bytes(q, &read("tokenizer.json"), &read("config.json")).unwrap();
    let (texts, want) = parse_reference(&std::fs::read(REFERENCE).expect(REFERENCE));
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let got = enc.encode(&refs).unwrap();
    let worst = want
        .iter()
        .enumerate()
        .map(|(i, w)| cosine(&got[i * 384..(i + 1) * 384], w))
        .fold(1.0f64, f64::min);
    eprintln!(
        "int8 weights: {q_len} bytes against f32's {f32_len}; lowest cosine with the reference {worst:.6}"
    );
    assert!(worst >= 0.99, "int8 weights: lowest cosine {worst}");
}
