//! Criterion benchmark of `Retriever::retrieve` (linking + PPR + ranking; encoder excluded) on
//! the musique_train index built from `../shared/data` with the default options.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::eval::load_questions;
use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::import_openie;
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::search::{Mode, RetrieveOptions, Retriever};

fn bench(c: &mut Criterion) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/musique_train");
    let corpus = read_corpus(&data.join("musique_train_corpus.json")).unwrap();
    let (docs, _) = import_openie(
        &data.join("openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json"),
        &corpus,
    )
    .unwrap();
    let enc = HashedNgramEncoder::default();
    let opts = BuildOptions {
        fact_vectors: true,
        ..Default::default()
    };
    let (idx, _) = GraphBuilder::from_openie(corpus, &docs)
        .and_then(|g| g.build(&enc, &opts, &()))
        .unwrap();
    let r = Retriever::from_bytes(&idx.to_bytes()).unwrap();
    let questions = load_questions(&data.join("musique_train.json"), r.index()).unwrap();
    let prepared: Vec<_> = questions
        .iter()
        .map(|q| r.prepare_query(&q.question, None, &enc).unwrap())
        .collect();
    for mode in [Mode::HippoRag1, Mode::HippoRag2, Mode::Dense] {
        let opts = RetrieveOptions {
            mode,
            ..Default::default()
        };
        c.bench_function(
            &format!("retrieve/musique_train/{mode} (per query, 100 questions round robin)"),
            |b| {
                let mut i = 0;
                b.iter(|| {
                    let q = &prepared[i % prepared.len()];
                    i += 1;
                    r.retrieve(&q.input(), &opts).unwrap()
                })
            },
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
