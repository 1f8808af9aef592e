//! Writes the index in pieces ([`hipporag_wasm::pieces`], whose module docs give the layout) from
//! an [`IndexData`] with BM25 ([`write()`]): one function per kind of piece, each cutting its items
//! in order with one cutting function (`cut.rs`):
//!
//! * the meta piece ([`write()`]);
//! * term pieces cut at key boundaries every [`PieceOptions::term_piece_bytes`] (by default
//!   [`term_piece_bytes`] of the index's language; at most [`MAX_TERM_PIECES`] pieces,
//!   `term.rs`);
//! * cluster pieces of the static embeddings' IVF clusters (one cluster each, the small ones
//!   together up to [`PieceOptions::cluster_piece_bytes`], `cluster.rs`);
//! * phrase pieces of the phrase nodes in key order with their node specificity and PPR vector
//!   (cut every [`PieceOptions::phrase_piece_bytes`], at most [`MAX_PHRASE_PIECES`] pieces,
//!   `phrase.rs`);
//! * fragment pieces of passages in passage order (each passage's text cut to
//!   [`PieceOptions::fragment_text_chars`]), cut every
//!   [`PieceOptions::fragment_piece_gzip_bytes`] of gzipped JSON (at most
//!   [`MAX_FRAGMENT_PIECES`] pieces, `fragment.rs`); with page records ([`write_with_pages`],
//!   `hipporag site`) each also lists its passages' pages ([`PageRecord`]).
//!
//! The meta piece is named by its hash; the others by the build id, a hash of them all
//! ([`hipporag_wasm::pieces::build_id`]), and their kind and number. [`PieceDir`] reads them
//! back as a page does.
//!
//! Deterministic: the same data and options give the same pieces, names and bytes (gzip at
//! level 9 with no file name and mtime 0; the meta, term and phrase pieces with a sync flush
//! between fields, [`PieceSections`]).

mod cluster;
mod cut;
mod dir;
mod fragment;
mod phrase;
mod term;

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use hipporag_wasm::index::{IndexData, passage_pages};
use hipporag_wasm::lexical::Bm25Data;
use hipporag_wasm::pieces::{
    HASH_LEN, MetaPiece, PieceHash, PieceKind, PieceSections, StaticMeta, build_id, encode_piece,
    meta_name, piece_hash, piece_name, tag,
};
use hipporag_wasm::search::RetrieveOptions;
use hipporag_wasm::text::Language;
use serde::Serialize;

use crate::{Error, Result};

pub use dir::PieceDir;
pub use fragment::{PageRecord, fragment_text};
pub use phrase::ppr_vectors;

/// Where to cut pieces (uncompressed bytes but for the fragments; a piece ends at the first
/// boundary past it).
#[derive(Debug, Clone, Copy)]
pub struct PieceOptions {
    /// Term pieces: posting lists and sign rows (raised on a site whose keys would take more
    /// than [`MAX_TERM_PIECES`]); `None` for [`term_piece_bytes`] of the index's language.
    pub term_piece_bytes: Option<usize>,
    /// Cluster pieces: the IVF clusters taken in ascending size (passage codes and gaps), as
    /// many to a piece as fit in this, so that a cluster this large or larger is a piece of
    /// its own and smaller ones share (0: a piece per cluster).
    pub cluster_piece_bytes: usize,
    /// Phrase pieces: phrase keys with their passage counts and PPR vectors (raised on a site
    /// whose phrases would take more than [`MAX_PHRASE_PIECES`]).
    pub phrase_piece_bytes: usize,
    /// Fragment pieces: runs of passages, cut by their JSON's **gzipped** bytes (each
    /// passage's share of one deflate stream over its run of the site), so that every fragment
    /// piece costs a result about the same bytes on the wire however well its passages
    /// compress (raised on a site whose passages would take more than [`MAX_FRAGMENT_PIECES`]).
    pub fragment_piece_gzip_bytes: usize,
    /// Characters of each passage's text a fragment holds (what a result's `data()` gives as
    /// `content`, and its excerpt is cut from), 0 for the whole text ([`fragment_text`]).
    pub fragment_text_chars: usize,
}

impl Default for PieceOptions {
    /// Terms by the index's language ([`term_piece_bytes`]), 4 KB of phrases, a piece per IVF cluster (the clusters are bounded in
    /// size, [`crate::ivf::CLUSTER_CAPACITY_PERCENT`], so none is small enough
    /// to share with profit), 1.7 KB of gzipped fragments holding whole passage texts
    /// ([`DEFAULT_FRAGMENT_TEXT_CHARS`]). docs/index-format.md ("How to cut the pieces") has
    /// the sweeps these came from.
    fn default() -> Self {
        Self {
            term_piece_bytes: None,
            cluster_piece_bytes: 0,
            phrase_piece_bytes: PHRASE_PIECE_BYTES,
            fragment_piece_gzip_bytes: FRAGMENT_PIECE_GZIP_BYTES,
            fragment_text_chars: DEFAULT_FRAGMENT_TEXT_CHARS,
        }
    }
}

/// [`PieceOptions::term_piece_bytes`] by default for a language read in words
/// (docs/index-format.md, "Pieces named by the build id").
pub const TERM_PIECE_BYTES: usize = 6_000;

/// [`PieceOptions::term_piece_bytes`] by default for a language read in units and pairs
/// ([`Language::reads_pairs`]): a question there touches about twice as many terms, each in
/// its own piece more often than not, so pieces half as large keep its first search's term
/// bytes near a spaced language's (docs/index-format.md, "Term pieces of a language read in
/// pairs").
pub const PAIRS_TERM_PIECE_BYTES: usize = 3_000;

/// The uncompressed bytes after which a term piece of an index in `language` ends by default:
/// [`PAIRS_TERM_PIECE_BYTES`] when [`terms`](hipporag_wasm::text::terms) reads it in units and
/// pairs, [`TERM_PIECE_BYTES`] otherwise.
pub fn term_piece_bytes(language: Language) -> usize {
    if language.reads_pairs() {
        PAIRS_TERM_PIECE_BYTES
    } else {
        TERM_PIECE_BYTES
    }
}

/// [`PieceOptions::phrase_piece_bytes`] by default (docs/index-format.md, "Pieces named by the
/// build id").
pub const PHRASE_PIECE_BYTES: usize = 4_000;

/// The most term pieces a site gets: past it, pieces grow instead (as
/// [`MAX_FRAGMENT_PIECES`]), so that with [`MAX_PHRASE_PIECES`], [`MAX_FRAGMENT_PIECES`] and
/// the IVF clusters (`static_embeddings::max_clusters`) a site of 200,000 passages stays under
/// 5,000 files.
pub const MAX_TERM_PIECES: usize = 1_000;

/// The most phrase pieces a site gets: past it, pieces grow instead ([`MAX_TERM_PIECES`]).
pub const MAX_PHRASE_PIECES: usize = 1_000;

/// [`PieceOptions::fragment_text_chars`] by default: 0, the whole text, so that a result's
/// excerpt (`src/search/excerpt.rs`, as Pagefind's) can come from anywhere in its passage
/// (docs/index-format.md, "Whole texts in 8 KB fragments").
pub const DEFAULT_FRAGMENT_TEXT_CHARS: usize = 0;

/// [`PieceOptions::fragment_piece_gzip_bytes`] by default: as many fragment pieces as 6,000
/// bytes of raw JSON made, the size docs/index-format.md ("How to cut the pieces") chose
/// (docs/benchmarks.md, "Fragment pieces cut by their gzipped bytes").
pub const FRAGMENT_PIECE_GZIP_BYTES: usize = 1_700;

/// The most fragment pieces a site gets: past `MAX_FRAGMENT_PIECES ×`
/// [`PieceOptions::fragment_piece_gzip_bytes`] of gzipped passage JSON, pieces grow to keep
/// the count, so a large site's file count stays within static hosts' limits (some cap a site
/// at 20,000 files) at more bytes per result shown.
pub const MAX_FRAGMENT_PIECES: usize = 2_000;

/// One stored piece: its file name ([`meta_name`] or [`piece_name`]) and gzipped bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// `{hash}.bin` for the meta piece, `{build}-{letter}{i}.bin` for the others.
    pub name: String,
    /// The gzip member as stored and served.
    pub bytes: Vec<u8>,
}

/// The pieces of one index: the meta piece first.
#[derive(Debug, Clone)]
pub struct PieceFiles {
    /// The meta piece (its name goes into `hipporag-entry.json`).
    pub meta: Piece,
    /// Term, cluster, phrase and fragment pieces, in that order.
    pub pieces: Vec<Piece>,
    /// How many of each kind.
    pub counts: PieceCounts,
}

/// The pieces of each kind in an index in pieces, the meta piece aside.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PieceCounts {
    /// Term pieces.
    pub term: usize,
    /// Cluster pieces.
    pub cluster: usize,
    /// Phrase pieces.
    pub phrase: usize,
    /// Fragment pieces.
    pub fragment: usize,
}

impl PieceCounts {
    /// Each kind's count, in the order the pieces are written ([`PieceKind`]'s).
    pub fn by_kind(&self) -> [(PieceKind, usize); 4] {
        [
            (PieceKind::Term, self.term),
            (PieceKind::Cluster, self.cluster),
            (PieceKind::Phrase, self.phrase),
            (PieceKind::Fragment, self.fragment),
        ]
    }

    /// The pieces of every kind.
    pub fn total(&self) -> usize {
        self.term + self.cluster + self.phrase + self.fragment
    }
}

/// The pieces of `data` (see the module docs).
///
/// # Errors
/// [`Error::InvalidRequest`] when `data` has no BM25 index (it is built with every index of
/// this version), or holds a term that begins with the deletes dictionary's key prefix (an
/// index built by an earlier version from text with control characters).
pub fn write(data: &IndexData, opts: &PieceOptions) -> Result<PieceFiles> {
    write_with_pages(data, opts, None)
}

/// [`write()`], with the fragment pieces listing the records of their passages' pages when
/// `pages` is given: one [`PageRecord`] per page id of `data`'s passages
/// ([`passage_pages`]), in page-id order. Without records the pieces are [`write()`]'s, byte
/// for byte.
///
/// # Errors
/// [`write()`]'s, and [`Error::InvalidRequest`] when `pages` are not the passages' pages (a
/// count or an `id` out of order, named).
pub fn write_with_pages(
    data: &IndexData,
    opts: &PieceOptions,
    pages: Option<&[PageRecord]>,
) -> Result<PieceFiles> {
    let page_ids = match pages {
        Some(records) => Some(fragment::check_pages(&data.passages, records)?),
        None => None,
    };
    let Some(bm25) = &data.bm25 else {
        return Err(Error::InvalidRequest(
            "the index has no BM25 index, which the index in pieces needs: rebuild it with this version of hipporag".into(),
        ));
    };
    let statics = data.static_embeddings.as_ref();
    term::check_keys(bm25, statics)?;
    let mut meta = meta(data, bm25);
    let (terms, clusters, phrases, fragments);
    (meta.terms, terms) = term::pieces(bm25, statics, opts);
    (meta.clusters, clusters) = statics.map_or_else(Default::default, |s| cluster::pieces(s, opts));
    (meta.phrase_pieces, phrases, meta.phrases) = phrase::pieces(data, meta.damping, opts)?;
    let pages = pages.zip(page_ids.as_deref());
    (meta.fragments, fragments) = fragment::pieces(data, opts, pages);
    let counts = PieceCounts {
        term: terms.len(),
        cluster: clusters.len(),
        phrase: phrases.len(),
        fragment: fragments.len(),
    };
    let mut pieces: Vec<Piece> = [terms, clusters, phrases, fragments]
        .into_iter()
        .flatten()
        .collect();
    // Named by the build id, now that their bytes are known.
    meta.build = build_id(pieces.iter().map(|p| p.bytes.as_slice()));
    name(&mut pieces, &meta.build, &counts);
    let mut meta = gzip_piece(tag::META, &meta);
    meta.name = meta_name(&piece_hash(&meta.bytes));
    Ok(PieceFiles {
        meta,
        pieces,
        counts,
    })
}

/// The meta piece of `data`, but for the other pieces it lists and the build id, which
/// [`write()`] fills in; its PPR damping the default ranking's.
fn meta(data: &IndexData, bm25: &Bm25Data) -> MetaPiece {
    let statics = data.static_embeddings.as_ref();
    MetaPiece {
        passages: data.passages.len() as u32,
        pages: passage_pages(&data.passages),
        bm25_params: bm25.params,
        language: bm25.language,
        statics: statics.map(|s| StaticMeta {
            model: s.model.clone(),
            dim: s.dim,
            centroids: s.centroids.clone(),
            nprobe: s.nprobe,
        }),
        stopwords: stopwords(bm25, statics.map_or(&[], |s| &s.words)),
        terms: Vec::new(),
        clusters: Vec::new(),
        fragments: Vec::new(),
        phrases: 0,
        phrase_pieces: Vec::new(),
        query_stopwords: data.header.build.query_stopwords.clone(),
        damping: RetrieveOptions::default().damping,
        build: [0; HASH_LEN],
    }
}

/// Names `pieces` (`counts` of each kind, in [`PieceCounts::by_kind`]'s order) by the build id.
fn name(pieces: &mut [Piece], build: &PieceHash, counts: &PieceCounts) {
    let mut named = pieces.iter_mut();
    for (kind, count) in counts.by_kind() {
        for (i, p) in named.by_ref().take(count).enumerate() {
            p.name = piece_name(build, kind, i);
        }
    }
}

/// The stopwords and their stems that are no key (the indexer leaves them out of both BM25's
/// terms and the static `words`), sorted and distinct.
fn stopwords(bm25: &Bm25Data, words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = crate::bm25::stopwords(bm25.language)
        .into_iter()
        .chain(crate::bm25::stopword_terms(bm25.language))
        .filter(|w| bm25.terms.binary_search(w).is_err() && words.binary_search(w).is_err())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `values` as the core's gaps codec ([`hipporag_wasm::pieces::gaps`]) writes them: each one's
/// difference from the one before, the first's from 0. For the piece fields whose serde keeps
/// numbers as they are: each IVF cluster's passages, each PPR vector's.
fn gaps(values: &[u32]) -> Vec<u32> {
    let written =
        serde_json::to_value(hipporag_wasm::pieces::gaps::Gaps(values)).expect("a list of numbers");
    serde_json::from_value(written).expect("a list of u32")
}

/// `piece` gzipped field by field ([`PieceSections`]), whose sections are `tag`'s piece bytes.
fn gzip_piece<T: PieceSections + Serialize>(tag: &[u8; 4], piece: &T) -> Piece {
    let sections = piece.sections();
    debug_assert_eq!(sections.concat(), encode_piece(tag, piece));
    gzip_sections(&sections)
}

/// `bytes` as one gzip member (cluster and fragment pieces; a site's filter and sort pieces),
/// at level 9 with no file name and mtime 0, unnamed.
pub(crate) fn gzip(bytes: &[u8]) -> Piece {
    gzip_sections(&[bytes])
}

/// One gzip member of `sections` in order, a sync flush after each but the last, so that each
/// starts a deflate block with its own Huffman codes. Unnamed: [`write()`] names every piece
/// once all are made.
fn gzip_sections<S: AsRef<[u8]>>(sections: &[S]) -> Piece {
    let mut e = GzEncoder::new(Vec::new(), Compression::best());
    for (k, s) in sections.iter().enumerate() {
        e.write_all(s.as_ref())
            .expect("writing to a Vec cannot fail");
        if k + 1 < sections.len() {
            e.flush().expect("writing to a Vec cannot fail");
        }
    }
    Piece {
        name: String::new(),
        bytes: e.finish().expect("writing to a Vec cannot fail"),
    }
}
