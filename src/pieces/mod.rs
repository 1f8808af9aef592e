//! The index in pieces: what a static site serves so that a browser fetches only what a
//! question needs (Pagefind's shape: a small meta piece, then immutable pieces). [`format`]'s
//! module docs lay the pieces out; [`Pieces`] is their query side.

mod format;
mod planner;
mod reader;

pub use format::{
    ClusterPiece, ClusterRef, FragmentRange, FrontCoded, HASH_LEN, MetaPiece, PIECE_VERSION,
    PhrasePiece, PhraseRange, PieceHash, PieceKind, PieceSections, StaticMeta, StoredTermPiece,
    TermPiece, TermRange, build_id, decode_piece, encode_piece, gaps, hex, meta_name,
    parse_meta_name, piece_hash, piece_name, tag,
};
pub use planner::PieceId;
pub use reader::{MAX_RANGE_PIECES, Pieces};
