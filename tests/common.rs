//! Shared helpers for the integration tests of every crate in the workspace (included by path
//! from `indexer/tests` and `benchtools/tests`): paths into `../shared/data`, the fixtures the
//! wasm test reads, musique_train's index and a corpus indexed with the rule extractor.
#![allow(dead_code)]

use std::path::PathBuf;

/// The workspace root: the nearest directory above this crate's manifest holding Cargo.lock.
pub fn root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join("Cargo.lock").exists() {
        assert!(
            dir.pop(),
            "no Cargo.lock above {}",
            env!("CARGO_MANIFEST_DIR")
        );
    }
    dir
}

/// `../shared/data/<rel>` relative to the workspace root.
pub fn data(rel: &str) -> PathBuf {
    root().join("../shared/data").join(rel)
}

/// musique_train's 1,890 passages with the paper's GPT-3.5 OpenIE triples, indexed with the
/// hashed encoder and `opts`.
pub fn musique(opts: &hipporag_indexer::graph::BuildOptions) -> hipporag_wasm::index::IndexData {
    let corpus =
        hipporag_indexer::corpus::read_corpus(&data("musique_train/musique_train_corpus.json"))
            .unwrap();
    let openie =
        data("musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json");
    let (docs, _) = hipporag_indexer::openie::import_openie(&openie, &corpus).unwrap();
    let encoder = hipporag_wasm::embeddings::HashedNgramEncoder::default();
    hipporag_indexer::graph::GraphBuilder::from_openie(corpus, &docs)
        .and_then(|g| g.build(&encoder, opts, &()))
        .unwrap()
        .0
}

/// The corpus at `path` (under the data directory) in `language`, indexed with the rule
/// extractor and the hashed encoder, as `hipporag index --corpus PATH --lang CODE` does.
pub fn rule_index(
    path: &str,
    language: hipporag_wasm::text::Language,
) -> hipporag_wasm::index::IndexData {
    use hipporag_indexer::openie::rules::{RuleOptions, extract_corpus};
    let corpus = hipporag_indexer::corpus::read_corpus(&data(path)).unwrap();
    let rules = RuleOptions {
        language,
        ..Default::default()
    };
    let (docs, _) = extract_corpus(&corpus, &rules);
    let opts = hipporag_indexer::graph::BuildOptions {
        language,
        ..Default::default()
    };
    let encoder = hipporag_wasm::embeddings::HashedNgramEncoder::default();
    let (data, _) = hipporag_indexer::graph::GraphBuilder::from_openie(corpus, &docs)
        .and_then(|g| g.build(&encoder, &opts, &()))
        .unwrap();
    assert_eq!(data.header.build.language, language);
    data
}

/// `target/fixtures/<name>` below the workspace root.
pub fn fixture(name: &str) -> PathBuf {
    let dir = root().join("target/fixtures");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
