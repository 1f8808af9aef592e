//! The retrieval corpus: passages read from HippoRAG's `[{title, text}]` JSON or JSON Lines, or
//! the paragraphs of a dataset's question file ([`crate::datasets`]: MuSiQue, SQuAD, HotpotQA,
//! 2WikiMultihopQA).
//!
//! A passage's indexed text is `title + "\n" + text`, exactly as HippoRAG builds it (and as its
//! OpenIE files record in `docs[i].passage`). An optional `url` (e.g. `page.html#anchor`) is
//! carried through to results for sites.

use std::path::Path;

use crate::datasets;
use crate::json::{parse_json_lenient, read_text};
use crate::{Error, Result};

pub use hipporag_wasm::index::Passage;

/// Reads a corpus file.
///
/// Format by content: a question file of a dataset ([`datasets::is_question_file`]: a list of
/// questions, or SQuAD's object with `data`) gives each of its paragraphs once, in order of
/// first appearance. Any other file whose first non-blank byte is `[` is a JSON array of
/// `{title, text, url?}` objects; otherwise each non-blank line is one such object (JSON Lines).
///
/// # Errors
/// [`Error::Io`] if unreadable; [`Error::Json`] naming the file and the line (JSON Lines) or
/// serde's line/column (JSON) for malformed records; [`Error::EmptyCorpus`] for zero passages.
pub fn read_corpus(path: &Path) -> Result<Vec<Passage>> {
    let text = read_text(path)?;
    let head = text.trim_start();
    // A SQuAD file is one JSON object; JSON Lines also start with `{`, one object per line.
    let squad = if head.starts_with('{') {
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .filter(datasets::is_question_file)
    } else {
        None
    };
    let passages: Vec<Passage> = if let Some(value) = squad {
        datasets::from_value(path, value)?.passages
    } else if head.starts_with('[') {
        let value: serde_json::Value = parse_json_lenient(path, &text)?;
        if datasets::is_question_file(&value) {
            datasets::from_value(path, value)?.passages
        } else {
            // Parsed again as passages for serde's line and column in errors.
            parse_json_lenient(path, &text)?
        }
    } else {
        let mut out = Vec::new();
        for (lineno, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let p: Passage = serde_json::from_str(line).map_err(|e| Error::Json {
                path: path.to_path_buf(),
                message: format!("line {}: expected {{\"title\", \"text\"}}: {e}", lineno + 1),
            })?;
            out.push(p);
        }
        out
    };
    if passages.is_empty() {
        return Err(Error::EmptyCorpus {
            path: path.to_path_buf(),
        });
    }
    Ok(passages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, s: &str) -> tempfile::TempPath {
        let f = tempfile::Builder::new().suffix(name).tempfile().unwrap();
        std::fs::write(f.path(), s).unwrap();
        f.into_temp_path()
    }

    #[test]
    fn json_and_jsonl_agree() {
        let a = write(
            ".json",
            r#"[{"title":"A","text":"x"},{"title":"B","text":"y","url":"/b#c"}]"#,
        );
        let b = write(
            ".jsonl",
            "{\"title\":\"A\",\"text\":\"x\"}\n\n{\"title\":\"B\",\"text\":\"y\",\"url\":\"/b#c\"}\n",
        );
        let pa = read_corpus(&a).unwrap();
        assert_eq!(pa, read_corpus(&b).unwrap());
        assert_eq!(pa[1].url.as_deref(), Some("/b#c"));
        assert_eq!(pa[0].indexed_text(), "A\nx");
    }

    #[test]
    fn empty_and_malformed_are_clear_errors() {
        let e = write(".json", "[]");
        assert!(matches!(read_corpus(&e), Err(Error::EmptyCorpus { .. })));
        let m = write(
            ".jsonl",
            "{\"title\":\"A\",\"text\":\"x\"}\n{\"title\":3}\n",
        );
        let msg = read_corpus(&m).unwrap_err().to_string();
        assert!(msg.contains("line 2"), "{msg}");
    }

    #[test]
    fn reads_musique_corpus() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/data/musique_train/musique_train_corpus.json");
        let c = read_corpus(&p).unwrap();
        assert_eq!(c.len(), 1890);
        assert_eq!(c[0].title, "Journal of Mathematical Physics");
    }
}
