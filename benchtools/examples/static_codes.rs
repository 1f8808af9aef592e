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

impl Row {
    /// Adds one question's ranking: the site's fusion of `lexical` and `stat` by page.
    fn add(&mut self, lexical: &[f64], stat: &[f64], bytes: f64, pages: &[u32], gold: &[Vec<u32>]) {
        let np = lexical.len();
        let fused = page_rrf(&[(lexical, 1.0), (stat, 1.0)], pages, RRF_K, RRF_DEPTH);
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
        let gold_pages: Vec<u32> = gold
            .iter()
            .filter_map(|g| g.first().map(|&j| pages[j as usize]))
            .collect();
        self.hit1 += f64::from(u8::from(
            top.first().is_some_and(|t| gold_pages.contains(t)),
        ));
        self.hit10 += f64::from(u8::from(gold_pages.iter().any(|g| top.contains(g))));
        self.r10 +=
            gold_pages.iter().filter(|g| top.contains(g)).count() as f64 / gold.len().max(1) as f64;
        self.bytes += bytes;
    }
}

const DIM: usize = 384;
const NPROBES: [usize; 4] = [6, 8, 12, 16];

/// An inverted file over the passages' sign bits: `clusters` centroids (as sign bits) and the
/// passages of each.
struct Ivf {
    clusters: usize,
    centroids: Vec<Vec<f32>>,
    members: Vec<Vec<usize>>,
}

impl Ivf {
    /// Spherical k-means of the normalised sign-bit vectors `pb` into `clusters`.
    fn new(pb: &[Vec<f32>], clusters: usize) -> Self {
        let unit: Vec<Vec<f32>> = pb
            .iter()
            .map(|v| {
                let mut v = v.clone();
                normalise(&mut v);
                v
            })
            .collect();
        let (cent, assign) = kmeans(&unit, clusters);
        let mut members = vec![Vec::new(); clusters];
        for (j, &a) in assign.iter().enumerate() {
            members[a].push(j);
        }
        Ivf {
            clusters,
            centroids: cent.iter().map(|v| bits(v)).collect(),
            members,
        }
    }

    /// For each of [`NPROBES`]: the static scores of the passages in the `nprobe` clusters
    /// nearest `qv` (the others 0), and the bytes of codes they read.
    fn probes(&self, qv: &[f32], pb: &[Vec<f32>]) -> Vec<(Vec<f64>, f64)> {
        let c = self.clusters;
        let mut order: Vec<usize> = (0..c).collect();
        order.sort_by(|&a, &b| {
            dot(qv, &self.centroids[b])
                .total_cmp(&dot(qv, &self.centroids[a]))
                .then(a.cmp(&b))
        });
        NPROBES
            .iter()
            .map(|&nprobe| {
                let mut s = vec![0f64; pb.len()];
                let mut n = 0;
                for &k in &order[..nprobe.min(c)] {
                    for &j in &self.members[k] {
                        // Shifted so that every probed passage scores above the unprobed 0.
                        s[j] = 2.0 + f64::from(dot(qv, &pb[j])) / DIM as f64;
                        n += 1;
                    }
                }
                (s, (c * DIM / 8 + n * DIM / 8) as f64)
            })
            .collect()
    }
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
    let pv: Vec<Vec<f32>> = idx
        .passages
        .iter()
        .map(|p| {
            st.embed(&format!("{}\n{}", p.title, p.text), &[])
                .unwrap_or_else(|| vec![0.0; DIM])
        })
        .collect();
    let pb: Vec<Vec<f32>> = pv.iter().map(|v| bits(v)).collect();
    let np = pv.len();
    let ivf: Vec<Ivf> = [128usize, 256].map(|c| Ivf::new(&pb, c)).into();
    let names: Vec<String> =
        ["the index's own", "f32 recomputed", "sign bits, exact scan"]
            .iter()
            .map(|s| s.to_string())
            .chain(ivf.iter().flat_map(|f| {
                NPROBES.map(|p| format!("sign bits, IVF C={} nprobe={p}", f.clusters))
            }))
            .collect();
    let mut rows: Vec<Row> = names.iter().map(|_| Row::default()).collect();
    for q in &qs {
        let lexical = hipporag_wasm::search::bm25_scores(&r, &q.question).expect("bm25");
        let Some(qv) = st.embed(&q.question, &[]) else {
            continue;
        };
        let mut variants: Vec<(Vec<f64>, f64)> = vec![
            (
                hipporag_wasm::search::static_scores(&r, &q.question).unwrap_or_default(),
                (np * DIM) as f64,
            ),
            (
                pv.iter().map(|p| f64::from(dot(&qv, p))).collect(),
                (np * DIM * 4) as f64,
            ),
            (
                pb.iter().map(|p| f64::from(dot(&qv, p))).collect(),
                (np * DIM / 8) as f64,
            ),
        ];
        for f in &ivf {
            variants.extend(f.probes(&qv, &pb));
        }
        for (row, (stat, bytes)) in rows.iter_mut().zip(&variants) {
            row.add(&lexical, stat, *bytes, &idx.pages, &q.gold);
        }
    }
    print_rows(&names, &rows, qs.len(), &args[3], np);
}

/// The table: each way of scoring's hit@1, R@10, hit@10 and bytes per query.
fn print_rows(names: &[String], rows: &[Row], questions: usize, split: &str, np: usize) {
    let n = questions as f64;
    println!("{questions} questions ({split}), {np} passages; static score from:");
    println!(
        "{:<36} {:>6} {:>6} {:>6} {:>14}",
        "passage codes", "hit@1", "R@10", "hit@10", "bytes/query"
    );
    for (name, row) in names.iter().zip(rows) {
        println!(
            "{name:<36} {:>6.3} {:>6.3} {:>6.3} {:>14.0}",
            row.hit1 / n,
            row.r10 / n,
            row.hit10 / n,
            row.bytes / n
        );
    }
}
