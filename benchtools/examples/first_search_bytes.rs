//! What a site's index in pieces makes a page fetch for its first search, by piece kind: for
//! each question, a fresh page loads the meta piece, then what `Pieces::missing` lists until
//! nothing is missing (`Pieces::load`, the page's loop: the term pieces of its keys, its phrase
//! pieces, then the IVF cluster pieces it probes), ranks (the site's default `hybrid`), and loads
//! the fragment pieces of its top 10 passages. Printed: the median and maximum gzipped KB of
//! each kind and of their total over the questions (the search module and the JS are not
//! counted: `bench/docs.mjs` measures those in the browser), and the native time of each
//! hybrid search once its pieces are loaded (median / max; a ratio between runs of one machine,
//! not a target).
//!
//! `cargo run --release -p hipporag-benchtools --example first_search_bytes -- SITE/_hipporag QUESTIONS [SPLIT [N]]`
//!
//! QUESTIONS is `[{q, split, gold_pages?}]` (e.g. `../shared/data/pydocs/conala_pydocs.json` or
//! `bench/rustdoc_questions.json`); the first N (default 60; `all`: every one) of SPLIT
//! (default `test`) are asked. When the
//! questions have `gold_pages` (paths from the site root), it also prints page hit@1, hit@10
//! and recall@10 over the first 10 distinct pages of the site's default ranking and of BM25,
//! both through the pieces (a passage's page is its URL in its fragment piece).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use hipporag_indexer::pieces::PieceDir;
use hipporag_wasm::pieces::{PieceKind, Pieces};
use hipporag_wasm::search::{Mode, RetrieveOptions};

const KINDS: [&str; 5] = ["meta", "term", "phrase", "cluster", "fragment"];

/// The engines whose page ranking is measured.
const ENGINES: [(&str, Mode); 2] = [("hybrid", Mode::Hybrid), ("bm25", Mode::Bm25)];

/// A site's index in pieces on disk.
struct Site {
    dir: PathBuf,
    pieces: PieceDir,
    /// The meta piece's name.
    meta: String,
    /// Each fragment piece's passages (by number): passage id → page path.
    pages: HashMap<usize, HashMap<u64, String>>,
}

/// One question's first search: gzipped bytes by [`KINDS`], and the native search time in µs.
struct FirstSearch {
    bytes: [usize; 5],
    search_us: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(site), Some(questions)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: first_search_bytes SITE/_hipporag QUESTIONS [SPLIT [N|all]]");
        std::process::exit(2);
    };
    let split = args.get(3).map_or("test", String::as_str);
    let limit = match args.get(4).map(String::as_str) {
        None => 60,
        Some("all") => usize::MAX,
        Some(n) => n.parse().unwrap_or_else(|_| {
            eprintln!("N: expected a count of questions or `all`, got {n:?}");
            std::process::exit(2);
        }),
    };
    let mut site = Site::open(Path::new(site));
    let qs: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(questions).expect("questions"))
            .expect("questions: [{q, split}]");
    let opts = RetrieveOptions {
        mode: Mode::Hybrid,
        top_k: 10,
        exact_seeds: true,
        ..Default::default()
    };
    let mut rows: Vec<FirstSearch> = Vec::new();
    // Per engine: hit@1, hit@10 and recall@10 summed over the questions with gold pages.
    let mut quality = [[0f64; 3]; ENGINES.len()];
    let mut asked = 0usize;
    for q in qs.iter().filter(|q| q["split"] == split).take(limit) {
        let question = q["q"].as_str().expect("a question");
        let (row, index) = site.first_search(question, &opts);
        rows.push(row);
        let Some(gold) = q["gold_pages"].as_array() else {
            continue;
        };
        let gold: HashSet<&str> = gold.iter().filter_map(|g| g.as_str()).collect();
        asked += 1;
        for (e, (_, mode)) in ENGINES.into_iter().enumerate() {
            let pages = site.top_pages(
                &index,
                question,
                &RetrieveOptions {
                    mode,
                    ..opts.clone()
                },
            );
            let found = pages.iter().filter(|p| gold.contains(p.as_str())).count();
            quality[e][0] += f64::from(pages.first().is_some_and(|p| gold.contains(p.as_str())));
            quality[e][1] += f64::from(found > 0);
            quality[e][2] += found as f64 / gold.len().max(1) as f64;
        }
    }
    if rows.is_empty() {
        eprintln!("no question of split {split} in {questions}");
        std::process::exit(2);
    }
    print_bytes(&rows);
    if asked > 0 {
        println!("page ranking through the pieces ({asked} questions with gold pages):");
        println!("  engine     hit@1  hit@10    R@10");
        for (e, (name, _)) in ENGINES.iter().enumerate() {
            let [h1, h10, r10] = quality[e].map(|x| x / asked as f64);
            println!("  {name:<9} {h1:>6.3} {h10:>7.3} {r10:>7.3}");
        }
    }
}

impl Site {
    /// The site at `site` (its `hipporag-entry.json` names the meta piece).
    fn open(site: &Path) -> Self {
        let entry: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(site.join("hipporag-entry.json"))
                .expect("hipporag-entry.json"),
        )
        .expect("the entry's JSON");
        let meta = entry["pieces"]
            .as_str()
            .expect("a site with its index in pieces")
            .trim_start_matches("index/")
            .to_string();
        let dir = site.join("index");
        Self {
            pieces: PieceDir::new(&dir),
            dir,
            meta,
            pages: HashMap::new(),
        }
    }

    /// A piece's stored size.
    fn size(&self, name: &str) -> usize {
        std::fs::metadata(self.dir.join(name))
            .expect("a piece")
            .len() as usize
    }

    /// `question` as a fresh page's first search (see the module docs), with the index it
    /// loaded.
    fn first_search(&self, question: &str, opts: &RetrieveOptions) -> (FirstSearch, Pieces) {
        let mut bytes = [0usize; 5];
        bytes[0] = self.size(&self.meta);
        let mut index = self.pieces.open(&self.meta).expect("the meta piece");
        let mut names = Vec::new();
        index
            .load(question, &mut |name: &str| {
                names.push(name.to_string());
                self.pieces.read(name)
            })
            .expect("pieces");
        for name in names {
            let kind = match PieceKind::of_name(&name).expect("a piece name") {
                PieceKind::Term => 1,
                PieceKind::Phrase => 2,
                _ => 3,
            };
            bytes[kind] += self.size(&name);
        }
        let started = Instant::now();
        let ranked = index.search(question, opts).expect("search");
        let search_us = started.elapsed().as_micros() as usize;
        let mut seen = HashSet::new();
        for &(j, _) in ranked.iter().take(10) {
            let name = index.fragment_name(j).expect("a passage");
            if seen.insert(name.clone()) {
                bytes[4] += self.size(&name);
            }
        }
        (FirstSearch { bytes, search_us }, index)
    }

    /// The first 10 distinct pages of `index`'s ranking of `question` (top 100 passages), each
    /// read from its passage's fragment piece.
    fn top_pages(&mut self, index: &Pieces, question: &str, opts: &RetrieveOptions) -> Vec<String> {
        let deep = RetrieveOptions {
            top_k: 100,
            ..opts.clone()
        };
        let mut pages: Vec<String> = Vec::new();
        for (j, _) in index.search(question, &deep).expect("search") {
            let f = index.fragment_of(j).expect("a passage");
            let pieces = &self.pieces;
            let by_id = self.pages.entry(f).or_insert_with(|| {
                let name = index.fragment_name(j).expect("a piece");
                fragment_pages(&pieces.read(&name).expect("read"))
            });
            let page = by_id[&(j as u64)].clone();
            if !pages.contains(&page) {
                pages.push(page);
            }
            if pages.len() == 10 {
                break;
            }
        }
        pages
    }
}

/// Each passage of a fragment piece (its JSON) with its page: its URL before `#`, from the
/// site root.
fn fragment_pages(piece: &[u8]) -> HashMap<u64, String> {
    let v: serde_json::Value = serde_json::from_slice(piece).expect("JSON");
    v["passages"]
        .as_array()
        .expect("passages")
        .iter()
        .map(|p| {
            let url = p["url"].as_str().unwrap_or("");
            let page = url.split('#').next().unwrap_or("");
            (
                p["id"].as_u64().expect("an id"),
                page.trim_start_matches('/').to_string(),
            )
        })
        .collect()
}

/// Prints the median and maximum of each kind's bytes, their total's and the search time.
fn print_bytes(rows: &[FirstSearch]) {
    let stat = |mut v: Vec<usize>| {
        v.sort_unstable();
        (v[v.len() / 2] as f64 / 1e3, v[v.len() - 1] as f64 / 1e3)
    };
    println!("{} questions; gzipped KB, median / max:", rows.len());
    for (k, name) in KINDS.iter().enumerate() {
        let (m, x) = stat(rows.iter().map(|r| r.bytes[k]).collect());
        println!("  {name:<9} {m:>7.1} / {x:>7.1}");
    }
    let (m, x) = stat(rows.iter().map(|r| r.bytes.iter().sum()).collect());
    println!("  {:<9} {m:>7.1} / {x:>7.1}", "total");
    // The tail, where a budget on the first search binds.
    let mut totals: Vec<usize> = rows.iter().map(|r| r.bytes.iter().sum()).collect();
    totals.sort_unstable();
    let at = |p: f64| totals[((totals.len() - 1) as f64 * p).round() as usize] as f64 / 1e3;
    println!(
        "  total at the 90th / 99th percentile: {:.1} / {:.1}",
        at(0.9),
        at(0.99)
    );
    let (m, x) = stat(rows.iter().map(|r| r.search_us).collect());
    println!("native search with the pieces loaded, median / max: {m:.1} / {x:.1} ms");
}
