//! Question files of the public retrieval datasets, read into one shape: each question's text
//! and its gold passages as `(title, text)`, plus the corpus the file itself holds.
//!
//! | format | shape | gold passages | passage text |
//! |---|---|---|---|
//! | MuSiQue (and HippoRAG's case studies) | `[{id, question, paragraphs[{title, paragraph_text \| text, is_supporting}], gold_docs?}]` | `is_supporting: true` (else `gold_docs`, positions in a separate corpus) | `paragraph_text` or `text` |
//! | SQuAD v1.1/v2.0, XQuAD | `{data: [{title, paragraphs[{context, qas[{id, question}]}]}]}` | the paragraph holding the question | `context` |
//! | HotpotQA | `[{_id, question, context[[title, [sentence…]]], supporting_facts[[title, i]]}]` | the context entries whose title is in `supporting_facts` | sentences joined with `""` |
//! | 2WikiMultihopQA | as HotpotQA, with `evidences` | as HotpotQA | sentences joined with `" "` |
//!
//! The passage texts follow HippoRAG 2's `get_gold_docs` (`main.py`), which joins HotpotQA's
//! sentences with `""` (they carry their leading spaces) and 2WikiMultihopQA's with `" "`. The
//! format is recognised by shape: an object with `data` is SQuAD; a list whose first entry has
//! `context` and `supporting_facts` is HotpotQA, or 2WikiMultihopQA when it also has
//! `evidences` (the field 2WikiMultihopQA adds); any other list is MuSiQue.
//!
//! [`corpus`](crate::corpus::read_corpus) reads the same files as a corpus (every paragraph or
//! context entry once), so `hipporag index --corpus F` and `hipporag eval --questions F` agree on
//! the passages.

use std::collections::HashSet;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{Error, Result};
use hipporag_wasm::index::Passage;

/// The dataset format of a question file (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// MuSiQue's `paragraphs[].is_supporting` (and HippoRAG's case studies' `gold_docs`).
    Musique,
    /// SQuAD's nested `data[].paragraphs[].qas[]` (also XQuAD, MLQA's SQuAD files).
    Squad,
    /// HotpotQA's `context` and `supporting_facts`.
    HotpotQa,
    /// 2WikiMultihopQA: HotpotQA's shape plus `evidences`.
    TwoWiki,
}

/// A gold passage of a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gold {
    /// A passage by its title and text (matched exactly: titles repeat in MuSiQue).
    Passage {
        /// The passage title.
        title: String,
        /// The passage text (without the title).
        text: String,
    },
    /// A position in the corpus the index was built from (HippoRAG's case studies'
    /// `gold_docs`).
    CorpusPosition(usize),
}

/// One question of a dataset file.
#[derive(Debug, Clone)]
pub struct LabelledQuestion {
    /// The question's id (`id`, `_id`), else its 0-based position in the file.
    pub id: String,
    /// The question text.
    pub question: String,
    /// Its distinct gold passages, in file order.
    pub gold: Vec<Gold>,
}

/// A dataset file: its format, its questions and the passages it holds.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The format recognised.
    pub format: Format,
    /// The questions, in file order.
    pub questions: Vec<LabelledQuestion>,
    /// Every paragraph (context entry) of the file once, by `(title, text)`, in order of first
    /// appearance. Empty for a file whose questions carry no paragraphs (`gold_docs` only).
    pub passages: Vec<Passage>,
}

/// Whether `value` (a parsed JSON document) is a question file rather than a `[{title, text}]`
/// corpus: an object with `data`, or a list whose first entry has a `question`.
pub fn is_question_file(value: &Value) -> bool {
    match value {
        Value::Object(o) => o.contains_key("data"),
        Value::Array(a) => a
            .first()
            .and_then(Value::as_object)
            .is_some_and(|o| o.contains_key("question")),
        _ => false,
    }
}

/// Reads a question file of any format in the module table from its parsed JSON `value`
/// (`path` names it in errors).
///
/// # Errors
/// [`Error::Json`] naming `path`, the question (its position and id) or SQuAD article, and the
/// field, when an entry does not have the format's shape: a missing or mistyped field, a
/// supporting paragraph without text, a `supporting_facts` title absent from the question's
/// `context`.
pub fn from_value(path: &Path, value: Value) -> Result<Dataset> {
    let format = detect(&value);
    let mut reader = Reader {
        path,
        set: Dataset {
            format,
            questions: Vec::new(),
            passages: Vec::new(),
        },
        seen: HashSet::new(),
    };
    match format {
        Format::Squad => reader.squad(value)?,
        Format::Musique | Format::HotpotQa | Format::TwoWiki => {
            let Value::Array(entries) = value else {
                return Err(reader.err(
                    "top level".into(),
                    "expected a list of questions or a SQuAD object with \"data\"".into(),
                ));
            };
            for (qi, entry) in entries.into_iter().enumerate() {
                let q = if format == Format::Musique {
                    reader.musique(qi, entry)?
                } else {
                    reader.hotpot(qi, entry)?
                };
                reader.set.questions.push(q);
            }
        }
    }
    Ok(reader.set)
}

/// A dataset file being read: the dataset so far and the passages it already holds.
struct Reader<'a> {
    /// The file, named in errors.
    path: &'a Path,
    set: Dataset,
    seen: HashSet<(String, String)>,
}

/// Where in the file an error is: `question {qi}`, with its id when known.
fn question_at(qi: usize, id: &Option<String>) -> String {
    match id {
        Some(id) => format!("question {qi} ({id})"),
        None => format!("question {qi}"),
    }
}

impl Reader<'_> {
    /// An [`Error::Json`] naming the file, the place `at` in it and `message`.
    fn err(&self, at: String, message: String) -> Error {
        Error::Json {
            path: self.path.to_path_buf(),
            message: format!("{at}: {message}"),
        }
    }

    /// The passage `(title, text)` as a gold passage, added to the dataset's passages the
    /// first time it is seen.
    fn add(&mut self, title: &str, text: &str) -> Gold {
        if self.seen.insert((title.to_owned(), text.to_owned())) {
            self.set.passages.push(Passage {
                title: title.to_owned(),
                text: text.to_owned(),
                url: None,
            });
        }
        Gold::Passage {
            title: title.to_owned(),
            text: text.to_owned(),
        }
    }

    /// Every question of a SQuAD file, its paragraph the gold passage.
    fn squad(&mut self, value: Value) -> Result<()> {
        let Value::Object(mut root) = value else {
            unreachable!("detect() saw an object")
        };
        let data = root.remove("data").unwrap_or(Value::Null);
        let articles: Vec<SquadArticle> =
            typed(data, "\"data\": expected [{title, paragraphs}]", |m| {
                self.err("SQuAD file".into(), m)
            })?;
        for (ai, article) in articles.into_iter().enumerate() {
            for (pi, paragraph) in article.paragraphs.into_iter().enumerate() {
                let gold = self.add(&article.title, &paragraph.context);
                for (qi, qa) in paragraph.qas.into_iter().enumerate() {
                    self.set.questions.push(LabelledQuestion {
                        id: qa.id.unwrap_or_else(|| format!("{ai}/{pi}/{qi}")),
                        question: qa.question,
                        gold: vec![gold.clone()],
                    });
                }
            }
        }
        Ok(())
    }

    /// Question `qi` of a MuSiQue file: its supporting paragraphs, else its `gold_docs`.
    fn musique(&mut self, qi: usize, entry: Value) -> Result<LabelledQuestion> {
        let q: MusiqueQuestion = typed(entry, "expected {question, paragraphs[]}", |m| {
            self.err(question_at(qi, &None), m)
        })?;
        let mut gold = Vec::new();
        for p in &q.paragraphs {
            let text = p.paragraph_text.as_deref().or(p.text.as_deref());
            let Some(text) = text else {
                return Err(self.err(
                    question_at(qi, &q.id),
                    format!(
                        "paragraph {:?} has neither \"paragraph_text\" nor \"text\"",
                        p.title
                    ),
                ));
            };
            let g = self.add(&p.title, text);
            if p.is_supporting && !gold.contains(&g) {
                gold.push(g);
            }
        }
        if gold.is_empty() {
            gold = q
                .gold_docs
                .iter()
                .flatten()
                .map(|&d| Gold::CorpusPosition(d))
                .collect();
        }
        Ok(LabelledQuestion {
            id: q.id.unwrap_or_else(|| qi.to_string()),
            question: q.question,
            gold,
        })
    }

    /// Question `qi` of a HotpotQA or 2WikiMultihopQA file: the context entries named by its
    /// `supporting_facts`.
    fn hotpot(&mut self, qi: usize, entry: Value) -> Result<LabelledQuestion> {
        let q: HotpotQuestion = typed(
            entry,
            "expected {_id, question, context[[title, [sentence]]], supporting_facts[[title, i]]}",
            |m| self.err(question_at(qi, &None), m),
        )?;
        let joiner = if self.set.format == Format::TwoWiki {
            " "
        } else {
            ""
        };
        let mut gold = Vec::new();
        let context: Vec<Gold> = q
            .context
            .iter()
            .map(|(title, sentences)| self.add(title, &sentences.join(joiner)))
            .collect();
        for (title, _) in &q.supporting_facts {
            let found: Vec<&Gold> = q
                .context
                .iter()
                .zip(&context)
                .filter(|((t, _), _)| t == title)
                .map(|(_, g)| g)
                .collect();
            if found.is_empty() {
                return Err(self.err(
                    question_at(qi, &q.id),
                    format!("supporting_facts title {title:?} is not a title of its \"context\""),
                ));
            }
            for g in found {
                if !gold.contains(g) {
                    gold.push(g.clone());
                }
            }
        }
        Ok(LabelledQuestion {
            id: q.id.unwrap_or_else(|| qi.to_string()),
            question: q.question,
            gold,
        })
    }
}

/// The format of a parsed question file, by shape (module docs).
fn detect(value: &Value) -> Format {
    match value {
        Value::Object(_) => Format::Squad,
        Value::Array(a) => match a.first().and_then(Value::as_object) {
            Some(o) if o.contains_key("context") && o.contains_key("supporting_facts") => {
                if o.contains_key("evidences") {
                    Format::TwoWiki
                } else {
                    Format::HotpotQa
                }
            }
            _ => Format::Musique,
        },
        _ => Format::Musique,
    }
}

/// `value` as `T`, or `err(expected: serde's message)`.
fn typed<T: DeserializeOwned>(
    value: Value,
    expected: &str,
    err: impl Fn(String) -> Error,
) -> Result<T> {
    serde_json::from_value(value).map_err(|e| err(format!("{expected}: {e}")))
}

#[derive(Deserialize)]
struct SquadArticle {
    #[serde(default)]
    title: String,
    paragraphs: Vec<SquadParagraph>,
}

#[derive(Deserialize)]
struct SquadParagraph {
    context: String,
    qas: Vec<SquadQa>,
}

#[derive(Deserialize)]
struct SquadQa {
    #[serde(default)]
    id: Option<String>,
    question: String,
}

#[derive(Deserialize)]
struct MusiqueParagraph {
    title: String,
    #[serde(default)]
    paragraph_text: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    is_supporting: bool,
}

#[derive(Deserialize)]
struct MusiqueQuestion {
    #[serde(default)]
    id: Option<String>,
    question: String,
    #[serde(default)]
    paragraphs: Vec<MusiqueParagraph>,
    #[serde(default)]
    gold_docs: Option<Vec<usize>>,
}

#[derive(Deserialize)]
struct HotpotQuestion {
    #[serde(default, rename = "_id")]
    id: Option<String>,
    question: String,
    context: Vec<(String, Vec<String>)>,
    supporting_facts: Vec<(String, Value)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Dataset> {
        from_value(Path::new("q.json"), v)
    }

    #[test]
    fn squad_paragraphs_are_the_gold_and_the_corpus() {
        let set = read(
            json!({"version": "1.1", "data": [{"title": "T", "paragraphs": [
            {"context": "a b", "qas": [{"id": "x", "question": "q1?", "answers": []},
                                        {"id": "y", "question": "q2?"}]},
            {"context": "c d", "qas": [{"id": "z", "question": "q3?"}]}]}]}),
        )
        .unwrap();
        assert_eq!(set.format, Format::Squad);
        assert_eq!(set.passages.len(), 2);
        assert_eq!(set.questions.len(), 3);
        assert_eq!(
            set.questions[2].gold,
            vec![Gold::Passage {
                title: "T".into(),
                text: "c d".into()
            }]
        );
        assert_eq!(set.questions[1].id, "y");
    }

    #[test]
    fn hotpot_and_2wiki_join_sentences_as_the_reference_does() {
        let q = |extra: bool| {
            let mut q = json!({"_id": "h1", "question": "Who?", "answer": "A",
                "context": [["A", ["One.", " Two."]], ["B", ["Three."]], ["C", ["Four."]]],
                "supporting_facts": [["A", 0], ["A", 1], ["C", 0]]});
            if extra {
                q["evidences"] = json!([]);
            }
            json!([q])
        };
        let hotpot = read(q(false)).unwrap();
        assert_eq!(hotpot.format, Format::HotpotQa);
        assert_eq!(hotpot.passages[0].text, "One. Two.");
        assert_eq!(hotpot.questions[0].gold.len(), 2);
        let wiki = read(q(true)).unwrap();
        assert_eq!(wiki.format, Format::TwoWiki);
        assert_eq!(wiki.passages[0].text, "One.  Two.");
        assert_eq!(wiki.passages.len(), 3);
    }

    #[test]
    fn errors_name_the_question_and_the_field() {
        let e = read(
            json!([{"_id": "h1", "question": "Who?", "context": [["A", ["x"]]],
            "supporting_facts": [["Z", 0]]}]),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("q.json") && e.contains("question 0 (h1)") && e.contains("\"Z\""),
            "{e}"
        );
        let e = read(json!([{"question": "Who?", "paragraphs": [{"title": "A"}]}]))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("question 0") && e.contains("paragraph_text"),
            "{e}"
        );
        let e = read(json!({"data": [{"title": "T", "paragraphs": [{"qas": []}]}]}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("SQuAD file") && e.contains("context"), "{e}");
    }
}
