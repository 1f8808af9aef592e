//! The benchmark tools: `export-graph` (what the igraph reference reads) must describe exactly
//! the problem our retriever solved, and `generate` must be deterministic and of the requested
//! size. (No timing here: speed is measured by `./build.sh bench` and `bench-reference`.)

#[path = "../../tests/common.rs"]
mod common;

use common::data;
use hipporag_benchtools::export::{GraphExport, export};
use hipporag_benchtools::synthetic::{SyntheticOptions, generate};
use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::eval::{EvalQuestion, EvalSet, ModeRecall, evaluate, load_questions};
use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::import_openie;
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::graph::top_k;
use hipporag_wasm::graph::{PprOptions, inverse_degrees, personalized_pagerank};
use hipporag_wasm::index::{Index, SparseMatrix};
use hipporag_wasm::search::{Mode, RetrieveOptions, Retriever};
use sprs::{CsMatI, TriMatI};

const OPENIE: &str = "musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json";

fn musique() -> Retriever {
    let corpus = read_corpus(&data("musique_train/musique_train_corpus.json")).unwrap();
    let (docs, _) = import_openie(&data(OPENIE), &corpus).unwrap();
    let opts = BuildOptions {
        fact_vectors: true,
        ..Default::default()
    };
    let (idx, _) = GraphBuilder::from_openie(corpus, &docs)
        .and_then(|g| g.build(&HashedNgramEncoder::default(), &opts, &()))
        .unwrap();
    Retriever::from_bytes(&idx.to_bytes()).unwrap()
}

/// Re-solves every exported row with our own PPR on the graph rebuilt from the edge list, and
/// re-ranks passages from the exported `Pᵀ` / passage nodes.
fn check_export(e: &GraphExport) {
    let m = &e.meta;
    let mut t = TriMatI::<f32, u32>::new((m.nodes, m.nodes));
    for k in 0..m.edges {
        let (a, b) = (e.edge_src[k] as usize, e.edge_dst[k] as usize);
        assert!(a < b, "edge {k}: each pair once, src < dst");
        let w = e.edge_weight[k] as f32;
        assert_eq!(f64::from(w), e.edge_weight[k], "weights are the stored f32");
        t.add_triplet(a, b, w);
        t.add_triplet(b, a, w);
    }
    let g: SparseMatrix = t.to_csr();
    let inv = inverse_degrees(&g);
    assert_eq!(inv.iter().filter(|&&x| x == 0.0).count(), m.dangling_nodes);
    let pt: CsMatI<f64, u32> = CsMatI::new(
        (m.passages, m.phrases),
        e.pt_indptr.clone(),
        e.pt_indices.clone(),
        e.pt_data.clone(),
    );
    let opts = PprOptions {
        damping: m.damping,
        tolerance: m.tolerance,
        max_iterations: m.max_iterations,
    };
    for r in 0..e.rows() {
        let reset = e.reset(r);
        assert!(reset.iter().any(|&x| x > 0.0), "row {r} has a seed");
        let ppr = personalized_pagerank(&g, &inv, &reset, &opts).unwrap();
        let max = ppr
            .scores
            .iter()
            .zip(e.ppr_row(r))
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(max <= 1e-12, "row {r}: re-solved PPR differs by {max}");
        assert!((e.ppr_row(r).iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let scores: Vec<f64> = match m.passage_offset {
            Some(off) => e.ppr_row(r)[off..].to_vec(),
            None => pt
                .outer_iterator()
                .map(|row| row.iter().map(|(i, c)| c * e.ppr_row(r)[i]).sum())
                .collect(),
        };
        let top: Vec<u32> = top_k(&scores, m.top_k)
            .into_iter()
            .map(|(j, _)| j as u32)
            .collect();
        assert_eq!(top, e.top_row(r), "row {r}: top passages");
    }
}

/// `hipporag1` recall@5 of `questions` (one row).
fn hipporag1_recall_at_5(
    r: &Retriever,
    enc: &HashedNgramEncoder,
    questions: &[EvalQuestion],
) -> Vec<ModeRecall> {
    let set = EvalSet {
        ks: &[5],
        ..Default::default()
    };
    evaluate(r, enc, questions, &[Mode::HippoRag1], &set)
        .unwrap()
        .0
}

#[test]
fn musique_export_is_the_problem_retrieve_solved() {
    let r = musique();
    let enc = HashedNgramEncoder::default();
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    let table = hipporag1_recall_at_5(&r, &enc, &questions);
    let c = &r.index().header.counts;
    let pt_nnz = r.index().passage_phrases.nnz();
    for (mode, nodes, edges) in [
        (Mode::HippoRag1, c.phrases as usize, c.edges as usize),
        (
            Mode::HippoRag2,
            (c.phrases + c.passages) as usize,
            c.edges as usize + pt_nnz,
        ),
    ] {
        let opts = RetrieveOptions {
            mode,
            ..Default::default()
        };
        let e = export(&r, &enc, &questions, &opts).unwrap();
        let m = &e.meta;
        assert_eq!((m.nodes, m.edges), (nodes, edges), "{mode:?}");
        assert_eq!(m.questions, 100);
        let exported = e.kind.iter().filter(|&&k| k == 0).count();
        assert_eq!(exported + m.fallbacks, 100, "{mode:?}");
        if mode == Mode::HippoRag1 {
            assert_eq!(m.fallbacks, table[0].fallbacks);
        }
        // The two OpenIE documents without triples are dangling passage nodes in hipporag2.
        if mode == Mode::HippoRag2 {
            assert!(m.dangling_nodes >= 2 && m.probes > 0, "{m:?}");
        }
        let back = GraphExport::from_npz(&e.to_npz()).unwrap();
        assert_eq!(back, e);
        assert_eq!(e.to_npz(), back.to_npz(), "deterministic bytes");
        check_export(&back);
    }
    let e = GraphExport::from_npz(b"PK not a zip")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a zip"), "{e}");
}

fn small(seed: u64) -> SyntheticOptions {
    SyntheticOptions {
        phrases: 3000,
        passages: 400,
        edges: 40_000,
        seed,
        questions: 20,
        ..Default::default()
    }
}

#[test]
fn generator_is_deterministic_sized_and_queryable() {
    let a = generate(&small(7)).unwrap();
    let bytes = a.data.to_bytes();
    assert_eq!(bytes, generate(&small(7)).unwrap().data.to_bytes());
    assert_ne!(bytes, generate(&small(8)).unwrap().data.to_bytes());
    let r = Retriever::from_bytes(&bytes).unwrap();
    let idx: &Index = r.index();
    assert_eq!((idx.phrases.len(), idx.passages.len()), (3000, 400));
    assert_eq!(idx.graph.nnz() / 2 + idx.passage_phrases.nnz(), 40_000);
    assert_eq!(
        hipporag_wasm::graph::build_passage_graph(idx).nnz(),
        2 * 40_000
    );
    assert!(idx.fact_vectors.is_some());
    // Every phrase is in some passage's triples (as in an index built from OpenIE).
    assert_eq!(
        idx.phrase_passages
            .outer_iterator()
            .filter(|r| r.nnz() == 0)
            .count(),
        0
    );

    // The questions resolve against the index and multi-hop retrieval finds their passages.
    let dir = tempfile::tempdir().unwrap();
    let qpath = dir.path().join("q.json");
    std::fs::write(&qpath, serde_json::to_vec(&a.questions).unwrap()).unwrap();
    let questions = load_questions(&qpath, idx).unwrap();
    assert_eq!(questions.len(), 20);
    let enc = HashedNgramEncoder::default();
    let table = hipporag1_recall_at_5(&r, &enc, &questions);
    assert_eq!(table[0].fallbacks, 0);
    assert!(table[0].recall[0] >= 0.8, "{table:?}");
    let e = export(
        &r,
        &enc,
        &questions,
        &RetrieveOptions {
            mode: Mode::HippoRag2,
            ..Default::default()
        },
    )
    .unwrap();
    check_export(&GraphExport::from_npz(&e.to_npz()).unwrap());
}

#[test]
fn generator_reaches_hipporag2_musique_scale_with_skewed_degrees() {
    let a = generate(&SyntheticOptions::default()).unwrap();
    let r = Retriever::from_bytes(&a.data.to_bytes()).unwrap();
    let idx = r.index();
    assert_eq!((idx.phrases.len(), idx.passages.len()), (85_000, 11_656));
    // The edges of HippoRAG 2's graph, counted on the loaded graph itself.
    let g = hipporag_wasm::graph::build_passage_graph(idx);
    assert_eq!(g.nnz(), 2 * 1_400_000);
    assert_eq!(a.questions.len(), 100);
    // Power-law skew, from the loaded graph's degrees: hubs far above the typical node.
    let mut degree: Vec<usize> = g.outer_iterator().map(|row| row.nnz()).collect();
    degree.sort_unstable();
    let (median, p99, max) = (
        degree[degree.len() / 2],
        degree[degree.len() * 99 / 100],
        degree[degree.len() - 1],
    );
    assert!(
        max >= 50 * median && p99 >= 4 * median,
        "median {median}, p99 {p99}, max {max}"
    );
    // The generator's own statistics agree with the graph.
    assert_eq!((a.stats.median_degree, a.stats.max_degree), (median, max));
}
