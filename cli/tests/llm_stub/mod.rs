//! A test double of an OpenAI-compatible chat-completions server, on 127.0.0.1.
//!
//! It answers like a deterministic "model": the NER step returns the passage's title and the
//! first capitalised word of its text; the triple step returns two triples built from the
//! passage and the entities the request carried. A test scripts failures (HTTP statuses,
//! delays, malformed or cut-off replies, stalls) per passage and attempt, and reads the log of
//! every request afterwards. The accept loop stops by itself when the `Stub` is dropped, after
//! a deadline or after a maximum number of requests, whichever comes first.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Which of the two OpenIE steps a request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Ner,
    Triples,
}

/// One request as the stub saw it.
#[derive(Debug, Clone)]
pub struct Call {
    pub step: Step,
    /// The passage text (`title + "\n" + text`) from the prompt.
    pub passage: String,
    /// 1-based count of requests for this (step, passage) so far, this one included.
    pub attempt: usize,
    /// The named entities a triple request carried.
    pub entities: Vec<String>,
    /// The `Authorization` header, if any.
    pub auth: Option<String>,
    /// What the stub did.
    pub answer: String,
}

/// What to do with one request.
#[derive(Debug, Clone)]
pub enum Action {
    /// The deterministic model's answer.
    Answer,
    /// This message content instead (status 200), with this `finish_reason`.
    Content(String, &'static str),
    /// An HTTP status with an error body, and optionally `Retry-After` (seconds).
    Status(u16, Option<u32>),
    /// Wait, then do the next action.
    Delay(Duration, Box<Action>),
    /// Never answer (hold the connection until the stub stops).
    Hang,
    /// A 200 whose body is not a chat completion.
    NotJson,
}

type Script = dyn Fn(&Call) -> Action + Send + Sync;

struct Shared {
    log: Mutex<Vec<Call>>,
    script: Box<Script>,
    stop: AtomicBool,
}

pub struct Stub {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

impl Stub {
    /// Starts a stub that follows `script`.
    pub fn start(script: impl Fn(&Call) -> Action + Send + Sync + 'static) -> Stub {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            log: Mutex::new(Vec::new()),
            script: Box::new(script),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        let handle = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(180);
            let mut served = 0usize;
            let mut workers = Vec::new();
            while !s.stop.load(Ordering::SeqCst) && Instant::now() < deadline && served < 5000 {
                match listener.accept() {
                    Ok((stream, _)) => {
                        served += 1;
                        let s = s.clone();
                        workers.push(std::thread::spawn(move || handle(stream, &s, deadline)));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    Err(_) => break,
                }
            }
            s.stop.store(true, Ordering::SeqCst);
            for w in workers {
                let _ = w.join();
            }
        });
        Stub {
            addr,
            shared,
            handle: Some(handle),
        }
    }

    /// The stub that always answers.
    pub fn answering() -> Stub {
        Stub::start(|_| Action::Answer)
    }

    /// `http://127.0.0.1:port/v1`
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every request so far.
    pub fn calls(&self) -> Vec<Call> {
        self.shared.log.lock().unwrap().clone()
    }

    /// Stops accepting and releases hanging requests.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The deterministic model's NER answer for a passage.
pub fn expected_entities(passage: &str) -> Vec<String> {
    let (title, text) = passage.split_once('\n').unwrap_or((passage, ""));
    let mut out = vec![title.to_string()];
    if let Some(w) = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| w.chars().next().is_some_and(char::is_uppercase) && *w != title)
    {
        out.push(w.to_string());
    }
    out
}

/// The deterministic model's triples for a passage, given the entities the request carried.
pub fn expected_triples(passage: &str, entities: &[String]) -> Vec<[String; 3]> {
    let title = passage.split_once('\n').map_or(passage, |(t, _)| t);
    let mut t = vec![[
        title.to_string(),
        "has length".to_string(),
        format!("{} characters", passage.chars().count()),
    ]];
    if let Some(e) = entities.get(1) {
        t.push([title.to_string(), "mentions".to_string(), e.clone()]);
    }
    t
}

pub fn answer_for(call: &Call) -> String {
    match call.step {
        Step::Ner => json!({"named_entities": expected_entities(&call.passage)}).to_string(),
        Step::Triples => {
            json!({"triples": expected_triples(&call.passage, &call.entities)}).to_string()
        }
    }
}

fn handle(mut stream: TcpStream, s: &Shared, deadline: Instant) {
    stream.set_nonblocking(false).ok();
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let Some((headers, body)) = read_request(&mut stream) else {
        return;
    };
    let auth = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| v.clone());
    let req: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let last = req["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_string();
    let passage = last
        .split_once("```\n")
        .and_then(|(_, rest)| rest.rsplit_once("\n```"))
        .map(|(p, _)| p.to_string())
        .unwrap_or_default();
    let (step, entities) = match last.split_once("Named entities: ") {
        Some((_, ents)) => {
            let v: Value = serde_json::from_str(ents.trim()).unwrap_or(Value::Null);
            let e = v["named_entities"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            (Step::Triples, e)
        }
        None => (Step::Ner, Vec::new()),
    };
    let mut call = Call {
        step,
        passage,
        attempt: 0,
        entities,
        auth,
        answer: String::new(),
    };
    let action = {
        let mut log = s.log.lock().unwrap();
        call.attempt = 1 + log
            .iter()
            .filter(|c| c.step == call.step && c.passage == call.passage)
            .count();
        let a = (s.script)(&call);
        call.answer = format!("{a:?}");
        log.push(call.clone());
        a
    };
    respond(&mut stream, &call, action, s, deadline);
}

fn respond(stream: &mut TcpStream, call: &Call, action: Action, s: &Shared, deadline: Instant) {
    let (status, body, retry_after) = match action {
        Action::Answer => (200, completion(&answer_for(call), "stop"), None),
        Action::Content(c, finish) => (200, completion(&c, finish), None),
        Action::Status(code, ra) => (
            code,
            json!({"error": {"message": format!("stub status {code}")}}).to_string(),
            ra,
        ),
        Action::NotJson => (200, "<html>bad gateway</html>".to_string(), None),
        Action::Delay(d, next) => {
            std::thread::sleep(d);
            return respond(stream, call, *next, s, deadline);
        }
        Action::Hang => {
            while !s.stop.load(Ordering::SeqCst) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            return;
        }
    };
    let mut head = format!(
        "HTTP/1.1 {status} Stub\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(r) = retry_after {
        head.push_str(&format!("Retry-After: {r}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}

fn completion(content: &str, finish: &str) -> String {
    json!({
        "id": "stub",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
    })
    .to_string()
}

/// Header names and values, in order.
type Headers = Vec<(String, String)>;

fn read_request(stream: &mut TcpStream) -> Option<(Headers, Vec<u8>)> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    if !line.starts_with("POST ") {
        return None;
    }
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (k, v) = l.split_once(':')?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())?;
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some((headers, body))
}
