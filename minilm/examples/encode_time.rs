//! Times one `MiniLm::encode` call over the lines of a file (one text per line), for the pass
//! size's measurements (docs/benchmarks.md): prints the texts, the seconds, and the sum of
//! every float of the result, which is the same from one pass size to another when the
//! vectors are.
//!
//! `cargo run --release -p hipporag-minilm --example encode_time -- MODEL_DIR TEXTS.txt`

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(model), Some(texts)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: encode_time MODEL_DIR TEXTS.txt");
        std::process::exit(2);
    };
    let texts = std::fs::read_to_string(texts).expect("the texts file");
    let texts: Vec<&str> = texts.lines().collect();
    let model = hipporag_minilm::MiniLm::from_dir(std::path::Path::new(model)).expect("the model");
    let started = std::time::Instant::now();
    let vectors = model.encode(&texts).expect("encode");
    let seconds = started.elapsed().as_secs_f64();
    let sum: f64 = vectors.iter().map(|&x| f64::from(x)).sum();
    println!(
        "{} texts in {seconds:.2} s; sum of the floats {sum}",
        texts.len()
    );
}
