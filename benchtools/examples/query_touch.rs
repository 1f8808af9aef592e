//! What one site query touches in hybrid mode (the site's default: BM25 + static embeddings by
//! page, phraseWeight 0), for the design of an index fetched in pieces (issue: the first search
//! within Pagefind's byte budget).
//!
//! For each question of a docs-search file (`[{q, gold_pages, split}]`): the seed passages of
//! the reset vector, the graph rows the forward push expands at the hybrid ε (a traced copy of
//! `ppr::personalized_pagerank_push`), their edges, and whether the top-10 pages change when the
//! walk is cut to the seeds' rows or to no walk at all.
//!
//! `cargo run --release -p hipporag-benchtools --example query_touch -- INDEX QUESTIONS [SPLIT]`

use std::collections::{HashSet, VecDeque};

use hipporag_wasm::retriever::{HYBRID_PUSH_EPSILON, Mode, RetrieveOptions, Retriever};
use hipporag_wasm::sparse::SparseMatrix;

/// The push of `ppr.rs`, recording expanded nodes; `allowed` limits which rows may be expanded
/// (a node outside keeps its residual).
fn push(
    g: &SparseMatrix,
    inv: &[f64],
    reset: &[f64],
    eps: f64,
    allowed: &dyn Fn(usize) -> bool,
) -> (Vec<f64>, Vec<usize>) {
    let total: f64 = reset.iter().sum();
    let mut res: Vec<f64> = reset.iter().map(|x| x / total).collect();
    let f: Vec<f64> = inv
        .iter()
        .map(|&i| if i > 0.0 && i < 1.0 { i } else { 1.0 })
        .collect();
    let mut p = vec![0.0; res.len()];
    let mut queued = vec![false; res.len()];
    let mut q = VecDeque::new();
    for u in 0..res.len() {
        if res[u] * f[u] > eps && allowed(u) {
            queued[u] = true;
            q.push_back(u);
        }
    }
    let mut expanded = Vec::new();
    let ip = g.indptr();
    let ip = ip.raw_storage();
    while let Some(u) = q.pop_front() {
        queued[u] = false;
        let m = std::mem::take(&mut res[u]);
        p[u] += 0.5 * m;
        expanded.push(u);
        let share = 0.5 * m * inv[u];
        for k in ip[u] as usize..ip[u + 1] as usize {
            let v = g.indices()[k] as usize;
            res[v] += share * f64::from(g.data()[k]);
            if res[v] * f[v] > eps && !queued[v] && allowed(v) {
                queued[v] = true;
                q.push_back(v);
            }
        }
    }
    // A node the walk may not leave keeps its residual: count the share a walker would stop
    // with there.
    for u in 0..p.len() {
        if !allowed(u) {
            p[u] += 0.5 * res[u];
        }
    }
    (p, expanded)
}

fn top_pages(scores: &[f64], pages: &[u32], k: usize) -> Vec<u32> {
    let mut order: Vec<usize> = (0..scores.len()).filter(|&j| scores[j] > 0.0).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut out = Vec::new();
    for j in order {
        if !out.contains(&pages[j]) {
            out.push(pages[j]);
            if out.len() == k {
                break;
            }
        }
    }
    out
}

fn stats(name: &str, mut v: Vec<f64>) {
    if v.is_empty() {
        return;
    }
    v.sort_by(f64::total_cmp);
    let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
    println!(
        "{name:<34} median {:>9.0}  p90 {:>9.0}  max {:>9.0}",
        q(0.5),
        q(0.9),
        q(1.0)
    );
}

struct Variant {
    name: String,
    recall: f64,
    hit: f64,
    hit1: f64,
    recall5: f64,
    same: usize,
    rows: Vec<f64>,
    entries: Vec<f64>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let r = Retriever::from_vec(std::fs::read(&args[1]).expect("index")).expect("load");
    let split = args.get(3).cloned().unwrap_or_else(|| "dev".into());
    let idx = r.index();
    let qs = hipporag_indexer::eval::load_page_questions(
        std::path::Path::new(&args[2]),
        idx,
        Some(&split),
    )
    .expect("questions");
    let n = idx.phrases.len();
    let pages = &idx.pages;
    let opts = RetrieveOptions {
        mode: Mode::Hybrid,
        phrase_weight: Some(0.0),
        ..Default::default()
    };
    let caps: &[usize] = &[0, 5, 10, 20, 50, 100, 1_000_000];
    let mut vs: Vec<Variant> = std::iter::once("full walk".to_string())
        .chain(
            caps.iter()
                .map(|c| format!("seed rows + phrase rows deg<={c}")),
        )
        .chain(std::iter::once("no walk".to_string()))
        .map(|name| Variant {
            name,
            recall: 0.0,
            hit: 0.0,
            hit1: 0.0,
            recall5: 0.0,
            same: 0,
            rows: vec![],
            entries: vec![],
        })
        .collect();
    let mut seeds = vec![];
    let mut total = 0usize;
    let mut union: HashSet<usize> = HashSet::new();
    for q in &qs {
        let input = hipporag_wasm::retriever::QueryInput {
            question: Some(&q.question),
            ..Default::default()
        };
        let Ok(Ok(pb)) = r.ppr_problem(&input, &opts) else {
            continue;
        };
        total += 1;
        let g = pb.graph;
        let ip = g.indptr();
        let ip = ip.raw_storage();
        let deg = |u: usize| (ip[u + 1] - ip[u]) as usize;
        let seed_nodes: HashSet<usize> =
            (0..pb.reset.len()).filter(|&u| pb.reset[u] > 0.0).collect();
        seeds.push(seed_nodes.len() as f64);
        let mut runs: Vec<(Vec<f64>, Vec<usize>)> = Vec::new();
        runs.push(push(
            g,
            pb.inv_degree,
            &pb.reset,
            HYBRID_PUSH_EPSILON,
            &|_| true,
        ));
        for &cap in caps {
            let mut allowed: HashSet<usize> = seed_nodes.clone();
            for &u in &seed_nodes {
                for k in ip[u] as usize..ip[u + 1] as usize {
                    let v = g.indices()[k] as usize;
                    if v < n && deg(v) <= cap {
                        allowed.insert(v);
                    }
                }
            }
            runs.push(push(
                g,
                pb.inv_degree,
                &pb.reset,
                HYBRID_PUSH_EPSILON,
                &|u| allowed.contains(&u),
            ));
        }
        runs.push((pb.reset.clone(), seed_nodes.iter().copied().collect()));
        union.extend(runs[0].1.iter().copied());
        let full = top_pages(&runs[0].0[n..], pages, 10);
        for (v, (p, expanded)) in vs.iter_mut().zip(&runs) {
            let top = top_pages(&p[n..], pages, 10);
            let gold_pages: Vec<u32> = q
                .gold
                .iter()
                .filter_map(|g| g.first().map(|&j| pages[j as usize]))
                .collect();
            let found = q
                .gold
                .iter()
                .filter(|g| g.first().is_some_and(|&j| top.contains(&pages[j as usize])))
                .count();
            v.recall += found as f64 / q.gold.len().max(1) as f64;
            let found5 = q
                .gold
                .iter()
                .filter(|g| {
                    g.first()
                        .is_some_and(|&j| top[..top.len().min(5)].contains(&pages[j as usize]))
                })
                .count();
            v.recall5 += found5 as f64 / q.gold.len().max(1) as f64;
            v.hit1 += f64::from(u8::from(
                top.first().is_some_and(|t| gold_pages.contains(t)),
            ));
            v.hit += f64::from(u8::from(gold_pages.iter().any(|p| top.contains(p))));
            v.same += usize::from(top == full);
            v.rows.push(expanded.len() as f64);
            v.entries
                .push(expanded.iter().map(|&u| deg(u) as f64).sum());
        }
    }
    println!(
        "{total} questions ({split}); graph {} nodes ({n} phrases, {} passages)",
        n + idx.passages.len(),
        idx.passages.len(),
    );
    stats("seed passages", seeds);
    println!("rows expanded by any question (full walk): {}", union.len());
    println!(
        "{:<36} {:>6} {:>6} {:>6} {:>6} {:>8} {:>10} {:>12}",
        "variant", "hit@1", "R@5", "R@10", "hit@10", "same", "rows (med)", "entries (med)"
    );
    for v in vs {
        let med = |mut x: Vec<f64>| {
            x.sort_by(f64::total_cmp);
            x[x.len() / 2]
        };
        println!(
            "{:<36} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>4}/{total} {:>10.0} {:>12.0}",
            v.name,
            v.hit1 / total as f64,
            v.recall5 / total as f64,
            v.recall / total as f64,
            v.hit / total as f64,
            v.same,
            med(v.rows),
            med(v.entries)
        );
    }
}
