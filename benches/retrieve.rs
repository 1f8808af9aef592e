//! Criterion benchmark of `Retriever::retrieve` (linking + PPR + ranking; encoder excluded) on
//! the musique_train index built from `../shared/data` with the default options.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use hipporag_wasm::corpus::read_corpus;
use hipporag_wasm::encoder::{Encoder, HashedNgramEncoder};
use hipporag_wasm::eval::load_questions;
use hipporag_wasm::graph::{BuildOptions, build_index};
use hipporag_wasm::openie::import_openie;
use hipporag_wasm::retriever::{Mode, QueryInput, RetrieveOptions, Retriever};

fn bench(c: &mut Criterion) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/musique_train");
    let corpus = read_corpus(&data.join("musique_train_corpus.json")).unwrap();
    let (docs, _) = import_openie(
        &data.join("openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json"),
        &corpus,
    )
    .unwrap();
    let enc = HashedNgramEncoder::default();
    let (idx, _) = build_index(
        corpus,
        &docs,
        &enc,
        &BuildOptions {
            fact_vectors: true,
            ..Default::default()
        },
        &(),
    )
    .unwrap();
    let r = Retriever::from_bytes(&idx.to_bytes()).unwrap();
    let questions = load_questions(&data.join("musique_train.json"), r.index()).unwrap();
    let dim = r.index().dim();
    let prepared: Vec<(Vec<String>, Vec<f32>)> = questions
        .iter()
        .map(|q| {
            let ents = r.extract_entities(&q.question);
            let mut t = vec![q.question.as_str()];
            t.extend(ents.iter().map(String::as_str));
            let e = enc.encode(&t).unwrap();
            (ents, e)
        })
        .collect();
    for mode in [Mode::HippoRag1, Mode::HippoRag2, Mode::Dense] {
        let opts = RetrieveOptions {
            mode,
            ..Default::default()
        };
        c.bench_function(
            &format!("retrieve/musique_train/{mode:?} (per query, 100 questions round robin)"),
            |b| {
                let mut i = 0;
                b.iter(|| {
                    let (ents, e) = &prepared[i % prepared.len()];
                    i += 1;
                    let q = QueryInput {
                        entities: ents,
                        embeddings: &e[dim..],
                        query_embedding: Some(&e[..dim]),
                        fact_ids: None,
                    };
                    r.retrieve(&q, &opts).unwrap()
                })
            },
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
