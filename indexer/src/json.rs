//! JSON reading helpers for real-world files.
//!
//! HippoRAG's OpenIE output is written by Python's `json.dump`, which emits bare `NaN`,
//! `Infinity` and `-Infinity` tokens (not JSON). [`read_json_lenient`] replaces those tokens,
//! outside strings only, by `null` before handing the text to serde_json.

use std::path::Path;

use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// Replaces bare `NaN`, `Infinity` and `-Infinity` tokens outside JSON strings by `null`.
///
/// Returns the input unchanged (borrowed) when it holds none.
pub fn replace_nonfinite_tokens(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("NaN") && !text.contains("Infinity") {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut start, mut in_string, mut escaped) = (0, 0, false, false);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let token = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|t| rest.starts_with(t));
        if let Some(t) = token {
            out.push_str(&text[start..i]);
            out.push_str("null");
            i += t.len();
            start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[start..]);
    std::borrow::Cow::Owned(out)
}

/// Reads a whole file as text.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}

/// Parses `text` (the content of `path`) as JSON of type `T`, tolerating bare `NaN`/`Infinity`.
///
/// Errors name the file and serde_json's line and column.
pub fn parse_json_lenient<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    let text = replace_nonfinite_tokens(text);
    serde_json::from_str(&text).map_err(|e| Error::Json {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// Reads and parses a JSON file with [`parse_json_lenient`].
pub fn read_json_lenient<T: DeserializeOwned>(path: &Path) -> Result<T> {
    parse_json_lenient(path, &read_text(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_outside_strings_only() {
        let s = r#"{"a": NaN, "b": "NaN \" Infinity", "c": [-Infinity, Infinity, 1]}"#;
        let v: serde_json::Value = parse_json_lenient(Path::new("x.json"), s).unwrap();
        assert!(v["a"].is_null());
        assert_eq!(v["b"], "NaN \" Infinity");
        assert_eq!(v["c"], serde_json::json!([null, null, 1]));
    }

    #[test]
    fn errors_name_file_and_position() {
        let e = parse_json_lenient::<serde_json::Value>(Path::new("bad.json"), "{\n \"a\": }")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("bad.json: "), "{e}");
        assert!(e.contains("line 2"), "{e}");
    }
}
