//! OpenIE results: named entities and (subject, relation, object) triples per passage.
//!
//! Three sources produce the same [`OpenIeDoc`]s, so graph building never depends on which ran:
//! * [`import_openie`] reads a HippoRAG OpenIE file (below);
//! * [`rules`] extracts phrases and same-sentence relations offline, without an LLM (the
//!   default of `hipporag index`);
//! * `llm` (feature `llm`) runs HippoRAG's two LLM prompts against any OpenAI-compatible
//!   server, with a per-passage cache (`cache`), the prompts (`prompts`) and a robust reader
//!   of JSON replies (`reply`).
//!
//! [`write_openie`] writes any of them back in HippoRAG's format.
//!
//! The file format is HippoRAG's (`openie_*_results_*.json`): `{"docs": [{"idx"?, "passage",
//! "extracted_entities": [..], "extracted_triples": [[s, r, o], ..]}, ..], ...stats}`, with
//! `docs[i]` aligned 1:1, in order, with the corpus and `docs[i].passage == title + "\n" + text`.
//!
//! Real files are messy (HippoRAG's own MuSiQue file has bare `NaN`s, 185 triples that are not
//! of length 3, and documents with no triples). The importer keeps every well-formed triple,
//! skips and counts the rest in an [`OpenIeReport`], and fails only when the file cannot be
//! aligned with the corpus ([`Error::OpenIeAlignment`]).

#[cfg(feature = "fs")]
pub mod cache;
#[cfg(feature = "llm")]
pub mod llm;
#[cfg(feature = "llm")]
pub mod prompts;
#[cfg(feature = "llm")]
pub mod reply;
pub mod rules;

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::corpus::Passage;
use crate::json::read_json_lenient;
use crate::{Error, Result};
use hipporag_wasm::text::normalize_phrase;

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
    /// The file was not in corpus order and was matched by `passage` text (HippoRAG 2 style).
    pub aligned_by_passage: bool,
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
        )?;
        if self.aligned_by_passage {
            f.write_str("; matched to the corpus by passage text")?;
        }
        Ok(())
    }
}

/// Reads an OpenIE file and aligns it with `corpus`.
///
/// HippoRAG 1 files align by position (`docs[i]` is passage `i`). HippoRAG 2 files are keyed
/// by passage text, in any order and possibly holding other passages; when positional
/// alignment fails, each passage is matched to the first doc whose `passage` equals its
/// `title + "\n" + text` (reported in [`OpenIeReport::aligned_by_passage`]).
///
/// Returns one [`OpenIeDoc`] per passage (same order) holding only well-formed entities and
/// triples, and the [`OpenIeReport`] of what was skipped.
///
/// # Errors
/// * [`Error::Io`] / [`Error::Json`]: unreadable file, or not JSON (bare `NaN` is accepted).
/// * [`Error::OpenIeAlignment`]: no `docs` list, or neither alignment works: the error names
///   the first positional disagreement (doc count, or `docs[i].passage` different from passage
///   `i`).
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
    let texts: Vec<String> = corpus.iter().map(Passage::indexed_text).collect();
    let (aligned, by_passage) = match check_positional(path, docs, corpus, &texts) {
        Ok(()) => (docs.iter().collect::<Vec<_>>(), false),
        // HippoRAG 2 keys documents by passage: any order, possibly other passages too.
        Err(e) => (match_by_passage(docs, &texts).ok_or(e)?, true),
    };
    let mut report = OpenIeReport {
        docs: docs.len(),
        aligned_by_passage: by_passage,
        ..Default::default()
    };
    let mut out = Vec::with_capacity(corpus.len());
    for (i, (doc, expected)) in aligned.into_iter().zip(texts).enumerate() {
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

/// One document as written by [`write_openie`]: HippoRAG 1's fields (`idx`, `title`, `text`,
/// `passage`, `extracted_entities`, `extracted_triples`); HippoRAG 2 reads the same file (it
/// keys documents by `passage` and recomputes `idx`).
#[derive(Serialize)]
#[cfg(feature = "fs")]
struct OutDoc<'a> {
    idx: usize,
    title: &'a str,
    text: &'a str,
    passage: &'a str,
    extracted_entities: &'a [String],
    extracted_triples: &'a [Triple],
}

#[cfg(feature = "fs")]
/// Writes `docs` (aligned with `corpus`) as a HippoRAG OpenIE file, atomically.
///
/// The file is `{"docs": [...], "avg_ent_chars", "avg_ent_words", "extractor"}`: the first three
/// as HippoRAG writes them (the averages over all extracted entities), `extractor` naming
/// what produced the triples (`rules`, `llm:<model>`). [`import_openie`] reads it back.
///
/// # Errors
/// [`Error::InvalidRequest`] if `docs` and `corpus` differ in length; [`Error::Io`] on write.
pub fn write_openie(
    path: &Path,
    corpus: &[Passage],
    docs: &[OpenIeDoc],
    extractor: &str,
) -> Result<()> {
    if docs.len() != corpus.len() {
        return Err(Error::InvalidRequest(format!(
            "{} OpenIE docs for {} passages",
            docs.len(),
            corpus.len()
        )));
    }
    let texts: Vec<String> = corpus.iter().map(Passage::indexed_text).collect();
    let out: Vec<OutDoc<'_>> = docs
        .iter()
        .zip(corpus)
        .zip(&texts)
        .enumerate()
        .map(|(i, ((d, p), text))| OutDoc {
            idx: i,
            title: &p.title,
            text: &p.text,
            passage: text,
            extracted_entities: &d.extracted_entities,
            extracted_triples: &d.extracted_triples,
        })
        .collect();
    let ents = docs.iter().flat_map(|d| &d.extracted_entities);
    let (n, chars, words) = ents.fold((0usize, 0usize, 0usize), |(n, c, w), e| {
        (
            n + 1,
            c + e.chars().count(),
            w + e.split_whitespace().count(),
        )
    });
    let avg = |x: usize| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    let file = serde_json::json!({
        "docs": out,
        "avg_ent_chars": avg(chars),
        "avg_ent_words": avg(words),
        "extractor": extractor,
    });
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let bytes = serde_json::to_vec(&file).expect("OpenIE docs serialise");
    crate::files::write_atomic(path, &bytes)
}

/// `docs[i]` must be passage `i`: same count, and `docs[i].passage` (when present) equal to
/// its text. The error names the first disagreement.
fn check_positional(
    path: &Path,
    docs: &[Value],
    corpus: &[Passage],
    texts: &[String],
) -> Result<()> {
    if docs.len() != corpus.len() {
        return Err(Error::OpenIeAlignment {
            path: path.to_path_buf(),
            doc: docs.len().min(corpus.len()),
            field: "docs",
            message: format!(
                "{} docs for a corpus of {} passages; docs[i] must align 1:1 with the corpus (or carry every corpus passage in \"passage\")",
                docs.len(),
                corpus.len()
            ),
        });
    }
    for (i, (doc, expected)) in docs.iter().zip(texts).enumerate() {
        if let Some(p) = doc.get("passage") {
            if p.as_str() != Some(expected.as_str()) {
                return Err(Error::OpenIeAlignment {
                    path: path.to_path_buf(),
                    doc: i,
                    field: "passage",
                    message: format!(
                        "expected the text of corpus passage {i} (title {:?}), found {}",
                        corpus[i].title,
                        short(p)
                    ),
                });
            }
        }
    }
    Ok(())
}

/// For each corpus text, the first doc whose `passage` equals it; `None` if one is missing.
fn match_by_passage<'a>(docs: &'a [Value], texts: &[String]) -> Option<Vec<&'a Value>> {
    let mut by_text: std::collections::HashMap<&str, &Value> = std::collections::HashMap::new();
    for d in docs {
        if let Some(p) = d.get("passage").and_then(Value::as_str) {
            by_text.entry(p).or_insert(d);
        }
    }
    texts
        .iter()
        .map(|t| by_text.get(t.as_str()).copied())
        .collect()
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
            .join("../../shared/data")
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

    /// Passages "A" (text "x") and "B" (text "y").
    fn two_passages() -> Vec<Passage> {
        [("A", "x"), ("B", "y")]
            .into_iter()
            .map(|(title, text)| Passage {
                title: title.into(),
                text: text.into(),
                url: None,
            })
            .collect()
    }

    fn tmp(s: &str) -> tempfile::TempPath {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), s).unwrap();
        f.into_temp_path()
    }

    #[cfg(feature = "fs")]
    #[test]
    fn written_files_read_back_identically() {
        let corpus = read_corpus(&data("case_studies/case_study_university_corpus.json")).unwrap();
        let (docs, _) = rules::extract_corpus(&corpus, &rules::RuleOptions::default());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/openie.json");
        write_openie(&path, &corpus, &docs, "rules").unwrap();
        let (back, report) = import_openie(&path, &corpus).unwrap();
        assert_eq!(back, docs);
        assert_eq!(report.malformed_triples + report.malformed_entities, 0);
        let v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(v["docs"][1]["title"], corpus[1].title.as_str());
        assert_eq!(v["extractor"], "rules");
        assert!(v["avg_ent_chars"].as_f64().unwrap() > 3.0);
        assert!(write_openie(&path, &corpus[1..], &docs, "rules").is_err());
    }

    #[test]
    fn misalignment_is_a_clear_error() {
        let corpus = two_passages();
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
    fn hipporag2_files_align_by_passage_text() {
        let corpus = two_passages();
        let f = tmp(
            r#"{"docs":[{"idx":"chunk-9","passage":"Z\nq","extracted_entities":[],"extracted_triples":[]},
                        {"idx":"chunk-2","passage":"B\ny","extracted_entities":["B"],"extracted_triples":[["B","r","C"]]},
                        {"idx":"chunk-1","passage":"A\nx","extracted_entities":["A"],"extracted_triples":[["A","r","C"]]}]}"#,
        );
        let (docs, r) = import_openie(&f, &corpus).unwrap();
        assert!(r.aligned_by_passage);
        assert_eq!(docs[0].extracted_entities, vec!["A".to_string()]);
        assert_eq!(docs[1].extracted_triples[0][0], "B");
        assert_eq!((docs[0].idx, docs[1].idx), (Some(0), Some(1)));
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
