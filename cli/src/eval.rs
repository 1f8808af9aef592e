//! `hipporag eval`: recall@k of every mode the index supports, in one run.

use std::path::PathBuf;

use clap::Args;
use hipporag_indexer::Result;
use hipporag_indexer::eval::{
    EvalQuestion, EvalSet, ModeRecall, QuestionRun, evaluate, gold_ranks, hybrid_features,
    load_page_questions, load_questions,
};
use hipporag_wasm::Index;
use hipporag_wasm::search::{Mode, RetrieveOptions};

use crate::common::{encoder_for, load, unit_interval};

#[derive(Args)]
pub(crate) struct EvalArgs {
    /// The index file.
    pub(crate) index: PathBuf,
    /// Questions with their gold passages, in MuSiQue's format (`paragraphs[].is_supporting`),
    /// SQuAD's (v1.1/v2.0, XQuAD), HotpotQA's or 2WikiMultihopQA's (`supporting_facts`),
    /// recognised by shape; or, with `--pages`, docs-search questions `[{q, gold_pages, split}]`
    /// for a `hipporag site` index.
    #[arg(long)]
    pub(crate) questions: PathBuf,
    /// Page-level evaluation of a site index: recall@k and hit@k over the top k distinct pages
    /// (gold = `gold_pages`).
    #[arg(long)]
    pub(crate) pages: bool,
    /// With `--pages`: only the questions of this split (`dev`, `test`).
    #[arg(long, requires = "pages")]
    pub(crate) split: Option<String>,
    /// Print the table as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also print, per question, the rank of each gold passage in each mode (up to 50).
    #[arg(long)]
    pub(crate) ranks: bool,
    /// all-MiniLM-L6-v2 model directory for indexes built with it [default:
    /// $HIPPORAG_MODEL_DIR, else ../share/hipporag/all-MiniLM-L6-v2 from the binary's directory
    /// (pip's), else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    pub(crate) model: Option<PathBuf>,
    /// Hybrid mode: the graph share's weight, in [0, 1] [default: decided per query
    /// from the graph's agreement with the passage share (fusion::graph_weight)].
    #[arg(long, value_parser = unit_interval)]
    pub(crate) phrase_weight: Option<f64>,
    /// Hybrid mode, neural encoders: the dense passage scores' share beside BM25's 1.
    #[arg(long, default_value_t = RetrieveOptions::default().dense_weight)]
    pub(crate) dense_weight: f64,
    /// Hybrid mode, indexes with static word embeddings: their weight beside BM25's 1 in the
    /// reciprocal-rank fusion by page (0 = BM25 alone).
    #[arg(long, default_value_t = RetrieveOptions::default().static_weight)]
    pub(crate) static_weight: f64,
    /// Hybrid mode: seed only the query entities that are phrase nodes, as a site's index in
    /// pieces does (its pages rank exactly as this).
    #[arg(long)]
    pub(crate) exact_seeds: bool,
    /// PPR damping factor of every graph mode (HippoRAG: 0.5). 0 leaves the graph out: hybrid
    /// ranks by its passage share alone.
    #[arg(long, default_value_t = RetrieveOptions::default().damping)]
    pub(crate) damping: f64,
    /// Also rank every question through the index in pieces of this site output directory
    /// (`DIR/_hipporag`, as `hipporag site --full-index` writes it beside the single file) in
    /// bm25 and hybrid, and fail unless both give the same top-k (passages and scores).
    #[arg(long)]
    pub(crate) pieces: Option<PathBuf>,
    /// Write every mode's ranking of every question to this JSON file: `[{mode, runs: [{id,
    /// entities, ranking, scores}]}]` (passage ids, best first; pages with `--pages`).
    #[arg(long)]
    pub(crate) rankings: Option<PathBuf>,
    /// Write the hybrid ranking's inputs of every question to this file, one JSON object per
    /// line (`hipporag_indexer::eval::hybrid_features`: each candidate passage's BM25 score,
    /// passage share, graph share and hybrid score, the question's graph weight, name factor
    /// and seeds), for bench/learn_ranking.py.
    #[arg(long)]
    pub(crate) features: Option<PathBuf>,
}

pub(crate) fn run(a: EvalArgs) -> Result<()> {
    let r = load(&a.index)?;
    let encoder = encoder_for(&r.index().header.encoder, a.model.as_deref())?;
    let (questions, pages) = if a.pages {
        (
            load_page_questions(&a.questions, r.index(), a.split.as_deref())?,
            Some(r.index().pages.as_slice()),
        )
    } else {
        (load_questions(&a.questions, r.index())?, None)
    };
    // With --ranks, rank the top 50 (the extra k only widens the rankings; the table shows the
    // first ks). Pages: hit@1/5/10 and recall@5/10, as docs search is judged.
    let ks: &[usize] = match (a.pages, a.ranks) {
        (true, _) => &[1, 5, 10],
        (false, true) => &[2, 5, 50],
        (false, false) => &[2, 5],
    };
    let set = EvalSet {
        ks,
        options: RetrieveOptions {
            phrase_weight: a.phrase_weight,
            dense_weight: a.dense_weight,
            static_weight: a.static_weight,
            damping: a.damping,
            exact_seeds: a.exact_seeds,
            ..Default::default()
        },
        pages,
    };
    let modes = modes_of(r.index());
    let (table, runs) = evaluate(&r, encoder.as_ref(), &questions, &modes, &set)?;
    if let Some(dir) = &a.pieces {
        check_pieces(dir, &r, &questions, &set)?;
    }
    if let Some(path) = &a.rankings {
        write_rankings(path, &table, &runs)?;
    }
    if let Some(path) = &a.features {
        let lines = hybrid_features(&r, encoder.as_ref(), &questions, &set.options, pages)?;
        hipporag_indexer::files::write_atomic(path, lines.as_bytes())?;
    }
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
    if a.pages {
        print_page_table(&table);
        return Ok(());
    }
    println!("{:<10} {:>7} {:>7}  fallbacks", "mode", "R@2", "R@5");
    for row in &table {
        println!(
            "{:<10} {:>7.1} {:>7.1}  {}",
            <&str>::from(row.mode),
            100.0 * row.recall[0],
            100.0 * row.recall[1],
            row.fallbacks
        );
    }
    if a.ranks {
        print_ranks(&questions, &table, &runs);
    }
    Ok(())
}

/// The modes `index` supports, in the table's order: HippoRAG 2 needs fact embeddings
/// (`hipporag index --fact-vectors`); bm25 and hybrid need the BM25 index (built by default).
fn modes_of(index: &Index) -> Vec<Mode> {
    let has_bm25 = index.bm25.is_some();
    let mut modes = vec![Mode::Dense];
    if has_bm25 {
        modes.push(Mode::Bm25);
    }
    modes.push(Mode::HippoRag1);
    if index.fact_vectors.is_some() {
        modes.push(Mode::HippoRag2);
    }
    if has_bm25 {
        modes.push(Mode::Hybrid);
    }
    modes
}

/// `--rankings`: every mode's runs as `[{mode, runs}]`.
fn write_rankings(
    path: &std::path::Path,
    table: &[ModeRecall],
    runs: &[Vec<QuestionRun>],
) -> Result<()> {
    let out: Vec<serde_json::Value> = table
        .iter()
        .zip(runs)
        .map(|(row, runs)| serde_json::json!({ "mode": row.mode, "runs": runs }))
        .collect();
    hipporag_indexer::files::write_atomic(
        path,
        serde_json::to_string(&out)
            .expect("serialisable")
            .as_bytes(),
    )
}

/// `--pages`: hit@1/5/10 and recall@5/10 of every mode.
fn print_page_table(table: &[ModeRecall]) {
    println!(
        "{:<10} {:>7} {:>7} {:>7} {:>7} {:>7}  fallbacks",
        "mode", "hit@1", "hit@5", "hit@10", "R@5", "R@10"
    );
    for row in table {
        println!(
            "{:<10} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3}  {}",
            <&str>::from(row.mode),
            row.hit[0],
            row.hit[1],
            row.hit[2],
            row.recall[1],
            row.recall[2],
            row.fallbacks
        );
    }
}

/// `--ranks`: per question, the rank of each gold passage in each mode.
fn print_ranks(questions: &[EvalQuestion], table: &[ModeRecall], runs: &[Vec<QuestionRun>]) {
    for (qi, q) in questions.iter().enumerate() {
        println!("{}: {}", q.id, q.question);
        for (row, mode_runs) in table.iter().zip(runs) {
            let ranks: Vec<String> = gold_ranks(&mode_runs[qi].ranking, &q.gold)
                .iter()
                .map(|r| r.map_or_else(|| ">50".to_string(), |r| r.to_string()))
                .collect();
            println!(
                "  {:<10} gold passage ranks: {}",
                <&str>::from(row.mode),
                ranks.join(", ")
            );
        }
    }
}

/// `--pieces`: the index in pieces of `dir` must rank every question as the single file does.
fn check_pieces(
    dir: &std::path::Path,
    r: &hipporag_wasm::Retriever,
    questions: &[hipporag_indexer::eval::EvalQuestion],
    set: &EvalSet<'_>,
) -> Result<()> {
    use hipporag_indexer::Error;
    let entry_path = dir.join(hipporag_indexer::site::ENTRY_FILE);
    let entry: hipporag_indexer::site::SiteEntry =
        serde_json::from_slice(&std::fs::read(&entry_path).map_err(|e| Error::io(&entry_path, e))?)
            .map_err(|e| Error::InvalidRequest(format!("{}: {e}", entry_path.display())))?;
    let Some(meta) = entry.pieces.as_deref() else {
        return Err(Error::InvalidRequest(format!(
            "{}: no \"pieces\" (a lean site's index in pieces)",
            entry_path.display()
        )));
    };
    let (sub, name) = meta.rsplit_once('/').unwrap_or(("", meta));
    let pieces = hipporag_indexer::pieces::PieceDir::new(dir.join(sub));
    let mut index = pieces.open(name)?;
    let depth = 8 * set.ks.iter().copied().max().unwrap_or(5);
    let bad = hipporag_indexer::eval::pieces_disagreements(
        r,
        &pieces,
        &mut index,
        questions,
        &set.options,
        depth,
    )?;
    if let Some(d) = bad.first() {
        return Err(Error::InvalidRequest(format!(
            "{} of {} rankings differ between the index in pieces and the single file; first: question {} in {}: single {:?}, pieces {:?}",
            bad.len(),
            2 * questions.len(),
            d.id,
            d.mode,
            &d.single[..d.single.len().min(5)],
            &d.pieces[..d.pieces.len().min(5)]
        )));
    }
    eprintln!(
        "index in pieces ({}): {} questions × bm25, hybrid rank as the single file (top {depth}, passages and scores)",
        dir.display(),
        questions.len()
    );
    Ok(())
}
