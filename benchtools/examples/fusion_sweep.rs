//! The hybrid ranking's graph weight, rule by rule, on one index: the design input of
//! `hipporag_wasm::search::graph_weight` (docs/tuning.md, "One hybrid ranking for every
//! corpus").
//!
//! For each question it computes what `hipporag_wasm::search` mixes — the passage share `b`
//! (BM25, fused by page with static scores when the index has them) and the graph share `g`
//! (the seeds' PPR vectors, `phrase_ppr_vector`) — once, then ranks with each rule for the
//! graph weight `w` (`(1 − w)·b + w·g`; `b` the shipped passage share,
//! `fusion::hybrid_passage_share`), then with each rule for the static scores' share tried for
//! multi-hop sites (docs/tuning.md, "The static scores' share on multi-hop sites" and "A
//! question's names leave the static scores out"; the graph weight by the default rule),
//! and prints recall@1/2/5/10 (page recall with `--pages`) for the `dev` half (the file's `dev` split, else the even-numbered questions) and the
//! `test` half. `--exact-seeds` seeds only the entities that are phrase nodes (what the index
//! in pieces does); by default each entity links to its nearest phrase node.
//!
//! `cargo run --release -p hipporag-benchtools --example fusion_sweep -- INDEX QUESTIONS [--pages] [--exact-seeds]`

use hipporag_indexer::eval::{
    EvalQuestion, first_per_page, load_page_questions, load_questions, recall_at,
};
use hipporag_wasm::embeddings::{HASHED_NGRAM_ID, HashedNgramEncoder};
use hipporag_wasm::graph::inverse_degrees;
use hipporag_wasm::graph::{PprVector, phrase_ppr_vector};
use hipporag_wasm::graph::{entity_seeds, link_entities};
use hipporag_wasm::graph::{top_k, top_k_positive};
use hipporag_wasm::index::SparseMatrix;
use hipporag_wasm::lexical::TermDictionary;
use hipporag_wasm::search::page_rrf;
use hipporag_wasm::search::{
    HybridWeights, MAX_GRAPH_WEIGHT, PassageSignals, RRF_DEPTH, RRF_K, agreement, graph_share,
    graph_weight, hybrid_passage_share, name_factor,
};
use hipporag_wasm::search::{RetrieveOptions, Retriever};
use hipporag_wasm::text::name_share;
use hipporag_wasm::text::terms;

/// One question's shares.
struct Shares {
    dev: bool,
    /// The question's name share (`hipporag_wasm::text::name_share`) with a title-case word
    /// too common to be a name above 5%, 10% and 20% of the passages, and with none.
    names: [f64; 4],
    gold: Vec<Vec<u32>>,
    bm25: Vec<f64>,
    /// The static scores, when the index has static embeddings.
    statics: Option<Vec<f64>>,
    b: Vec<f64>,
    g: Vec<f64>,
}

/// `(1 − top₂/top₁)` of `v`: how far its best value stands above its second.
fn margin(v: &[f64]) -> f64 {
    let t = top_k(v, 2);
    match (t.first(), t.get(1)) {
        (Some(a), Some(b)) if a.1 > 0.0 => (a.1 - b.1.max(0.0)) / a.1,
        (Some(a), None) if a.1 > 0.0 => 1.0,
        _ => 0.0,
    }
}

/// The passage counts above which a title-case word is too common to be a name, tried for the
/// static weight (`fusion::MAX_NAME_PASSAGES`); the last counts every one.
const COMMON: [f64; 4] = [10.0, 30.0, 100.0, f64::INFINITY];

type Rule = (&'static str, fn(&Shares) -> f64);

/// The rules compared (the first is the default).
const RULES: &[Rule] = &[
    ("default: 0.9·clamp((A50 − 0.25)/0.25)", |s| {
        graph_weight(&s.b, &s.g)
    }),
    ("0 (passage share alone)", |_| 0.0),
    ("0.3", |_| 0.3),
    ("0.5", |_| 0.5),
    ("0.7", |_| 0.7),
    ("0.9", |_| 0.9),
    ("0.9·(1 − BM25 margin)", |s| {
        0.9 * (1.0 - margin(&s.bm25))
    }),
    ("0.9·A50", |s| 0.9 * agreement(&s.b, &s.g, 50)),
    ("0.9·A10", |s| 0.9 * agreement(&s.b, &s.g, 10)),
    ("0.9·A50·(1 − BM25 margin)", |s| {
        0.9 * agreement(&s.b, &s.g, 50) * (1.0 - margin(&s.bm25))
    }),
    ("0.9·min(1, A50/0.5)", |s| {
        0.9 * (agreement(&s.b, &s.g, 50) / 0.5).min(1.0)
    }),
    ("0.9·clamp((A50 − 0.3)/0.3)", |s| {
        0.9 * ((agreement(&s.b, &s.g, 50) - 0.3) / 0.3).clamp(0.0, 1.0)
    }),
    ("default · clamp((0.6 − BM25 margin)/0.3)", |s| {
        graph_weight(&s.b, &s.g) * ((0.6 - margin(&s.bm25)) / 0.3).clamp(0.0, 1.0)
    }),
    ("default · clamp((0.7 − BM25 margin)/0.3)", |s| {
        graph_weight(&s.b, &s.g) * ((0.7 - margin(&s.bm25)) / 0.3).clamp(0.0, 1.0)
    }),
    ("default · clamp((0.8 − BM25 margin)/0.4)", |s| {
        graph_weight(&s.b, &s.g) * ((0.8 - margin(&s.bm25)) / 0.4).clamp(0.0, 1.0)
    }),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pages_mode = args.iter().any(|a| a == "--pages");
    let exact = args.iter().any(|a| a == "--exact-seeds");
    let r = Retriever::from_vec(std::fs::read(&args[0]).expect("index")).expect("load");
    let index = r.index();
    assert_eq!(index.header.encoder.id, HASHED_NGRAM_ID, "a lexical index");
    let questions = halves(std::path::Path::new(&args[1]), index, pages_mode);
    let graph = hipporag_wasm::graph::build_passage_graph(index);
    let inv = inverse_degrees(&graph);
    let enc = HashedNgramEncoder::new(index.dim());
    let shares: Vec<Shares> = questions
        .iter()
        .map(|(dev, q)| question_shares(&r, &enc, &graph, &inv, exact, *dev, q))
        .collect();
    let sweep = Sweep {
        shares: &shares,
        pages: &index.pages,
        pages_mode,
    };
    sweep.report("bm25", &|s| s.bm25.clone());
    for (name, rule) in RULES {
        sweep.report(name, &|s| {
            let w = if s.g.iter().any(|&x| x > 0.0) {
                rule(s)
            } else {
                0.0
            };
            mix(&s.b, &s.g, w)
        });
    }
    sweep.static_rules();
    dev_means(&shares);
}

/// The questions of `path`, each marked `true` in the `dev` half: the file's `dev` split with
/// `--pages` (else the even-numbered questions).
fn halves(
    path: &std::path::Path,
    index: &hipporag_wasm::Index,
    pages_mode: bool,
) -> Vec<(bool, EvalQuestion)> {
    let even = |qs: Vec<EvalQuestion>| {
        qs.into_iter()
            .enumerate()
            .map(|(i, q)| (i % 2 == 0, q))
            .collect()
    };
    if !pages_mode {
        return even(load_questions(path, index).expect("questions"));
    }
    let dev = load_page_questions(path, index, Some("dev")).expect("questions");
    let test = load_page_questions(path, index, Some("test")).expect("questions");
    if dev.is_empty() {
        even(test)
    } else {
        let dev = dev.into_iter().map(|q| (true, q));
        dev.chain(test.into_iter().map(|q| (false, q))).collect()
    }
}

/// One question's shares: the passage share as shipped and the graph share of its seeds'
/// PPR vectors at the default damping.
fn question_shares(
    r: &Retriever,
    enc: &HashedNgramEncoder,
    graph: &SparseMatrix,
    inv: &[f64],
    exact: bool,
    dev: bool,
    q: &EvalQuestion,
) -> Shares {
    let index = r.index();
    let bm25_index = index.bm25.as_ref().expect("an index with BM25");
    let defaults = RetrieveOptions::default();
    let p = r.prepare_query(&q.question, None, enc).expect("query");
    let input = p.input();
    let bm25 = hipporag_wasm::search::bm25_scores(r, &q.question).expect("bm25");
    let statics = hipporag_wasm::search::static_scores(r, &q.question);
    let signals = PassageSignals {
        bm25: &bm25,
        statics: statics.as_deref(),
        dense: None,
        pages: &index.pages,
        allowed: None,
    };
    let n = index.phrases.len();
    let mut seeds = if exact || n == 0 {
        entity_seeds(input.entities, index)
    } else {
        link_entities(index, input.entities, input.embeddings, 0).expect("linking")
    };
    let mut seen = std::collections::HashSet::new();
    seeds.retain(|s| seen.insert(s.phrase_id));
    let vectors: Vec<PprVector> = seeds
        .iter()
        .map(|s| phrase_ppr_vector(graph, inv, n, s.phrase_id, defaults.damping))
        .collect::<Result<_, _>>()
        .expect("vectors");
    let weighted: Vec<(f64, &PprVector)> = seeds.iter().map(|s| s.weight).zip(&vectors).collect();
    // The shipped passage share: where the graph agrees, the static weight lowered by
    // the question's names.
    let weights = HybridWeights {
        static_weight: defaults.static_weight,
        dense_weight: 0.0,
        phrase_weight: None,
        name_factor: name_factor(&q.question, bm25_index.language(), bm25_index),
    };
    let g = graph_share(&weighted, bm25.len());
    Shares {
        dev,
        names: COMMON.map(|c| {
            name_share(&q.question, &|w: &str| {
                terms(w, bm25_index.language()).first().is_some_and(|t| {
                    let df = f64::from(bm25_index.document_frequency(t));
                    df > 0.0 && df <= c
                })
            })
        }),
        gold: q.gold.clone(),
        b: hybrid_passage_share(&signals, &g, &weights),
        g,
        statics,
        bm25,
    }
}

/// `(1 − w)·b + w·g`, passage by passage.
fn mix(b: &[f64], g: &[f64], w: f64) -> Vec<f64> {
    b.iter()
        .zip(g)
        .map(|(x, y)| (1.0 - w) * x + w * y)
        .collect()
}

/// Every question's shares, and how a ranking is judged on them.
struct Sweep<'a> {
    shares: &'a [Shares],
    pages: &'a [u32],
    pages_mode: bool,
}

impl Sweep<'_> {
    /// Prints the recall@1/2/5/10 of the `dev` and `test` halves when each question's
    /// passages rank by `score` (page recall with `--pages`).
    fn report(&self, name: &str, score: &dyn Fn(&Shares) -> Vec<f64>) {
        let ks = [1usize, 2, 5, 10];
        let depth = if self.pages_mode { 80 } else { 10 };
        let mut sum = [[0.0f64; 4]; 2];
        let mut count = [0.0f64; 2];
        for s in self.shares {
            let mut ranking: Vec<u32> = top_k(&score(s), depth)
                .into_iter()
                .filter(|x| x.1 > 0.0)
                .map(|x| x.0 as u32)
                .collect();
            if self.pages_mode {
                ranking = first_per_page(&ranking, self.pages);
            }
            let h = usize::from(!s.dev);
            count[h] += 1.0;
            for (i, &k) in ks.iter().enumerate() {
                sum[h][i] += recall_at(&ranking, &s.gold, k);
            }
        }
        let half = |h: usize| {
            ks.iter()
                .enumerate()
                .map(|(i, k)| format!("R@{k} {:.3}", sum[h][i] / count[h].max(1.0)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        println!("{name:<40} dev {} | test {}", half(0), half(1));
    }

    /// The passage share with the static scores at weight `sw`: BM25 and them fused by page,
    /// normalised to sum 1.
    fn with_static(&self, s: &Shares, sw: f64) -> Vec<f64> {
        let mut signals: Vec<(&[f64], f64)> = vec![(&s.bm25, 1.0)];
        if let Some(st) = s.statics.as_deref().filter(|_| sw > 0.0) {
            signals.push((st, sw));
        }
        let v = page_rrf(&signals, self.pages, RRF_K, RRF_DEPTH);
        let t: f64 = v.iter().sum();
        v.iter().map(|x| x / t.max(f64::MIN_POSITIVE)).collect()
    }

    /// [`Sweep::with_static`] mixed with the graph share by the default rule.
    fn mixed(&self, s: &Shares, sw: f64) -> Vec<f64> {
        let b = self.with_static(s, sw);
        let w = if s.g.iter().any(|&x| x > 0.0) {
            graph_weight(&b, &s.g)
        } else {
            0.0
        };
        mix(&b, &s.g, w)
    }

    /// One reciprocal-rank fusion by page of BM25, the static scores at `sw` and the graph
    /// share at `k · w / 0.9`, `w` the default weight.
    fn rank3(&self, s: &Shares, sw: f64, k: f64) -> Vec<f64> {
        let r = graph_ratio(s);
        let mut signals: Vec<(&[f64], f64)> = vec![(&s.bm25, 1.0)];
        if let Some(st) = s.statics.as_deref().filter(|_| sw > 0.0) {
            signals.push((st, sw));
        }
        if r > 0.0 {
            signals.push((&s.g, k * r));
        }
        page_rrf(&signals, self.pages, RRF_K, RRF_DEPTH)
    }

    /// The static scores' share, per query (docs/tuning.md, "The static scores' share on
    /// multi-hop sites"), each rule mixed with the graph share by the default rule.
    fn static_rules(&self) {
        self.report("static weight 1 (the earlier default)", &|s| {
            self.mixed(s, 1.0)
        });
        self.report("static out of the passage share", &|s| self.mixed(s, 0.0));
        self.report("static weight 1 − clamp((margin − 0.1)/0.2)", &|s| {
            self.mixed(s, 1.0 - ((margin(&s.bm25) - 0.1) / 0.2).clamp(0.0, 1.0))
        });
        self.report("static weight clamp((1 − SA10)/0.4)", &|s| {
            self.mixed(s, ((1.0 - static_agreement(s)) / 0.4).clamp(0.0, 1.0))
        });
        self.report("static weight 1 − w/0.9 (the graph stands in)", &|s| {
            self.mixed(s, 1.0 - graph_ratio(s))
        });
        self.report("rank fusion: bm25, static 1, graph 1·w/0.9", &|s| {
            self.rank3(s, 1.0, 1.0)
        });
        self.report(
            "rank fusion: bm25, static 1 − w/0.9, graph 1.5·w/0.9",
            &|s| self.rank3(s, 1.0 - graph_ratio(s), 1.5),
        );
        for (c, common) in COMMON.iter().enumerate() {
            for t in [0.1, 0.2] {
                self.report(
                    &format!("static 1 − clamp(names/{t}), common > {common}"),
                    &|s| self.mixed(s, 1.0 - (s.names[c] / t).clamp(0.0, 1.0)),
                );
            }
        }
        self.report(
            "names/0.1 ≤ 100, only where the graph agrees (shipped)",
            &|s| {
                let b1 = self.with_static(s, 1.0);
                let agrees = s.g.iter().any(|&x| x > 0.0) && graph_weight(&b1, &s.g) > 0.0;
                self.mixed(
                    s,
                    if agrees {
                        1.0 - (s.names[2] / 0.1).clamp(0.0, 1.0)
                    } else {
                        1.0
                    },
                )
            },
        );
    }
}

/// The default graph weight over its maximum, 0 without a graph share.
fn graph_ratio(s: &Shares) -> f64 {
    if s.g.iter().any(|&x| x > 0.0) {
        graph_weight(&s.b, &s.g) / MAX_GRAPH_WEIGHT
    } else {
        0.0
    }
}

/// The share of the static scores' best 10 passages among BM25's best 50.
fn static_agreement(s: &Shares) -> f64 {
    let Some(st) = &s.statics else { return 0.0 };
    let top: std::collections::HashSet<usize> =
        top_k_positive(&s.bm25, 50).iter().map(|x| x.0).collect();
    let best = top_k_positive(st, 10);
    let on = best.iter().filter(|x| top.contains(&x.0)).count();
    on as f64 / best.len().max(1) as f64
}

/// Prints the `dev` half's mean agreement, BM25 margin, static agreement and name share.
fn dev_means(shares: &[Shares]) {
    let dev: Vec<&Shares> = shares.iter().filter(|s| s.dev).collect();
    let mean = |f: &dyn Fn(&Shares) -> f64| {
        dev.iter().map(|s| f(s)).sum::<f64>() / dev.len().max(1) as f64
    };
    println!(
        "dev means: agreement A50 {:.3}, A10 {:.3}, BM25 margin {:.3}, static agreement SA10 {:.3}, names {:.3}",
        mean(&|s| agreement(&s.b, &s.g, 50)),
        mean(&|s| agreement(&s.b, &s.g, 10)),
        mean(&|s| margin(&s.bm25)),
        mean(&|s| static_agreement(s)),
        mean(&|s| s.names[1])
    );
}
