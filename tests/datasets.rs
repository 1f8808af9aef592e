//! `hipporag eval` and `hipporag index --corpus` on the other datasets' formats: real question
//! sets rewritten in SQuAD's, HotpotQA's and 2WikiMultihopQA's shapes must give the same corpus
//! and the same gold passages as their MuSiQue-format originals.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::data;
use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::eval::{EvalQuestion, load_questions};
use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::rules::{RuleOptions, extract_corpus};
use hipporag_indexer::openie::{OpenIeDoc, import_openie};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::index::{Index, Passage};
use serde_json::{Value, json};

const OPENIE: &str = "musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json";

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(dir: &Path, name: &str, v: &Value) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(v).unwrap()).unwrap();
    path
}

fn as_set(passages: &[Passage]) -> BTreeSet<(String, String)> {
    passages
        .iter()
        .map(|p| (p.title.clone(), p.text.clone()))
        .collect()
}

/// The index of `corpus` with its OpenIE documents `docs` (the lexical encoder, defaults).
fn index_of(corpus: Vec<Passage>, docs: &[OpenIeDoc]) -> Index {
    let enc = HashedNgramEncoder::default();
    let (data, _) = GraphBuilder::from_openie(corpus, docs)
        .and_then(|g| g.build(&enc, &BuildOptions::default(), &()))
        .unwrap();
    Index::from_bytes(&data.to_bytes()).unwrap()
}

/// The musique_train index from the paper's GPT-3.5 triples (no extraction to wait for).
fn musique_index() -> Index {
    let corpus = read_corpus(&data("musique_train/musique_train_corpus.json")).unwrap();
    let (docs, _) = import_openie(&data(OPENIE), &corpus).unwrap();
    index_of(corpus, &docs)
}

/// Sentences of a paragraph as HotpotQA stores them (each after the first keeps its leading
/// space, so `"".join` restores the text) or as 2WikiMultihopQA does (no spaces: `" ".join`).
fn sentences(text: &str, keep_space: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, part) in text.split(". ").enumerate() {
        let last = i + 1 == text.split(". ").count();
        let s = if last {
            part.to_owned()
        } else {
            format!("{part}.")
        };
        out.push(if keep_space && i > 0 {
            format!(" {s}")
        } else {
            s
        });
    }
    out
}

/// musique_train.json as HotpotQA (`two_wiki = false`) or 2WikiMultihopQA wrote it.
fn as_hotpot(musique: &Value, two_wiki: bool) -> Value {
    let questions: Vec<Value> = musique
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let paragraphs = q["paragraphs"].as_array().unwrap();
            let context: Vec<Value> = paragraphs
                .iter()
                .map(|p| {
                    let text = p["paragraph_text"].as_str().unwrap();
                    json!([p["title"], sentences(text, !two_wiki)])
                })
                .collect();
            let facts: Vec<Value> = paragraphs
                .iter()
                .filter(|p| p["is_supporting"] == true)
                .map(|p| json!([p["title"], 0]))
                .collect();
            let mut out = json!({"_id": q["id"], "question": q["question"], "answer": q["answer"],
                "context": context, "supporting_facts": facts});
            if two_wiki {
                out["evidences"] = json!([]);
                out["type"] = json!("compositional");
            } else {
                out["level"] = json!("hard");
                out["type"] = json!("bridge");
            }
            out
        })
        .collect();
    Value::Array(questions)
}

/// Questions where a distractor has a supporting paragraph's title and another text.
fn title_shared_by_a_distractor(musique: &Value) -> usize {
    let text = |p: &Value| p["paragraph_text"].as_str().unwrap().to_owned();
    musique
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| {
            let ps = q["paragraphs"].as_array().unwrap();
            let gold: Vec<&Value> = ps.iter().filter(|p| p["is_supporting"] == true).collect();
            ps.iter().any(|p| {
                gold.iter()
                    .any(|g| g["title"] == p["title"] && gold.iter().all(|h| text(h) != text(p)))
            })
        })
        .count()
}

#[test]
fn hotpotqa_and_2wiki_files_give_musiques_corpus_and_gold() {
    let dir = tempfile::tempdir().unwrap();
    let original = data("musique_train/musique_train.json");
    let musique = read_json(&original);
    let index = musique_index();
    let expected = load_questions(&original, &index).unwrap();
    let corpus = as_set(&read_corpus(&data("musique_train/musique_train_corpus.json")).unwrap());
    for two_wiki in [false, true] {
        let name = if two_wiki {
            "2wiki.json"
        } else {
            "hotpotqa.json"
        };
        let path = write_json(dir.path(), name, &as_hotpot(&musique, two_wiki));
        // The file read as a corpus: every paragraph once, sentences joined back exactly.
        assert_eq!(as_set(&read_corpus(&path).unwrap()), corpus, "{name}");
        let got = load_questions(&path, &index).unwrap();
        assert_eq!(got.len(), 100);
        // HotpotQA's gold is by title: where a distractor shares a supporting paragraph's
        // title but not its text (8 musique_train questions), it is gold too. Elsewhere the
        // gold is MuSiQue's.
        let mut same = 0;
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!((&g.id, &g.question), (&e.id, &e.question));
            assert!(e.gold.iter().all(|x| g.gold.contains(x)), "{name} {}", e.id);
            same += usize::from(g.gold == e.gold);
        }
        assert_eq!(same, 100 - title_shared_by_a_distractor(&musique), "{name}");
    }
}

/// A SQuAD paragraph: its context and its `qas`.
type SquadParagraph = (String, Vec<Value>);

#[test]
fn squad_file_gives_xquads_corpus_and_gold() {
    let dir = tempfile::tempdir().unwrap();
    let original = data("multilingual/xquad_zh.json");
    let xquad = read_json(&original);
    // XQuAD's questions regrouped into SQuAD's articles → paragraphs → qas, in file order.
    let mut articles: Vec<(String, Vec<SquadParagraph>)> = Vec::new();
    for q in xquad.as_array().unwrap() {
        let p = &q["paragraphs"][0];
        let (title, context) = (
            p["title"].as_str().unwrap(),
            p["paragraph_text"].as_str().unwrap(),
        );
        let qa = json!({"id": q["id"], "question": q["question"],
            "answers": [{"text": q["answer"][0], "answer_start": 0}]});
        if articles.last().is_none_or(|a| a.0 != title) {
            articles.push((title.to_owned(), Vec::new()));
        }
        let paragraphs = &mut articles.last_mut().unwrap().1;
        match paragraphs.iter_mut().find(|(c, _)| c == context) {
            Some((_, qas)) => qas.push(qa),
            None => paragraphs.push((context.to_owned(), vec![qa])),
        }
    }
    let squad = json!({"version": "1.1", "data": articles.iter().map(|(title, ps)| json!({
        "title": title,
        "paragraphs": ps.iter().map(|(c, qas)| json!({"context": c, "qas": qas})).collect::<Vec<_>>(),
    })).collect::<Vec<_>>()});
    let path = write_json(dir.path(), "squad.json", &squad);

    let corpus = read_corpus(&data("multilingual/xquad_zh_corpus.json")).unwrap();
    assert_eq!(as_set(&read_corpus(&path).unwrap()), as_set(&corpus));
    let (docs, _) = extract_corpus(&corpus, &RuleOptions::default());
    let index = index_of(corpus, &docs);
    let key = |qs: Vec<EvalQuestion>| -> BTreeSet<(String, String, Vec<Vec<u32>>)> {
        qs.into_iter().map(|q| (q.id, q.question, q.gold)).collect()
    };
    let expected = key(load_questions(&original, &index).unwrap());
    assert_eq!(expected.len(), 1190);
    assert_eq!(key(load_questions(&path, &index).unwrap()), expected);
}
