//! The pieces' formats: what each holds, how it is named, encoded and decoded.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::FormatProblem;
use crate::lexical::Bm25Params;
use crate::text::Language;
use crate::{Error, Result};

/// The layout of the meta, term, cluster and phrase pieces this build writes and reads
/// (CHANGELOG.md lists what each version changed).
pub const PIECE_VERSION: u32 = 11;

/// Bytes of SHA-256 in the meta piece's name and in the build id.
pub const HASH_LEN: usize = 8;

/// The first [`HASH_LEN`] bytes of a SHA-256: the meta piece's name ([`meta_name`]) or the
/// build id ([`build_id`]).
pub type PieceHash = [u8; HASH_LEN];

/// The meta piece: what every query needs, fetched once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetaPiece {
    /// Passages in the index.
    pub passages: u32,
    /// The page of each passage (`passages` dense ids, [`crate::index::passage_pages`]);
    /// stored as gaps ([`gaps`]).
    #[serde(with = "gaps")]
    pub pages: Vec<u32>,
    /// BM25's parameters and the language of its terms.
    pub bm25_params: Bm25Params,
    /// How terms were made ([`crate::text::terms`]).
    pub language: Language,
    /// The static word embeddings' dimension, IVF centroids and nprobe, when the index has them.
    pub statics: Option<StaticMeta>,
    /// Keys no piece holds that queries often have (the indexer's stopwords and their stems),
    /// sorted: a query's key found here fetches nothing.
    pub stopwords: Vec<String>,
    /// The term pieces, in key order.
    pub terms: Vec<TermRange>,
    /// The cluster pieces: every IVF cluster in exactly one, the small ones sharing a piece.
    pub clusters: Vec<ClusterRef>,
    /// The fragment pieces, in passage order: each holds the passages from its `first` up to
    /// the next piece's.
    /// Stored as the gaps between their first passages ([`gaps`]).
    #[serde(with = "gaps::fragments")]
    pub fragments: Vec<FragmentRange>,
    /// Phrase nodes in the index (the phrase pieces hold ids `0..phrases`).
    pub phrases: u32,
    /// The phrase pieces, in key order (none when the index has no phrase node).
    pub phrase_pieces: Vec<PhraseRange>,
    /// The index's own query stopwords ([`crate::index::BuildInfo::query_stopwords`]), sorted:
    /// the query-entity extractor reads them ([`crate::graph::PhraseLookup`]).
    pub query_stopwords: Vec<String>,
    /// The PPR damping factor the phrase pieces' vectors were computed at
    /// ([`crate::graph::phrase_ppr_vector`]): a query at another damping needs the single
    /// file.
    pub damping: f64,
    /// The build id every other piece is named by ([`build_id`], [`piece_name`]).
    pub build: PieceHash,
}

/// A phrase piece: the keys `first ≤ key < next piece's first` (the first piece's from "").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhraseRange {
    /// The piece's lower boundary: at or below its smallest key and above every key of the
    /// piece before ("" for the first piece). The indexer writes the shortest prefix of the
    /// smallest key that is.
    pub first: String,
}

/// A phrase piece's content: the phrase nodes whose text falls in its [`PhraseRange`] and, for
/// a Russian index, the inflection keys ([`crate::text::phrase_stem_key`]) in the range
/// with the node each stands for ([`crate::index::Index::phrase_id_inflected`]). Each carries
/// its node's `|Pᵢ|` (node specificity is `1/|Pᵢ|`) and PPR vector
/// ([`crate::graph::PprVector`]): the vectors of the phrases, then of the inflection
/// keys, one after another.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PhrasePiece {
    /// The id of the piece's first phrase node: phrase nodes are numbered in their sorted
    /// order, so the piece holds ids `first_id..first_id + phrases`.
    pub first_id: u32,
    /// The phrase nodes' texts, sorted, front-coded.
    pub phrases: FrontCoded,
    /// Inflection keys, sorted, front-coded.
    pub stems: FrontCoded,
    /// The node each inflection key stands for.
    pub stem_ids: Vec<u32>,
    /// That node's text.
    pub stem_texts: Vec<String>,
    /// `|Pᵢ|` of each phrase, then of each inflection key's node.
    pub passage_counts: Vec<u32>,
    /// The passages kept in each PPR vector, in the same order.
    pub counts: Vec<u8>,
    /// Each vector's passages, ascending, as gaps (each vector's first as the id itself).
    pub gaps: Vec<u32>,
    /// Each kept passage's code ([`crate::graph::PprVector::codes`]).
    pub codes: Vec<u8>,
    /// Each vector's scale.
    pub scales: Vec<f32>,
}

/// A fragment piece: the passages `first ≤ j < next piece's first` (the last piece's up to
/// [`MetaPiece::passages`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FragmentRange {
    /// Its first passage (dense id; the first piece's is 0).
    pub first: u32,
}

/// A cluster piece: the IVF clusters it holds (ids ascending, at least one). Its
/// content is one [`ClusterPiece`] holding these clusters in this order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterRef {
    /// The IVF clusters (ids into [`StaticMeta::centroids`]), ascending.
    pub clusters: Vec<u32>,
}

/// The static word embeddings' query-side constants ([`crate::embeddings`]).
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
    /// The piece's lower boundary: at or below its smallest key and above every key of the
    /// piece before ("" for the first piece). The indexer writes the shortest prefix of the
    /// smallest key that is.
    pub first: String,
}

/// A term piece's content: BM25 posting lists laid out as [`crate::lexical::Bm25Data`] and static
/// sign rows laid out as [`crate::embeddings::StaticEmbeddingsData`], for the keys of
/// its range.
///
/// Stored as [`StoredTermPiece`]: `terms` and `words` front-coded
/// ([`FrontCoded`]) and `ptr` as each posting list's length, since sorted keys share long
/// prefixes and lengths are small numbers, where offsets and whole keys are not.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TermPiece {
    /// BM25 terms, sorted and distinct.
    pub terms: Vec<String>,
    /// Posting bounds, `terms + 1` entries from 0.
    pub ptr: Vec<u32>,
    /// Passage ids of each posting list as gaps (the first as the id itself).
    pub gaps: Vec<u32>,
    /// Each posting's BM25 impact ([`crate::lexical::impact`], < [`crate::lexical::IMPACT_LEVELS`]):
    /// its quantised term-frequency factor, in place of its term frequency and its passage's
    /// length.
    pub impacts: Vec<u8>,
    /// Static vocabulary words, sorted and distinct.
    pub words: Vec<String>,
    /// Passages holding each word.
    pub df: Vec<u32>,
    /// Sign rows, `words × dim / 8` bytes.
    pub signs: Vec<u8>,
    /// The deletes dictionary's keys in the piece's range ([`crate::lexical`]; in the key
    /// space each begins with [`crate::lexical::DELETES_KEY_PREFIX`], stored without it),
    /// sorted and distinct.
    pub deletes: Vec<String>,
    /// Entry bounds, `deletes + 1` values from 0 (none when `deletes` is empty).
    pub deletes_ptr: Vec<u32>,
    /// The BM25 terms and static words listed under each key ([`crate::lexical::entry_keys`]),
    /// sorted within a key.
    pub entries: Vec<String>,
}

impl TermPiece {
    /// The entries listed under deletes-dictionary key `key` (empty when the piece has none).
    pub fn deletes_entries(&self, key: &str) -> &[String] {
        match self.deletes.binary_search_by(|k| k.as_str().cmp(key)) {
            Ok(r) => &self.entries[self.deletes_ptr[r] as usize..self.deletes_ptr[r + 1] as usize],
            Err(_) => &[],
        }
    }
}

/// Sorted strings front-coded: each as the bytes it shares with the one before (`shared`, 0 for
/// the first) and the rest (`suffixes`), the dictionary layout of Lucene's terms index and of
/// Pagefind's word chunks.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FrontCoded {
    /// Leading bytes each string shares with the string before it (a character boundary).
    pub shared: Vec<u32>,
    /// What follows them.
    pub suffixes: Vec<String>,
}

impl FrontCoded {
    /// Front-codes `strings` (in their order; sorted ones share the most).
    pub fn new(strings: &[String]) -> Self {
        let mut out = Self::default();
        let mut prev = "";
        for s in strings {
            let common = prev
                .bytes()
                .zip(s.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let shared = (0..=common)
                .rev()
                .find(|&k| s.is_char_boundary(k))
                .unwrap_or(0);
            out.shared.push(shared as u32);
            out.suffixes.push(s[shared..].to_string());
            prev = s;
        }
        out
    }

    /// The strings back.
    ///
    /// # Errors
    /// A message naming `field` and the position when the lists differ in length, or a
    /// shared prefix is longer than the string before it or ends inside a character.
    pub fn decode(self, field: &str) -> std::result::Result<Vec<String>, String> {
        if self.shared.len() != self.suffixes.len() {
            return Err(format!(
                "{field}: {} shared lengths for {} suffixes",
                self.shared.len(),
                self.suffixes.len()
            ));
        }
        let mut out: Vec<String> = Vec::with_capacity(self.suffixes.len());
        for (k, (shared, suffix)) in self.shared.into_iter().zip(self.suffixes).enumerate() {
            let prev = out.last().map_or("", String::as_str);
            let n = shared as usize;
            if n > prev.len() || !prev.is_char_boundary(n) {
                return Err(format!(
                    "{field}: string {k} shares {n} bytes of the {}-byte string before it",
                    prev.len()
                ));
            }
            let mut s = String::with_capacity(n + suffix.len());
            s.push_str(&prev[..n]);
            s.push_str(&suffix);
            out.push(s);
        }
        Ok(out)
    }
}

/// [`TermPiece`] as stored: `encode_piece(tag::TERM, &StoredTermPiece::from(piece))` writes
/// one, [`TermPiece::try_from`] reads it back.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StoredTermPiece {
    /// [`TermPiece::terms`], front-coded.
    pub terms: FrontCoded,
    /// The length of each term's posting list (`ptr`'s differences).
    pub lengths: Vec<u32>,
    /// [`TermPiece::gaps`].
    pub gaps: Vec<u32>,
    /// [`TermPiece::impacts`].
    pub impacts: Vec<u8>,
    /// [`TermPiece::words`], front-coded.
    pub words: FrontCoded,
    /// [`TermPiece::df`].
    pub df: Vec<u32>,
    /// [`TermPiece::signs`].
    pub signs: Vec<u8>,
    /// [`TermPiece::deletes`], front-coded.
    pub deletes: FrontCoded,
    /// The entries under each key (`deletes_ptr`'s differences).
    pub deletes_lengths: Vec<u32>,
    /// [`TermPiece::entries`], front-coded.
    pub entries: FrontCoded,
}

impl From<TermPiece> for StoredTermPiece {
    fn from(p: TermPiece) -> Self {
        Self {
            terms: FrontCoded::new(&p.terms),
            lengths: p.ptr.windows(2).map(|w| w[1] - w[0]).collect(),
            gaps: p.gaps,
            impacts: p.impacts,
            words: FrontCoded::new(&p.words),
            df: p.df,
            signs: p.signs,
            deletes: FrontCoded::new(&p.deletes),
            deletes_lengths: p.deletes_ptr.windows(2).map(|w| w[1] - w[0]).collect(),
            entries: FrontCoded::new(&p.entries),
        }
    }
}

/// `0` and the running sums of `lengths` (`lengths + 1` values): list bounds from list lengths;
/// `overflow` when a sum passes `u32::MAX`.
fn offsets(lengths: &[u32], overflow: &'static str) -> std::result::Result<Vec<u32>, String> {
    let mut out = Vec::with_capacity(lengths.len() + 1);
    out.push(0u32);
    for &n in lengths {
        let end = out[out.len() - 1].checked_add(n).ok_or(overflow)?;
        out.push(end);
    }
    Ok(out)
}

impl TryFrom<StoredTermPiece> for TermPiece {
    /// A message naming the field ([`FrontCoded::decode`]'s, or the lengths' overflow).
    type Error = String;

    fn try_from(p: StoredTermPiece) -> std::result::Result<Self, String> {
        let ptr = offsets(&p.lengths, "term piece lengths: the postings overflow u32")?;
        let deletes: Vec<String> = p.deletes.decode("term piece deletes")?;
        if p.deletes_lengths.len() != deletes.len() {
            return Err(format!(
                "term piece deletes: {} lengths for {} keys",
                p.deletes_lengths.len(),
                deletes.len()
            ));
        }
        let deletes_ptr = if deletes.is_empty() {
            Vec::new()
        } else {
            offsets(
                &p.deletes_lengths,
                "term piece deletes lengths overflow u32",
            )?
        };
        let entries: Vec<String> = p.entries.decode("term piece entries")?;
        if deletes_ptr.last().map_or(0, |&e| e as usize) != entries.len() {
            return Err(format!(
                "term piece entries: {} entries, the deletes' lengths sum to {}",
                entries.len(),
                deletes_ptr.last().copied().unwrap_or(0)
            ));
        }
        Ok(Self {
            terms: p.terms.decode("term piece terms")?,
            ptr,
            gaps: p.gaps,
            impacts: p.impacts,
            words: p.words.decode("term piece words")?,
            df: p.df,
            signs: p.signs,
            deletes,
            deletes_ptr,
            entries,
        })
    }
}

/// A cluster piece's content: the passages and codes of the IVF clusters of its
/// [`ClusterRef`], one after another in its order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClusterPiece {
    /// The passages of each cluster (one count per cluster of the [`ClusterRef`]).
    pub counts: Vec<u32>,
    /// The passages of each cluster, ascending, as gaps (each cluster's first as the id
    /// itself).
    pub gaps: Vec<u32>,
    /// Their codes, `passages × dim / 8` bytes.
    pub codes: Vec<u8>,
}

/// The tag of each piece kind, its first 4 bytes after decompression.
pub mod tag {
    /// [`super::MetaPiece`].
    pub const META: &[u8; 4] = b"HRPm";
    /// [`super::TermPiece`].
    pub const TERM: &[u8; 4] = b"HRPt";
    /// [`super::ClusterPiece`].
    pub const CLUSTER: &[u8; 4] = b"HRPc";
    /// [`super::PhrasePiece`].
    pub const PHRASE: &[u8; 4] = b"HRPp";
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

/// The first [`HASH_LEN`] bytes of the SHA-256 of `stored`: the meta piece's name
/// ([`meta_name`]).
pub fn piece_hash(stored: &[u8]) -> PieceHash {
    let d = Sha256::digest(stored);
    let mut h = [0; HASH_LEN];
    h.copy_from_slice(&d[..HASH_LEN]);
    h
}

/// The build id of an index in pieces: the first [`HASH_LEN`] bytes of the SHA-256 of every
/// piece but the meta piece, in order, each as its length (u64 little-endian) and its stored
/// bytes. Two builds share it only when every one of those pieces is the same.
pub fn build_id<'a>(stored: impl IntoIterator<Item = &'a [u8]>) -> PieceHash {
    let mut d = Sha256::new();
    for p in stored {
        d.update((p.len() as u64).to_le_bytes());
        d.update(p);
    }
    let mut h = [0; HASH_LEN];
    h.copy_from_slice(&d.finalize()[..HASH_LEN]);
    h
}

/// The meta piece's file name: `{hex of its hash}.bin` (`hipporag-entry.json` names it).
pub fn meta_name(hash: &PieceHash) -> String {
    format!("{}.bin", hex(hash))
}

/// The hash in a meta piece name `{16 hex digits}.bin` ([`meta_name`]), or `None` for another
/// name.
pub fn parse_meta_name(name: &str) -> Option<PieceHash> {
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

/// The kinds of piece besides the meta piece, in the order the indexer writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    /// [`TermPiece`], numbered as [`MetaPiece::terms`].
    Term,
    /// [`ClusterPiece`], numbered as [`MetaPiece::clusters`].
    Cluster,
    /// [`PhrasePiece`], numbered as [`MetaPiece::phrase_pieces`].
    Phrase,
    /// A fragment piece (JSON), numbered as [`MetaPiece::fragments`].
    Fragment,
}

/// A piece besides the meta piece: its kind and its number among the pieces of that kind
/// (its place in the meta piece's list of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PieceId {
    /// Its kind.
    pub kind: PieceKind,
    /// Its number.
    pub number: usize,
}

impl PieceKind {
    /// The letter of its names: `t`, `c`, `p` or `f`.
    pub fn letter(self) -> char {
        match self {
            PieceKind::Term => 't',
            PieceKind::Cluster => 'c',
            PieceKind::Phrase => 'p',
            PieceKind::Fragment => 'f',
        }
    }

    /// The kind of the piece named `name` ([`piece_name`]'s `{build}-{letter}{number}.bin`), or
    /// `None` when the letter after the last `-` is none of [`PieceKind::letter`]'s.
    pub fn of_name(name: &str) -> Option<PieceKind> {
        let letter = name.rsplit('-').next()?.chars().next()?;
        [
            PieceKind::Term,
            PieceKind::Cluster,
            PieceKind::Phrase,
            PieceKind::Fragment,
        ]
        .into_iter()
        .find(|kind| kind.letter() == letter)
    }
}

/// The file name of piece `i` of `kind` in the build `build`: `{16 hex digits}-{letter}{i}.bin`.
pub fn piece_name(build: &PieceHash, kind: PieceKind, i: usize) -> String {
    format!("{}-{}{i}.bin", hex(build), kind.letter())
}

/// `tag`, [`PIECE_VERSION`] (u32 little-endian), then the postcard encoding of `value`: a
/// piece's bytes before compression. Deterministic.
pub fn encode_piece<T: Serialize>(tag: &[u8; 4], value: &T) -> Vec<u8> {
    let mut out = tag.to_vec();
    out.extend_from_slice(&PIECE_VERSION.to_le_bytes());
    postcard::to_extend(value, out).expect("postcard encoding to a Vec cannot fail")
}

/// [`encode_piece`]'s bytes cut at field boundaries: the tag and version, then each field's
/// postcard encoding in declaration order. Their concatenation is exactly [`encode_piece`]'s
/// output, so a reader sees no difference; a writer that compresses each section in deflate
/// blocks of its own (a sync flush between sections) gives each kind of data (keys, varint
/// postings, sign bits) its own Huffman codes, which one block over all of them cannot.
pub trait PieceSections {
    /// The piece's sections (see the trait docs).
    fn sections(&self) -> Vec<Vec<u8>>;
}

/// Serde of a `u32` list as the wrapping differences of consecutive values (the first from
/// 0), for the meta piece's lists that grow with the site and rarely go down (each passage's
/// page, each fragment piece's first passage): their postcard varints then take a byte each
/// and gzip finds the repeats (docs/index-format.md, "Pieces named by the build id", has
/// their bytes). Any values round-trip; a decrease costs a 5-byte varint.
pub mod gaps {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::FragmentRange;

    /// `values` as gaps (what `#[serde(with = "gaps")]` writes).
    pub struct Gaps<'a>(pub &'a [u32]);

    impl Serialize for Gaps<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut prev = 0u32;
            s.collect_seq(self.0.iter().map(|&x| {
                let d = x.wrapping_sub(prev);
                prev = x;
                d
            }))
        }
    }

    /// Writes `values` as gaps.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(values: &[u32], s: S) -> Result<S::Ok, S::Error> {
        Gaps(values).serialize(s)
    }

    /// Reads gaps back into the values.
    ///
    /// # Errors
    /// The deserializer's.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        let mut values = Vec::<u32>::deserialize(d)?;
        let mut prev = 0u32;
        for x in &mut values {
            *x = prev.wrapping_add(*x);
            prev = *x;
        }
        Ok(values)
    }

    /// [`super::MetaPiece::fragments`] as the gaps of their first passages.
    pub mod fragments {
        use super::*;

        /// Writes the fragment ranges' first passages as gaps.
        ///
        /// # Errors
        /// The serializer's.
        pub fn serialize<S: Serializer>(f: &[FragmentRange], s: S) -> Result<S::Ok, S::Error> {
            let firsts: Vec<u32> = f.iter().map(|r| r.first).collect();
            Gaps(&firsts).serialize(s)
        }

        /// Reads the fragment ranges back.
        ///
        /// # Errors
        /// The deserializer's.
        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Vec<FragmentRange>, D::Error> {
            Ok(super::deserialize(d)?
                .into_iter()
                .map(|first| FragmentRange { first })
                .collect())
        }
    }
}

fn section<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("postcard encoding to a Vec cannot fail")
}

fn header(tag: &[u8; 4]) -> Vec<u8> {
    encode_piece(tag, &())
}

impl PieceSections for StoredTermPiece {
    fn sections(&self) -> Vec<Vec<u8>> {
        vec![
            header(tag::TERM),
            section(&self.terms.shared),
            section(&self.terms.suffixes),
            section(&self.lengths),
            section(&self.gaps),
            section(&self.impacts),
            section(&self.words.shared),
            section(&self.words.suffixes),
            section(&self.df),
            section(&self.signs),
            // The deletes dictionary in one block: most pieces have none.
            section(&(&self.deletes, &self.deletes_lengths, &self.entries)),
        ]
    }
}

impl PieceSections for MetaPiece {
    fn sections(&self) -> Vec<Vec<u8>> {
        vec![
            header(tag::META),
            section(&self.passages),
            section(&gaps::Gaps(&self.pages)),
            section(&self.bm25_params),
            section(&self.language),
            section(&self.statics),
            section(&self.stopwords),
            section(&self.terms),
            section(&self.clusters),
            section(&gaps::Gaps(
                &self.fragments.iter().map(|f| f.first).collect::<Vec<u32>>(),
            )),
            section(&self.phrases),
            section(&self.phrase_pieces),
            section(&self.query_stopwords),
            section(&self.damping),
            section(&self.build),
        ]
    }
}

impl PieceSections for PhrasePiece {
    fn sections(&self) -> Vec<Vec<u8>> {
        vec![
            header(tag::PHRASE),
            section(&self.first_id),
            section(&self.phrases.shared),
            section(&self.phrases.suffixes),
            section(&self.stems.shared),
            section(&self.stems.suffixes),
            section(&self.stem_ids),
            section(&self.stem_texts),
            section(&self.passage_counts),
            section(&self.counts),
            section(&self.gaps),
            section(&self.codes),
            section(&self.scales),
        ]
    }
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
    fn piece_sections_are_the_piece_bytes_cut_at_fields() {
        let t = TermPiece {
            terms: vec!["json".into(), "ключ".into()],
            ptr: vec![0, 2, 3],
            gaps: vec![4, 300, 7],
            impacts: vec![9, 31, 0],
            words: vec!["json".into()],
            df: vec![2],
            signs: vec![0xa5; 48],
            deletes: vec!["jsn".into()],
            deletes_ptr: vec![0, 1],
            entries: vec!["json".into()],
        };
        let stored = StoredTermPiece::from(t);
        assert_eq!(stored.sections().len(), 11);
        assert_eq!(stored.sections().concat(), encode_piece(tag::TERM, &stored));
        let m = MetaPiece {
            passages: 2,
            pages: vec![0, 0],
            bm25_params: Bm25Params::default(),
            language: Language::Russian,
            statics: Some(StaticMeta {
                model: "m".into(),
                dim: 8,
                centroids: vec![1, 2],
                nprobe: 1,
            }),
            stopwords: vec!["и".into()],
            terms: vec![TermRange {
                first: String::new(),
            }],
            clusters: vec![
                ClusterRef { clusters: vec![0] },
                ClusterRef {
                    clusters: vec![1, 2],
                },
            ],
            fragments: vec![FragmentRange { first: 0 }],
            phrases: 3,
            phrase_pieces: vec![PhraseRange {
                first: String::new(),
            }],
            query_stopwords: vec!["как".into()],
            damping: 0.5,
            build: [9; 8],
        };
        assert_eq!(m.sections().len(), 15);
        assert_eq!(m.sections().concat(), encode_piece(tag::META, &m));
        let p = PhrasePiece {
            first_id: 4,
            phrases: FrontCoded::new(&["paris".into(), "paris france".into()]),
            passage_counts: vec![2, 1],
            counts: vec![2, 1],
            gaps: vec![3, 4, 9],
            codes: vec![255, 30, 255],
            scales: vec![0.25, 0.5],
            ..PhrasePiece::default()
        };
        assert_eq!(p.sections().len(), 13);
        assert_eq!(p.sections().concat(), encode_piece(tag::PHRASE, &p));
    }

    #[test]
    fn front_coding_round_trips_and_never_cuts_a_character() {
        let keys: Vec<String> = ["", "json", "json5", "jsonl", "é", "ê", "ключ", "ключи"]
            .map(String::from)
            .to_vec();
        let f = FrontCoded::new(&keys);
        assert_eq!(f.shared, [0, 0, 4, 4, 0, 0, 0, 8]);
        assert_eq!(f.suffixes[2], "5");
        assert_eq!(f.suffixes[5], "ê"); // shares a byte with "é", but not a character
        assert_eq!(f.clone().decode("k"), Ok(keys));
        let bad = FrontCoded {
            shared: vec![0, 3],
            suffixes: vec!["ab".into(), "c".into()],
        };
        assert_eq!(
            bad.decode("term piece terms").unwrap_err(),
            "term piece terms: string 1 shares 3 bytes of the 2-byte string before it"
        );
        let split_char = FrontCoded {
            shared: vec![0, 1],
            suffixes: vec!["é".into(), "x".into()],
        };
        assert!(split_char.decode("w").is_err());
    }

    #[test]
    fn a_term_piece_round_trips_through_its_stored_form() {
        let t = TermPiece {
            terms: vec!["a".into(), "ab".into()],
            ptr: vec![0, 1, 3],
            gaps: vec![1, 2, 5],
            impacts: vec![12, 12, 20],
            words: vec!["ab".into()],
            df: vec![2],
            signs: vec![9; 48],
            deletes: vec!["abe".into(), "acd".into()],
            deletes_ptr: vec![0, 2, 3],
            entries: vec!["abcde".into(), "abxe".into(), "abcd".into()],
        };
        let bytes = encode_piece(tag::TERM, &StoredTermPiece::from(t.clone()));
        let stored: StoredTermPiece = decode_piece(tag::TERM, "term piece", &bytes).unwrap();
        assert_eq!(stored.lengths, [1, 2]);
        assert_eq!(stored.deletes_lengths, [2, 1]);
        let back = TermPiece::try_from(stored.clone()).unwrap();
        assert_eq!(back.deletes_entries("abe"), ["abcde", "abxe"]);
        assert_eq!(back.deletes_entries("acd"), ["abcd"]);
        assert!(back.deletes_entries("abc").is_empty());
        assert_eq!(back, t);
        // Lengths that do not match the keys or the entries are an error naming the field.
        let short = StoredTermPiece {
            deletes_lengths: vec![2, 2],
            ..stored.clone()
        };
        assert_eq!(
            TermPiece::try_from(short).unwrap_err(),
            "term piece entries: 3 entries, the deletes' lengths sum to 4"
        );
        let missing = StoredTermPiece {
            deletes_lengths: vec![3],
            ..stored
        };
        assert_eq!(
            TermPiece::try_from(missing).unwrap_err(),
            "term piece deletes: 1 lengths for 2 keys"
        );
        let overflow = StoredTermPiece {
            lengths: vec![u32::MAX, 1],
            ..StoredTermPiece::default()
        };
        assert_eq!(
            TermPiece::try_from(overflow).unwrap_err(),
            "term piece lengths: the postings overflow u32"
        );
    }

    #[test]
    fn hex_is_two_lowercase_digits_per_byte() {
        assert_eq!(hex(&[0x00, 0xab, 0x7f]), "00ab7f");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn a_piece_round_trips_and_its_damage_is_named() {
        let p = ClusterPiece {
            counts: vec![2],
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
        v[4] = PIECE_VERSION as u8 + 1;
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
    fn gaps_round_trip_any_list_and_keep_a_non_decreasing_one_to_a_byte_a_value() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct L(#[serde(with = "gaps")] Vec<u32>);
        for v in [vec![], vec![0, 0, 1, 5, 3, u32::MAX, 2], vec![7]] {
            let b = postcard::to_allocvec(&L(v.clone())).unwrap();
            assert_eq!(postcard::from_bytes::<L>(&b).unwrap(), L(v));
        }
        // 300 pages of 5 passages: values to 299 (two-byte varints), gaps of 0 and 1.
        let pages: Vec<u32> = (0..1500).map(|j| j / 5).collect();
        assert_eq!(postcard::to_allocvec(&L(pages)).unwrap().len(), 2 + 1500);
    }

    #[test]
    fn pieces_are_named_by_the_build_id() {
        let h = piece_hash(b"abc");
        // SHA-256("abc") = ba7816bf8f01cfea…
        assert_eq!(meta_name(&h), "ba7816bf8f01cfea.bin");
        assert_eq!(parse_meta_name("ba7816bf8f01cfea.bin"), Some(h));
        for bad in [
            "ba7816bf8f01cfea",
            "ba7816bf8f01cfe.bin",
            "ba7816bf8f01cfeg.bin",
            "ba7816bf8f01cfé.bin",
        ] {
            assert_eq!(parse_meta_name(bad), None, "{bad}");
        }
        assert_eq!(
            piece_name(&h, PieceKind::Fragment, 12),
            "ba7816bf8f01cfea-f12.bin"
        );
        // The build id sees every piece and where each ends.
        let id = build_id([b"ab".as_slice(), b"c"]);
        assert_ne!(id, build_id([b"a".as_slice(), b"bc"]));
        assert_ne!(id, build_id([b"ab".as_slice(), b"d"]));
        assert_eq!(id, build_id([b"ab".as_slice(), b"c"]));
    }
}
