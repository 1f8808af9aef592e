//! OpenIE with any OpenAI-compatible chat-completions server (vLLM, llama.cpp server, Ollama,
//! hosted APIs): HippoRAG's two LLM steps per passage, cached, resumable and concurrent.
//!
//! For each distinct passage (`title + "\n" + text`) not already in the cache
//! ([`super::cache`]): the NER prompt, then the triple prompt conditioned on its entities
//! ([`super::prompts`]), each a `POST {base_url}/chat/completions` with temperature 0. Replies
//! are read with [`super::reply`]; a reply that cannot be read fails that passage (recorded,
//! not cached, so a rerun tries it again) and never stops the run.
//!
//! * **Concurrency**: `concurrency` worker threads, each with one blocking request in flight
//!   (ureq); results return to the calling thread, the cache's only writer.
//! * **Retries**: HTTP 408, 429 and 5xx, timeouts and connection errors are retried up to
//!   `max_retries` times, waiting `Retry-After` when the server sends it, else
//!   `retry_base · 2^attempt` (capped at `retry_max`, plus up to 25 % deterministic jitter).
//!   Other 4xx fail the passage; 401, 403 and 404 stop the run (a wrong key, model or URL fails
//!   every passage alike).
//! * **Resume**: finished passages are in the cache the moment they finish; a rerun with the same
//!   corpus, model and cache requests only the others.
//!
//! The API key is sent as `Authorization: Bearer …` and appears in no log, error or `Debug`
//! output.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use super::cache::{Cache, CacheRecord, passage_hash};
use super::prompts::{Message, PROMPT_VERSION, ner_messages, triple_messages};
use super::reply::{entities_from, parse_reply, triples_from};
use super::{OpenIeDoc, Triple};
use crate::corpus::Passage;
use crate::progress::Progress;
use crate::{Error, Result};

/// A secret API key: sent to the server, never printed (`Debug` shows `ApiKey(***)`).
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key from its value.
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The key held by environment variable `var`, if it is set and not empty.
    pub fn from_env(var: &str) -> Option<Self> {
        std::env::var(var)
            .ok()
            .filter(|k| !k.trim().is_empty())
            .map(|k| Self(k.trim().to_string()))
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

/// How to reach the server and how hard to try.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// The API root, e.g. `http://127.0.0.1:8000/v1` (`/chat/completions` is appended unless
    /// the URL already ends with it).
    pub base_url: String,
    /// The model name the server expects.
    pub model: String,
    /// Bearer key, if the server needs one.
    pub api_key: Option<ApiKey>,
    /// Requests in flight at once (worker threads); default 4.
    pub concurrency: usize,
    /// Retries per request after the first attempt; default 5.
    pub max_retries: u32,
    /// Whole-request timeout; default 120 s.
    pub timeout: Duration,
    /// First backoff delay; default 1 s (doubled per retry).
    pub retry_base: Duration,
    /// Longest backoff delay (also caps `Retry-After`); default 60 s.
    pub retry_max: Duration,
    /// `max_tokens` sent with each request; `None` lets the server decide.
    pub max_tokens: Option<u32>,
    /// Ask for `response_format: {"type": "json_object"}` (OpenAI, vLLM, llama.cpp and Ollama
    /// support it; some servers reject it).
    pub json_mode: bool,
}

impl LlmConfig {
    /// A configuration with the defaults above.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            concurrency: 4,
            max_retries: 5,
            timeout: Duration::from_secs(120),
            retry_base: Duration::from_secs(1),
            retry_max: Duration::from_secs(60),
            max_tokens: None,
            json_mode: false,
        }
    }

    /// The chat-completions endpoint.
    pub fn endpoint(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        if base.ends_with("/chat/completions") {
            base.to_string()
        } else {
            format!("{base}/chat/completions")
        }
    }
}

/// A passage the run could not extract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// Corpus position of the passage (the first one, if the text occurs several times).
    pub passage: usize,
    /// Its title.
    pub title: String,
    /// `ner` or `triples`.
    pub stage: &'static str,
    /// HTTP attempts made for the failing step.
    pub attempts: u32,
    /// What went wrong (status and reply excerpt, timeout, unreadable JSON, …).
    pub message: String,
}

/// What a run did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LlmReport {
    /// Corpus passages.
    pub passages: usize,
    /// Distinct passage texts.
    pub distinct: usize,
    /// Distinct passages found in the cache.
    pub from_cache: usize,
    /// Distinct passages extracted by this run.
    pub extracted: usize,
    /// Extracted passages whose reply needed repair (cut off, stray commas).
    pub repaired: usize,
    /// Triple-list elements dropped because they were not three strings.
    pub malformed_triples: usize,
    /// Tokens used by this run, as reported by the server.
    pub tokens: u64,
    /// HTTP requests sent by this run, retries included.
    pub requests: u64,
    /// Of which retries.
    pub retries: u64,
    /// Cache lines that could not be read (a partial line left by a kill).
    pub damaged_cache_lines: usize,
    /// Passages that failed; their documents are empty. A rerun retries them.
    pub failures: Vec<Failure>,
}

impl std::fmt::Display for LlmReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} passages ({} distinct): {} from the cache, {} extracted ({} repaired replies, {} malformed triples dropped), {} failed; {} requests ({} retries), {} tokens",
            self.passages,
            self.distinct,
            self.from_cache,
            self.extracted,
            self.repaired,
            self.malformed_triples,
            self.failures.len(),
            self.requests,
            self.retries,
            self.tokens
        )
    }
}

/// Extracts named entities and triples for every passage with the LLM, reusing and extending
/// the cache at `cache_path`.
///
/// Returns one [`OpenIeDoc`] per passage (corpus order, `idx` set; failed passages have empty
/// lists) and the [`LlmReport`], whose `failures` lists the failed passages.
///
/// # Errors
/// [`Error::Io`] for the cache file; [`Error::OpenIeLlm`] when the server answers 401, 403 or
/// 404 or the URL is unusable (the run stops; finished passages stay cached);
/// [`Error::InvalidRequest`] for a zero concurrency.
pub fn extract_with_llm(
    passages: &[Passage],
    cfg: &LlmConfig,
    cache_path: &std::path::Path,
    progress: &dyn Progress,
) -> Result<(Vec<OpenIeDoc>, LlmReport)> {
    if cfg.concurrency == 0 {
        return Err(Error::InvalidRequest(
            "concurrency must be at least 1".into(),
        ));
    }
    let texts: Vec<String> = passages.iter().map(Passage::indexed_text).collect();
    let hashes: Vec<String> = texts.iter().map(|t| passage_hash(t)).collect();
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, h) in hashes.iter().enumerate() {
        first.entry(h.as_str()).or_insert(i);
    }
    let client = Client::new(cfg)?;
    let (mut cache, loaded) = Cache::open(cache_path, &cfg.model, PROMPT_VERSION)?;
    let mut records = loaded.records;
    let mut report = LlmReport {
        passages: passages.len(),
        distinct: first.len(),
        damaged_cache_lines: loaded.damaged_lines.len(),
        ..Default::default()
    };
    // Distinct passages still to extract, in corpus order.
    let todo: Vec<usize> = (0..passages.len())
        .filter(|&i| first[hashes[i].as_str()] == i && !records.contains_key(&hashes[i]))
        .collect();
    report.from_cache = report.distinct - todo.len();

    let stats = Counters::default();
    let queue = Queue {
        todo: &todo,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let mut fatal: Option<Error> = None;
    progress.start("OpenIE", todo.len() as u64);
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
        for _ in 0..cfg.concurrency.min(todo.len()) {
            let tx = tx.clone();
            let (client, stats, queue, texts) = (&client, &stats, &queue, &texts);
            s.spawn(move || work(client, stats, queue, passages, texts, &tx));
        }
        drop(tx);
        for (i, outcome) in rx {
            match outcome {
                Outcome::Done(x) => {
                    let rec = x.into_record(&hashes[i], &cfg.model);
                    if let Err(e) = cache.append(&rec) {
                        queue.stop.store(true, Ordering::SeqCst);
                        fatal.get_or_insert(e);
                    }
                    report.extracted += 1;
                    report.repaired += usize::from(rec.repaired);
                    report.malformed_triples += rec.malformed_triples;
                    records.insert(rec.hash.clone(), rec);
                }
                Outcome::Failed(f) => report.failures.push(f),
                Outcome::Fatal(message) => {
                    fatal.get_or_insert(Error::OpenIeLlm {
                        url: cfg.endpoint(),
                        message,
                    });
                }
            }
            progress.advance(1);
            let (tokens, failed) = (stats.tokens.load(Ordering::SeqCst), report.failures.len());
            progress.detail(&if failed == 0 {
                format!("{tokens} tokens")
            } else {
                format!("{tokens} tokens, {failed} failed")
            });
        }
    });
    progress.finish();
    report.tokens = stats.tokens.load(Ordering::SeqCst);
    report.requests = stats.requests.load(Ordering::SeqCst);
    report.retries = stats.retries.load(Ordering::SeqCst);
    if let Some(e) = fatal {
        return Err(e);
    }
    report.failures.sort_by_key(|f| f.passage);
    let docs = documents(&texts, &hashes, &records, &report.failures);
    Ok((docs, report))
}

/// The passages still to extract, shared by the workers: the next one to take and whether
/// the run stops.
struct Queue<'a> {
    /// Corpus positions, in order.
    todo: &'a [usize],
    next: AtomicUsize,
    stop: AtomicBool,
}

/// A worker: extracts passages from `queue` until it is empty or stopped, sending each
/// outcome to the caller; a fatal error stops the queue.
fn work(
    client: &Client,
    stats: &Counters,
    queue: &Queue<'_>,
    passages: &[Passage],
    texts: &[String],
    tx: &mpsc::Sender<(usize, Outcome)>,
) {
    while !queue.stop.load(Ordering::SeqCst) {
        let k = queue.next.fetch_add(1, Ordering::SeqCst);
        let Some(&i) = queue.todo.get(k) else { break };
        let outcome = match client.extract(&texts[i], stats) {
            Ok(x) => Outcome::Done(x),
            Err((_, _, CallError::Fatal(m))) => {
                queue.stop.store(true, Ordering::SeqCst);
                Outcome::Fatal(m)
            }
            Err((stage, attempts, e)) => Outcome::Failed(Failure {
                passage: i,
                title: passages[i].title.clone(),
                stage,
                attempts,
                message: e.to_string(),
            }),
        };
        if tx.send((i, outcome)).is_err() {
            break;
        }
    }
}

/// One document per passage (corpus order): its cached extraction, or empty lists when it
/// failed in this run or has none.
fn documents(
    texts: &[String],
    hashes: &[String],
    records: &HashMap<String, CacheRecord>,
    failures: &[Failure],
) -> Vec<OpenIeDoc> {
    let failed: std::collections::HashSet<&str> = failures
        .iter()
        .map(|f| hashes[f.passage].as_str())
        .collect();
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let h = hashes[i].as_str();
            let (entities, triples) = match records.get(h) {
                Some(r) if !failed.contains(h) => (r.entities.clone(), r.triples.clone()),
                _ => (Vec::new(), Vec::new()),
            };
            OpenIeDoc {
                idx: Some(i),
                passage: text.clone(),
                extracted_entities: entities,
                extracted_triples: triples,
            }
        })
        .collect()
}

/// Live totals shared by the workers.
#[derive(Default)]
struct Counters {
    tokens: AtomicU64,
    requests: AtomicU64,
    retries: AtomicU64,
}

/// One passage's result.
struct Extraction {
    entities: Vec<String>,
    triples: Vec<Triple>,
    tokens: u64,
    repaired: bool,
    malformed_triples: usize,
}

impl Extraction {
    /// The cache line of this extraction of the passage with hash `hash`.
    fn into_record(self, hash: &str, model: &str) -> CacheRecord {
        CacheRecord {
            hash: hash.to_string(),
            model: model.to_string(),
            prompts: PROMPT_VERSION.to_string(),
            entities: self.entities,
            triples: self.triples,
            tokens: self.tokens,
            repaired: self.repaired,
            malformed_triples: self.malformed_triples,
        }
    }
}

/// What a worker hands back for one passage.
enum Outcome {
    Done(Extraction),
    Failed(Failure),
    Fatal(String),
}

/// Why one request attempt failed.
#[derive(Debug)]
enum CallError {
    /// Worth retrying (429, 5xx, timeout, connection); `after` from `Retry-After`.
    Retry {
        message: String,
        after: Option<Duration>,
    },
    /// This passage fails (other 4xx, unreadable reply).
    Fail(String),
    /// The run stops (401, 403, 404, unusable URL).
    Fatal(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Retry { message, .. }
            | CallError::Fail(message)
            | CallError::Fatal(message) => f.write_str(message),
        }
    }
}

/// A chat completion's text and usage.
struct Reply {
    content: String,
    tokens: u64,
    /// `finish_reason == "length"`: the model hit the token limit.
    truncated: bool,
    /// HTTP attempts it took.
    attempts: u32,
}

struct Client {
    agent: ureq::Agent,
    url: String,
    auth: Option<String>,
    cfg: LlmConfig,
}

impl Client {
    fn new(cfg: &LlmConfig) -> Result<Self> {
        let url = cfg.endpoint();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(Error::OpenIeLlm {
                url,
                message: "the base URL must start with http:// or https://".into(),
            });
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(cfg.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("hipporag-wasm/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Self {
            agent: ureq::Agent::new_with_config(config),
            url,
            auth: cfg.api_key.as_ref().map(|k| format!("Bearer {}", k.0)),
            cfg: cfg.clone(),
        })
    }

    /// Both steps for one passage; on failure the stage, the attempts and the error.
    fn extract(
        &self,
        passage: &str,
        stats: &Counters,
    ) -> std::result::Result<Extraction, (&'static str, u32, CallError)> {
        let seed = passage_hash(passage);
        let ner = self
            .call_with_retries(&ner_messages(passage), &seed, stats)
            .map_err(|(n, e)| ("ner", n, e))?;
        let parsed = parse_reply(&ner.content).map_err(|m| ("ner", 1, CallError::Fail(m)))?;
        let entities = entities_from(&parsed.value).map_err(|m| ("ner", 1, CallError::Fail(m)))?;
        let mut repaired = parsed.repaired || ner.truncated;
        let tri = self
            .call_with_retries(&triple_messages(passage, &entities), &seed, stats)
            .map_err(|(n, e)| ("triples", n, e))?;
        let parsed = parse_reply(&tri.content).map_err(|m| ("triples", 1, CallError::Fail(m)))?;
        let (triples, malformed) =
            triples_from(&parsed.value).map_err(|m| ("triples", 1, CallError::Fail(m)))?;
        repaired |= parsed.repaired || tri.truncated;
        Ok(Extraction {
            entities,
            triples,
            tokens: ner.tokens + tri.tokens,
            repaired,
            malformed_triples: malformed,
        })
    }

    /// One step with retries; on failure the attempts made and the last error.
    fn call_with_retries(
        &self,
        messages: &[Message],
        seed: &str,
        stats: &Counters,
    ) -> std::result::Result<Reply, (u32, CallError)> {
        let mut attempt = 0u32;
        loop {
            stats.requests.fetch_add(1, Ordering::SeqCst);
            match self.call(messages) {
                Ok(mut r) => {
                    stats.tokens.fetch_add(r.tokens, Ordering::SeqCst);
                    r.attempts = attempt + 1;
                    return Ok(r);
                }
                Err(CallError::Retry { after, .. }) if attempt < self.cfg.max_retries => {
                    std::thread::sleep(self.backoff(attempt, after, seed));
                    attempt += 1;
                    stats.retries.fetch_add(1, Ordering::SeqCst);
                }
                Err(CallError::Retry { message, .. }) => {
                    return Err((
                        attempt + 1,
                        CallError::Fail(format!(
                            "{message} (gave up after {} attempts)",
                            attempt + 1
                        )),
                    ));
                }
                Err(e) => return Err((attempt + 1, e)),
            }
        }
    }

    fn backoff(&self, attempt: u32, after: Option<Duration>, seed: &str) -> Duration {
        let cap = self.cfg.retry_max;
        if let Some(a) = after {
            return a.min(cap);
        }
        let base = self
            .cfg
            .retry_base
            .saturating_mul(1u32 << attempt.min(20))
            .min(cap);
        // Deterministic jitter in [0, 25 %): spreads workers that failed together.
        let h = passage_hash(&format!("{seed}/{attempt}"));
        let frac = u8::from_str_radix(&h[..2], 16).unwrap_or(0) as f64 / 1024.0;
        base.mul_f64(1.0 + frac)
    }

    /// One HTTP attempt.
    fn call(&self, messages: &[Message]) -> std::result::Result<Reply, CallError> {
        let mut body = json!({
            "model": self.cfg.model,
            "messages": messages,
            "temperature": 0,
        });
        if let Some(m) = self.cfg.max_tokens {
            body["max_tokens"] = json!(m);
        }
        if self.cfg.json_mode {
            body["response_format"] = json!({"type": "json_object"});
        }
        let mut req = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json");
        if let Some(a) = &self.auth {
            req = req.header("Authorization", a);
        }
        let mut resp = req.send(body.to_string()).map_err(transport_error)?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64);
        let text = resp.body_mut().read_to_string().map_err(transport_error)?;
        match status {
            200..=299 => parse_completion(&text),
            408 | 429 | 500..=599 => Err(CallError::Retry {
                message: format!("HTTP {status}: {}", excerpt(&text)),
                after: retry_after,
            }),
            401 | 403 | 404 => Err(CallError::Fatal(format!(
                "HTTP {status} from {} (check the URL, the model name and the API key variable): {}",
                self.url,
                excerpt(&text)
            ))),
            _ => Err(CallError::Fail(format!(
                "HTTP {status}: {}",
                excerpt(&text)
            ))),
        }
    }
}

fn transport_error(e: ureq::Error) -> CallError {
    match e {
        ureq::Error::Timeout(t) => CallError::Retry {
            message: format!("timeout ({t})"),
            after: None,
        },
        ureq::Error::BadUri(_) | ureq::Error::Http(_) | ureq::Error::InvalidProxyUrl => {
            CallError::Fatal(e.to_string())
        }
        other => CallError::Retry {
            message: other.to_string(),
            after: None,
        },
    }
}

/// The message text, token usage and truncation flag of a chat-completions response.
fn parse_completion(text: &str) -> std::result::Result<Reply, CallError> {
    let v: Value = serde_json::from_str(text).map_err(|_| CallError::Retry {
        message: format!("the server's answer is not JSON: {}", excerpt(text)),
        after: None,
    })?;
    let choice = &v["choices"][0];
    let content = choice["message"]["content"]
        .as_str()
        .ok_or_else(|| CallError::Retry {
            message: format!(
                "the server's answer has no choices[0].message.content: {}",
                excerpt(text)
            ),
            after: None,
        })?;
    Ok(Reply {
        content: content.to_string(),
        tokens: v["usage"]["total_tokens"].as_u64().unwrap_or(0),
        truncated: choice["finish_reason"].as_str() == Some("length"),
        attempts: 1,
    })
}

/// A server answer quoted in an error message (its first 200 characters).
fn excerpt(s: &str) -> String {
    super::reply::excerpt(s, 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_and_key_redaction() {
        let mut c = LlmConfig::new("http://127.0.0.1:8080/v1/", "m");
        assert_eq!(c.endpoint(), "http://127.0.0.1:8080/v1/chat/completions");
        c.base_url = "https://x.test/v1/chat/completions".into();
        assert_eq!(c.endpoint(), "https://x.test/v1/chat/completions");
        c.api_key = Some(ApiKey::new("sk-secret-value"));
        let dbg = format!("{c:?}");
        assert!(
            !dbg.contains("sk-secret-value") && dbg.contains("ApiKey(***)"),
            "{dbg}"
        );
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("c.jsonl");
        let bad = LlmConfig::new("127.0.0.1:8080", "m");
        let e = extract_with_llm(&[], &bad, &cache, &())
            .unwrap_err()
            .to_string();
        assert!(e.contains("http://"), "{e}");
        assert!(
            !cache.exists(),
            "a bad URL is reported before the cache is touched"
        );
    }

    #[test]
    fn completions_are_read_and_classified() {
        let r = parse_completion(
            r#"{"choices":[{"message":{"role":"assistant","content":"{\"a\":1}"},"finish_reason":"length"}],"usage":{"total_tokens":42}}"#,
        )
        .unwrap();
        assert_eq!(
            (r.content.as_str(), r.tokens, r.truncated),
            ("{\"a\":1}", 42, true)
        );
        assert!(matches!(
            parse_completion("<html>"),
            Err(CallError::Retry { .. })
        ));
        assert!(matches!(
            parse_completion(r#"{"choices":[]}"#),
            Err(CallError::Retry { .. })
        ));
    }

    #[test]
    fn backoff_doubles_caps_and_honours_retry_after() {
        let mut cfg = LlmConfig::new("http://127.0.0.1:1/v1", "m");
        cfg.retry_base = Duration::from_millis(100);
        cfg.retry_max = Duration::from_secs(1);
        let c = Client::new(&cfg).unwrap();
        let d: Vec<Duration> = (0..6).map(|a| c.backoff(a, None, "s")).collect();
        assert!(d[0] >= Duration::from_millis(100) && d[0] < Duration::from_millis(126));
        assert!(d[1] >= Duration::from_millis(200) && d[1] < Duration::from_millis(251));
        assert!(d[5] >= Duration::from_secs(1) && d[5] < Duration::from_millis(1251));
        assert_eq!(
            c.backoff(0, Some(Duration::from_secs(3)), "s"),
            Duration::from_secs(1)
        );
        assert_eq!(c.backoff(0, Some(Duration::ZERO), "s"), Duration::ZERO);
    }
}
