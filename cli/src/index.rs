//! `hipporag index`: a corpus (and optionally its OpenIE file) → an index file, atomically.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use hipporag_indexer::Result;
use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::files::write_atomic;
use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::import_openie;
use hipporag_indexer::pipeline::index_passages;
use hipporag_wasm::embeddings::Quantization;
use hipporag_wasm::embeddings::{Encoder, HashedNgramEncoder};
use hipporag_wasm::text::Language;

use crate::common::{Bars, MINILM_ID, create_parent};

#[derive(Args)]
pub(crate) struct IndexArgs {
    /// Corpus: JSON `[{title, text, url?}]` or JSON Lines of the same, or a question file of
    /// MuSiQue, SQuAD, HotpotQA or 2WikiMultihopQA (its paragraphs, each once).
    #[arg(long)]
    pub(crate) corpus: PathBuf,
    /// OpenIE results in HippoRAG's format, aligned with the corpus (e.g. from `hipporag
    /// openie`) [default: the built-in rule extractor, no LLM].
    #[arg(long)]
    pub(crate) openie: Option<PathBuf>,
    /// Where to write the index (replaced atomically).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Synonymy threshold τ on cosine.
    #[arg(long, default_value_t = 0.8)]
    pub(crate) synonymy_threshold: f32,
    /// Most synonymy neighbours per phrase.
    #[arg(long, default_value_t = 100)]
    pub(crate) synonymy_k: usize,
    /// Storage of the embeddings: int8 or f32.
    #[arg(long, default_value_t = Quantization::Int8)]
    pub(crate) quantization: Quantization,
    /// Dimension of the built-in hashed n-gram encoder.
    #[arg(long, default_value_t = HashedNgramEncoder::DEFAULT_DIM)]
    pub(crate) dim: usize,
    /// Phrase, passage and fact encoder: the built-in lexical `hashed` (hashed-ngram-v1, no
    /// model) or `minilm` (sentence-transformers/all-MiniLM-L6-v2 from --model).
    #[arg(long, value_enum, default_value_t = EncoderChoice::Hashed)]
    pub(crate) encoder: EncoderChoice,
    /// With --encoder minilm and a --model directory holding another BERT-family, mean-pooled
    /// sentence-transformer: the id to record for it (e.g.
    /// sentence-transformers/all-MiniLM-L12-v2). Query-side encoders are chosen by this id.
    #[arg(long, default_value = MINILM_ID)]
    pub(crate) encoder_id: String,
    /// all-MiniLM-L6-v2 model directory (with --encoder minilm) [default:
    /// $HIPPORAG_MODEL_DIR, else ../share/hipporag/all-MiniLM-L6-v2 from the binary's directory
    /// (pip's), else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    pub(crate) model: Option<PathBuf>,
    /// Also store fact (triple) embeddings (larger index; for HippoRAG 2 mode).
    #[arg(long)]
    pub(crate) fact_vectors: bool,
    /// The corpus language: `auto` (each passage identified by whatlang, the majority wins),
    /// or a BCP 47 tag (`zh-CN`, `de`, `ja`, …; a language without an analysis of its own is
    /// read with the generic one, docs/languages.md). It picks BM25's terms and the rule
    /// extractor's rules, and the index records it for the query side.
    #[arg(long, default_value = "auto")]
    pub(crate) lang: String,
}

/// The language of `--lang`, detected from the passages for `auto`.
pub(crate) fn corpus_language(
    lang: &str,
    passages: &[hipporag_wasm::index::Passage],
) -> Result<Language> {
    if lang != "auto" {
        return Language::read_tag(lang).ok_or_else(|| {
            hipporag_indexer::Error::InvalidRequest(format!(
                "--lang {lang}: expected auto or a BCP 47 language tag (en, de-CH, ja, …)"
            ))
        });
    }
    let d = hipporag_indexer::language::detect(passages);
    let counts: Vec<String> = d.counts().iter().map(|(c, n)| format!("{c} {n}")).collect();
    log::info!(
        "language: {} (detected; passages per language: {}; --lang overrides)",
        d.language.code(),
        counts.join(", ")
    );
    let warnings = d.warnings(passages.len());
    for w in &warnings {
        log::warn!("{}", w.message);
    }
    let others: Vec<&str> = warnings
        .iter()
        .filter(|w| w.has_analysis)
        .map(|w| w.code)
        .collect();
    if !others.is_empty() {
        log::warn!(
            "index the passages in {} apart (--lang {}), or build a site (`hipporag site`), which keeps one index per <html lang>",
            others.join(", "),
            others[0]
        );
    }
    Ok(d.language)
}

/// `hipporag index --encoder`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EncoderChoice {
    /// The built-in hashed n-gram encoder (`hashed-ngram-v1`): lexical, no model, instant.
    Hashed,
    /// all-MiniLM-L6-v2 (`sentence-transformers/all-MiniLM-L6-v2`, 384-d), from `--model`.
    Minilm,
}

pub(crate) fn run(a: IndexArgs) -> Result<()> {
    let t0 = Instant::now();
    let passages = read_corpus(&a.corpus)?;
    log::info!("{}: {} passages", a.corpus.display(), passages.len());
    let language = corpus_language(&a.lang, &passages)?;
    let encoder: Box<dyn Encoder> = match a.encoder {
        EncoderChoice::Hashed => Box::new(HashedNgramEncoder::new(a.dim)),
        #[cfg(feature = "minilm")]
        EncoderChoice::Minilm => {
            Box::new(crate::common::load_minilm(a.model.as_deref())?.with_id(a.encoder_id.clone()))
        }
        #[cfg(not(feature = "minilm"))]
        EncoderChoice::Minilm => {
            return Err(hipporag_indexer::Error::InvalidRequest(format!(
                "--encoder minilm: this hipporag was built without the `minilm` feature ({MINILM_ID}); cargo build -p hipporag-cli enables it"
            )));
        }
    };
    let opts = BuildOptions {
        synonymy_threshold: a.synonymy_threshold,
        synonymy_k: a.synonymy_k,
        quantization: a.quantization,
        fact_vectors: a.fact_vectors,
        language,
        ..Default::default()
    };
    let (data, build) = match &a.openie {
        Some(path) => {
            let (docs, report) = import_openie(path, &passages)?;
            log::info!("OpenIE imported from {}: {report}", path.display());
            GraphBuilder::from_openie(passages, &docs)
                .and_then(|g| g.build(encoder.as_ref(), &opts, &Bars::new()))?
        }
        None => {
            let (data, report) = index_passages(
                passages,
                Some(language),
                encoder.as_ref(),
                &opts,
                &Bars::new(),
            )?;
            log::info!(
                "OpenIE: built-in rule extractor (no LLM, no --openie file): {}",
                report.rules
            );
            (data, report.build)
        }
    };
    for (stage, n, secs) in &build.encoding {
        log::info!(
            "encoded {n} {stage} with {} in {secs:.2} s: {:.0} {stage}/s",
            encoder.info().id,
            *n as f64 / secs.max(1e-9)
        );
    }
    let bytes = data.to_bytes();
    create_parent(&a.out)?;
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
