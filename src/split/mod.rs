//! The index in pieces: what a static site serves so that a browser fetches only what a query
//! needs (Pagefind's shape: a small entry, then content-addressed chunks).
//!
//! It serves the site's default ranking — the `hybrid` mode with damping 0 and phrase weight 0,
//! i.e. BM25 fused by page with the static word-embedding scores ([`crate::scores::page_rrf`])
//! — and the `bm25` mode, and gives the same top-k as the single file
//! ([`crate::retriever::Retriever`]) by running the same functions on the same numbers
//! ([`SplitIndex`]). The graph modes need the single-file index.
//!
//! ```text
//! piece     holds                                                    fetched
//! meta      passage count, page of each passage, BM25 parameters,   at init()
//!           language and passage lengths, the stopwords (keys that
//!           no piece holds), static dimension,
//!           IVF centroids (sign bits) and nprobe, and the hash
//!           of every other piece
//! term      a range of keys (sorted, split at TermRange::first):    per query key
//!           the BM25 posting lists of the terms in the range and
//!           the static sign rows and df of the words in the range
//! cluster   one IVF cluster: its passages and their codes           per probed cluster
//! fragment  what a result shows of its passage (JSON: id, title,  per result shown
//!           url, and the text's opening, up to a set length, of
//!           each), read by the page's JS; a run of passages in
//!           passage order
//! ```
//!
//! Every piece is a gzip member named by the first 8 bytes of the SHA-256 of its stored
//! (gzipped) bytes, in hex ([`piece_name`]): immutable, cacheable forever, and checked on
//! arrival ([`verify_piece`]), so a damaged piece or one of another build is an error, never a
//! wrong result. The meta, term and cluster pieces are postcard after a 4-byte tag and a u32
//! format version ([`PIECE_VERSION`]).

mod search;

pub use search::SplitIndex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::analysis::Language;
use crate::bm25::Bm25Params;
use crate::error::FormatProblem;
use crate::{Error, Result};

/// The layout of the meta, term and cluster pieces this build writes and reads (2: fragment
/// pieces as passage ranges).
pub const PIECE_VERSION: u32 = 2;

/// Bytes of SHA-256 a piece is named by.
pub const HASH_LEN: usize = 8;

/// The first [`HASH_LEN`] bytes of a piece's SHA-256.
pub type PieceHash = [u8; HASH_LEN];

/// The meta piece: what every query needs, fetched once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SplitMeta {
    /// Passages in the index.
    pub passages: u32,
    /// The page of each passage (`passages` dense ids, [`crate::index::passage_pages`]).
    pub pages: Vec<u32>,
    /// BM25's parameters and the language of its terms.
    pub bm25_params: Bm25Params,
    /// How terms were made ([`crate::analysis::terms`]).
    pub language: Language,
    /// Indexed terms per passage (`passages` entries), BM25's `|p|`.
    pub doc_len: Vec<u32>,
    /// The static word embeddings' dimension, IVF centroids and nprobe, when the index has them.
    pub statics: Option<StaticMeta>,
    /// Keys no piece holds that queries often have (the indexer's stopwords and their stems),
    /// sorted: a query's key found here fetches nothing.
    pub stopwords: Vec<String>,
    /// The term pieces, in key order.
    pub terms: Vec<TermRange>,
    /// The cluster pieces, one per IVF cluster, in cluster order.
    pub clusters: Vec<PieceHash>,
    /// The fragment pieces, in passage order: each holds the passages from its `first` up to
    /// the next piece's.
    pub fragments: Vec<FragmentRange>,
}

/// A fragment piece: the passages `first ≤ j < next piece's first` (the last piece's up to
/// [`SplitMeta::passages`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FragmentRange {
    /// Its first passage (dense id; the first piece's is 0).
    pub first: u32,
    /// The piece's hash.
    pub hash: PieceHash,
}

/// The static word embeddings' query-side constants ([`crate::static_embeddings`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaticMeta {
    /// The encoder id the word vectors came from.
    pub model: String,
    /// Dimensions per sign row and code (a positive multiple of 8).
    pub dim: u32,
    /// IVF centroids as sign bits, `C × dim / 8` bytes.
    pub centroids: Vec<u8>,
    /// Clusters a query scores.
    pub nprobe: u32,
}

/// A term piece: the keys `first ≤ key < next piece's first` (the first piece's from "").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TermRange {
    /// The smallest key of the piece.
    pub first: String,
    /// The piece's hash.
    pub hash: PieceHash,
}

/// A term piece's content: BM25 posting lists laid out as [`crate::bm25::Bm25Data`] and static
/// sign rows laid out as [`crate::static_embeddings::StaticEmbeddingsData`], for the keys of
/// its range.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TermPiece {
    /// BM25 terms, sorted and distinct.
    pub terms: Vec<String>,
    /// Posting bounds, `terms + 1` entries from 0.
    pub ptr: Vec<u32>,
    /// Passage ids of each posting list as gaps (the first as the id itself).
    pub gaps: Vec<u32>,
    /// Term frequency of each posting.
    pub tf: Vec<u32>,
    /// Static vocabulary words, sorted and distinct.
    pub words: Vec<String>,
    /// Passages holding each word.
    pub df: Vec<u32>,
    /// Sign rows, `words × dim / 8` bytes.
    pub signs: Vec<u8>,
}

/// A cluster piece's content: one IVF cluster.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClusterPiece {
    /// Its passages, ascending, as gaps (the first as the id itself).
    pub gaps: Vec<u32>,
    /// Their codes, `passages × dim / 8` bytes.
    pub codes: Vec<u8>,
}

/// The tag of each piece kind, its first 4 bytes after decompression.
pub mod tag {
    /// [`super::SplitMeta`].
    pub const META: &[u8; 4] = b"HRPm";
    /// [`super::TermPiece`].
    pub const TERM: &[u8; 4] = b"HRPt";
    /// [`super::ClusterPiece`].
    pub const CLUSTER: &[u8; 4] = b"HRPc";
}

/// Lowercase hex, two digits per byte (piece names; the indexer's cache keys).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// The hash a piece is named by: the first [`HASH_LEN`] bytes of SHA-256 of its stored bytes.
pub fn piece_hash(stored: &[u8]) -> PieceHash {
    let d = Sha256::digest(stored);
    let mut h = [0; HASH_LEN];
    h.copy_from_slice(&d[..HASH_LEN]);
    h
}

/// A piece's file name: `{hex of its hash}.bin`.
pub fn piece_name(hash: &PieceHash) -> String {
    format!("{}.bin", hex(hash))
}

/// The hash in a piece name `{16 hex digits}.bin` ([`piece_name`]), or `None` for another name.
pub fn parse_piece_name(name: &str) -> Option<PieceHash> {
    let hex = name.strip_suffix(".bin")?;
    if hex.len() != 2 * HASH_LEN || !hex.is_ascii() {
        return None;
    }
    let mut h = [0u8; HASH_LEN];
    for (k, b) in h.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).ok()?;
    }
    Some(h)
}

/// Checks that `stored` (the bytes as fetched) hash to `expected`.
///
/// # Errors
/// [`FormatProblem::PieceHash`], carrying both hash prefixes, with the piece name as origin.
pub fn verify_piece(expected: &PieceHash, stored: &[u8]) -> Result<()> {
    let found = piece_hash(stored);
    if &found != expected {
        return Err(Error::from(FormatProblem::PieceHash {
            expected: hex(expected),
            found: hex(&found),
        })
        .in_source(piece_name(expected)));
    }
    Ok(())
}

/// `tag`, [`PIECE_VERSION`] (u32 little-endian), then the postcard encoding of `value`: a
/// piece's bytes before compression. Deterministic.
pub fn encode_piece<T: Serialize>(tag: &[u8; 4], value: &T) -> Vec<u8> {
    let mut out = tag.to_vec();
    out.extend_from_slice(&PIECE_VERSION.to_le_bytes());
    postcard::to_extend(value, out).expect("postcard encoding to a Vec cannot fail")
}

/// Decodes a piece written by [`encode_piece`] (decompressed).
///
/// # Errors
/// [`FormatProblem::BadMagic`] for another tag, [`FormatProblem::UnsupportedVersion`],
/// [`FormatProblem::Invalid`] (field `what`) when postcard cannot decode it or bytes are left.
pub fn decode_piece<T: DeserializeOwned>(
    tag: &[u8; 4],
    what: &'static str,
    bytes: &[u8],
) -> Result<T> {
    if bytes.len() < 8 || &bytes[..4] != tag {
        return Err(FormatProblem::BadMagic {
            found: String::from_utf8_lossy(&bytes[..bytes.len().min(4)]).into_owned(),
        }
        .into());
    }
    let version = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
    if version != PIECE_VERSION {
        return Err(FormatProblem::UnsupportedVersion {
            found: version,
            supported: PIECE_VERSION,
        }
        .into());
    }
    let (value, rest) = postcard::take_from_bytes(&bytes[8..]).map_err(|e| {
        Error::from(FormatProblem::Invalid {
            field: what,
            message: format!("does not decode: {e}"),
        })
    })?;
    if !rest.is_empty() {
        return Err(FormatProblem::Invalid {
            field: what,
            message: format!("{} bytes after the end", rest.len()),
        }
        .into());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_two_lowercase_digits_per_byte() {
        assert_eq!(hex(&[0x00, 0xab, 0x7f]), "00ab7f");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn a_piece_round_trips_and_its_damage_is_named() {
        let p = ClusterPiece {
            gaps: vec![3, 1],
            codes: vec![7, 9],
        };
        let bytes = encode_piece(tag::CLUSTER, &p);
        assert_eq!(
            decode_piece::<ClusterPiece>(tag::CLUSTER, "cluster", &bytes).unwrap(),
            p
        );
        let e = decode_piece::<ClusterPiece>(tag::TERM, "term", &bytes).unwrap_err();
        assert_eq!(e.kind(), "format.magic");
        let mut v = bytes.clone();
        v[4] = 9;
        let e = decode_piece::<ClusterPiece>(tag::CLUSTER, "cluster", &v).unwrap_err();
        assert_eq!(e.kind(), "format.version");
        let e = decode_piece::<ClusterPiece>(tag::CLUSTER, "cluster", &bytes[..bytes.len() - 1])
            .unwrap_err();
        assert!(e.to_string().contains("cluster"), "{e}");
        let mut v = bytes.clone();
        v.push(0);
        let e = decode_piece::<ClusterPiece>(tag::CLUSTER, "cluster", &v).unwrap_err();
        assert!(e.to_string().contains("1 bytes after the end"), "{e}");
    }

    #[test]
    fn a_piece_must_hash_to_its_name() {
        let h = piece_hash(b"abc");
        // SHA-256("abc") = ba7816bf8f01cfea…
        assert_eq!(piece_name(&h), "ba7816bf8f01cfea.bin");
        verify_piece(&h, b"abc").unwrap();
        assert_eq!(parse_piece_name("ba7816bf8f01cfea.bin"), Some(h));
        for bad in [
            "ba7816bf8f01cfea",
            "ba7816bf8f01cfe.bin",
            "ba7816bf8f01cfeg.bin",
            "ba7816bf8f01cfé.bin",
        ] {
            assert_eq!(parse_piece_name(bad), None, "{bad}");
        }
        let e = verify_piece(&h, b"abd").unwrap_err();
        assert_eq!(e.kind(), "format.piece_hash");
        assert!(
            e.to_string()
                .starts_with("ba7816bf8f01cfea.bin: piece corrupt or stale"),
            "{e}"
        );
    }
}
