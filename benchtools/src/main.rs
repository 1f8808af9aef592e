//! `hipporag-bench`: the benchmark tools' binary (not part of the product).
//!
//! * `hipporag-bench generate --phrases N --passages M --edges E --seed S --out I` — a synthetic
//!   index and its questions ([`hipporag_benchtools::synthetic`]).
//! * `hipporag-bench export-graph I --questions Q --out F.npz` — a mode's graph, reset vectors,
//!   PPR vectors and top passages for the igraph reference ([`hipporag_benchtools::export`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use hipporag_benchtools::synthetic::{SyntheticOptions, generate};
use hipporag_indexer::eval::load_questions;
use hipporag_indexer::files::{create_parent, read_retriever as load, write_atomic};
use hipporag_indexer::{Error, Result};
use hipporag_wasm::Retriever;
use hipporag_wasm::embeddings::{Encoder, HASHED_NGRAM_ID, HashedNgramEncoder};
use hipporag_wasm::search::{Mode, RetrieveOptions};

#[derive(Parser)]
#[command(
    name = "hipporag-bench",
    version,
    about = "hipporag-wasm benchmark tools: synthetic indexes and graph exports for igraph"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Export a mode's graph and per-question reset and PPR vectors (.npz) for bench/igraph_reference.py.
    ExportGraph(ExportArgs),
    /// Generate a synthetic index (and questions) of a given size, for benchmarks.
    Generate(GenerateArgs),
}

#[derive(Args)]
struct ExportArgs {
    /// The index file.
    index: PathBuf,
    /// MuSiQue-format questions (entities from the built-in extractor, the index's encoder).
    #[arg(long)]
    questions: PathBuf,
    /// Where to write the .npz (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// hipporag1 (phrase graph) or hipporag2 (phrase + passage graph).
    #[arg(long, default_value_t = Mode::HippoRag1)]
    mode: Mode,
    /// PPR L1 tolerance (tight: the reference compares vectors to 1e-6).
    #[arg(long, default_value_t = 1e-12)]
    tolerance: f64,
    /// PPR iteration cap.
    #[arg(long, default_value_t = 1000)]
    max_iterations: u32,
    /// Passages kept per question.
    #[arg(long, default_value_t = 5)]
    top_k: usize,
}

#[derive(Args)]
struct GenerateArgs {
    /// Phrase nodes.
    #[arg(long, default_value_t = SyntheticOptions::default().phrases)]
    phrases: usize,
    /// Passages (passage nodes in HippoRAG 2's graph).
    #[arg(long, default_value_t = SyntheticOptions::default().passages)]
    passages: usize,
    /// Undirected edges of the HippoRAG 2 graph (phrase–phrase + passage–phrase).
    #[arg(long, default_value_t = SyntheticOptions::default().edges)]
    edges: usize,
    /// Seed: the same options and seed give the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mean distinct phrases per passage.
    #[arg(long, default_value_t = SyntheticOptions::default().phrases_per_passage)]
    phrases_per_passage: f64,
    /// Power-law exponent of the expected node degrees (Chung–Lu; > 2).
    #[arg(long, default_value_t = SyntheticOptions::default().degree_exponent)]
    degree_exponent: f64,
    /// Embedding dimension (built-in hashed n-gram encoder).
    #[arg(long, default_value_t = HashedNgramEncoder::DEFAULT_DIM)]
    dim: usize,
    /// Questions to generate.
    #[arg(long, default_value_t = 100)]
    questions: usize,
    /// Where to write the index (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Where to write the questions (MuSiQue format); default: OUT with `.questions.json`.
    #[arg(long)]
    questions_out: Option<PathBuf>,
}

fn main() -> ExitCode {
    let res = match Cli::parse().command {
        Command::ExportGraph(a) => cmd_export_graph(a),
        Command::Generate(a) => cmd_generate(a),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The query encoder of an index: the benchmarks use the built-in hashed n-gram encoder only.
fn encoder_for(r: &Retriever) -> Result<Box<dyn Encoder>> {
    let info = &r.index().header.encoder;
    if info.id != HASHED_NGRAM_ID {
        return Err(Error::InvalidRequest(format!(
            "the benchmark tools encode queries with {HASHED_NGRAM_ID}; this index was built with {}",
            info.id
        )));
    }
    Ok(Box::new(HashedNgramEncoder::new(info.dim as usize)))
}

fn cmd_export_graph(a: ExportArgs) -> Result<()> {
    let t0 = Instant::now();
    let r = load(&a.index)?;
    let encoder = encoder_for(&r)?;
    let questions = load_questions(&a.questions, r.index())?;
    let opts = RetrieveOptions {
        top_k: a.top_k,
        mode: a.mode,
        tolerance: a.tolerance,
        max_iterations: a.max_iterations,
        ..Default::default()
    };
    let e = hipporag_benchtools::export::export(&r, encoder.as_ref(), &questions, &opts)?;
    let bytes = e.to_npz();
    create_parent(&a.out)?;
    write_atomic(&a.out, &bytes)?;
    let m = &e.meta;
    eprintln!(
        "{}: {} bytes; {} mode, {} nodes, {} edges, {} dangling; {} questions exported ({} dense fallbacks), {} dangling probes; {:.2} s",
        a.out.display(),
        bytes.len(),
        m.mode,
        m.nodes,
        m.edges,
        m.dangling_nodes,
        e.rows() - m.probes,
        m.fallbacks,
        m.probes,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

fn cmd_generate(a: GenerateArgs) -> Result<()> {
    let t0 = Instant::now();
    let opts = SyntheticOptions {
        phrases: a.phrases,
        passages: a.passages,
        edges: a.edges,
        seed: a.seed,
        phrases_per_passage: a.phrases_per_passage,
        degree_exponent: a.degree_exponent,
        dim: a.dim,
        questions: a.questions,
    };
    let s = generate(&opts)?;
    let bytes = s.data.to_bytes();
    create_parent(&a.out)?;
    write_atomic(&a.out, &bytes)?;
    let qpath = a
        .questions_out
        .unwrap_or_else(|| a.out.with_extension("questions.json"));
    create_parent(&qpath)?;
    let qjson = serde_json::to_vec_pretty(&s.questions).expect("serialisable");
    write_atomic(&qpath, &qjson)?;
    let c = &s.stats;
    eprintln!(
        "{}: {} bytes; {} phrases + {} passages = {} nodes; {} edges = {} triple + {} synonymy + {} passage–phrase; {} facts; degree median {}, p99 {}, max {}; {:.2} s",
        a.out.display(),
        bytes.len(),
        a.phrases,
        a.passages,
        a.phrases + a.passages,
        c.triple_edges + c.synonymy_edges + c.passage_edges,
        c.triple_edges,
        c.synonymy_edges,
        c.passage_edges,
        c.facts,
        c.median_degree,
        c.p99_degree,
        c.max_degree,
        t0.elapsed().as_secs_f64()
    );
    eprintln!("{}: {} questions", qpath.display(), s.questions.len());
    Ok(())
}
