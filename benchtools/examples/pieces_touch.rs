//! What a site query fetches from the index in pieces, for several ways of cutting it: the
//! design input of `hipporag_indexer::pieces::PieceOptions`.
//!
//! For each setting (term, cluster and fragment piece target sizes, fragment text characters,
//! and optionally phrase piece target size; `PIECES_TOUCH="16000,0,40000,400 10000,0,8000,0,4000 …"`
//! overrides the built-in list, [`SWEEP`]; cluster 0 gives each IVF cluster a piece of its own), the pieces of INDEX are cut in memory and
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

use hipporag_indexer::eval::EvalQuestion;
use hipporag_indexer::pieces::{self, PHRASE_PIECE_BYTES, PieceFiles, PieceOptions};
use hipporag_wasm::index::IndexData;
use hipporag_wasm::pieces::{PieceId, PieceKind, Pieces};
use hipporag_wasm::search::{Mode, RetrieveOptions};

/// The built-in settings, as `PIECES_TOUCH` gives them: the sweep of docs/index-format.md
/// ("How to cut the pieces").
const SWEEP: &str = "16000,0,40000,0 16000,0,40000,240 14000,0,24000,240 14000,0,24000,190 \
    14000,0,21000,190 14000,3000,21000,190 11000,3000,19000,190 10000,2000,19000,190 \
    10000,2500,19000,190 10000,3000,19000,190 10000,3500,19000,190 9500,3000,19000,190 \
    9000,3000,19000,190";

/// Stored bytes fetched, by kind ([`PieceKind`] as the index).
type Bytes = [usize; 4];

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
    let sweep = std::env::var("PIECES_TOUCH").unwrap_or_else(|_| SWEEP.to_string());
    for opts in sweep.split_whitespace().map(setting) {
        let files = pieces::write(&data, &opts).expect("pieces");
        report(&opts, &files, &qs);
    }
}

/// A setting `term,cluster,fragment,chars[,phrase]` (bytes; fragment text characters).
fn setting(s: &str) -> PieceOptions {
    let v: Vec<usize> = s.split(',').map(|x| x.parse().expect("a number")).collect();
    PieceOptions {
        term_piece_bytes: Some(v[0]),
        cluster_piece_bytes: v[1],
        fragment_piece_gzip_bytes: v[2],
        fragment_text_chars: v[3],
        phrase_piece_bytes: v.get(4).copied().unwrap_or(PHRASE_PIECE_BYTES),
    }
}

/// Asks `qs` of `files` in order on one page, then each as a page's first search, and prints
/// the setting's row.
fn report(opts: &PieceOptions, files: &PieceFiles, qs: &[EvalQuestion]) {
    let by_name: BTreeMap<&str, &[u8]> = files
        .pieces
        .iter()
        .map(|p| (p.name.as_str(), p.bytes.as_slice()))
        .collect();
    let meta = files.meta.bytes.len();
    let open = || Pieces::from_meta(&gunzip(&files.meta.bytes)).expect("meta");
    let mut index = open();
    let mut seen: HashSet<String> = HashSet::new();
    let fetched: Vec<Bytes> = qs
        .iter()
        .map(|q| ask(&mut index, &q.question, &by_name, &mut seen))
        .collect();
    let per_query: Vec<usize> = fetched.iter().map(|k| k.iter().sum()).collect();
    let term_bytes: usize = fetched.iter().map(|k| k[PieceKind::Term as usize]).sum();
    // Each question as a page's first search: the meta piece and every piece it needs.
    let mut cold: Vec<usize> = qs
        .iter()
        .map(|q| {
            meta + ask(&mut open(), &q.question, &by_name, &mut HashSet::new())
                .iter()
                .sum::<usize>()
        })
        .collect();
    cold.sort_unstable();
    let mut later = per_query[1..].to_vec();
    later.sort_unstable();
    let total: usize = meta + files.pieces.iter().map(|p| p.bytes.len()).sum::<usize>();
    let kb = |b: usize| b as f64 / 1e3;
    println!(
        "{:>6} {:>8} {:>6} {:>5} {:>6} {:>9.0} {:>11.1} {:>18} {:>12.1} {:>10.1} {:>10.1}",
        opts.term_piece_bytes.unwrap_or_default(),
        opts.cluster_piece_bytes,
        opts.fragment_piece_gzip_bytes,
        opts.fragment_text_chars,
        1 + files.pieces.len(),
        kb(total),
        kb(per_query[0] + meta),
        format!(
            "{:.0}/{:.0}/{:.0}",
            kb(cold[cold.len() / 2]),
            kb(cold[cold.len() * 9 / 10]),
            kb(cold[cold.len() - 1])
        ),
        kb(later[later.len() / 2]),
        kb(later.iter().sum::<usize>()) / later.len() as f64,
        kb(term_bytes) / qs.len() as f64
    );
    let first = fetched[0].map(kb);
    println!(
        "       phrase pieces {} B; first query: meta {:.1} KB, terms {:.1} KB, clusters {:.1} KB, fragments {:.1} KB, phrases {:.1} KB",
        opts.phrase_piece_bytes,
        kb(meta),
        first[PieceKind::Term as usize],
        first[PieceKind::Cluster as usize],
        first[PieceKind::Fragment as usize],
        first[PieceKind::Phrase as usize]
    );
}

/// Asks `question` of `index` as a page would: loads the pieces it lacks, ranks, and takes the
/// fragment pieces of its top 10 pages. Returns the stored bytes of the pieces not in `seen`
/// (which it extends), by kind.
fn ask(
    index: &mut Pieces,
    question: &str,
    by_name: &BTreeMap<&str, &[u8]>,
    seen: &mut HashSet<String>,
) -> Bytes {
    let mut names: Vec<String> = Vec::new();
    index
        .load(question, &mut |name: &str| {
            names.push(name.to_string());
            Ok::<_, hipporag_wasm::Error>(gunzip(by_name[name]))
        })
        .expect("pieces");
    let opts = RetrieveOptions {
        mode: Mode::Hybrid,
        top_k: 80,
        ..RetrieveOptions::default()
    };
    let mut pages = Vec::new();
    for (j, s) in index.search(question, &opts).expect("search") {
        let page = index.meta().pages[j];
        if s > 0.0 && !pages.contains(&page) && pages.len() < 10 {
            pages.push(page);
            let number = index.fragment_of(j).expect("fragment");
            let piece = PieceId {
                kind: PieceKind::Fragment,
                number,
            };
            names.push(index.name(piece).expect("piece"));
        }
    }
    let mut bytes = [0; 4];
    for name in names {
        let kind = PieceKind::of_name(&name).expect("a piece name");
        if seen.insert(name.clone()) {
            bytes[kind as usize] += by_name[name.as_str()].len();
        }
    }
    bytes
}
