//! The retriever core on a small index built by the indexer: HippoRAG 1 and 2 modes, dense
//! fallback, subgraph edges and query entities (the paper's running example in miniature).

use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::OpenIeDoc;
use hipporag_wasm::Error;
use hipporag_wasm::embeddings::{Encoder, HashedNgramEncoder};
use hipporag_wasm::graph::extract_query_entities;
use hipporag_wasm::graph::{EdgeKind, SubgraphEdge, subgraph};
use hipporag_wasm::index::{Fact, Index, Passage};
use hipporag_wasm::search::*;
use hipporag_wasm::text::normalize_phrase;

/// The paper's running example in miniature.
fn tiny_index() -> Index {
    let t = |s: &[[&str; 3]]| OpenIeDoc {
        extracted_triples: s.iter().map(|t| t.map(String::from)).collect(),
        ..Default::default()
    };
    let docs = vec![
        t(&[
            ["Thomas Südhof", "professor at", "Stanford University"],
            ["Thomas Südhof", "studies", "neurotransmitter release"],
        ]),
        t(&[
            ["Thomas Südhof", "researches", "Alzheimer's disease"],
            ["Alzheimer's disease", "is a", "neurodegenerative disease"],
        ]),
        t(&[
            ["Stanford University", "located in", "California"],
            ["Stanford University", "founded in", "1891"],
        ]),
        t(&[["Paris", "capital of", "France"]]),
    ];
    let texts = [
        "Thomas Südhof is a professor at Stanford who studies neurotransmitter release.",
        "Südhof researches Alzheimer's disease, a neurodegenerative disease.",
        "Stanford University, founded in 1891, is in California.",
        "Paris is the capital of France.",
    ];
    let passages = texts
        .iter()
        .enumerate()
        .map(|(i, t)| Passage {
            title: format!("P{i}"),
            text: t.to_string(),
            url: Some(format!("/p{i}#x")),
        })
        .collect();
    let opts = BuildOptions {
        fact_vectors: true,
        ..Default::default()
    };
    let (data, _) = GraphBuilder::from_openie(passages, &docs)
        .and_then(|g| g.build(&HashedNgramEncoder::default(), &opts, &()))
        .unwrap();
    Index::from_bytes(&data.to_bytes()).unwrap()
}

#[test]
fn multi_hop_through_a_shared_phrase() {
    let r = Retriever::from_index(tiny_index());
    let enc = HashedNgramEncoder::default();
    let entities = vec!["Stanford".to_string(), "Alzheimer's".to_string()];
    let refs: Vec<&str> = entities.iter().map(String::as_str).collect();
    let emb = enc.encode(&refs).unwrap();
    let q = QueryInput {
        question: None,
        entities: &entities,
        embeddings: &emb,
        query_embedding: None,
        fact_ids: None,
    };
    let res = r
        .retrieve(
            &q,
            &RetrieveOptions {
                top_k: 4,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(res.seeds[0].phrase, "stanford university");
    assert_eq!(res.seeds[1].phrase, "alzheimer s disease");
    // The Südhof passages (0, 1) connect both seeds and outrank the Paris passage.
    let ids: Vec<u32> = res.passages.iter().map(|p| p.id).collect();
    assert_eq!(*ids.last().unwrap(), 3, "{ids:?}");
    assert!(ids[..2].contains(&0) && ids[..3].contains(&1), "{ids:?}");
    assert!(!res.passages[0].contributions.is_empty());
    assert_eq!(res.damping, RetrieveOptions::default().damping);
    assert_eq!(
        res.passages[0].url.as_deref(),
        Some(format!("/p{}#x", ids[0]).as_str())
    );
}

#[test]
fn no_entity_falls_back_to_dense_or_errors() {
    let r = Retriever::from_index(tiny_index());
    let qe = HashedNgramEncoder::default()
        .encode(&["capital of France"])
        .unwrap();
    let q = QueryInput {
        question: None,
        entities: &[],
        embeddings: &[],
        query_embedding: Some(&qe),
        fact_ids: None,
    };
    let res = r.retrieve(&q, &RetrieveOptions::default()).unwrap();
    assert_eq!(res.mode, Mode::Dense);
    assert!(res.fallback.is_some());
    assert_eq!(res.damping, 0.0, "a dense ranking walks no graph");
    assert_eq!(res.passages[0].id, 3);
    let none = QueryInput::default();
    assert!(matches!(
        r.retrieve(&none, &RetrieveOptions::default()),
        Err(Error::InvalidRequest(_))
    ));
}

#[test]
fn a_phrase_weight_outside_0_1_is_named() {
    let r = Retriever::from_index(tiny_index());
    let q = QueryInput {
        question: Some("capital of France"),
        ..Default::default()
    };
    for w in [-0.1, 1.5, f64::NAN] {
        let opts = RetrieveOptions {
            mode: Mode::Hybrid,
            phrase_weight: Some(w),
            ..Default::default()
        };
        let e = r.retrieve(&q, &opts).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidRequest(m) if m.contains("phraseWeight must be in [0, 1]")),
            "{w}: {e}"
        );
    }
}

#[test]
fn dimension_mismatch_is_an_error() {
    let r = Retriever::from_index(tiny_index());
    let entities = vec!["x".to_string()];
    let q = QueryInput {
        question: None,
        entities: &entities,
        embeddings: &[0.0; 10],
        query_embedding: None,
        fact_ids: None,
    };
    let e = r.retrieve(&q, &RetrieveOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                expected: 384,
                found: 10,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("hashed-ngram-v1"));
}

#[test]
fn hipporag2_links_facts_seeds_phrases_and_ranks_passage_nodes() {
    let r = Retriever::from_index(tiny_index());
    let enc = HashedNgramEncoder::default();
    let qe = enc
        .encode(&["thomas sudhof researches alzheimer s disease"])
        .unwrap();
    let q = QueryInput {
        question: None,
        query_embedding: Some(&qe),
        ..Default::default()
    };
    let opts = RetrieveOptions {
        mode: Mode::HippoRag2,
        top_k: 4,
        ..Default::default()
    };
    let res = r.retrieve(&q, &opts).unwrap();
    assert_eq!(res.mode, Mode::HippoRag2);
    assert_eq!(res.facts.len(), 5);
    assert_eq!(res.facts[0].relation, "researches", "{:?}", res.facts);
    assert_eq!(res.facts[0].score, 1.0);
    assert!(res.facts.windows(2).all(|w| w[0].cosine >= w[1].cosine));
    // Seeds: at most linking_top_k phrases, weights = mean(fact score × specificity).
    assert!(!res.seeds.is_empty() && res.seeds.len() <= 5);
    let top = &res.seeds[0];
    assert!(top.weight > 0.0 && top.weight <= f64::from(top.specificity) + 1e-12);
    // The passage holding the linked fact ranks first.
    assert_eq!(res.passages[0].id, 1, "{:?}", res.passages);
    assert!(res.passages.windows(2).all(|w| w[0].score >= w[1].score));

    // A recognition-memory filter keeping one fact: its passage still wins, seeds come from it.
    let keep = [res.facts[0].fact_id];
    let q = QueryInput {
        question: None,
        query_embedding: Some(&qe),
        fact_ids: Some(&keep),
        ..Default::default()
    };
    let res = r.retrieve(&q, &opts).unwrap();
    assert_eq!(res.facts.len(), 1);
    assert_eq!(res.seeds.len(), 2);
    assert_eq!(res.passages[0].id, 1);
    // A filter keeping nothing: dense fallback, said so.
    let q = QueryInput {
        question: None,
        query_embedding: Some(&qe),
        fact_ids: Some(&[]),
        ..Default::default()
    };
    let res = r.retrieve(&q, &opts).unwrap();
    assert_eq!(res.mode, Mode::Dense);
    assert!(res.fallback.as_deref().unwrap().contains("no fact"));
}

#[test]
fn passage_graph_adds_symmetric_unit_passage_edges() {
    let idx = tiny_index();
    let g = hipporag_wasm::graph::build_passage_graph(&idx);
    let (n, np) = (idx.phrases.len(), idx.passages.len());
    assert_eq!(g.rows(), n + np);
    assert_eq!(g.nnz(), idx.graph.nnz() + 2 * idx.passage_phrases.nnz());
    for (w, (i, j)) in g.iter() {
        let (i, j) = (i as usize, j as usize);
        assert_eq!(g.get(j, i), Some(w), "symmetric at ({i}, {j})");
        if i >= n || j >= n {
            assert_eq!(*w, 1.0);
        }
    }
    let paris = idx.phrase_id("paris").unwrap() as usize;
    assert_eq!(g.get(paris, n + 3), Some(&1.0));
    assert_eq!(g.get(paris, n), None);
}

#[test]
fn edges_among_the_chosen_phrases_with_their_facts() {
    let index = tiny_index();
    let id = |p: &str| index.phrase_id(p).unwrap();
    let (sudhof, stanford, california, paris) = (
        id("thomas sudhof"),
        id("stanford university"),
        id("california"),
        id("paris"),
    );
    let edges = subgraph(&index, &[california, stanford, sudhof, paris, stanford]).unwrap();
    let pairs: Vec<(u32, u32)> = edges.iter().map(|e| (e.source, e.target)).collect();
    let mut want = vec![
        (sudhof.min(stanford), sudhof.max(stanford)),
        (stanford.min(california), stanford.max(california)),
    ];
    want.sort();
    assert_eq!(pairs, want);
    let e = edges
        .iter()
        .find(|e| e.source.min(e.target) == sudhof.min(stanford))
        .unwrap();
    assert_eq!(e.kind, EdgeKind::Triple);
    assert_eq!(e.weight, 1.0);
    assert_eq!(
        e.facts,
        vec![Fact {
            subject: sudhof,
            relation: "professor at".into(),
            object: stanford
        }]
    );
    assert!(subgraph(&index, &[paris]).unwrap().is_empty());
}

#[test]
fn all_phrases_give_every_edge_with_the_header_kinds() {
    // A low synonymy threshold so that both kinds of edge occur.
    let docs: Vec<OpenIeDoc> = [
        ["Stanford University", "located in", "California"],
        ["Leland Stanford", "founded", "Stanford University"],
        ["University of California", "located in", "California"],
        ["Stanford", "rival of", "University of California"],
    ]
    .iter()
    .map(|t| OpenIeDoc {
        extracted_triples: vec![t.map(String::from)],
        ..Default::default()
    })
    .collect();
    let passages = (0..docs.len())
        .map(|i| Passage {
            title: format!("P{i}"),
            text: String::new(),
            url: None,
        })
        .collect();
    let opts = BuildOptions {
        synonymy_threshold: 0.3,
        ..Default::default()
    };
    let (data, _) = GraphBuilder::from_openie(passages, &docs)
        .and_then(|g| g.build(&HashedNgramEncoder::default(), &opts, &()))
        .unwrap();
    let index = Index::from_bytes(&data.to_bytes()).unwrap();
    let all: Vec<u32> = (0..index.phrases.len() as u32).collect();
    let edges = subgraph(&index, &all).unwrap();
    let c = &index.header.counts;
    assert!(c.triple_edges > 0 && c.synonymy_edges > 0, "{c:?}");
    assert_eq!(edges.len(), c.edges as usize);
    let triple: Vec<&SubgraphEdge> = edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Triple)
        .collect();
    assert_eq!(triple.len(), c.triple_edges as usize);
    assert_eq!(edges.len() - triple.len(), c.synonymy_edges as usize);
    assert!(triple.iter().all(|e| e.weight == e.facts.len() as f32));
    assert!(
        edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Synonymy)
            .all(|e| e.facts.is_empty() && (0.3..=1.0).contains(&e.weight))
    );
}

#[test]
fn an_unknown_phrase_id_is_an_error() {
    let index = tiny_index();
    let n = index.phrases.len() as u32;
    let e = subgraph(&index, &[0, n]).unwrap_err();
    assert!(
        e.to_string().contains(&format!("{n} is not a phrase id")),
        "{e}"
    );
}

#[test]
fn capitalised_spans_and_phrase_matches() {
    let idx = tiny_index();
    let e = extract_query_entities(
        "Who was the first president of the association which published Journal of Psychotherapy Integration?",
        &idx,
    );
    assert!(
        e.contains(&"Journal of Psychotherapy Integration".to_string()),
        "{e:?}"
    );
    assert!(!e.iter().any(|x| x == "Who"), "{e:?}");
    let e = extract_query_entities("When did Stanford University open in 1891?", &idx);
    assert!(
        e.contains(&"stanford university".to_string()),
        "phrase match first: {e:?}"
    );
    assert!(e.contains(&"1891".to_string()), "{e:?}");
    assert_eq!(
        e.iter()
            .filter(|x| normalize_phrase(x) == "stanford university")
            .count(),
        1
    );
    assert!(extract_query_entities("what is it?", &idx).is_empty());
}
