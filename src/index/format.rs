//! The index file: one postcard-encoded payload behind a fixed 24-byte prefix.
//!
//! ```text
//! offset  size  field
//!      0     8  magic  b"HIPPORAG"
//!      8     4  format version, u32 little-endian (FORMAT_VERSION)
//!     12     8  payload length in bytes, u64 little-endian
//!     20     4  Adler-32 (zlib's, RFC 1950) of the payload, u32 little-endian
//!     24     …  payload: postcard encoding of IndexData
//! ```
//!
//! The payload ([`IndexData`]) holds, in this order: the [`Header`] (encoder id, dimension and
//! normalisation, counts, build parameters), the phrases (node names, sorted), their embeddings
//! ([`Vectors`], int8 by default), the phrase graph in CSR (undirected, stored symmetric: triple
//! edges weighted by count, synonymy edges by cosine), the passage-node matrix transposed (`Pᵀ`,
//! passages × phrases, CSR, occurrence counts), the passages (title, text, optional URL), passage
//! embeddings, the facts (triples as phrase ids + relation), when built, fact embeddings and,
//! when built, the BM25 index of the passages ([`crate::lexical::Bm25Data`]) and, when built,
//! the static word embeddings ([`crate::embeddings::StaticEmbeddingsData`]). The header
//! records the passages' [`Language`]. CHANGELOG.md lists what each format version changed.
//!
//! Loading checks, in order, each with its own [`FormatProblem`]: magic
//! ([`FormatProblem::BadMagic`]), version ([`FormatProblem::UnsupportedVersion`]), length
//! ([`FormatProblem::Truncated`]), checksum ([`FormatProblem::Checksum`]), then decoding and every
//! structural invariant ([`FormatProblem::Invalid`] naming the field). No
//! input makes loading panic. The same [`IndexData`] always encodes to the same bytes.
//!
//! The checksum is Adler-32 rather than CRC-32 because it runs on wasm SIMD (`simd-adler32`),
//! where CRC-32's table-driven code dominated `Retriever.fromBytes` (docs/benchmarks.md). For
//! payloads of megabytes Adler-32 detects random damage as reliably; truncation is caught by
//! the length field before either.

use serde::{Deserialize, Serialize};
use sprs::CsMatI;

use crate::embeddings::EncoderInfo;
use crate::embeddings::{Codes, Quantization, VectorIndex, Vectors};
use crate::embeddings::{StaticEmbeddings, StaticEmbeddingsData};
use crate::error::FormatProblem;
use crate::lexical::{Bm25, Bm25Data};
use crate::text::{Language, phrase_stem_key};
use crate::{Error, Result};

/// The first 8 bytes of every index file.
pub const MAGIC: &[u8; 8] = b"HIPPORAG";
/// The payload layout this build writes and reads.
pub const FORMAT_VERSION: u32 = 8;
/// Bytes before the payload.
pub const PREFIX_LEN: usize = 24;

pub use crate::index::SparseMatrix;

/// One retrievable unit of text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Passage {
    /// Title (page or article title; may be empty).
    pub title: String,
    /// Body text.
    pub text: String,
    /// Where the passage lives on a site (`/path/page.html#anchor`), when known.
    /// (Always serialised: postcard is not self-describing, so no field may be skipped.)
    #[serde(default)]
    pub url: Option<String>,
}

impl Passage {
    /// A passage without a URL.
    pub fn new(title: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            text: text.into(),
            url: None,
        }
    }

    /// The text HippoRAG indexes and embeds: `title + "\n" + text`.
    pub fn indexed_text(&self) -> String {
        format!("{}\n{}", self.title, self.text)
    }
}

/// A triple of the knowledge graph: subject and object are phrase ids.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Fact {
    /// Subject phrase id.
    pub subject: u32,
    /// Relation as extracted (trimmed).
    pub relation: String,
    /// Object phrase id.
    pub object: u32,
}

impl Fact {
    /// The text a fact is embedded as, at index time and for HippoRAG 2's query-to-triple
    /// linking alike: `"subject relation object"` with the phrase names of `phrases` (the
    /// reference embeds `str(triple)`-like fact strings; the same words in the same order).
    pub fn text(&self, phrases: &[String]) -> String {
        format!(
            "{} {} {}",
            phrases[self.subject as usize], self.relation, phrases[self.object as usize]
        )
    }
}

/// Sizes recorded in the header; loading checks the payload against them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// Phrase nodes `|N|`.
    pub phrases: u32,
    /// Passages `|P|`.
    pub passages: u32,
    /// Undirected edges between phrases (pairs, each stored twice in the CSR).
    pub edges: u32,
    /// Of `edges`, those with a triple between the two phrases.
    pub triple_edges: u32,
    /// Of `edges`, synonymy edges (pairs with no triple between them).
    pub synonymy_edges: u32,
    /// Distinct facts.
    pub facts: u32,
}

/// Parameters the index was built with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildInfo {
    /// Synonymy threshold τ on cosine.
    pub synonymy_threshold: f32,
    /// At most this many synonymy neighbours per phrase.
    pub synonymy_k: u32,
    /// How embeddings are stored.
    pub quantization: Quantization,
    /// `hipporag-wasm <version>` that wrote the file.
    pub generator: String,
    /// The language of the passages: how BM25's terms and the query's entities are read
    /// ([`crate::text`], [`crate::graph`]).
    pub language: Language,
    /// Lowercased words that never start or make a query entity on their own: the
    /// language's NLTK stopwords for Russian and Chinese (so the browser needs no list of its
    /// own); empty for English, whose question words are built into [`crate::graph`].
    pub query_stopwords: Vec<String>,
}

/// Everything the header says about the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// The encoder of every stored embedding; queries must use the same one.
    pub encoder: EncoderInfo,
    /// Sizes.
    pub counts: Counts,
    /// Build parameters.
    pub build: BuildInfo,
}

/// The shortest phrase [`Index::phrase_id_inflected`] matches by its inflection key.
pub const MIN_INFLECTED_CHARS: usize = 5;

/// A CSR matrix as serialised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Csr {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Row pointers, `rows + 1` entries.
    pub indptr: Vec<u32>,
    /// Column of each stored value, sorted within a row.
    pub indices: Vec<u32>,
    /// Stored values.
    pub data: Vec<f32>,
}

impl Csr {
    /// Copies a sprs matrix.
    pub fn from_sprs(m: &SparseMatrix) -> Self {
        Self {
            rows: m.rows() as u32,
            cols: m.cols() as u32,
            indptr: m.indptr().raw_storage().to_vec(),
            indices: m.indices().to_vec(),
            data: m.data().to_vec(),
        }
    }

    fn into_sprs(self, field: &'static str) -> Result<SparseMatrix> {
        if self.indptr.len() != self.rows as usize + 1 {
            return Err(invalid(
                field,
                format!(
                    "indptr has {} entries for {} rows",
                    self.indptr.len(),
                    self.rows
                ),
            ));
        }
        if self.data.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(invalid(field, "a value is negative or not finite".into()));
        }
        CsMatI::try_new(
            (self.rows as usize, self.cols as usize),
            self.indptr,
            self.indices,
            self.data,
        )
        .map_err(|(_, _, _, e)| invalid(field, e.to_string()))
    }
}

/// The serialised payload (see the module docs for the layout).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexData {
    /// Header.
    pub header: Header,
    /// Normalised phrase strings, sorted; a phrase's position is its node id.
    pub phrases: Vec<String>,
    /// Phrase embeddings, `|N| × dim`.
    pub phrase_vectors: Vectors,
    /// Phrase graph, `|N| × |N|`, symmetric.
    pub graph: Csr,
    /// `Pᵀ`: `|P| × |N|`, entry `(j, i)` = occurrences of phrase `i` in passage `j`'s triples.
    pub passage_phrases: Csr,
    /// Passages, in corpus order; a passage's position is its id.
    pub passages: Vec<Passage>,
    /// Passage embeddings (`title + "\n" + text`), `|P| × dim`.
    pub passage_vectors: Vectors,
    /// Distinct facts, sorted.
    pub facts: Vec<Fact>,
    /// Fact embeddings, `facts × dim`, when built (HippoRAG 2 mode needs them).
    pub fact_vectors: Option<Vectors>,
    /// BM25 over the passages, when built (the `bm25` and `hybrid` modes need it).
    pub bm25: Option<Bm25Data>,
    /// Static word embeddings and the passages' vectors from them, when built (the hybrid
    /// mode's semantic signal without a query encoder).
    pub static_embeddings: Option<StaticEmbeddingsData>,
}

impl IndexData {
    /// Encodes prefix and payload. Deterministic: equal data gives equal bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = postcard::to_allocvec(self).expect("postcard encoding to a Vec cannot fail");
        let mut out = Vec::with_capacity(PREFIX_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// The payload's sections in file order, each as its own postcard bytes (they concatenate
    /// to the payload): `header`, `phrases`, `phrase_vectors`, `graph`, `passage_phrases`,
    /// `passages`, `passage_vectors`, `facts`, `fact_vectors`, `bm25`, `static_embeddings`. For size reports
    /// (`hipporag info`).
    pub fn sections(&self) -> Vec<(&'static str, Vec<u8>)> {
        fn enc<T: Serialize>(v: &T) -> Vec<u8> {
            postcard::to_allocvec(v).expect("postcard encoding to a Vec cannot fail")
        }
        vec![
            ("header", enc(&self.header)),
            ("phrases", enc(&self.phrases)),
            ("phrase_vectors", enc(&self.phrase_vectors)),
            ("graph", enc(&self.graph)),
            ("passage_phrases", enc(&self.passage_phrases)),
            ("passages", enc(&self.passages)),
            ("passage_vectors", enc(&self.passage_vectors)),
            ("facts", enc(&self.facts)),
            ("fact_vectors", enc(&self.fact_vectors)),
            ("bm25", enc(&self.bm25)),
            ("static_embeddings", enc(&self.static_embeddings)),
        ]
    }

    /// Checks prefix and checksum, then decodes the payload (no structural checks; see
    /// [`Index`]). Copies `bytes` once; [`IndexData::from_vec`] takes them without a copy.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::from_vec(bytes.to_vec())
    }

    /// [`IndexData::from_bytes`] on bytes it keeps: the int8 embeddings become views of them
    /// ([`crate::embeddings::Codes`]), so the embeddings — most of an index — are never copied.
    pub fn from_vec(bytes: Vec<u8>) -> Result<Self> {
        let buf = std::sync::Arc::new(bytes);
        let bytes = buf.as_slice();
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(FormatProblem::BadMagic {
                found: String::from_utf8_lossy(&bytes[..bytes.len().min(8)]).into_owned(),
            }
            .into());
        }
        if bytes.len() < PREFIX_LEN {
            return Err(FormatProblem::Truncated {
                expected: PREFIX_LEN as u64,
                found: bytes.len() as u64,
            }
            .into());
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(FormatProblem::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            }
            .into());
        }
        let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let stored = u32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes"));
        let expected = (PREFIX_LEN as u64).saturating_add(len);
        if (bytes.len() as u64) < expected {
            return Err(FormatProblem::Truncated {
                expected,
                found: bytes.len() as u64,
            }
            .into());
        }
        if (bytes.len() as u64) > expected {
            return Err(invalid(
                "payload",
                format!(
                    "{} trailing bytes after the payload",
                    bytes.len() as u64 - expected
                ),
            ));
        }
        let payload = &bytes[PREFIX_LEN..];
        let found = checksum(payload);
        if found != stored {
            return Err(FormatProblem::Checksum {
                expected: stored,
                found,
            }
            .into());
        }
        let (data, left) = Codes::decode_sharing(&buf, |b| {
            postcard::take_from_bytes::<IndexData>(&b[PREFIX_LEN..])
                .map(|(data, rest)| (data, rest.len()))
        })
        .map_err(|e| invalid("payload", format!("postcard decoding failed: {e}")))?;
        if left > 0 {
            return Err(invalid(
                "payload",
                format!("{left} bytes left after decoding"),
            ));
        }
        Ok(data)
    }
}

/// The prefix's checksum of `payload`: Adler-32 (RFC 1950), as zlib computes it.
pub fn checksum(payload: &[u8]) -> u32 {
    let mut a = simd_adler32::Adler32::new();
    a.write(payload);
    a.finish()
}

fn invalid(field: &'static str, message: String) -> Error {
    FormatProblem::Invalid { field, message }.into()
}

/// A loaded, validated index with the derived structures retrieval needs.
#[derive(Debug, Clone)]
pub struct Index {
    /// Header as stored.
    pub header: Header,
    /// Phrase strings (node names), sorted.
    pub phrases: Vec<String>,
    /// Phrase embeddings with cached norms.
    pub phrase_vectors: VectorIndex,
    /// The phrase graph, symmetric CSR.
    pub graph: SparseMatrix,
    /// `Pᵀ`, passages × phrases.
    pub passage_phrases: SparseMatrix,
    /// `P`, phrases × passages (derived by transposing `Pᵀ`).
    pub phrase_passages: SparseMatrix,
    /// Passages.
    pub passages: Vec<Passage>,
    /// Passage embeddings with cached norms.
    pub passage_vectors: VectorIndex,
    /// Facts.
    pub facts: Vec<Fact>,
    /// Fact embeddings, if built.
    pub fact_vectors: Option<VectorIndex>,
    /// BM25 over the passages, if built.
    pub bm25: Option<Bm25>,
    /// Static word embeddings, if built.
    pub static_embeddings: Option<StaticEmbeddings>,
    /// The page of each passage (`|P|` dense ids, [`passage_pages`]).
    pub pages: Vec<u32>,
    /// Node specificity `s_i = 1/|P_i|` (HippoRAG §3.2), `|P_i|` = passages containing phrase `i`.
    pub specificity: Vec<f32>,
    /// Each phrase's inflection key ([`crate::text::phrase_stem_key`]) and node id, sorted
    /// by key (the first node of a key kept); empty for languages without one.
    pub phrase_stems: Vec<(String, u32)>,
}

impl Index {
    /// Validates and loads index bytes.
    ///
    /// # Errors
    /// [`Error::Format`] with the [`FormatProblem`] of the first check that fails (module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::from_data(IndexData::from_bytes(bytes)?)
    }

    /// [`Index::from_bytes`] without copying the bytes: the index keeps them and its int8
    /// embeddings are views of them ([`IndexData::from_vec`]).
    pub fn from_vec(bytes: Vec<u8>) -> Result<Self> {
        Self::from_data(IndexData::from_vec(bytes)?)
    }

    /// Validates decoded data and derives the query-time structures.
    pub fn from_data(d: IndexData) -> Result<Self> {
        let c = &d.header.counts;
        let (n, np) = (d.phrases.len(), d.passages.len());
        let dim = d.header.encoder.dim as usize;
        if dim == 0 {
            return Err(invalid("header.encoder.dim", "must be positive".into()));
        }
        if c.phrases as usize != n {
            return Err(invalid(
                "phrases",
                format!("{n} phrases, the header counts {}", c.phrases),
            ));
        }
        if c.passages as usize != np {
            return Err(invalid(
                "passages",
                format!("{np} passages, the header counts {}", c.passages),
            ));
        }
        if c.facts as usize != d.facts.len() {
            return Err(invalid(
                "facts",
                format!("{} facts, the header counts {}", d.facts.len(), c.facts),
            ));
        }
        d.phrase_vectors
            .check(n, dim)
            .map_err(|m| invalid("phrase_vectors", m))?;
        d.passage_vectors
            .check(np, dim)
            .map_err(|m| invalid("passage_vectors", m))?;
        if let Some(f) = &d.fact_vectors {
            f.check(d.facts.len(), dim)
                .map_err(|m| invalid("fact_vectors", m))?;
        }
        if d.graph.rows as usize != n || d.graph.cols as usize != n {
            return Err(invalid(
                "graph",
                format!("shape {}×{}, expected {n}×{n}", d.graph.rows, d.graph.cols),
            ));
        }
        if d.passage_phrases.rows as usize != np || d.passage_phrases.cols as usize != n {
            return Err(invalid(
                "passage_phrases",
                format!(
                    "shape {}×{}, expected {np}×{n}",
                    d.passage_phrases.rows, d.passage_phrases.cols
                ),
            ));
        }
        if d.graph.data.len() != 2 * c.edges as usize {
            return Err(invalid(
                "graph",
                format!(
                    "{} stored values for {} undirected edges",
                    d.graph.data.len(),
                    c.edges
                ),
            ));
        }
        if let Some(f) = d
            .facts
            .iter()
            .find(|f| f.subject as usize >= n || f.object as usize >= n)
        {
            return Err(invalid(
                "facts",
                format!("fact ({}, {}) names a phrase id ≥ {n}", f.subject, f.object),
            ));
        }
        let bm25 = d.bm25.map(|b| Bm25::from_data(b, np)).transpose()?;
        let static_embeddings = d
            .static_embeddings
            .map(|s| StaticEmbeddings::from_data(s, np))
            .transpose()?;
        let graph = d.graph.into_sprs("graph")?;
        for (w, (i, j)) in graph.iter() {
            if i == j || graph.get(j as usize, i as usize) != Some(w) {
                return Err(invalid(
                    "graph",
                    format!("edge ({i}, {j}) is a self-loop or has no equal reverse edge"),
                ));
            }
        }
        let passage_phrases = d.passage_phrases.into_sprs("passage_phrases")?;
        let phrase_passages = passage_phrases.transpose_view().to_csr();
        let specificity = (0..n)
            .map(|i| {
                let k = phrase_passages.outer_view(i).map_or(0, |r| r.nnz());
                if k == 0 { 1.0 } else { 1.0 / k as f32 }
            })
            .collect();
        let language = d.header.build.language;
        let mut phrase_stems: Vec<(String, u32)> = d
            .phrases
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((phrase_stem_key(p, language)?, i as u32)))
            .collect();
        phrase_stems.sort_unstable();
        phrase_stems.dedup_by(|b, a| a.0 == b.0);
        Ok(Self {
            header: d.header,
            phrases: d.phrases,
            phrase_stems,
            phrase_vectors: VectorIndex::new(d.phrase_vectors),
            graph,
            passage_phrases,
            phrase_passages,
            pages: passage_pages(&d.passages),
            passages: d.passages,
            passage_vectors: VectorIndex::new(d.passage_vectors),
            facts: d.facts,
            fact_vectors: d.fact_vectors.map(VectorIndex::new),
            bm25,
            static_embeddings,
            specificity,
        })
    }

    /// Embedding dimension of the index's encoder.
    pub fn dim(&self) -> usize {
        self.header.encoder.dim as usize
    }

    /// The id of `phrase` (already normalised), if it is a node.
    pub fn phrase_id(&self, phrase: &str) -> Option<u32> {
        self.phrases
            .binary_search_by(|p| p.as_str().cmp(phrase))
            .ok()
            .map(|i| i as u32)
    }

    /// The id of `phrase` (already normalised) or of a node that is another inflected form of
    /// it ([`crate::text::phrase_stem_key`]; Russian), if any. A phrase shorter than
    /// [`MIN_INFLECTED_CHARS`] characters matches only itself: a short word's stem is shared by
    /// unrelated words ("жил", lived, and "жилой", residential).
    pub fn phrase_id_inflected(&self, phrase: &str) -> Option<u32> {
        self.phrase_id(phrase).or_else(|| {
            if phrase.chars().count() < MIN_INFLECTED_CHARS {
                return None;
            }
            let key = phrase_stem_key(phrase, self.header.build.language)?;
            self.phrase_stems
                .binary_search_by(|(k, _)| k.as_str().cmp(&key))
                .ok()
                .map(|i| self.phrase_stems[i].1)
        })
    }
}

/// The page of every passage as a dense id, in passage order: passages whose URLs are equal
/// up to the `#anchor` share an id (a site's sections of one page); a passage without a URL is
/// its own page. Ids are numbered by first appearance.
pub fn passage_pages(passages: &[Passage]) -> Vec<u32> {
    let mut ids: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    let mut next = 0u32;
    passages
        .iter()
        .map(|p| {
            let page = p
                .url
                .as_deref()
                .map_or("", |u| u.split('#').next().unwrap_or(""));
            let id = if page.is_empty() {
                next
            } else {
                *ids.entry(page).or_insert(next)
            };
            if id == next {
                next += 1;
            }
            id
        })
        .collect()
}
