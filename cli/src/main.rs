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
//! * `hipporag site DIR` — a static site's search index and UI in `DIR/_hipporag/` ([`site`]);
//!   its options also from `HIPPORAG_*`/`PAGEFIND_*` variables and a `hipporag.toml` (or
//!   Pagefind's `pagefind.yml`, …) as Pagefind reads its own ([`site_config`]), `--serve` to serve
//!   the site after ([`serve`]).
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

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod common;
mod eval;
mod index;
mod info;
mod openie;
mod pieces;
mod query;
mod serve;
mod site;
mod site_config;

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
    #[command(
        after_help = "Each option is also an environment variable, HIPPORAG_ and its name (Pagefind's \
                      options also PAGEFIND_ and theirs), and a key of a config file in the working \
                      directory: hipporag.toml, .yml, .yaml or .json, else Pagefind's pagefind.toml, \
                      .yml, .yaml or .json. Flags win over variables, variables over the file \
                      (docs/site.md, \"Configuration\")."
    )]
    Site(Box<site::SiteArgs>),
    /// Write an index file as the index in pieces a page fetches (DIR/index/, DIR/hipporag-entry.json).
    Pieces(pieces::PiecesArgs),
}

/// The build log on stderr: `RUST_LOG`'s level (default `info`), or `level` (`hipporag site
/// --verbose`, `--quiet`, `--silent`). Past `info` (`--verbose`), only hipporag's own crates
/// log more: the HTML parser's debug log is one line per token.
pub(crate) fn init_logging(level: Option<log::LevelFilter>) {
    let mut b = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"));
    b.format_target(false).format_timestamp(None);
    match level {
        Some(level) if level > log::LevelFilter::Info => {
            b.filter_level(log::LevelFilter::Info);
            // `hipporag`, `hipporag_indexer`, `hipporag_wasm`, … (a directive names a prefix).
            b.filter_module("hipporag", level);
        }
        Some(level) => {
            b.filter_level(level);
        }
        None => {}
    }
    b.init();
}

fn main() -> ExitCode {
    // The matches too: `hipporag site` asks which options came from the command line or the
    // environment, to fill the others from its config file.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let res = match cli.command {
        Command::Site(a) => site::run(
            *a,
            matches
                .subcommand_matches("site")
                .expect("the site subcommand's matches"),
        ),
        command => {
            init_logging(None);
            match command {
                Command::Openie(a) => openie::run(a),
                Command::Index(a) => index::run(a),
                Command::Query(a) => query::run(a),
                Command::Eval(a) => eval::run(a),
                Command::Info { index } => info::run(&index),
                Command::Pieces(a) => pieces::run(a),
                Command::Site(_) => unreachable!("matched above"),
            }
        }
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
