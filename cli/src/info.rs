//! `hipporag info`: an index's header and each section's size, raw and gzipped.

use std::path::Path;

use hipporag_indexer::{Error, Result};
use hipporag_wasm::index::IndexData;

use crate::common::load;

pub(crate) fn run(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let r = load(path)?;
    let h = &r.index().header;
    println!("{}: {} bytes", path.display(), bytes.len());
    println!("{}", serde_json::to_string_pretty(h).expect("serialisable"));
    // Sizes as a static host serves them (gzip -9 each section alone, and the whole file).
    let gz = |b: &[u8]| {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(b).expect("writing to a Vec");
        e.finish().expect("writing to a Vec").len()
    };
    let data =
        IndexData::from_bytes(&bytes).map_err(|e| e.in_source(path.display().to_string()))?;
    println!("| section | bytes | gzipped |\n|---|---:|---:|");
    for (name, b) in data.sections() {
        println!("| {name} | {} | {} |", b.len(), gz(&b));
    }
    println!("| whole file | {} | {} |", bytes.len(), gz(&bytes));
    Ok(())
}
