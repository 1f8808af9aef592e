//! How small can the static passage vectors of a site index be? The design input of the index
//! in pieces: with damping 0 (the site's default) a lean query needs the BM25 postings of its
//! terms, the sign rows of its words and a static score for every passage, and full passage
//! vectors (int8: `|P| × 384` bytes) are what no first search can afford to download.
//!
//! For each docs question (`[{q, gold_pages, split}]`) the site's ranking — the reciprocal-rank
//! fusion by page of BM25 and the static scores (`scores::page_rrf`, k 60, depth 100) — with the
//! static scores computed from: the index's own (format 5: sign-bit codes in its IVF clusters;
//! format 4 stored int8 vectors); f32 vectors recomputed from the text; their sign bits (the query stays f32); and an inverted-file (IVF)
//! search over the sign bits: spherical k-means into `C` clusters, the `nprobe` clusters whose
//! centroids are nearest the query scored, the other passages left without a static score.
//! Bytes per query are the codes a query reads (centroids as sign bits + the probed clusters'
//! codes), raw.
//!
//! `cargo run --release -p hipporag-benchtools --example static_codes -- INDEX QUESTIONS SPLIT`

use hipporag_wasm::search::Retriever;
use hipporag_wasm::search::page_rrf;
use hipporag_wasm::search::{RRF_DEPTH, RRF_K};

fn bits(v: &[f32]) -> Vec<f32> {
    v.iter()
        .map(|&x| if x >= 0.0 { 1.0 } else { -1.0 })
        .collect()
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn normalise(v: &mut [f32]) {
    let n = dot(v, v).sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// Spherical k-means (Lloyd, 15 rounds) from `c` centroids spread over the passage order.
fn kmeans(x: &[Vec<f32>], c: usize) -> (Vec<Vec<f32>>, Vec<usize>) {
    let dim = x[0].len();
    let mut cent: Vec<Vec<f32>> = (0..c).map(|k| x[k * x.len() / c].clone()).collect();
    let mut assign = vec![0usize; x.len()];
    for _ in 0..15 {
        for (j, v) in x.iter().enumerate() {
            assign[j] = (0..c)
                .max_by(|&a, &b| {
                    dot(v, &cent[a])
                        .total_cmp(&dot(v, &cent[b]))
                        .then(b.cmp(&a))
                })
                .unwrap_or(0);
        }
        let mut sum = vec![vec![0f32; dim]; c];
        for (j, v) in x.iter().enumerate() {
            sum[assign[j]].iter_mut().zip(v).for_each(|(s, y)| *s += y);
        }
        for (k, mut s) in sum.into_iter().enumerate() {
            if s.iter().any(|&y| y != 0.0) {
                normalise(&mut s);
                cent[k] = s;
            }
        }
    }
    (cent, assign)
}

#[derive(Default)]
struct Row {
    hit1: f64,
    r10: f64,
    hit10: f64,
    bytes: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let r = Retriever::from_vec(std::fs::read(&args[1]).expect("index")).expect("load");
    let idx = r.index();
    let qs = hipporag_indexer::eval::load_page_questions(
        std::path::Path::new(&args[2]),
        idx,
        Some(&args[3]),
    )
    .expect("questions");
    let st = idx
        .static_embeddings
        .as_ref()
        .expect("a site index with static embeddings");
    let pages = &idx.pages;
    let dim = 384;
    let pv: Vec<Vec<f32>> = idx
        .passages
        .iter()
        .map(|p| {
            st.embed(&format!("{}\n{}", p.title, p.text), &[])
                .unwrap_or_else(|| vec![0.0; dim])
        })
        .collect();
    let pb: Vec<Vec<f32>> = pv.iter().map(|v| bits(v)).collect();
    let np = pv.len();
    let mut ivf = Vec::new();
    for c in [128usize, 256] {
        let (cent, assign) = kmeans(
            &pb.iter()
                .map(|v| {
                    let mut v = v.clone();
                    normalise(&mut v);
                    v
                })
                .collect::<Vec<_>>(),
            c,
        );
        let cb: Vec<Vec<f32>> = cent.iter().map(|v| bits(v)).collect();
        let mut members = vec![Vec::new(); c];
        for (j, &a) in assign.iter().enumerate() {
            members[a].push(j);
        }
        ivf.push((c, cb, members));
    }
    let names: Vec<String> = ["the index's own", "f32 recomputed", "sign bits, exact scan"]
        .iter()
        .map(|s| s.to_string())
        .chain(ivf.iter().flat_map(|(c, _, _)| {
            [6usize, 8, 12, 16].map(move |p| format!("sign bits, IVF C={c} nprobe={p}"))
        }))
        .collect();
    let mut rows: Vec<Row> = names.iter().map(|_| Row::default()).collect();
    for q in &qs {
        let lexical = hipporag_wasm::search::bm25_scores(&r, &q.question).expect("bm25");
        let Some(qv) = st.embed(&q.question, &[]) else {
            continue;
        };
        let mut variants: Vec<(Vec<f64>, f64)> = Vec::new();
        variants.push((
            hipporag_wasm::search::static_scores(&r, &q.question).unwrap_or_default(),
            (np * dim) as f64,
        ));
        variants.push((
            pv.iter().map(|p| f64::from(dot(&qv, p))).collect(),
            (np * dim * 4) as f64,
        ));
        variants.push((
            pb.iter().map(|p| f64::from(dot(&qv, p))).collect(),
            (np * dim / 8) as f64,
        ));
        for (c, cb, members) in &ivf {
            let mut order: Vec<usize> = (0..*c).collect();
            order.sort_by(|&a, &b| {
                dot(&qv, &cb[b])
                    .total_cmp(&dot(&qv, &cb[a]))
                    .then(a.cmp(&b))
            });
            for nprobe in [6usize, 8, 12, 16] {
                let mut s = vec![0f64; np];
                let mut n = 0;
                for &k in &order[..nprobe.min(*c)] {
                    for &j in &members[k] {
                        // Shifted so that every probed passage scores above the unprobed 0.
                        s[j] = 2.0 + f64::from(dot(&qv, &pb[j])) / dim as f64;
                        n += 1;
                    }
                }
                variants.push((s, (c * dim / 8 + n * dim / 8) as f64));
            }
        }
        for (row, (stat, bytes)) in rows.iter_mut().zip(&variants) {
            let fused = page_rrf(&[(&lexical, 1.0), (stat, 1.0)], pages, RRF_K, RRF_DEPTH);
            let mut order: Vec<usize> = (0..np).filter(|&j| fused[j] > 0.0).collect();
            order.sort_by(|&a, &b| fused[b].total_cmp(&fused[a]).then(a.cmp(&b)));
            let mut top: Vec<u32> = Vec::new();
            for j in order {
                if !top.contains(&pages[j]) {
                    top.push(pages[j]);
                    if top.len() == 10 {
                        break;
                    }
                }
            }
            let gold: Vec<u32> = q
                .gold
                .iter()
                .filter_map(|g| g.first().map(|&j| pages[j as usize]))
                .collect();
            row.hit1 += f64::from(u8::from(top.first().is_some_and(|t| gold.contains(t))));
            row.hit10 += f64::from(u8::from(gold.iter().any(|g| top.contains(g))));
            row.r10 +=
                gold.iter().filter(|g| top.contains(g)).count() as f64 / q.gold.len().max(1) as f64;
            row.bytes += bytes;
        }
    }
    let n = qs.len() as f64;
    println!(
        "{} questions ({}), {np} passages; static score from:",
        qs.len(),
        args[3]
    );
    println!(
        "{:<36} {:>6} {:>6} {:>6} {:>14}",
        "passage codes", "hit@1", "R@10", "hit@10", "bytes/query"
    );
    for (name, row) in names.iter().zip(&rows) {
        println!(
            "{name:<36} {:>6.3} {:>6.3} {:>6.3} {:>14.0}",
            row.hit1 / n,
            row.r10 / n,
            row.hit10 / n,
            row.bytes / n
        );
    }
}
