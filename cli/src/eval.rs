//! `hipporag eval`: recall@k of every mode the index supports, in one run.

use std::path::PathBuf;

use clap::Args;
use hipporag_indexer::Result;
use hipporag_indexer::eval::{evaluate, gold_ranks, load_questions};
use hipporag_wasm::retriever::Mode;

use crate::common::{encoder_for, load};

#[derive(Args)]
pub(crate) struct EvalArgs {
    /// The index file.
    pub(crate) index: PathBuf,
    /// MuSiQue-format questions (`paragraphs[].is_supporting` marks gold passages).
    #[arg(long)]
    pub(crate) questions: PathBuf,
    /// Print the table as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also print, per question, the rank of each gold passage in each mode (up to 50).
    #[arg(long)]
    pub(crate) ranks: bool,
    /// all-MiniLM-L6-v2 model directory for indexes built with it [default:
    /// $HIPPORAG_MODEL_DIR, else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    pub(crate) model: Option<PathBuf>,
}

pub(crate) fn run(a: EvalArgs) -> Result<()> {
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
            row.mode.as_str(),
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
                    row.mode.as_str(),
                    ranks.join(", ")
                );
            }
        }
    }
    Ok(())
}
