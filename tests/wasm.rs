//! The wasm side of the end-to-end test (runs under `wasm-bindgen-test-runner` in Node).
//!
//! It loads the very index bytes that `examples/wasm_fixture.rs` built natively
//! (`target/fixtures/musique.idx`), extracts entities and encodes them in wasm, and must return
//! exactly the native rankings and scores for all 100 MuSiQue questions. It also drives the
//! JS-facing API (`Retriever.fromBytes`, `retrieve` with a plain object and Float32Arrays) and
//! checks that corrupt bytes throw JS `Error`s with clear messages.
#![cfg(target_arch = "wasm32")]

#[path = "cases/normalize.rs"]
mod normalize_cases;

use hipporag_wasm::embeddings::{Encoder, HashedNgramEncoder};
use hipporag_wasm::search::WasmRetriever;
use hipporag_wasm::search::{HYBRID_STATIC_WEIGHT, Mode, QueryInput, RetrieveOptions, Retriever};
use js_sys::{Array, Float32Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

static INDEX: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/target/fixtures/musique.idx"
));
static EXPECTED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/target/fixtures/musique_expected.json"
));

#[wasm_bindgen_test]
fn wasm_ranks_all_100_questions_exactly_as_native() {
    let r = Retriever::from_bytes(INDEX).unwrap();
    let enc = HashedNgramEncoder::default();
    let dim = r.index().dim();
    let expected: Vec<serde_json::Value> = serde_json::from_str(EXPECTED).unwrap();
    assert_eq!(expected.len(), 100);
    let mut hits = 0;
    for e in &expected {
        let question = e["question"].as_str().unwrap();
        let entities = r.extract_entities(question);
        let want: Vec<String> = serde_json::from_value(e["entities"].clone()).unwrap();
        assert_eq!(entities, want, "entities of {question:?}");
        let mut texts = vec![question];
        texts.extend(entities.iter().map(String::as_str));
        let emb = enc.encode(&texts).unwrap();
        let q = QueryInput {
            question: Some(question),
            entities: &entities,
            embeddings: &emb[dim..],
            query_embedding: Some(&emb[..dim]),
            fact_ids: None,
        };
        for (mode, ids_key, bits_key) in [
            (Mode::HippoRag1, "ids", "score_bits"),
            (Mode::HippoRag2, "ids2", "score_bits2"),
        ] {
            let opts = RetrieveOptions {
                top_k: 10,
                mode,
                ..Default::default()
            };
            let res = r.retrieve(&q, &opts).unwrap();
            let got: Vec<u64> = res.passages.iter().map(|p| u64::from(p.id)).collect();
            let want: Vec<u64> = serde_json::from_value(e[ids_key].clone()).unwrap();
            assert_eq!(got, want, "{mode:?} ranking of {question:?}");
            let bits: Vec<u64> = res.passages.iter().map(|p| p.score.to_bits()).collect();
            let want_bits: Vec<u64> = serde_json::from_value(e[bits_key].clone()).unwrap();
            assert_eq!(
                bits, want_bits,
                "{mode:?} scores of {question:?} (bit-identical f64)"
            );
        }
        // Hybrid without and with the static word embeddings' fusion.
        for (mode, key, static_weight) in [
            (Mode::Bm25, "bm25", 0.0),
            (Mode::Hybrid, "hybrid", 0.0),
            (Mode::Hybrid, "hybrid_static", HYBRID_STATIC_WEIGHT),
        ] {
            let opts = RetrieveOptions {
                top_k: 10,
                mode,
                static_weight,
                ..Default::default()
            };
            let res = r.retrieve(&q, &opts).unwrap();
            let want = &e[key];
            let got: Vec<u64> = res.passages.iter().map(|p| u64::from(p.id)).collect();
            let want_ids: Vec<u64> = serde_json::from_value(want["ids"].clone()).unwrap();
            assert_eq!(got, want_ids, "{key} ranking of {question:?}");
            let bits: Vec<u64> = res.passages.iter().map(|p| p.score.to_bits()).collect();
            let want_bits: Vec<u64> = serde_json::from_value(want["score_bits"].clone()).unwrap();
            assert_eq!(
                bits, want_bits,
                "{key} scores of {question:?} (bit-identical f64)"
            );
        }
        let ids: Vec<u64> = serde_json::from_value(e["ids"].clone()).unwrap();
        let gold: Vec<Vec<u64>> = serde_json::from_value(e["gold"].clone()).unwrap();
        hits += gold
            .iter()
            .filter(|g| g.iter().any(|id| ids[..5].contains(id)))
            .count();
    }
    assert!(
        hits > 100,
        "gold passages in the top 5 over 100 questions: {hits}"
    );
}

/// The `message` and `kind` of a thrown JS `Error`.
fn error_of(v: JsValue) -> (String, String) {
    let kind = Reflect::get(&v, &"kind".into())
        .ok()
        .and_then(|k| k.as_string())
        .unwrap_or_default();
    let message = v
        .dyn_into::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default();
    (message, kind)
}

#[wasm_bindgen_test]
fn js_api_round_trip_and_errors() {
    let r = WasmRetriever::from_bytes(INDEX.to_vec()).unwrap();
    let info = r.info().unwrap();
    let enc = Reflect::get(&info, &"encoder".into()).unwrap();
    assert_eq!(
        Reflect::get(&enc, &"id".into())
            .unwrap()
            .as_string()
            .unwrap(),
        "hashed-ngram-v1"
    );

    let question = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
    let entities = r.extract_entities(question);
    let mut texts = vec![question.to_string()];
    texts.extend(entities.iter().cloned());
    let emb = hipporag_wasm::search::hashed_ngram_encode(texts, 384).unwrap();
    let dim = 384u32;
    let req = Object::new();
    let arr = Array::new();
    for e in &entities {
        arr.push(&JsValue::from_str(e));
    }
    Reflect::set(&req, &"entities".into(), &arr).unwrap();
    Reflect::set(&req, &"embeddings".into(), &emb.subarray(dim, emb.length())).unwrap();
    Reflect::set(&req, &"queryEmbedding".into(), &emb.subarray(0, dim)).unwrap();
    Reflect::set(&req, &"topK".into(), &JsValue::from(3)).unwrap();
    let res = r.retrieve(req.clone().into()).unwrap();
    let passages = Array::from(&Reflect::get(&res, &"passages".into()).unwrap());
    assert_eq!(passages.length(), 3);
    let titles: Vec<String> = passages
        .iter()
        .map(|p| {
            Reflect::get(&p, &"title".into())
                .unwrap()
                .as_string()
                .unwrap()
        })
        .collect();
    assert!(
        titles.contains(&"Journal of Psychotherapy Integration".to_string()),
        "{titles:?}"
    );
    let seeds = Array::from(&Reflect::get(&res, &"seeds".into()).unwrap());
    assert!(seeds.length() >= 1);

    // Wrong dimension → a JS Error naming the encoder.
    Reflect::set(
        &req,
        &"embeddings".into(),
        &Float32Array::new_with_length(7),
    )
    .unwrap();
    let (msg, kind) = error_of(r.retrieve(req.clone().into()).err().unwrap());
    assert_eq!(kind, "dimension");
    assert!(
        msg.contains("hashed-ngram-v1") && msg.contains("got 7"),
        "{msg}"
    );
    // A malformed option → a request error naming what was expected.
    Reflect::set(&req, &"mode".into(), &"hipporag3".into()).unwrap();
    let (msg, kind) = error_of(r.retrieve(req.into()).err().unwrap());
    assert_eq!(kind, "request");
    assert!(
        msg.contains("hipporag3") && msg.contains("hipporag1"),
        "{msg}"
    );

    // Corrupt bytes → distinct JS Errors.
    let (msg, kind) = error_of(
        WasmRetriever::from_bytes(b"<!DOCTYPE html>".to_vec())
            .err()
            .unwrap(),
    );
    assert_eq!(kind, "format.magic");
    assert!(msg.contains("not a hipporag index"), "{msg}");
    let (msg, kind) = error_of(
        WasmRetriever::from_bytes(INDEX[..INDEX.len() / 2].to_vec())
            .err()
            .unwrap(),
    );
    assert_eq!(kind, "format.truncated");
    assert!(msg.contains("truncated"), "{msg}");
    let mut flipped = INDEX.to_vec();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    let (msg, kind) = error_of(WasmRetriever::from_bytes(flipped).err().unwrap());
    assert_eq!(kind, "format.checksum");
    assert!(msg.contains("corrupt"), "{msg}");
}

/// NFKD comes from the JS engine in wasm: the folded terms must be the native ones.
#[wasm_bindgen_test]
fn accent_folds_in_the_js_engine_equal_the_native_ones() {
    for (input, want) in normalize_cases::FOLD_CASES {
        assert_eq!(
            hipporag_wasm::text::fold_latin_accents(input),
            *want,
            "{input:?}"
        );
    }
}

/// NFC comes from the JS engine in wasm: Vietnamese syllables must be composed as natively.
#[wasm_bindgen_test]
fn compositions_in_the_js_engine_equal_the_native_ones() {
    for (input, want) in normalize_cases::NFC_CASES {
        assert_eq!(hipporag_wasm::text::nfc(input), *want, "{input:?}");
    }
}

/// NFKD comes from the JS engine in wasm: the keys must be the native ones.
#[wasm_bindgen_test]
fn phrase_keys_in_the_js_engine_equal_the_native_ones() {
    for (input, want) in normalize_cases::CASES {
        assert_eq!(
            hipporag_wasm::text::normalize_phrase(input),
            *want,
            "{input:?}"
        );
    }
}
