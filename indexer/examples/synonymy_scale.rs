//! Timed harness (not a test) for the index build's most expensive step: synonymy edges among
//! `N` phrase nodes (issue target: 100,000 phrases × 384 dimensions in ≤ 60 s on 2 cores, with
//! recall ≥ 0.99 of the exact neighbours above τ).
//!
//! ```sh
//! cargo run --release --example synonymy_scale -- [PHRASES=100000] [TAU=0.8] [K=100] [SAMPLE=300]
//! ```
//!
//! Phrases are realistic strings, not random vectors (which would have no neighbour above τ):
//! the distinct word 1-, 2- and 3-grams of the musique_train corpus (`../shared/data`), in
//! order of first appearance, so "new york", "new york city" and "york city" all occur. They are
//! embedded with the built-in hashed n-gram encoder (384-d). The harness times
//! [`synonymy_pairs`] alone (encoding excluded), prints the pairs found and the process's peak
//! resident memory (`VmHWM`), then checks recall on `SAMPLE` evenly spaced rows against a
//! brute-force f64 scan: the fraction of each sampled row's exact top-`K` neighbours above τ
//! that `synonymy_pairs` also returned (cosines within 1e-5 of τ are left out of both sides,
//! since f32 and f64 may round them across the threshold).
use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::time::Instant;

use hipporag_indexer::corpus::read_corpus;
use hipporag_indexer::graph::synonymy::synonymy_pairs;
use hipporag_wasm::embeddings::{Encoder, HashedNgramEncoder};
use hipporag_wasm::text::{normalize_phrase, tokens};

fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: f64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let n = arg(0, 100_000.0) as usize;
    let tau = arg(1, 0.8) as f32;
    let k = arg(2, 100.0) as usize;
    let sample = arg(3, 300.0) as usize;

    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/musique_train/musique_train_corpus.json");
    let passages = read_corpus(&corpus).expect("musique_train corpus");
    let mut seen = HashSet::new();
    let mut phrases: Vec<String> = Vec::with_capacity(n);
    'outer: for p in &passages {
        let norm = normalize_phrase(&p.indexed_text());
        let toks: Vec<&str> = tokens(&norm).collect();
        for i in 0..toks.len() {
            for len in 1..=3 {
                if i + len <= toks.len() {
                    let s = toks[i..i + len].join(" ");
                    if seen.insert(s.clone()) {
                        phrases.push(s);
                        if phrases.len() == n {
                            break 'outer;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(
        phrases.len(),
        n,
        "the corpus has only {} distinct 1–3-grams",
        phrases.len()
    );
    let enc = HashedNgramEncoder::default();
    let dim = enc.info().dim as usize;
    let refs: Vec<&str> = phrases.iter().map(String::as_str).collect();
    let emb = enc.encode(&refs).expect("hashed encoder");
    // synonymy_pairs normalises its input in place; the brute force below reads the original.
    let input = emb.clone();
    let rss_before = peak_rss_mib();

    let t = Instant::now();
    let pairs = synonymy_pairs(input, &vec![true; n], dim, tau, k, &());
    let secs = t.elapsed().as_secs_f64();
    let rss = peak_rss_mib();

    // Recall on sampled rows against a brute-force f64 scan.
    let found: HashSet<(u32, u32)> = pairs.keys().copied().collect();
    let row = |i: usize| &emb[i * dim..(i + 1) * dim];
    let (mut exact_total, mut hit) = (0usize, 0usize);
    for s in 0..sample.min(n) {
        let i = s * n / sample.min(n);
        let mut cand: Vec<(f64, usize)> = (0..n)
            .filter(|&j| j != i)
            .map(|j| {
                let c: f64 = row(i)
                    .iter()
                    .zip(row(j))
                    .map(|(a, b)| f64::from(*a) * f64::from(*b))
                    .sum();
                (c, j)
            })
            .filter(|&(c, _)| c >= f64::from(tau))
            .collect();
        cand.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        cand.truncate(k);
        let exact: BTreeSet<usize> = cand
            .iter()
            .filter(|(c, _)| (c - f64::from(tau)).abs() > 1e-5)
            .map(|&(_, j)| j)
            .collect();
        exact_total += exact.len();
        hit += exact
            .iter()
            .filter(|&&j| found.contains(&((i.min(j)) as u32, (i.max(j)) as u32)))
            .count();
    }
    let recall = if exact_total == 0 {
        f64::NAN
    } else {
        hit as f64 / exact_total as f64
    };
    println!(
        "synonymy edges: {n} phrases × {dim} dims, τ {tau}, k {k}, {} threads: {secs:.1} s, {} undirected pairs; \
         peak RSS {:.0} MiB ({:.0} MiB before the step); recall on {} sampled rows: {recall:.4} ({hit}/{exact_total} exact neighbours)",
        rayon::current_num_threads(),
        pairs.len(),
        rss.unwrap_or(f64::NAN),
        rss_before.unwrap_or(f64::NAN),
        sample.min(n),
    );
}
