//! A copy of a site's index in pieces whose meta piece probes `NPROBE` IVF clusters instead of
//! the indexer's choice, every other piece the same (symlinked): how `nprobe` was chosen for
//! large sites (docs/index-format.md, "Probes that do not grow with the site"). Run
//! `first_search_bytes` on the copy for its bytes and ranking.
//!
//! `cargo run --release -p hipporag-benchtools --example meta_nprobe -- SITE/_hipporag NPROBE OUT`
//! then `… --example first_search_bytes -- OUT/_hipporag QUESTIONS`.

use std::io::{Read, Write};

use hipporag_wasm::pieces::{MetaPiece, decode_piece, encode_piece, meta_name, piece_hash, tag};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (Some(site), Some(nprobe), Some(out)) = (a.first(), a.get(1), a.get(2)) else {
        eprintln!("usage: meta_nprobe SITE/_hipporag NPROBE OUT");
        std::process::exit(2);
    };
    let (site, out) = (std::path::Path::new(site), std::path::Path::new(out));
    let nprobe: u32 = nprobe.parse().expect("NPROBE: a positive integer");
    let entry_text =
        std::fs::read_to_string(site.join("hipporag-entry.json")).expect("hipporag-entry.json");
    let entry: serde_json::Value = serde_json::from_str(&entry_text).expect("the entry's JSON");
    let old = entry["pieces"]
        .as_str()
        .expect("a site with its index in pieces")
        .trim_start_matches("index/")
        .to_string();
    let gz = std::fs::read(site.join("index").join(&old)).expect("the meta piece");
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut raw)
        .expect("a gzip member");
    let mut meta: MetaPiece = decode_piece(tag::META, "meta piece", &raw).expect("a meta piece");
    meta.statics.as_mut().expect("static embeddings").nprobe = nprobe;
    // Gzipped whole (the indexer compresses field by field: a few KB smaller).
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(&encode_piece(tag::META, &meta)).expect("gzip");
    let stored = e.finish().expect("gzip");
    let name = meta_name(&piece_hash(&stored));
    let index = out.join("_hipporag").join("index");
    std::fs::create_dir_all(&index).expect("OUT");
    for f in std::fs::read_dir(site.join("index")).expect("SITE/_hipporag/index") {
        let f = f.expect("a piece");
        let to = index.join(f.file_name());
        if !to.exists() {
            let from = f.path().canonicalize().expect("a piece's path");
            std::os::unix::fs::symlink(from, to).expect("a symlink");
        }
    }
    std::fs::write(index.join(&name), stored).expect("the new meta piece");
    std::fs::write(
        out.join("_hipporag").join("hipporag-entry.json"),
        entry_text.replace(&old, &name),
    )
    .expect("the entry");
    println!("{name}");
}
