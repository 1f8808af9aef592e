//! LLM OpenIE against a stub OpenAI-compatible server on 127.0.0.1 (`llm_stub`), on real
//! MuSiQue passages: normal replies, 429/500 then success, timeouts, malformed and cut-off JSON,
//! a fatal 401, and a real `hipporag openie` process killed mid-run and resumed.

#[path = "../../tests/common.rs"]
mod common;
mod llm_stub;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::data;
use hipporag_indexer::corpus::{Passage, read_corpus};
use hipporag_indexer::openie::llm::{ApiKey, LlmConfig, extract_with_llm};
use hipporag_indexer::openie::{OpenIeDoc, import_openie, write_openie};
use llm_stub::{Action, Step, Stub, expected_entities, expected_triples};

/// The first `n` distinct passages of the MuSiQue corpus.
fn passages(n: usize) -> Vec<Passage> {
    let all = read_corpus(&data("musique_train/musique_train_corpus.json")).unwrap();
    let mut seen = HashSet::new();
    all.into_iter()
        .filter(|p| seen.insert(p.indexed_text()))
        .take(n)
        .collect()
}

fn config(stub: &Stub) -> LlmConfig {
    let mut c = LlmConfig::new(stub.base_url(), "stub-model");
    c.concurrency = 3;
    c.retry_base = Duration::from_millis(5);
    c.max_retries = 3;
    c.timeout = Duration::from_secs(10);
    c
}

/// The document the deterministic stub model gives for a passage.
fn expected_doc(i: usize, p: &Passage) -> OpenIeDoc {
    let text = p.indexed_text();
    let ents = expected_entities(&text);
    OpenIeDoc {
        idx: Some(i),
        extracted_triples: expected_triples(&text, &ents),
        extracted_entities: ents,
        passage: text,
    }
}

/// [`expected_doc`] of every passage of `corpus`.
fn expected_docs(corpus: &[Passage]) -> Vec<OpenIeDoc> {
    corpus
        .iter()
        .enumerate()
        .map(|(i, p)| expected_doc(i, p))
        .collect()
}

fn cache_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|s| s.lines().filter(|l| l.ends_with('}')).count())
        .unwrap_or(0)
}

#[test]
fn normal_replies_are_cached_and_a_rerun_sends_nothing() {
    let corpus = passages(12);
    let stub = Stub::answering();
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("c.jsonl");
    let mut cfg = config(&stub);
    cfg.api_key = Some(ApiKey::new("sk-test-secret"));
    let (docs, report) = extract_with_llm(&corpus, &cfg, &cache, &()).unwrap();
    let want = expected_docs(&corpus);
    assert_eq!(docs, want);
    assert!(report.failures.is_empty(), "{report}");
    assert_eq!((report.extracted, report.from_cache), (12, 0));
    assert_eq!((report.requests, report.retries), (24, 0));
    assert_eq!(
        report.tokens,
        24 * 10,
        "the stub reports 10 tokens per call"
    );
    let calls = stub.calls();
    assert_eq!(calls.len(), 24);
    assert!(
        calls
            .iter()
            .all(|c| c.auth.as_deref() == Some("Bearer sk-test-secret"))
    );
    // Step 2 is conditioned on step 1's entities.
    for c in calls.iter().filter(|c| c.step == Step::Triples) {
        assert_eq!(c.entities, expected_entities(&c.passage));
    }
    let cached = std::fs::read_to_string(&cache).unwrap();
    assert_eq!(cached.lines().count(), 12);
    assert!(!cached.contains("sk-test-secret"));
    assert!(!format!("{cfg:?} {report:?}").contains("sk-test-secret"));

    // Rerun: everything comes from the cache.
    let (again, report) = extract_with_llm(&corpus, &cfg, &cache, &()).unwrap();
    assert_eq!(again, want);
    assert_eq!(
        (report.extracted, report.from_cache, report.requests),
        (0, 12, 0)
    );
    assert_eq!(stub.calls().len(), 24);

    // Another model is another cache entry: nothing is reused across models.
    let mut other = cfg.clone();
    other.model = "other-model".into();
    let (_, report) = extract_with_llm(&corpus[..2], &other, &cache, &()).unwrap();
    assert_eq!((report.extracted, report.from_cache), (2, 0));

    // The HippoRAG-format file reads back through the importer.
    let out = dir.path().join("openie.json");
    write_openie(&out, &corpus, &docs, "llm:stub-model").unwrap();
    let (back, r) = import_openie(&out, &corpus).unwrap();
    assert_eq!(back, want);
    assert_eq!(r.malformed_triples, 0);
}

#[test]
fn status_429_and_500_are_retried_until_success() {
    let corpus = passages(6);
    let p0 = corpus[0].indexed_text();
    let p1 = corpus[1].indexed_text();
    let stub = Stub::start(move |c| match (c.step, c.attempt) {
        (Step::Ner, 1) if c.passage == p0 => Action::Status(429, Some(0)),
        (Step::Ner, 2) if c.passage == p0 => Action::Status(500, None),
        (Step::Triples, 1 | 2) if c.passage == p1 => Action::Status(503, None),
        _ => Action::Answer,
    });
    let dir = tempfile::tempdir().unwrap();
    let (docs, report) =
        extract_with_llm(&corpus, &config(&stub), &dir.path().join("c.jsonl"), &()).unwrap();
    assert!(report.failures.is_empty(), "{report}");
    assert_eq!(docs[0], expected_doc(0, &corpus[0]));
    assert_eq!(docs[1], expected_doc(1, &corpus[1]));
    assert_eq!(report.retries, 4);
    assert_eq!(report.requests, 12 + 4);
    let calls = stub.calls();
    let n = |step, p: &Passage| {
        calls
            .iter()
            .filter(|c| c.step == step && c.passage == p.indexed_text())
            .count()
    };
    assert_eq!(
        (n(Step::Ner, &corpus[0]), n(Step::Triples, &corpus[0])),
        (3, 1)
    );
    assert_eq!(
        (n(Step::Ner, &corpus[1]), n(Step::Triples, &corpus[1])),
        (1, 3)
    );
}

#[test]
fn timeouts_are_retried_and_a_passage_that_never_answers_is_a_recorded_failure() {
    let corpus = passages(6);
    let slow_once = corpus[2].indexed_text();
    let never = corpus[3].indexed_text();
    let stub = Stub::start(move |c| {
        if c.passage == never || (c.passage == slow_once && c.attempt == 1) {
            Action::Delay(Duration::from_millis(1500), Box::new(Action::Answer))
        } else {
            Action::Answer
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("c.jsonl");
    let mut cfg = config(&stub);
    cfg.timeout = Duration::from_millis(400);
    cfg.max_retries = 2;
    let (docs, report) = extract_with_llm(&corpus, &cfg, &cache, &()).unwrap();
    assert_eq!(
        docs[2],
        expected_doc(2, &corpus[2]),
        "retried after one timeout"
    );
    assert_eq!(report.failures.len(), 1, "{report}");
    let f = &report.failures[0];
    assert_eq!((f.passage, f.stage, f.attempts), (3, "ner", 3));
    assert!(f.message.contains("timeout"), "{}", f.message);
    assert!(docs[3].extracted_triples.is_empty() && docs[3].extracted_entities.is_empty());
    for i in [0, 1, 4, 5] {
        assert_eq!(docs[i], expected_doc(i, &corpus[i]));
    }
    assert_eq!(cache_lines(&cache), 5, "the failed passage is not cached");
}

#[test]
fn malformed_and_cut_off_replies_are_repaired_or_recorded_never_fatal() {
    let corpus = passages(5);
    let texts: Vec<String> = corpus.iter().map(Passage::indexed_text).collect();
    let t = texts.clone();
    let stub = Stub::start(move |c| {
        let full = llm_stub::answer_for(c);
        match c.step {
            // Prose instead of JSON: the passage fails (the model would say it again).
            Step::Triples if c.passage == t[0] => Action::Content(
                "I'm sorry, I can't produce triples for this.".into(),
                "stop",
            ),
            // Cut off at the token limit in the middle of the second triple.
            Step::Triples if c.passage == t[1] => {
                let cut = full.find("mentions").unwrap();
                Action::Content(full[..cut].to_string(), "length")
            }
            // Fenced, with chatter around it.
            Step::Ner if c.passage == t[2] => Action::Content(
                format!("Here you go:\n```json\n{full}\n```\nAnything else?"),
                "stop",
            ),
            // A 200 that is not a chat completion, once: retried.
            Step::Ner if c.passage == t[3] && c.attempt == 1 => Action::NotJson,
            // Trailing comma and a missing comma between lists.
            Step::Triples if c.passage == t[4] => Action::Content(
                full.replacen("],[", "] [", 1).replace("]]}", "],]}"),
                "stop",
            ),
            _ => Action::Answer,
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("c.jsonl");
    let (docs, report) = extract_with_llm(&corpus, &config(&stub), &cache, &()).unwrap();
    assert_eq!(report.failures.len(), 1, "{report}");
    assert_eq!(
        (report.failures[0].passage, report.failures[0].stage),
        (0, "triples")
    );
    assert!(
        report.failures[0].message.contains("no JSON"),
        "{:?}",
        report.failures[0]
    );
    assert!(docs[0].extracted_triples.is_empty());
    // The cut-off reply keeps its complete first triple.
    let want1 = expected_doc(1, &corpus[1]);
    assert_eq!(
        docs[1].extracted_triples,
        want1.extracted_triples[..1].to_vec()
    );
    assert_eq!(docs[2], expected_doc(2, &corpus[2]));
    assert_eq!(docs[3], expected_doc(3, &corpus[3]));
    assert_eq!(docs[4], expected_doc(4, &corpus[4]));
    assert_eq!(report.repaired, 2, "{report}");
    assert_eq!(report.retries, 1);

    // A rerun against a well-behaved server extracts only the failed passage.
    let good = Stub::answering();
    let (docs, report) = extract_with_llm(&corpus, &config(&good), &cache, &()).unwrap();
    assert!(report.failures.is_empty());
    assert_eq!((report.extracted, report.from_cache), (1, 4));
    assert_eq!(docs[0], expected_doc(0, &corpus[0]));
    assert!(good.calls().iter().all(|c| c.passage == texts[0]));
}

#[test]
fn a_wrong_key_stops_the_run_with_a_clear_error() {
    let corpus = passages(8);
    let stub = Stub::start(|_| Action::Status(401, None));
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(&stub);
    cfg.api_key = Some(ApiKey::new("sk-wrong"));
    let e = extract_with_llm(&corpus, &cfg, &dir.path().join("c.jsonl"), &())
        .unwrap_err()
        .to_string();
    assert!(e.contains("HTTP 401") && e.contains("API key"), "{e}");
    assert!(!e.contains("sk-wrong"));
    // Workers stop taking passages: at most one request per worker.
    assert!(
        stub.calls().len() <= cfg.concurrency,
        "{}",
        stub.calls().len()
    );
}

/// `hipporag openie` on `corpus_path` against `stub`, writing `out`, as a child process.
fn spawn_openie(corpus_path: &Path, out: &Path, stub: &Stub) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_hipporag"))
        .args(["openie", "--corpus"])
        .arg(corpus_path)
        .arg("--out")
        .arg(out)
        .args(["--base-url", &stub.base_url(), "--model", "stub-model"])
        .args(["--concurrency", "3", "--retry-base-ms", "5"])
        .env("OPENAI_API_KEY", "sk-from-env")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The first run: the server answers 10 triple requests, then stalls every request, and the
/// process is killed once those ten passages are cached. Returns the passages answered.
fn run_and_kill(corpus_path: &Path, out: &Path, cache: &Path) -> HashSet<String> {
    let answered = std::sync::Arc::new(std::sync::Mutex::new(0usize));
    let a = answered.clone();
    let mut first = Stub::start(move |c| {
        let mut n = a.lock().unwrap();
        match c.step {
            Step::Triples if *n < 10 => {
                *n += 1;
                Action::Answer
            }
            Step::Ner if *n < 10 => Action::Answer,
            _ => Action::Hang,
        }
    });
    let mut child = spawn_openie(corpus_path, out, &first);
    let t0 = Instant::now();
    // Until ten passages are cached and a later request hangs in flight (on a busy machine the
    // eleventh request can arrive after the tenth line is written).
    while cache_lines(cache) < 10 || !first.calls().iter().any(|c| c.answer == "Hang") {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "first run made no progress"
        );
        assert!(child.try_wait().unwrap().is_none(), "first run ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Requests are now hanging; kill -9 in the middle of the run.
    child.kill().unwrap();
    child.wait().unwrap();
    first.stop();
    assert!(!out.exists(), "the OpenIE file is only written at the end");
    assert_eq!(cache_lines(cache), 10);
    assert!(
        first.calls().iter().any(|c| c.answer == "Hang"),
        "the kill must interrupt requests in flight"
    );
    first
        .calls()
        .iter()
        .filter(|c| c.step == Step::Triples && c.answer == "Answer")
        .map(|c| c.passage.clone())
        .collect()
}

/// `hipporag openie` as a child process, killed after `done` passages finished, then resumed.
#[test]
fn a_killed_run_resumes_without_repeating_or_losing_a_passage() {
    let corpus = passages(30);
    let dir = tempfile::tempdir().unwrap();
    let corpus_path = dir.path().join("corpus.json");
    std::fs::write(&corpus_path, serde_json::to_vec(&corpus).unwrap()).unwrap();
    let out = dir.path().join("openie.json");
    let cache = dir.path().join("openie.json.cache.jsonl");
    let answered_first = run_and_kill(&corpus_path, &out, &cache);
    assert_eq!(answered_first.len(), 10);

    // Second run, same command: finishes the rest.
    let second = Stub::answering();
    let child = spawn_openie(&corpus_path, &out, &second);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("10 from the cache, 20 extracted"),
        "{stderr}"
    );
    assert!(!stderr.contains("sk-from-env"));
    let calls = second.calls();
    let mut per_passage: HashMap<(Step, &str), usize> = HashMap::new();
    for c in &calls {
        *per_passage.entry((c.step, c.passage.as_str())).or_default() += 1;
        assert!(
            !answered_first.contains(&c.passage),
            "a passage finished before the kill was requested again"
        );
    }
    assert_eq!(calls.len(), 40, "20 passages × 2 steps");
    assert!(
        per_passage.values().all(|&n| n == 1),
        "a passage was extracted twice"
    );
    // None lost: every passage is in the file, with the model's answer.
    let (docs, report) = import_openie(&out, &corpus).unwrap();
    assert_eq!(docs, expected_docs(&corpus));
    assert_eq!(report.docs_without_triples, 0);
    assert_eq!(cache_lines(&cache), 30);
}

#[test]
fn failed_passages_make_the_command_fail_after_writing_the_rest() {
    let corpus = passages(4);
    let bad = corpus[1].indexed_text();
    let stub = Stub::start(move |c| {
        if c.passage == bad {
            Action::Status(400, None)
        } else {
            Action::Answer
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let corpus_path = dir.path().join("corpus.jsonl");
    let lines: Vec<String> = corpus
        .iter()
        .map(|p| serde_json::to_string(p).unwrap())
        .collect();
    std::fs::write(&corpus_path, lines.join("\n")).unwrap();
    let out = dir.path().join("o.json");
    let output = Command::new(env!("CARGO_BIN_EXE_hipporag"))
        .args(["openie", "--corpus"])
        .arg(&corpus_path)
        .arg("--out")
        .arg(&out)
        .args(["--base-url", &stub.base_url(), "--model", "m"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("1 of 4 passages failed"), "{stderr}");
    assert!(stderr.contains("HTTP 400"), "{stderr}");
    let (docs, _) = import_openie(&out, &corpus).unwrap();
    assert!(docs[1].extracted_triples.is_empty());
    assert_eq!(docs[2], expected_doc(2, &corpus[2]));
}
