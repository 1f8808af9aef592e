//! The `hipporag` command line: `openie`, `index`, `query`, `eval`, `info`.
//!
//! * `hipporag openie --corpus C --out O [--base-url URL --model M]` — writes an OpenIE file
//!   with an LLM (cached, resumable) or the built-in rules (see `cli/openie.rs`).
//! * `hipporag index --corpus C [--openie O] --out I` — builds an index file (atomically); without
//!   `--openie` the built-in rule extractor supplies the triples.
//! * `hipporag query I "question"` — ranks passages and prints the explanation.
//! * `hipporag eval I --questions Q` — recall@2/@5 for HippoRAG and the dense baseline in one run.
//! * `hipporag info I` — the header and sizes of an index.
//! * `hipporag export-graph I --questions Q --out F.npz` — a mode's graph, reset vectors, PPR
//!   vectors and top passages for the igraph reference ([`crate::export`]).
//! * `hipporag generate --phrases N --passages M --edges E --seed S --out I` — a synthetic index
//!   and its questions ([`crate::synthetic`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::corpus::read_corpus;
use crate::encoder::{Encoder, EncoderInfo, HASHED_NGRAM_ID, HashedNgramEncoder, MiniLmEncoder};
use crate::eval::{evaluate, gold_ranks, load_questions};
use crate::graph::{BuildOptions, Progress, build_index};
use crate::index::{IndexData, write_atomic};
use crate::openie::import_openie;
use crate::openie::rules::{RuleOptions, extract_corpus};
use crate::retriever::{Mode, QueryInput, RetrieveOptions, Retriever};
use crate::synthetic::{SyntheticOptions, generate};
use crate::vectors::Quantization;
use crate::{Error, Result};

#[derive(Parser)]
#[command(
    name = "hipporag",
    version,
    about = "HippoRAG multi-hop retrieval: build indexes for the browser, query and evaluate them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

mod openie;

#[derive(Subcommand)]
enum Command {
    /// Extract named entities and triples for a corpus (an OpenAI-compatible LLM, or the rules).
    Openie(openie::OpenieArgs),
    /// Build an index file from a corpus and its OpenIE results (default: the built-in rules).
    Index(IndexArgs),
    /// Rank passages for one question.
    Query(QueryArgs),
    /// Recall@k of HippoRAG and the dense baseline on a MuSiQue-format question file.
    Eval(EvalArgs),
    /// Print an index's header and each section's size, raw and gzipped.
    Info {
        /// The index file.
        index: PathBuf,
    },
    /// Export a mode's graph and per-question reset and PPR vectors (.npz) for bench/igraph_reference.py.
    ExportGraph(ExportArgs),
    /// Generate a synthetic index (and questions) of a given size, for benchmarks.
    Generate(GenerateArgs),
    /// Index a built static site (HTML, or Markdown) into DIR/_hipporag/ with a search UI.
    Site(SiteArgs),
}

#[derive(Args)]
struct SiteArgs {
    /// The built site's root directory (its pages' URLs are their paths below it).
    dir: PathBuf,
    /// The wasm package to copy into DIR/_hipporag/ (`./build.sh build` writes it).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg"))]
    pkg: PathBuf,
    /// The JS API and default UI to copy (hipporag-site.js, hipporag-ui.js, hipporag-ui.css).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/www/site"))]
    ui: PathBuf,
    /// Leave out pages whose path below DIR matches this glob (repeatable), e.g. generated
    /// indexes: `--exclude 'genindex*.html'`.
    #[arg(long)]
    exclude: Vec<String>,
    /// Synonymy threshold τ on cosine.
    #[arg(long, default_value_t = 0.8)]
    synonymy_threshold: f32,
    /// Print the build report as JSON.
    #[arg(long)]
    json: bool,
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
    #[arg(long, value_enum, default_value_t = Mode::HippoRag1)]
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
    /// all-MiniLM-L6-v2 model directory for indexes built with it [default:
    /// $HIPPORAG_MODEL_DIR, else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    model: Option<PathBuf>,
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

#[derive(Args)]
struct IndexArgs {
    /// Corpus: JSON `[{title, text, url?}]` or JSON Lines of the same.
    #[arg(long)]
    corpus: PathBuf,
    /// OpenIE results in HippoRAG's format, aligned with the corpus (e.g. from `hipporag
    /// openie`) [default: the built-in rule extractor, no LLM].
    #[arg(long)]
    openie: Option<PathBuf>,
    /// Where to write the index (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Synonymy threshold τ on cosine.
    #[arg(long, default_value_t = 0.8)]
    synonymy_threshold: f32,
    /// Most synonymy neighbours per phrase.
    #[arg(long, default_value_t = 100)]
    synonymy_k: usize,
    /// Storage of the embeddings.
    #[arg(long, value_enum, default_value_t = Quantization::Int8)]
    quantization: Quantization,
    /// Dimension of the built-in hashed n-gram encoder.
    #[arg(long, default_value_t = HashedNgramEncoder::DEFAULT_DIM)]
    dim: usize,
    /// Phrase, passage and fact encoder: the built-in lexical `hashed` (hashed-ngram-v1, no
    /// model) or `minilm` (sentence-transformers/all-MiniLM-L6-v2 from --model).
    #[arg(long, value_enum, default_value_t = EncoderChoice::Hashed)]
    encoder: EncoderChoice,
    /// With --encoder minilm and a --model directory holding another BERT-family, mean-pooled
    /// sentence-transformer: the id to record for it (e.g.
    /// sentence-transformers/all-MiniLM-L12-v2). Query-side encoders are chosen by this id.
    #[arg(long, default_value = hipporag_minilm::MODEL_ID)]
    encoder_id: String,
    /// all-MiniLM-L6-v2 model directory (with --encoder minilm) [default:
    /// $HIPPORAG_MODEL_DIR, else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    model: Option<PathBuf>,
    /// Also store fact (triple) embeddings (larger index; for HippoRAG 2 mode).
    #[arg(long)]
    fact_vectors: bool,
}

#[derive(Args)]
struct QueryArgs {
    /// The index file.
    index: PathBuf,
    /// The question.
    question: String,
    /// Passages to print.
    #[arg(long, default_value_t = 5)]
    top_k: usize,
    /// Retrieval mode.
    #[arg(long, value_enum, default_value_t = Mode::HippoRag1)]
    mode: Mode,
    /// Query entities (repeatable); default: the built-in extractor.
    #[arg(long = "entity")]
    entities: Vec<String>,
    /// Print the result as JSON (the same shape the wasm API returns).
    #[arg(long)]
    json: bool,
    /// all-MiniLM-L6-v2 model directory for indexes built with it [default:
    /// $HIPPORAG_MODEL_DIR, else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    model: Option<PathBuf>,
}

#[derive(Args)]
struct EvalArgs {
    /// The index file.
    index: PathBuf,
    /// MuSiQue-format questions (`paragraphs[].is_supporting` marks gold passages).
    #[arg(long)]
    questions: PathBuf,
    /// Print the table as JSON.
    #[arg(long)]
    json: bool,
    /// Also print, per question, the rank of each gold passage in each mode (up to 50).
    #[arg(long)]
    ranks: bool,
    /// all-MiniLM-L6-v2 model directory for indexes built with it [default:
    /// $HIPPORAG_MODEL_DIR, else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    model: Option<PathBuf>,
}

/// Entry point of the binary; returns a failure exit code with the error on stderr.
pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_target(false)
        .format_timestamp(None)
        .init();
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Openie(a) => openie::cmd_openie(a),
        Command::Index(a) => cmd_index(a),
        Command::Query(a) => cmd_query(a),
        Command::Eval(a) => cmd_eval(a),
        Command::Info { index } => cmd_info(&index),
        Command::ExportGraph(a) => cmd_export_graph(a),
        Command::Generate(a) => cmd_generate(a),
        Command::Site(a) => cmd_site(a),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// indicatif progress bars for [`Progress`].
struct Bars(Mutex<Option<ProgressBar>>);

impl Progress for Bars {
    fn start(&self, stage: &str, total: u64) {
        let bar = ProgressBar::new(total).with_message(stage.to_string());
        bar.set_style(
            ProgressStyle::with_template("{msg:>18} [{bar:30}] {pos}/{len} ({per_sec}, {eta})")
                .expect("valid template")
                .progress_chars("=> "),
        );
        *self.0.lock().expect("progress lock") = Some(bar);
    }
    fn advance(&self, n: u64) {
        if let Some(b) = &*self.0.lock().expect("progress lock") {
            b.inc(n);
        }
    }
    fn finish(&self) {
        if let Some(b) = self.0.lock().expect("progress lock").take() {
            b.finish_and_clear();
        }
    }
}

/// `hipporag index --encoder`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EncoderChoice {
    /// The built-in hashed n-gram encoder (`hashed-ngram-v1`): lexical, no model, instant.
    Hashed,
    /// all-MiniLM-L6-v2 (`sentence-transformers/all-MiniLM-L6-v2`, 384-d), from `--model`.
    Minilm,
}

fn load_minilm(model: Option<&Path>) -> Result<MiniLmEncoder> {
    let dir = model.map_or_else(MiniLmEncoder::default_dir, Path::to_path_buf);
    let t = Instant::now();
    let e = MiniLmEncoder::from_dir(&dir)?;
    log::info!(
        "all-MiniLM-L6-v2 loaded from {} in {:.2} s",
        dir.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(e)
}

/// The encoder an index was built with (its header's `encoder.id`), for encoding queries
/// natively; a MiniLM index needs the model directory (`--model`, or the default one).
fn encoder_for(info: &EncoderInfo, model: Option<&Path>) -> Result<Box<dyn Encoder>> {
    if info.id == HASHED_NGRAM_ID {
        return Ok(Box::new(HashedNgramEncoder::new(info.dim as usize)));
    }
    // all-MiniLM-L6-v2 from the default directory, or any model id with an explicit --model.
    if info.id == hipporag_minilm::MODEL_ID || model.is_some() {
        let e = load_minilm(model)?.with_id(info.id.clone());
        if e.info().dim != info.dim {
            return Err(Error::Encoder {
                encoder: info.id.clone(),
                message: format!(
                    "the model gives {}-d vectors, the index holds {}-d ones",
                    e.info().dim,
                    info.dim
                ),
            });
        }
        return Ok(Box::new(e));
    }
    Err(Error::Encoder {
        encoder: info.id.clone(),
        message: format!(
            "this build cannot run that encoder natively (it runs {HASHED_NGRAM_ID}, {} and, with --model DIR, other BERT-family sentence-transformers)",
            hipporag_minilm::MODEL_ID
        ),
    })
}

fn load(path: &Path) -> Result<Retriever> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Retriever::from_bytes(&bytes).map_err(|e| match e {
        Error::Io { .. } => e,
        other => Error::InvalidRequest(format!("{}: {other}", path.display())),
    })
}

fn cmd_index(a: IndexArgs) -> Result<()> {
    let t0 = Instant::now();
    let passages = read_corpus(&a.corpus)?;
    log::info!("{}: {} passages", a.corpus.display(), passages.len());
    let docs = match &a.openie {
        Some(path) => {
            let (docs, report) = import_openie(path, &passages)?;
            log::info!("OpenIE imported from {}: {report}", path.display());
            docs
        }
        None => {
            let (docs, report) = extract_corpus(&passages, &RuleOptions::default());
            log::info!("OpenIE: built-in rule extractor (no LLM, no --openie file): {report}");
            docs
        }
    };
    let encoder: Box<dyn Encoder> = match a.encoder {
        EncoderChoice::Hashed => Box::new(HashedNgramEncoder::new(a.dim)),
        EncoderChoice::Minilm => {
            Box::new(load_minilm(a.model.as_deref())?.with_id(a.encoder_id.clone()))
        }
    };
    let opts = BuildOptions {
        synonymy_threshold: a.synonymy_threshold,
        synonymy_k: a.synonymy_k,
        quantization: a.quantization,
        fact_vectors: a.fact_vectors,
        ..Default::default()
    };
    let (data, build) = build_index(
        passages,
        &docs,
        encoder.as_ref(),
        &opts,
        &Bars(Mutex::new(None)),
    )?;
    for (stage, n, secs) in &build.encoding {
        log::info!(
            "encoded {n} {stage} with {} in {secs:.2} s: {:.0} {stage}/s",
            encoder.info().id,
            *n as f64 / secs.max(1e-9)
        );
    }
    let bytes = data.to_bytes();
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    write_atomic(&a.out, &bytes)?;
    let c = &build.counts;
    log::info!(
        "{}: {} bytes; {} phrases, {} passages, {} edges ({} triple, {} synonymy), {} facts; {} self-loop triples skipped; {:.2} s",
        a.out.display(),
        bytes.len(),
        c.phrases,
        c.passages,
        c.edges,
        c.triple_edges,
        c.synonymy_edges,
        c.facts,
        build.self_loop_triples,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

fn cmd_query(a: QueryArgs) -> Result<()> {
    let r = load(&a.index)?;
    let encoder = encoder_for(&r.index().header.encoder, a.model.as_deref())?;
    let entities = if a.entities.is_empty() {
        r.extract_entities(&a.question)
    } else {
        a.entities
    };
    let mut texts = vec![a.question.as_str()];
    texts.extend(entities.iter().map(String::as_str));
    let emb = encoder.encode(&texts)?;
    let dim = r.index().dim();
    let input = QueryInput {
        entities: &entities,
        embeddings: &emb[dim..],
        query_embedding: Some(&emb[..dim]),
        fact_ids: None,
    };
    let t = Instant::now();
    let res = r.retrieve(
        &input,
        &RetrieveOptions {
            top_k: a.top_k,
            mode: a.mode,
            ..Default::default()
        },
    )?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&res).expect("serialisable")
        );
        return Ok(());
    }
    println!("question: {}", a.question);
    if let Some(f) = &res.fallback {
        println!("fallback: {f}");
    }
    for s in &res.seeds {
        println!(
            "seed: {:?} → {:?} (cosine {:.3}, specificity {:.3})",
            s.entity, s.phrase, s.cosine, s.specificity
        );
    }
    if !res.top_phrases.is_empty() {
        let tp: Vec<String> = res
            .top_phrases
            .iter()
            .take(8)
            .map(|p| format!("{} {:.4}", p.phrase, p.ppr))
            .collect();
        println!("top PPR phrases: {}", tp.join(" · "));
    }
    for p in &res.passages {
        let why: Vec<&str> = p.contributions.iter().map(|c| c.phrase.as_str()).collect();
        let text: String = p.text.chars().take(160).collect();
        println!("{:>2}. [{:.5}] {} — {text}…", p.rank, p.score, p.title);
        if !why.is_empty() {
            println!("      via {}", why.join(", "));
        }
    }
    println!(
        "({} mode, {} PPR iterations, {ms:.2} ms retrieval)",
        mode_name(res.mode),
        res.ppr_iterations
    );
    Ok(())
}

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::HippoRag1 => "hipporag1",
        Mode::HippoRag2 => "hipporag2",
        Mode::Dense => "dense",
    }
}

fn cmd_eval(a: EvalArgs) -> Result<()> {
    let r = load(&a.index)?;
    let encoder = encoder_for(&r.index().header.encoder, a.model.as_deref())?;
    let questions = load_questions(&a.questions, r.index())?;
    // With --ranks, rank the top 50 (the extra k only widens the rankings; the table shows 2, 5).
    let ks: &[usize] = if a.ranks { &[2, 5, 50] } else { &[2, 5] };
    // HippoRAG 2 mode needs fact embeddings (`hipporag index --fact-vectors`).
    let mut modes = vec![Mode::Dense, Mode::HippoRag1];
    if r.index().fact_vectors.is_some() {
        modes.push(Mode::HippoRag2);
    }
    let (table, runs) = evaluate(&r, encoder.as_ref(), &questions, &modes, ks)?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&table).expect("serialisable")
        );
        return Ok(());
    }
    println!(
        "{}: {} questions, encoder {} (dim {}), embeddings {:?}",
        a.questions.display(),
        questions.len(),
        r.index().header.encoder.id,
        r.index().dim(),
        r.index().header.build.quantization
    );
    println!("{:<10} {:>7} {:>7}  fallbacks", "mode", "R@2", "R@5");
    for row in &table {
        println!(
            "{:<10} {:>7.1} {:>7.1}  {}",
            mode_name(row.mode),
            100.0 * row.recall[0],
            100.0 * row.recall[1],
            row.fallbacks
        );
    }
    if a.ranks {
        for (qi, q) in questions.iter().enumerate() {
            println!("{}: {}", q.id, q.question);
            for (row, mode_runs) in table.iter().zip(&runs) {
                let ranks: Vec<String> = gold_ranks(&mode_runs[qi].ranking, &q.gold)
                    .iter()
                    .map(|r| r.map_or_else(|| ">50".to_string(), |r| r.to_string()))
                    .collect();
                println!(
                    "  {:<10} gold passage ranks: {}",
                    mode_name(row.mode),
                    ranks.join(", ")
                );
            }
        }
    }
    Ok(())
}

fn cmd_info(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let r = Retriever::from_bytes(&bytes)?;
    let h = &r.index().header;
    println!("{}: {} bytes", path.display(), bytes.len());
    println!("{}", serde_json::to_string_pretty(h).expect("serialisable"));
    // Sizes as a static host serves them (gzip -9 each section alone, and the whole file).
    let gz = |b: &[u8]| {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(b).expect("writing to a Vec");
        e.finish().expect("writing to a Vec").len()
    };
    let data = IndexData::from_bytes(&bytes)?;
    println!("| section | bytes | gzipped |\n|---|---:|---:|");
    for (name, b) in data.sections() {
        println!("| {name} | {} | {} |", b.len(), gz(&b));
    }
    println!("| whole file | {} | {} |", bytes.len(), gz(&bytes));
    Ok(())
}

fn create_parent(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    Ok(())
}

fn cmd_export_graph(a: ExportArgs) -> Result<()> {
    let t0 = Instant::now();
    let r = load(&a.index)?;
    let encoder = encoder_for(&r.index().header.encoder, a.model.as_deref())?;
    let questions = load_questions(&a.questions, r.index())?;
    let opts = RetrieveOptions {
        top_k: a.top_k,
        mode: a.mode,
        tolerance: a.tolerance,
        max_iterations: a.max_iterations,
        ..Default::default()
    };
    let e = crate::export::export(&r, encoder.as_ref(), &questions, &opts)?;
    let bytes = e.to_npz();
    create_parent(&a.out)?;
    write_atomic(&a.out, &bytes)?;
    let m = &e.meta;
    log::info!(
        "{}: {} bytes; {} mode, {} nodes, {} edges, {} dangling; {} questions exported ({} dense fallbacks), {} dangling probes; {:.2} s",
        a.out.display(),
        bytes.len(),
        mode_name(m.mode),
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
    log::info!(
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
    log::info!("{}: {} questions", qpath.display(), s.questions.len());
    Ok(())
}

fn cmd_site(a: SiteArgs) -> Result<()> {
    let t0 = Instant::now();
    let encoder = HashedNgramEncoder::default();
    let opts = crate::site::SiteOptions {
        pkg: a.pkg,
        ui: a.ui,
        build: BuildOptions {
            synonymy_threshold: a.synonymy_threshold,
            ..Default::default()
        },
        exclude: a.exclude,
    };
    let r = crate::site::build_site(&a.dir, &encoder, &opts, &Bars(Mutex::new(None)))?;
    let secs = t0.elapsed().as_secs_f64();
    if a.json {
        let mut v = serde_json::to_value(&r).expect("serialisable");
        v["seconds"] = serde_json::json!(secs);
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
        return Ok(());
    }
    log::info!(
        "{}: {} pages, {} passages, {} phrases; OpenIE reused for {} passages, {} embeddings reused, {} encoded; {} ({} bytes); {:.2} s",
        a.dir.join(crate::site::OUTPUT_DIR).display(),
        r.pages,
        r.passages,
        r.phrases,
        r.openie_cached,
        r.vectors_cached,
        r.vectors_encoded,
        r.index_file,
        r.index_bytes,
        secs
    );
    println!(
        "Add to your pages:\n  <div id=\"hipporag-search\"></div>\n  <script type=\"module\" src=\"/{}/hipporag-ui.js\"></script>",
        crate::site::OUTPUT_DIR
    );
    Ok(())
}
