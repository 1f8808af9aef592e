//! `hipporag query`: rank passages for one question and print the explanation.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use hipporag_indexer::Result;
use hipporag_wasm::search::{Mode, RetrieveOptions, parse_option};

use crate::common::{encoder_for, load, unit_interval};

#[derive(Args)]
pub(crate) struct QueryArgs {
    /// The index file.
    pub(crate) index: PathBuf,
    /// The question.
    pub(crate) question: String,
    /// Passages to print.
    #[arg(long, default_value_t = 5)]
    pub(crate) top_k: usize,
    /// Retrieval mode: hipporag1, hipporag2, hybrid, bm25 or dense.
    #[arg(long, default_value_t = Mode::HippoRag1, value_parser = |s: &str| parse_option::<Mode>("mode", s))]
    pub(crate) mode: Mode,
    /// Query entities (repeatable); default: the built-in extractor.
    #[arg(long = "entity")]
    pub(crate) entities: Vec<String>,
    /// Print the result as JSON (the same shape the wasm API returns).
    #[arg(long)]
    pub(crate) json: bool,
    /// Hybrid mode: the graph share's weight, in [0, 1] [default: decided per query
    /// from the graph's agreement with the passage share (fusion::graph_weight)].
    #[arg(long, value_parser = unit_interval)]
    pub(crate) phrase_weight: Option<f64>,
    /// PPR damping factor (HippoRAG: 0.5). 0 leaves the graph out.
    #[arg(long, default_value_t = RetrieveOptions::default().damping)]
    pub(crate) damping: f64,
    /// all-MiniLM-L6-v2 model directory for indexes built with it [default:
    /// $HIPPORAG_MODEL_DIR, else ../share/hipporag/all-MiniLM-L6-v2 from the binary's directory
    /// (pip's), else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    pub(crate) model: Option<PathBuf>,
}

pub(crate) fn run(a: QueryArgs) -> Result<()> {
    let r = load(&a.index)?;
    let encoder = encoder_for(&r.index().header.encoder, a.model.as_deref())?;
    let entities = (!a.entities.is_empty()).then_some(a.entities);
    let query = r.prepare_query(&a.question, entities, encoder.as_ref())?;
    let t = Instant::now();
    let res = r.retrieve(
        &query.input(),
        &RetrieveOptions {
            top_k: a.top_k,
            mode: a.mode,
            phrase_weight: a.phrase_weight,
            damping: a.damping,
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
            s.linked_from, s.phrase, s.cosine, s.specificity
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
        "({} mode, {} PPR steps, {ms:.2} ms retrieval)",
        res.mode, res.ppr_steps
    );
    Ok(())
}
