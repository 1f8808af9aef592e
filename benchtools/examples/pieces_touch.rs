//! What a site query fetches from the index in pieces, for several ways of cutting it: the
//! design input of `hipporag_indexer::split::SplitOptions`.
//!
//! For each setting (term, cluster and fragment piece target sizes, fragment text characters,
//! and optionally phrase piece target size; `PIECES_TOUCH="16000,0,40000,400 10000,0,8000,0,4000 …"`
//! overrides the built-in list; cluster 0 gives each IVF cluster a piece of its own), the pieces of INDEX are cut in memory and
//! the docs questions (`[{q, gold_pages, split}]`) asked in order, as one visitor's page would:
//! each query fetches the term pieces of its keys and the cluster pieces it probes that earlier
//! queries did not, ranks, and fetches the fragment pieces of its top 10 pages. Printed per
//! setting: files, total gzipped bytes, the first query's bytes (meta piece included; the JS
//! and wasm are not), the median, 90th percentile and maximum of every question's bytes as a page's
//! first search, and the median and mean of the later queries' bytes.
//!
//! `cargo run --release -p hipporag-benchtools --example pieces_touch -- INDEX QUESTIONS SPLIT`

use std::collections::{BTreeMap, HashSet};
use std::io::Read;

use hipporag_indexer::split::{SplitOptions, split_index};
use hipporag_wasm::index::IndexData;
use hipporag_wasm::pieces::{PieceId, PieceKind, Pieces};
use hipporag_wasm::search::{Mode, RetrieveOptions};

fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b)
        .read_to_end(&mut out)
        .expect("gzip");
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).expect("index");
    let data = IndexData::from_vec(bytes.clone()).expect("index");
    let r = hipporag_wasm::Retriever::from_vec(bytes).expect("index");
    let qs = hipporag_indexer::eval::load_page_questions(
        std::path::Path::new(&args[2]),
        r.index(),
        Some(&args[3]),
    )
    .expect("questions");
    println!(
        "{:>6} {:>8} {:>6} {:>5} {:>6} {:>9} {:>11} {:>18} {:>12} {:>10} {:>10}",
        "terms",
        "clusters",
        "frags",
        "chars",
        "files",
        "total KB",
        "first KB",
        "cold med/p90/max",
        "later med KB",
        "later mean",
        "term KB/q"
    );
    // (term, cluster and fragment piece bytes (the fragments' gzipped since session 5 of
    // 2026-11-27; the defaults below were raw bytes then), fragment text characters (0: whole
    // text), phrase piece bytes)
    let phrase = hipporag_indexer::split::PHRASE_PIECE_BYTES;
    let settings: Vec<(usize, usize, usize, usize, usize)> = match std::env::var("PIECES_TOUCH") {
        // e.g. PIECES_TOUCH="16000,0,40000,0 16000,1500,24000,400"
        Ok(s) => s
            .split_whitespace()
            .map(|t| {
                let v: Vec<usize> = t.split(',').map(|x| x.parse().expect("a number")).collect();
                (v[0], v[1], v[2], v[3], v.get(4).copied().unwrap_or(phrase))
            })
            .collect(),
        Err(_) => vec![
            (16_000, 0, 40_000, 0, phrase),
            (16_000, 0, 40_000, 240, phrase),
            (14_000, 0, 24_000, 240, phrase),
            (14_000, 0, 24_000, 190, phrase),
            (14_000, 0, 21_000, 190, phrase),
            (14_000, 3_000, 21_000, 190, phrase),
            (11_000, 3_000, 19_000, 190, phrase),
            (10_000, 2_000, 19_000, 190, phrase),
            (10_000, 2_500, 19_000, 190, phrase),
            (10_000, 3_000, 19_000, 190, phrase),
            (10_000, 3_500, 19_000, 190, phrase),
            (9_500, 3_000, 19_000, 190, phrase),
            (9_000, 3_000, 19_000, 190, phrase),
        ],
    };
    for (term, cluster, frag, chars, phrase_bytes) in settings {
        let files = split_index(
            &data,
            &SplitOptions {
                term_piece_bytes: term,
                cluster_piece_bytes: cluster,
                phrase_piece_bytes: phrase_bytes,
                fragment_piece_gzip_bytes: frag,
                fragment_text_chars: chars,
            },
        )
        .expect("split");
        let by_name: BTreeMap<&str, &[u8]> = files
            .pieces
            .iter()
            .map(|p| (p.name.as_str(), p.bytes.as_slice()))
            .collect();
        let mut split = Pieces::from_meta(&gunzip(&files.meta.bytes)).expect("meta");
        let mut seen: HashSet<String> = HashSet::new();
        let mut per_query = Vec::new();
        // The first query's bytes by kind: term, cluster, fragment, phrase pieces.
        let mut first_kinds = [0usize; 4];
        let mut term_bytes = 0usize;
        for q in &qs {
            let kinds = ask(&mut split, &q.question, &by_name, &mut seen);
            if per_query.is_empty() {
                first_kinds = kinds;
            }
            term_bytes += kinds[0];
            per_query.push(kinds.iter().sum::<usize>());
        }
        // Each question as a page's first search: the meta piece and every piece it needs.
        let mut cold: Vec<usize> = qs
            .iter()
            .map(|q| {
                let mut split = Pieces::from_meta(&gunzip(&files.meta.bytes)).expect("meta");
                let kinds = ask(&mut split, &q.question, &by_name, &mut HashSet::new());
                files.meta.bytes.len() + kinds.iter().sum::<usize>()
            })
            .collect();
        cold.sort_unstable();
        let first = per_query[0] + files.meta.bytes.len();
        let mut later = per_query[1..].to_vec();
        later.sort_unstable();
        let total: usize =
            files.meta.bytes.len() + files.pieces.iter().map(|p| p.bytes.len()).sum::<usize>();
        println!(
            "{:>6} {:>8} {:>6} {:>5} {:>6} {:>9.0} {:>11.1} {:>18} {:>12.1} {:>10.1} {:>10.1}",
            term,
            cluster,
            frag,
            chars,
            1 + files.pieces.len(),
            total as f64 / 1e3,
            first as f64 / 1e3,
            format!(
                "{:.0}/{:.0}/{:.0}",
                cold[cold.len() / 2] as f64 / 1e3,
                cold[cold.len() * 9 / 10] as f64 / 1e3,
                cold[cold.len() - 1] as f64 / 1e3
            ),
            later[later.len() / 2] as f64 / 1e3,
            later.iter().sum::<usize>() as f64 / later.len() as f64 / 1e3,
            term_bytes as f64 / qs.len() as f64 / 1e3
        );
        println!(
            "       phrase pieces {} B; first query: meta {:.1} KB, terms {:.1} KB, clusters {:.1} KB, fragments {:.1} KB, phrases {:.1} KB",
            phrase_bytes,
            files.meta.bytes.len() as f64 / 1e3,
            first_kinds[0] as f64 / 1e3,
            first_kinds[1] as f64 / 1e3,
            first_kinds[2] as f64 / 1e3,
            first_kinds[3] as f64 / 1e3
        );
    }
}

/// Asks `question` of `split` as a page would: loads the term and cluster pieces it lacks,
/// ranks, and takes the fragment pieces of its top 10 pages. Returns the stored bytes of the
/// pieces not in `seen` (which it extends), by kind: term, cluster, fragment, phrase.
fn ask(
    split: &mut Pieces,
    question: &str,
    by_name: &BTreeMap<&str, &[u8]>,
    seen: &mut HashSet<String>,
) -> [usize; 4] {
    let mut kinds = [0usize; 4];
    let mut fetch = |name: String, kind: usize| -> &[u8] {
        let stored = by_name[name.as_str()];
        if seen.insert(name) {
            kinds[kind] += stored.len();
        }
        stored
    };
    split
        .load(question, &mut |name: &str| {
            // The kind from the name's letter: `{build}-t12.bin`.
            let kind = match name.split('-').nth(1).and_then(|r| r.chars().next()) {
                Some('t') => 0,
                Some('c') => 1,
                _ => 3,
            };
            Ok::<_, hipporag_wasm::Error>(gunzip(fetch(name.to_string(), kind)))
        })
        .expect("pieces");
    let ranked = split
        .search(
            question,
            &RetrieveOptions {
                mode: Mode::Hybrid,
                top_k: 80,
                ..RetrieveOptions::default()
            },
        )
        .expect("search");
    let mut pages = Vec::new();
    for (j, s) in ranked {
        let page = split.meta().pages[j];
        if s > 0.0 && !pages.contains(&page) && pages.len() < 10 {
            pages.push(page);
            let number = split.fragment_of(j).expect("fragment");
            let piece = PieceId {
                kind: PieceKind::Fragment,
                number,
            };
            fetch(split.name(piece).expect("piece"), 2);
        }
    }
    kinds
}
