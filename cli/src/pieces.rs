//! `hipporag pieces INDEX --out DIR`: an index file as the index in pieces a page fetches
//! (`hipporag_indexer::pieces`), the way `hipporag site` writes a lean site's: `DIR/index/*.bin`
//! and `DIR/hipporag-entry.json` ([`SiteEntry`]: the meta piece and the search defaults). Written to a
//! temporary sibling and renamed over DIR, so a failed run leaves DIR as it was.

use std::path::PathBuf;

use clap::Args;
use hipporag_indexer::pieces::{self, PieceOptions};
use hipporag_indexer::site::{ENTRY_FILE, SearchDefaults, SiteEntry};
use hipporag_indexer::{Error, Result};
use hipporag_wasm::index::IndexData;

#[derive(Args)]
pub(crate) struct PiecesArgs {
    /// The index file (with BM25, as every index of this version has).
    pub(crate) index: PathBuf,
    /// The output directory (replaced).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Term pieces end at the first key past this many uncompressed bytes [default: 3000 for
    /// a language read in units and pairs (zh, ja, th, lo, km, my), 6000 otherwise].
    #[arg(long)]
    pub(crate) term_piece_bytes: Option<usize>,
    /// Cluster pieces hold as many IVF clusters, smallest first, as fit in this many
    /// uncompressed bytes (a cluster as large or larger is a piece of its own).
    #[arg(long, default_value_t = PieceOptions::default().cluster_piece_bytes)]
    pub(crate) cluster_piece_bytes: usize,
    /// Phrase pieces end at the first key past this many uncompressed bytes.
    #[arg(long, default_value_t = PieceOptions::default().phrase_piece_bytes)]
    pub(crate) phrase_piece_bytes: usize,
    /// Fragment pieces end at the first passage past this many gzipped bytes.
    #[arg(long, default_value_t = PieceOptions::default().fragment_piece_gzip_bytes)]
    pub(crate) fragment_piece_gzip_bytes: usize,
    /// Characters of each passage's text its fragment holds (a result's `content`), 0 for all.
    #[arg(long, default_value_t = PieceOptions::default().fragment_text_chars)]
    pub(crate) fragment_text_chars: usize,
}

pub(crate) fn run(a: PiecesArgs) -> Result<()> {
    let bytes = std::fs::read(&a.index).map_err(|e| Error::io(&a.index, e))?;
    let data =
        IndexData::from_vec(bytes).map_err(|e| e.in_source(a.index.display().to_string()))?;
    // Checked as the retriever checks it, so no piece is cut from a damaged index.
    hipporag_wasm::Index::from_data(data.clone())
        .map_err(|e| e.in_source(a.index.display().to_string()))?;
    let opts = PieceOptions {
        term_piece_bytes: a.term_piece_bytes,
        cluster_piece_bytes: a.cluster_piece_bytes,
        phrase_piece_bytes: a.phrase_piece_bytes,
        fragment_piece_gzip_bytes: a.fragment_piece_gzip_bytes,
        fragment_text_chars: a.fragment_text_chars,
    };
    let files = pieces::write(&data, &opts)?;
    let tmp = hipporag_indexer::files::temp_dir_beside(&a.out)?;
    let dir = tmp.path().join("index");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    for p in std::iter::once(&files.meta).chain(&files.pieces) {
        let path = dir.join(&p.name);
        std::fs::write(&path, &p.bytes).map_err(|e| Error::io(&path, e))?;
    }
    let entry = SiteEntry {
        pieces: Some(format!("index/{}", files.meta.name)),
        index: None,
        filters: Default::default(),
        sorts: Default::default(),
        search: SearchDefaults::default(),
        languages: Vec::new(),
        encoder: data.header.encoder.clone(),
        counts: data.header.counts.clone(),
        generator: data.header.build.generator.clone(),
    };
    let path = tmp.path().join(ENTRY_FILE);
    std::fs::write(&path, entry.to_json()).map_err(|e| Error::io(&path, e))?;
    hipporag_indexer::files::replace_dir(tmp, &a.out)?;
    let bytes: usize =
        files.meta.bytes.len() + files.pieces.iter().map(|p| p.bytes.len()).sum::<usize>();
    log::info!(
        "{}: meta piece {}, {} term, {} cluster, {} phrase, {} fragment pieces, {bytes} bytes",
        a.out.display(),
        files.meta.name,
        files.counts.term,
        files.counts.cluster,
        files.counts.phrase,
        files.counts.fragment
    );
    Ok(())
}
