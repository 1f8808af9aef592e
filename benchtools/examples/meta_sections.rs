//! The gzipped bytes of each section of a site's meta piece (the piece every first search
//! fetches), so what grows with the site shows: `pages` and the IVF centroids grow with the
//! passages, the piece boundaries with the piece counts (capped), the rest not at all. Each
//! section is gzipped alone, so the sum is near the file's size, not equal to it (the writer
//! compresses them in one stream, a deflate block each).
//!
//! `cargo run --release -p hipporag-benchtools --example meta_sections -- SITE/_hipporag`

use std::io::{Read, Write};
use std::path::Path;

use hipporag_wasm::pieces::{PieceSections, Pieces};

/// Section names, in [`MetaPiece`](hipporag_wasm::pieces::MetaPiece)'s field order.
const SECTIONS: [&str; 15] = [
    "header",
    "passages",
    "pages",
    "bm25_params",
    "language",
    "statics",
    "stopwords",
    "terms",
    "clusters",
    "fragments",
    "phrases",
    "phrase_pieces",
    "query_stopwords",
    "damping",
    "build",
];

fn gzipped_len(bytes: &[u8]) -> usize {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).expect("gzip to a Vec");
    e.finish().expect("gzip to a Vec").len()
}

fn main() {
    let Some(site) = std::env::args().nth(1) else {
        eprintln!("usage: meta_sections SITE/_hipporag");
        std::process::exit(2);
    };
    let site = Path::new(&site);
    let entry: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(site.join("hipporag-entry.json")).expect("hipporag-entry.json"),
    )
    .expect("the entry's JSON");
    let path = site.join(
        entry["pieces"]
            .as_str()
            .expect("a site with its index in pieces"),
    );
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).expect("the meta piece"))
        .read_to_end(&mut raw)
        .expect("a gzipped meta piece");
    let index = Pieces::from_meta(&raw).expect("a valid meta piece");
    let meta = index.meta();
    let sections = meta.sections();
    assert_eq!(
        sections.len(),
        SECTIONS.len(),
        "a section name for each field"
    );
    println!(
        "{}: {} passages, {} term, {} cluster, {} phrase and {} fragment pieces",
        path.display(),
        meta.passages,
        meta.terms.len(),
        meta.clusters.len(),
        meta.phrase_pieces.len(),
        meta.fragments.len()
    );
    println!("section          raw B  gzipped B");
    let mut total = 0;
    for (name, bytes) in SECTIONS.iter().zip(&sections) {
        let gz = gzipped_len(bytes);
        total += gz;
        println!("{name:<15} {:>7} {gz:>10}", bytes.len());
    }
    let file = std::fs::metadata(&path).expect("the meta piece").len();
    println!("sum of sections {total} B gzipped alone; the file {file} B");
}
