//! Runs every musique_train question through `retrieve` (mode from argv[2]) on an index file
//! (argv[1]); for profilers (callgrind, perf), not a benchmark.
use hipporag_indexer::eval::load_questions;
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::search::{Mode, PprMethod, RetrieveOptions, Retriever};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let r = Retriever::from_bytes(&std::fs::read(&args[1]).unwrap()).unwrap();
    let mode = match args.get(2).map(String::as_str) {
        Some("hipporag2") => Mode::HippoRag2,
        Some("dense") => Mode::Dense,
        _ => Mode::HippoRag1,
    };
    let ppr = if args.get(3).map(String::as_str) == Some("push") {
        PprMethod::Push
    } else {
        PprMethod::Exact
    };
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/musique_train/musique_train.json");
    let questions = load_questions(&data, r.index()).unwrap();
    let enc = HashedNgramEncoder::new(r.index().dim());
    let _dim = r.index().dim();
    let opts = RetrieveOptions {
        mode,
        ppr_method: ppr,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let mut n = 0;
    for q in &questions {
        let query = r.prepare_query(&q.question, None, &enc).unwrap();
        n += r.retrieve(&query.input(), &opts).unwrap().passages.len();
    }
    eprintln!(
        "{n} passages, {:.2} ms/question",
        t.elapsed().as_secs_f64() * 10.0
    );
}
