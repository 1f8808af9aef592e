//! Reading an LLM's JSON reply robustly.
//!
//! Chat models asked for JSON answer with code fences, a sentence before or after the object,
//! trailing commas, a missing comma between two lists (HippoRAG's own one-shot example has
//! one), or stop mid-object when they hit their token limit. [`parse_reply`] recovers what can be
//! recovered and says so ([`Parsed::repaired`]); what cannot be read is an error that the caller
//! records as a failed passage — never a panic.
//!
//! Steps: take the text inside the first code fence if there is one (to its end when the closing
//! fence is missing); start at the first `{` or `[`; read one JSON value and ignore what follows
//! it. If that fails, apply the two syntax repairs (drop a comma before `]`/`}`; insert one
//! between `]`/`}` and a following `[`/`{`). If the value is cut off, cut it back to its last
//! complete element and close the open brackets.

use serde_json::Value;

use super::Triple;

/// A reply read as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The JSON value.
    pub value: Value,
    /// True when the reply needed syntax repairs or was cut off and closed (its last, partial
    /// element is lost).
    pub repaired: bool,
}

/// Reads the first JSON object or list of an LLM reply.
///
/// # Errors
/// A message saying why nothing usable was found (no JSON at all, or a syntax error that the
/// repairs do not fix), with a short excerpt of the reply.
pub fn parse_reply(reply: &str) -> Result<Parsed, String> {
    let fenced = strip_fence(reply);
    // JSON before an (unrelated) fence: read the whole reply.
    let body = if fenced.contains(['{', '[']) {
        fenced
    } else {
        reply
    };
    let Some(start) = body.find(['{', '[']) else {
        return Err(format!(
            "no JSON object in the reply: {}",
            excerpt(reply, 120)
        ));
    };
    let body = &body[start..];
    if let Some(v) = first_value(body) {
        return Ok(Parsed {
            value: v,
            repaired: false,
        });
    }
    let fixed = fix_commas(body);
    if let Some(v) = first_value(&fixed) {
        return Ok(Parsed {
            value: v,
            repaired: true,
        });
    }
    if let Some(v) = close_truncated(&fixed) {
        return Ok(Parsed {
            value: v,
            repaired: true,
        });
    }
    Err(format!(
        "unreadable JSON in the reply: {}",
        excerpt(reply, 120)
    ))
}

/// Named entities from a NER reply: `{"named_entities": [..]}` (or the first list-valued field,
/// or a bare list). Strings are kept as written, numbers are written out, other values
/// skipped; duplicates (same text) dropped.
///
/// # Errors
/// When the value holds no list.
pub fn entities_from(v: &Value) -> Result<Vec<String>, String> {
    let list = find_list(v, &["named_entities", "entities"])
        .ok_or_else(|| "the reply has no \"named_entities\" list".to_string())?;
    let mut out: Vec<String> = Vec::new();
    for e in list {
        if let Some(s) = scalar_text(e) {
            if !s.is_empty() && !out.contains(&s) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// Triples from a triple reply: `{"triples": [[s, r, o], ..]}` (or the first list-valued field,
/// or a bare list). An element may also be `{"subject", "relation"|"predicate", "object"}`.
/// Returns the triples and the number of elements that are not three strings or numbers.
///
/// # Errors
/// When the value holds no list.
pub fn triples_from(v: &Value) -> Result<(Vec<Triple>, usize), String> {
    let list = find_list(v, &["triples"])
        .ok_or_else(|| "the reply has no \"triples\" list".to_string())?;
    let mut out = Vec::new();
    let mut malformed = 0;
    for t in list {
        let parts: Option<Vec<String>> = match t {
            Value::Array(a) if a.len() == 3 => a.iter().map(scalar_text).collect(),
            Value::Object(o) => {
                let get = |keys: &[&str]| keys.iter().find_map(|k| o.get(*k).and_then(scalar_text));
                match (
                    get(&["subject", "head"]),
                    get(&["relation", "predicate"]),
                    get(&["object", "tail"]),
                ) {
                    (Some(s), Some(r), Some(o)) => Some(vec![s, r, o]),
                    _ => None,
                }
            }
            _ => None,
        };
        match parts {
            Some(p) if p.iter().all(|x| !x.trim().is_empty()) => {
                let [s, r, o]: [String; 3] = p.try_into().expect("three parts");
                out.push([s, r, o]);
            }
            _ => malformed += 1,
        }
    }
    Ok((out, malformed))
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn find_list<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Vec<Value>> {
    match v {
        Value::Array(a) => Some(a),
        Value::Object(o) => keys
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_array))
            .or_else(|| o.values().find_map(Value::as_array)),
        _ => None,
    }
}

/// The text inside the first ``` fence (language tag skipped), or the whole reply.
fn strip_fence(reply: &str) -> &str {
    let Some(a) = reply.find("```") else {
        return reply;
    };
    let after = &reply[a + 3..];
    let body_start = after.find('\n').map_or(after.len(), |k| k + 1);
    // A fence with the JSON on the same line ("```{...}```") has no language tag.
    let body = if after[..body_start].trim_start().starts_with(['{', '[']) {
        after
    } else {
        &after[body_start..]
    };
    match body.find("```") {
        Some(b) => &body[..b],
        None => body,
    }
}

/// The first JSON value of `s` (which starts with `{` or `[`), ignoring trailing text.
fn first_value(s: &str) -> Option<Value> {
    let mut it = serde_json::Deserializer::from_str(s).into_iter::<Value>();
    it.next()?.ok()
}

/// Walks `s`, calling `f(byte_index, byte, depth)` for every byte outside strings and for the
/// closing quote of every string.
fn scan(s: &str, mut f: impl FnMut(usize, u8, usize)) {
    let (mut in_str, mut esc, mut depth) = (false, false, 0usize);
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if in_str {
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'"' {
                in_str = false;
                f(i, b, depth);
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => {
                depth += 1;
                f(i, b, depth);
            }
            b'}' | b']' => {
                f(i, b, depth);
                depth = depth.saturating_sub(1);
            }
            _ => f(i, b, depth),
        }
    }
}

/// Drops commas before a closing bracket and inserts missing commas between `]`/`}` and a
/// following `[`/`{` (outside strings).
fn fix_commas(s: &str) -> String {
    let mut drop = Vec::new();
    let mut insert = Vec::new();
    let mut last: Option<(usize, u8)> = None; // last structural non-space byte
    scan(s, |i, b, _| {
        if b.is_ascii_whitespace() {
            return;
        }
        if let Some((j, p)) = last {
            if p == b',' && matches!(b, b']' | b'}') {
                drop.push(j);
            }
            if matches!(p, b']' | b'}') && matches!(b, b'[' | b'{') {
                insert.push(j + 1);
            }
        }
        last = Some((i, b));
    });
    let mut out = String::with_capacity(s.len() + insert.len());
    let mut k = 0;
    for (i, ch) in s.char_indices() {
        while k < insert.len() && insert[k] == i {
            out.push(',');
            k += 1;
        }
        if !drop.contains(&i) {
            out.push(ch);
        }
    }
    out
}

/// Closes a cut-off JSON value: tries cut points after each complete element, last first, and
/// closes the brackets still open there.
fn close_truncated(s: &str) -> Option<Value> {
    // Cut points: just after a closing bracket, or just before a comma, with the open stack.
    let mut stack: Vec<u8> = Vec::new();
    let mut cuts: Vec<(usize, Vec<u8>)> = Vec::new();
    // Set once the outermost value closes: what follows is not part of it.
    let mut closed = false;
    scan(s, |i, b, _| {
        if closed {
            return;
        }
        match b {
            b'{' => {
                stack.push(b'}');
                cuts.push((i + 1, stack.clone()));
            }
            b'[' => {
                stack.push(b']');
                cuts.push((i + 1, stack.clone()));
            }
            b'}' | b']' => {
                stack.pop();
                if stack.is_empty() {
                    closed = true;
                    return;
                }
                cuts.push((i + 1, stack.clone()));
            }
            b',' => cuts.push((i, stack.clone())),
            _ => {}
        }
    });
    for (cut, open) in cuts.into_iter().rev() {
        let mut candidate = s[..cut].trim_end().trim_end_matches(',').to_string();
        // An object cut after a key ("a": ) is not a complete element; parsing rejects it.
        for c in open.iter().rev() {
            candidate.push(*c as char);
        }
        if let Some(v) = first_value(&candidate) {
            return Some(v);
        }
    }
    None
}

/// The first `max_chars` characters of `s`, debug-quoted, with `…` when cut: a server reply or
/// a model's answer quoted in an error message.
pub(crate) fn excerpt(s: &str, max_chars: usize) -> String {
    let t: String = s.chars().take(max_chars).collect();
    if s.chars().count() > max_chars {
        format!("{t:?}…")
    } else {
        format!("{t:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fences_and_surrounding_text() {
        let p = parse_reply(
            "Sure! Here you go:\n```json\n{\"named_entities\": [\"A\", \"B\", 1990]}\n```\nHope it helps {x}",
        )
        .unwrap();
        assert!(!p.repaired);
        assert_eq!(entities_from(&p.value).unwrap(), vec!["A", "B", "1990"]);
        let p =
            parse_reply("{\"triples\": [[\"a\", \"b\", \"c\"]]} and then more text [1]").unwrap();
        assert_eq!(p.value, json!({"triples": [["a", "b", "c"]]}));
        let p = parse_reply("```{\"named_entities\": []}```").unwrap();
        assert_eq!(p.value, json!({"named_entities": []}));
        let p = parse_reply("{\"named_entities\": [\"A\"]}\n```\nnote\n```").unwrap();
        assert_eq!(p.value, json!({"named_entities": ["A"]}));
    }

    #[test]
    fn comma_repairs() {
        let p = parse_reply("{\"triples\": [[\"a\",\"b\",\"c\"]\n [\"d\",\"e\",\"f\"],]}").unwrap();
        assert!(p.repaired);
        let (t, bad) = triples_from(&p.value).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(bad, 0);
        // Commas inside strings are untouched.
        let p = parse_reply("{\"triples\": [[\"a ,]\",\"b\",\"c\"],]}").unwrap();
        assert_eq!(triples_from(&p.value).unwrap().0[0][0], "a ,]");
    }

    #[test]
    fn truncated_replies_keep_complete_elements() {
        let p =
            parse_reply("{\"triples\": [[\"a\", \"b\", \"c\"], [\"d\", \"e\", \"f\"], [\"g\", \"h")
                .unwrap();
        assert!(p.repaired);
        let (t, _) = triples_from(&p.value).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[1], ["d".to_string(), "e".into(), "f".into()]);
        let p = parse_reply("```json\n{\"named_entities\": [\"Radio City\", \"Ind").unwrap();
        assert_eq!(entities_from(&p.value).unwrap(), vec!["Radio City"]);
        let p = parse_reply("{\"triples\": [").unwrap();
        assert_eq!(triples_from(&p.value).unwrap().0.len(), 0);
    }

    #[test]
    fn unusable_replies_are_errors_not_panics() {
        for bad in [
            "",
            "I cannot help with that.",
            "{\"a\": tru",
            "{{{{",
            "]]]",
            "```\n```",
            "{\"triples\": \"none\"}",
        ] {
            match parse_reply(bad) {
                Err(e) => assert!(!e.is_empty()),
                Ok(p) => assert!(
                    triples_from(&p.value).is_err() || p.value.is_object(),
                    "{bad:?} → {:?}",
                    p.value
                ),
            }
        }
        assert!(triples_from(&json!({"triples": "none"})).is_err());
        let (t, bad) = triples_from(&json!({"triples": [["a","b"], ["a","b","c","d"], [1, "r", 2], {"subject": "s", "predicate": "p", "object": "o"}, [null, "r", "o"]]})).unwrap();
        assert_eq!(
            t,
            vec![
                ["1".to_string(), "r".into(), "2".into()],
                ["s".to_string(), "p".into(), "o".into()]
            ]
        );
        assert_eq!(bad, 3);
    }
}
