//! The index in pieces: what a static site serves so that a browser fetches only what a
//! question needs (Pagefind's shape: a small entry, then immutable chunks). [`Pieces`] is its
//! query side, and [`Pieces::missing`] its planner.
//!
//! It serves the default ranking — the `hybrid` mode ([`crate::search`]: BM25 fused by page with
//! the static word-embedding scores, mixed with the PPR vectors of the query's seeds) — and the
//! `bm25` mode, and gives the same top-k as the single file ([`crate::search::Retriever`])
//! by running the same functions on the same numbers ([`Pieces`]). The `hipporag1`,
//! `hipporag2` and `dense` modes need the single-file index. Under a filter
//! ([`Pieces::search_within`], page ids), both modes rank among the allowed pages' passages.
//!
//! ```text
//! piece     holds                                                    fetched
//! meta      passage count, page of each passage, BM25 parameters,   at init()
//!           language, the stopwords (keys that
//!           no piece holds), static dimension,
//!           IVF centroids (sign bits) and nprobe, the key and
//!           passage ranges of the other pieces and their build id
//! term      a range of keys (sorted, split at TermRange::first):    per query key
//!           the BM25 posting lists of the terms in the range and
//!           the static sign rows and df of the words in the range
//!           (keys front-coded, StoredTermPiece)
//! cluster   one IVF cluster, or several small ones: each one's      per probed cluster
//!           passages and their codes (ClusterPiece)                  not yet loaded
//! phrase    a range of phrase keys (sorted, split at               per candidate phrase
//!           PhraseRange::first): the phrase nodes in the range      of the query
//!           (their node specificity and PPR vector, PhrasePiece),
//!           and in Russian the inflection keys in the range
//! fragment  what a result shows of its passage (JSON: id, title,  per result shown
//!           url, and the text's opening, up to a set length, of
//!           each), read by the page's JS; a run of passages in
//!           passage order
//! ```
//!
//! Every piece is a gzip member, whose CRC-32 and length trailer every gzip reader checks, so
//! a damaged piece is an error, never a wrong result. The meta piece is named by the first 8
//! bytes of the SHA-256 of its stored (gzipped) bytes, in hex ([`meta_name`]); the others by
//! the index's build id and their kind and number ([`piece_name`]): `{build}-t12.bin`. The
//! build id ([`build_id`]) hashes every other piece, so a name is never reused for other bytes
//! (each piece is immutable and cacheable forever, and a page holding an old meta piece asks
//! for names a newer build does not have), and the meta piece names them all in 8 bytes
//! instead of 8 per piece. The meta, term, cluster and phrase pieces are postcard after a 4-byte tag and a u32
//! format version ([`PIECE_VERSION`]); the indexer compresses a meta or term piece field by
//! field ([`PieceSections`]), which any gzip reader reads as one stream.

mod format;
mod planner;
mod reader;

pub use format::{
    ClusterPiece, ClusterRef, FragmentRange, FrontCoded, HASH_LEN, MetaPiece, PIECE_VERSION,
    PhrasePiece, PhraseRange, PieceHash, PieceId, PieceKind, PieceSections, StaticMeta,
    StoredTermPiece, TermPiece, TermRange, build_id, decode_piece, encode_piece, gaps, hex,
    meta_name, parse_meta_name, piece_hash, piece_name, tag,
};
pub use reader::{MAX_RANGE_PIECES, Pieces};
