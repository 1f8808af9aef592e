//! Writes the fixtures `tests/wasm.rs` replays in WebAssembly: the musique_train index (GPT-3.5
//! OpenIE, hashed n-gram encoder, fact vectors) as `target/fixtures/musique.idx`, and the native
//! rankings and exact score bits of every question in hipporag1, hipporag2, bm25 and hybrid
//! modes as
//! `target/fixtures/musique_expected.json`. `./build.sh test` runs it before the wasm tests, so
//! they never depend on a native test having run.
//!
//! ```sh
//! cargo run --release --example wasm_fixture
//! ```

#[path = "../tests/common.rs"]
mod common;

use common::{data, fixture};
use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::eval::load_questions;
use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::import_openie;
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::search::{HYBRID_STATIC_WEIGHT, Mode, RetrieveOptions, Retriever};

fn main() {
    let corpus = read_corpus(&data("musique_train/musique_train_corpus.json")).unwrap();
    let (docs, _) = import_openie(
        &data("musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json"),
        &corpus,
    )
    .unwrap();
    let opts = BuildOptions {
        fact_vectors: true,
        ..Default::default()
    };
    let enc = HashedNgramEncoder::default();
    let (mut data_, _) = GraphBuilder::from_openie(corpus, &docs)
        .and_then(|g| g.build(&enc, &opts, &()))
        .unwrap();
    // Static word embeddings from a small hashed encoder (sites use MiniLM's: the same code
    // path, without a model in the test).
    data_.static_embeddings = Some(
        hipporag_indexer::static_embeddings::build(
            &data_.passages,
            &HashedNgramEncoder::new(64),
            &hipporag_indexer::bm25::stopwords(hipporag_wasm::text::Language::English),
            (
                opts.batch_size,
                hipporag_indexer::static_embeddings::MAX_WORDS,
            ),
            &(),
        )
        .unwrap()
        .0,
    );
    let bytes = data_.to_bytes();
    let r = Retriever::from_bytes(&bytes).unwrap();
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    std::fs::write(fixture("musique.idx"), &bytes).unwrap();
    let expected: Vec<serde_json::Value> = questions
        .iter()
        .map(|q| {
            let query = r.prepare_query(&q.question, None, &enc).unwrap();
            let input = query.input();
            let run_mode = |mode| {
                let opts = RetrieveOptions {
                    top_k: 10,
                    mode,
                    ..Default::default()
                };
                r.retrieve(&input, &opts).unwrap()
            };
            let res = run_mode(Mode::HippoRag1);
            let res2 = run_mode(Mode::HippoRag2);
            let ranking = |mode, static_weight| {
                let opts = RetrieveOptions {
                    top_k: 10,
                    mode,
                    static_weight,
                    ..Default::default()
                };
                let r = r.retrieve(&input, &opts).unwrap();
                serde_json::json!({
                    "ids": r.passages.iter().map(|p| p.id).collect::<Vec<_>>(),
                    "score_bits": r.passages.iter().map(|p| p.score.to_bits()).collect::<Vec<_>>(),
                })
            };
            serde_json::json!({
                "bm25": ranking(Mode::Bm25, 0.0),
                "hybrid": ranking(Mode::Hybrid, 0.0),
                "hybrid_static": ranking(Mode::Hybrid, HYBRID_STATIC_WEIGHT),
                "question": q.question,
                "entities": query.entities,
                "ids": res.passages.iter().map(|p| p.id).collect::<Vec<_>>(),
                // Bit patterns: the comparison in wasm is exact, with no decimal round trip.
                "score_bits": res.passages.iter().map(|p| p.score.to_bits()).collect::<Vec<_>>(),
                "ids2": res2.passages.iter().map(|p| p.id).collect::<Vec<_>>(),
                "score_bits2": res2.passages.iter().map(|p| p.score.to_bits()).collect::<Vec<_>>(),
                "gold": q.gold,
            })
        })
        .collect();
    std::fs::write(
        fixture("musique_expected.json"),
        serde_json::to_vec(&expected).unwrap(),
    )
    .unwrap();
    eprintln!(
        "wrote {} ({} bytes) and {} ({} questions)",
        fixture("musique.idx").display(),
        bytes.len(),
        fixture("musique_expected.json").display(),
        expected.len()
    );
}
