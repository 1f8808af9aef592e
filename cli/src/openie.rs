//! `hipporag openie`: write a HippoRAG OpenIE file for a corpus, with an LLM or the rules.
//!
//! * `hipporag openie --corpus C --out O --base-url URL --model M` runs HippoRAG's two prompts
//!   against an OpenAI-compatible server ([`hipporag_indexer::openie::llm`]), caching every passage in
//!   `O.cache.jsonl` as it finishes; rerunning the same command resumes.
//! * Without `--base-url`, the built-in rule extractor ([`hipporag_indexer::openie::rules`]) writes the
//!   file (to inspect what `hipporag index` uses by default).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::openie::llm::{ApiKey, LlmConfig, extract_with_llm};
use hipporag_indexer::openie::rules::{RuleOptions, extract_corpus};
use hipporag_indexer::openie::write_openie;
use hipporag_indexer::{Error, Result};

use crate::common::Bars;

#[derive(Args)]
pub(crate) struct OpenieArgs {
    /// Corpus: JSON `[{title, text, url?}]` or JSON Lines of the same, or a question file of
    /// MuSiQue, SQuAD, HotpotQA or 2WikiMultihopQA (its paragraphs, each once).
    #[arg(long)]
    corpus: PathBuf,
    /// Where to write the OpenIE file (HippoRAG's format; replaced atomically at the end).
    #[arg(long)]
    out: PathBuf,
    /// OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1 (vLLM), http://127.0.0.1:8080/v1
    /// (llama.cpp), http://127.0.0.1:11434/v1 (Ollama), https://api.openai.com/v1. Without it,
    /// the built-in rule extractor runs (no LLM).
    #[arg(long)]
    base_url: Option<String>,
    /// Model name, as the server knows it (required with --base-url).
    #[arg(long)]
    model: Option<String>,
    /// Environment variable holding the API key (sent as a Bearer token; never logged).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    api_key_env: String,
    /// Per-passage cache (JSON Lines) [default: <out>.cache.jsonl].
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// Retries per request on HTTP 408/429/5xx, timeouts and connection errors.
    #[arg(long, default_value_t = 5)]
    max_retries: u32,
    /// Whole-request timeout, in seconds.
    #[arg(long, default_value_t = 120.0)]
    timeout_secs: f64,
    /// First retry delay in milliseconds (doubled per retry, at most 60 s; `Retry-After` wins).
    #[arg(long, default_value_t = 1000)]
    retry_base_ms: u64,
    /// `max_tokens` per request [default: the server's].
    #[arg(long)]
    max_tokens: Option<u32>,
    /// Request `response_format: {"type": "json_object"}`.
    #[arg(long)]
    json_mode: bool,
    /// The built-in rule extractor's language: `auto` (detected) or a tag of `en`, `ru`, `zh`
    /// (as `hipporag index --lang`; the LLM reads any language).
    #[arg(long, default_value = "auto")]
    lang: String,
}

pub(crate) fn run(a: OpenieArgs) -> Result<()> {
    let t0 = Instant::now();
    let passages = read_corpus(&a.corpus)?;
    log::info!("{}: {} passages", a.corpus.display(), passages.len());
    let Some(base_url) = a.base_url else {
        if a.model.is_some() {
            return Err(Error::InvalidRequest(
                "--model needs --base-url (the server's API root); without both, the built-in rule extractor runs".into(),
            ));
        }
        let rules = RuleOptions {
            language: crate::index::corpus_language(&a.lang, &passages)?,
            ..Default::default()
        };
        let (docs, report) = extract_corpus(&passages, &rules);
        write_openie(&a.out, &passages, &docs, "rules")?;
        log::info!(
            "{}: built-in rule extractor (no LLM): {report}; {:.2} s",
            a.out.display(),
            t0.elapsed().as_secs_f64()
        );
        return Ok(());
    };
    let model = a.model.ok_or_else(|| {
        Error::InvalidRequest("--base-url needs --model (the model name the server expects)".into())
    })?;
    if !(a.timeout_secs.is_finite() && a.timeout_secs > 0.0) {
        return Err(Error::InvalidRequest(format!(
            "--timeout-secs must be a positive number of seconds, got {}",
            a.timeout_secs
        )));
    }
    let mut cfg = LlmConfig::new(base_url, &model);
    cfg.api_key = ApiKey::from_env(&a.api_key_env);
    cfg.concurrency = a.concurrency;
    cfg.max_retries = a.max_retries;
    cfg.timeout = Duration::from_secs_f64(a.timeout_secs);
    cfg.retry_base = Duration::from_millis(a.retry_base_ms);
    cfg.max_tokens = a.max_tokens;
    cfg.json_mode = a.json_mode;
    let cache = a.cache.unwrap_or_else(|| {
        let mut p = a.out.clone().into_os_string();
        p.push(".cache.jsonl");
        PathBuf::from(p)
    });
    log::info!(
        "OpenIE with {model} at {} ({} in flight; API key: {}); cache {}",
        cfg.endpoint(),
        cfg.concurrency,
        if cfg.api_key.is_some() {
            format!("from ${}", a.api_key_env)
        } else {
            format!("none, ${} is not set", a.api_key_env)
        },
        cache.display()
    );
    let (docs, report) = extract_with_llm(&passages, &cfg, &cache, &Bars::new())?;
    write_openie(&a.out, &passages, &docs, &format!("llm:{model}"))?;
    log::info!(
        "{}: {report}; {:.1} s",
        a.out.display(),
        t0.elapsed().as_secs_f64()
    );
    if report.damaged_cache_lines > 0 {
        log::warn!(
            "{}: {} unreadable line(s) skipped (a run was killed mid-write); those passages were extracted again",
            cache.display(),
            report.damaged_cache_lines
        );
    }
    if report.failures.is_empty() {
        return Ok(());
    }
    eprintln!("failed passages ({}):", report.failures.len());
    for f in report.failures.iter().take(20) {
        eprintln!(
            "  #{} {:?} [{} step, {} attempt(s)]: {}",
            f.passage, f.title, f.stage, f.attempts, f.message
        );
    }
    if report.failures.len() > 20 {
        eprintln!("  … and {} more", report.failures.len() - 20);
    }
    Err(Error::OpenIeLlm {
        url: cfg.endpoint(),
        message: format!(
            "{} of {} passages failed; their documents in {} are empty. Rerun the same command to retry them (finished passages come from the cache)",
            report.failures.len(),
            report.passages,
            a.out.display()
        ),
    })
}
