//! OpenIE results: named entities and (subject, relation, object) triples per passage.
//!
//! The file format is HippoRAG's (`openie_*_results_*.json`): `{"docs": [{"idx"?, "passage",
//! "extracted_entities": [..], "extracted_triples": [[s, r, o], ..]}, ..], ...stats}`, with
//! `docs[i]` aligned 1:1, in order, with the corpus and `docs[i].passage == title + "\n" + text`.
//!
//! Real files are messy (HippoRAG's own MuSiQue file has bare `NaN`s, 185 triples that are not
//! of length 3, and documents with no triples). The importer keeps every well-formed triple,
//! skips and counts the rest in an [`OpenIeReport`], and fails only when the file cannot be
//! aligned with the corpus ([`Error::OpenIeAlignment`]).

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::corpus::Passage;
use crate::json::read_json_lenient;
use crate::normalize::normalize_phrase;
use crate::{Error, Result};

/// One subject–relation–object triple, as extracted (not normalised).
pub type Triple = [String; 3];

/// The OpenIE output for one passage, in HippoRAG's field names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenIeDoc {
    /// Position in the corpus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idx: Option<usize>,
    /// `title + "\n" + text` of the passage the extraction is for.
    pub passage: String,
    /// Named entities (NER step).
    pub extracted_entities: Vec<String>,
    /// Triples (OpenIE step), each exactly three strings.
    pub extracted_triples: Vec<Triple>,
}

/// A whole OpenIE file in HippoRAG's format (the stats fields HippoRAG adds are optional).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct OpenIeFile {
    /// One entry per corpus passage, in corpus order.
    pub docs: Vec<OpenIeDoc>,
}

/// What the importer skipped, so that nothing is dropped silently.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OpenIeReport {
    /// Documents read.
    pub docs: usize,
    /// Triples kept.
    pub triples: usize,
    /// Triples skipped because they are not a list of exactly three strings.
    pub malformed_triples: usize,
    /// Triples skipped because subject or object normalises to the empty string.
    pub empty_phrase_triples: usize,
    /// Entities skipped because they are not strings or normalise to the empty string.
    pub malformed_entities: usize,
    /// Documents with no usable triple (their passage gets no phrase node from triples).
    pub docs_without_triples: usize,
    /// Documents whose `extracted_entities` or `extracted_triples` field is missing or not a list.
    pub malformed_fields: usize,
}

impl std::fmt::Display for OpenIeReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} docs, {} triples kept; skipped: {} malformed triples (not 3 strings), {} with an empty subject/object, {} malformed entities, {} missing/non-list fields; {} docs without triples",
            self.docs,
            self.triples,
            self.malformed_triples,
            self.empty_phrase_triples,
            self.malformed_entities,
            self.malformed_fields,
            self.docs_without_triples
        )
    }
}

/// Reads an OpenIE file and aligns it with `corpus`.
///
/// Returns one [`OpenIeDoc`] per passage (same order) holding only well-formed entities and
/// triples, and the [`OpenIeReport`] of what was skipped.
///
/// # Errors
/// * [`Error::Io`] / [`Error::Json`]: unreadable file, or not JSON (bare `NaN` is accepted).
/// * [`Error::OpenIeAlignment`]: no `docs` list, a different number of docs than passages, or
///   `docs[i].passage` present and different from `title + "\n" + text` of passage `i`.
pub fn import_openie(path: &Path, corpus: &[Passage]) -> Result<(Vec<OpenIeDoc>, OpenIeReport)> {
    let root: Value = read_json_lenient(path)?;
    let docs =
        root.get("docs")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::OpenIeAlignment {
                path: path.to_path_buf(),
                doc: 0,
                field: "docs",
                message: "expected a top-level object with a \"docs\" list".into(),
            })?;
    if docs.len() != corpus.len() {
        return Err(Error::OpenIeAlignment {
            path: path.to_path_buf(),
            doc: docs.len().min(corpus.len()),
            field: "docs",
            message: format!(
                "{} docs for a corpus of {} passages; docs[i] must align 1:1 with the corpus",
                docs.len(),
                corpus.len()
            ),
        });
    }
    let mut report = OpenIeReport {
        docs: docs.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(docs.len());
    for (i, (doc, passage)) in docs.iter().zip(corpus).enumerate() {
        let expected = passage.indexed_text();
        if let Some(p) = doc.get("passage") {
            if p.as_str() != Some(expected.as_str()) {
                return Err(Error::OpenIeAlignment {
                    path: path.to_path_buf(),
                    doc: i,
                    field: "passage",
                    message: format!(
                        "expected the text of corpus passage {i} (title {:?}), found {}",
                        passage.title,
                        short(p)
                    ),
                });
            }
        }
        let mut entities = Vec::new();
        match doc.get("extracted_entities").and_then(Value::as_array) {
            Some(list) => {
                for e in list {
                    match e.as_str() {
                        Some(s) if !normalize_phrase(s).is_empty() => entities.push(s.to_string()),
                        _ => report.malformed_entities += 1,
                    }
                }
            }
            None => report.malformed_fields += 1,
        }
        let mut triples = Vec::new();
        match doc.get("extracted_triples").and_then(Value::as_array) {
            Some(list) => {
                for t in list {
                    match as_triple(t) {
                        Some(t) => {
                            if normalize_phrase(&t[0]).is_empty()
                                || normalize_phrase(&t[2]).is_empty()
                            {
                                report.empty_phrase_triples += 1;
                            } else {
                                triples.push(t);
                            }
                        }
                        None => report.malformed_triples += 1,
                    }
                }
            }
            None => report.malformed_fields += 1,
        }
        if triples.is_empty() {
            report.docs_without_triples += 1;
        }
        report.triples += triples.len();
        out.push(OpenIeDoc {
            idx: Some(i),
            passage: expected,
            extracted_entities: entities,
            extracted_triples: triples,
        });
    }
    Ok((out, report))
}

fn as_triple(v: &Value) -> Option<Triple> {
    let a = v.as_array()?;
    if a.len() != 3 {
        return None;
    }
    Some([
        a[0].as_str()?.to_string(),
        a[1].as_str()?.to_string(),
        a[2].as_str()?.to_string(),
    ])
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::read_corpus;

    fn data(p: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data")
            .join(p)
    }

    #[test]
    fn imports_the_real_musique_file_and_counts_its_warts() {
        let corpus = read_corpus(&data("musique_train/musique_train_corpus.json")).unwrap();
        let (docs, report) = import_openie(
            &data("musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json"),
            &corpus,
        )
        .unwrap();
        assert_eq!(docs.len(), 1890);
        assert_eq!(report.docs, 1890);
        // The data README: 17,419 triples of which 185 are not of length 3; 2 docs with none.
        assert_eq!(
            report.triples + report.malformed_triples + report.empty_phrase_triples,
            17_419
        );
        assert_eq!(report.malformed_triples, 185);
        assert!(report.docs_without_triples >= 2);
    }

    fn tmp(s: &str) -> tempfile::TempPath {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), s).unwrap();
        f.into_temp_path()
    }

    #[test]
    fn misalignment_is_a_clear_error() {
        let corpus = vec![
            Passage {
                title: "A".into(),
                text: "x".into(),
                url: None,
            },
            Passage {
                title: "B".into(),
                text: "y".into(),
                url: None,
            },
        ];
        let short =
            tmp(r#"{"docs":[{"passage":"A\nx","extracted_entities":[],"extracted_triples":[]}]}"#);
        let e = import_openie(&short, &corpus).unwrap_err().to_string();
        assert!(e.contains("1 docs for a corpus of 2 passages"), "{e}");
        let swapped = tmp(
            r#"{"docs":[{"passage":"A\nx","extracted_entities":[],"extracted_triples":[]},
                        {"passage":"C\nz","extracted_entities":[],"extracted_triples":[]}]}"#,
        );
        let e = import_openie(&swapped, &corpus).unwrap_err().to_string();
        assert!(e.contains("docs[1].passage"), "{e}");
        let notjson = tmp("{docs: ");
        assert!(matches!(
            import_openie(&notjson, &corpus),
            Err(Error::Json { .. })
        ));
    }

    #[test]
    fn malformed_parts_are_skipped_and_counted() {
        let corpus = vec![Passage {
            title: "A".into(),
            text: "x".into(),
            url: None,
        }];
        let f = tmp(
            r#"{"docs":[{"passage":"A\nx","extracted_entities":["Alpha", 3, "--"],
                "extracted_triples":[["Alpha","is","Beta"],["only","two"],["--","r","Beta"],[1,2,3]]}],
                "avg": NaN}"#,
        );
        let (docs, r) = import_openie(&f, &corpus).unwrap();
        assert_eq!(
            docs[0].extracted_triples,
            vec![["Alpha".to_string(), "is".into(), "Beta".into()]]
        );
        assert_eq!(docs[0].extracted_entities, vec!["Alpha".to_string()]);
        assert_eq!(
            (
                r.malformed_triples,
                r.empty_phrase_triples,
                r.malformed_entities
            ),
            (2, 1, 2)
        );
    }
}
