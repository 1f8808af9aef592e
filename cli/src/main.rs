//! `hipporag`: the native companion binary of hipporag-wasm. It builds index files
//! (`hipporag-indexer`), queries and evaluates them with the retriever core (`hipporag-wasm`),
//! and indexes static sites. Every module is private: the libraries are the API.
//!
//! * `hipporag openie --corpus C --out O [--base-url URL --model M]` — an OpenIE file, with an
//!   LLM (cached, resumable) or the built-in rules ([`openie`]).
//! * `hipporag index --corpus C [--openie O] --out I` — an index file, written atomically;
//!   without `--openie` the rule extractor supplies the triples ([`index`]).
//! * `hipporag query I "question"` — ranked passages and the explanation ([`query`]).
//! * `hipporag eval I --questions Q` — recall@2/@5 of every mode in one run ([`eval`]).
//! * `hipporag info I` — the header and each section's size ([`info`]).
//! * `hipporag site DIR` — a static site's search index and UI in `DIR/_hipporag/` ([`site`]).
//! * `hipporag pieces I --out DIR` — an index file as the index in pieces a page fetches
//!   ([`pieces`]).
// The doc comments of the argument structs are clap's help text (`hipporag --help`), written for a
// terminal: its `<out>` placeholders and bare URLs are what the help should print.
#![allow(rustdoc::bare_urls, rustdoc::invalid_html_tags)]

use std::process::ExitCode;

/// mimalloc: a site build's stages free gigabytes of small allocations that glibc's malloc
/// kept resident (cli/Cargo.toml has the measurement).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

mod common;
mod eval;
mod index;
mod info;
mod openie;
mod pieces;
mod query;
mod site;

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

#[derive(Subcommand)]
enum Command {
    /// Extract named entities and triples for a corpus (an OpenAI-compatible LLM, or the rules).
    Openie(openie::OpenieArgs),
    /// Build an index file from a corpus and its OpenIE results (default: the built-in rules).
    Index(index::IndexArgs),
    /// Rank passages for one question.
    Query(query::QueryArgs),
    /// Recall@k of HippoRAG and the dense baseline on a MuSiQue-format question file.
    Eval(eval::EvalArgs),
    /// Print an index's header and each section's size, raw and gzipped.
    Info {
        /// The index file.
        index: std::path::PathBuf,
    },
    /// Index a built static site (HTML, or Markdown) into DIR/_hipporag/ with a search UI.
    Site(site::SiteArgs),
    /// Write an index file as the index in pieces a page fetches (DIR/index/, DIR/hipporag-entry.json).
    Pieces(pieces::PiecesArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_target(false)
        .format_timestamp(None)
        .init();
    let res = match Cli::parse().command {
        Command::Openie(a) => openie::run(a),
        Command::Index(a) => index::run(a),
        Command::Query(a) => query::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Info { index } => info::run(&index),
        Command::Site(a) => site::run(a),
        Command::Pieces(a) => pieces::run(a),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
