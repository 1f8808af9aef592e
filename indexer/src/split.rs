//! Writes the index in pieces ([`hipporag_wasm::pieces`], whose module docs give the layout) from
//! an [`IndexData`] with BM25: the meta piece, term pieces cut at key boundaries every
//! [`SplitOptions::term_piece_bytes`] (at most [`MAX_TERM_PIECES`] pieces), cluster pieces of
//! the static embeddings' IVF clusters (one cluster each, the small ones together up to
//! [`SplitOptions::cluster_piece_bytes`]), phrase pieces of the phrase nodes in key order with
//! their node specificity and PPR vector (cut every [`SplitOptions::phrase_piece_bytes`], at
//! most [`MAX_PHRASE_PIECES`] pieces), and fragment pieces of passages in passage order (each
//! passage's text cut to [`SplitOptions::fragment_text_chars`]), cut every
//! [`SplitOptions::fragment_piece_gzip_bytes`] of gzipped JSON (at most [`MAX_FRAGMENT_PIECES`]
//! pieces).
//!
//! The meta piece is named by its hash; the others by the build id, a hash of them all
//! ([`hipporag_wasm::pieces::build_id`]), and their kind and number.
//!
//! Deterministic: the same data and options give the same pieces, names and bytes (gzip at
//! level 9 with no file name and mtime 0; the meta and term pieces with a sync flush between
//! fields, [`hipporag_wasm::pieces::PieceSections`]).

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use hipporag_wasm::embeddings::NO_CLUSTER;
use hipporag_wasm::graph::inverse_degrees;
use hipporag_wasm::graph::{PprVector, phrase_ppr_vector};
use hipporag_wasm::index::{Index, IndexData, passage_pages};
use hipporag_wasm::lexical::{DELETES_KEY_PREFIX, deletes_key, entry_keys};
use hipporag_wasm::pieces::{
    ClusterPiece, ClusterRef, FragmentRange, FrontCoded, MetaPiece, PhrasePiece, PhraseRange,
    PieceKind, PieceSections, Pieces, StaticMeta, StoredTermPiece, TermPiece, TermRange, build_id,
    encode_piece, meta_name, parse_meta_name, piece_hash, piece_name, tag,
};
use hipporag_wasm::search::RetrieveOptions;

use crate::{Error, Result};

/// Where to cut pieces (uncompressed bytes but for the fragments; a piece ends at the first
/// boundary past it).
#[derive(Debug, Clone, Copy)]
pub struct SplitOptions {
    /// Term pieces: posting lists and sign rows (raised on a site whose keys would take more
    /// than [`MAX_TERM_PIECES`]).
    pub term_piece_bytes: usize,
    /// Cluster pieces: the IVF clusters taken in ascending size (passage codes and gaps), as
    /// many to a piece as fit in this, so that a cluster this large or larger is a piece of
    /// its own and smaller ones share (0: a piece per cluster).
    pub cluster_piece_bytes: usize,
    /// Phrase pieces: phrase keys with their passage counts and PPR vectors (raised on a site
    /// whose phrases would take more than [`MAX_PHRASE_PIECES`]).
    pub phrase_piece_bytes: usize,
    /// Fragment pieces: runs of passages, cut by their JSON's **gzipped** bytes (each
    /// passage's share measured in one deflate stream over its run of the site,
    /// `compressed_sizes`), so that every fragment piece costs a result about the same
    /// bytes on the wire however well its passages compress (raised on a site whose passages
    /// would take more than [`MAX_FRAGMENT_PIECES`]).
    pub fragment_piece_gzip_bytes: usize,
    /// Characters of each passage's text a fragment holds (what a result's `data()` gives as
    /// `content`, and its excerpt is cut from), 0 for the whole text ([`fragment_text`]).
    pub fragment_text_chars: usize,
}

impl Default for SplitOptions {
    /// 6 KB of terms, 4 KB of phrases, a piece per IVF cluster (the clusters are bounded in
    /// size, [`crate::ivf::CLUSTER_CAPACITY_PERCENT`], so none is small enough
    /// to share with profit), 1.7 KB of gzipped fragments holding whole passage texts
    /// ([`DEFAULT_FRAGMENT_TEXT_CHARS`]). docs/index-format.md ("How to cut the pieces") has
    /// the sweeps these came from.
    fn default() -> Self {
        Self {
            term_piece_bytes: TERM_PIECE_BYTES,
            cluster_piece_bytes: 0,
            phrase_piece_bytes: PHRASE_PIECE_BYTES,
            fragment_piece_gzip_bytes: FRAGMENT_PIECE_GZIP_BYTES,
            fragment_text_chars: DEFAULT_FRAGMENT_TEXT_CHARS,
        }
    }
}

/// [`SplitOptions::term_piece_bytes`] by default (docs/index-format.md, "Pieces named by the
/// build id").
pub const TERM_PIECE_BYTES: usize = 6_000;

/// [`SplitOptions::phrase_piece_bytes`] by default (docs/index-format.md, "Pieces named by the
/// build id").
pub const PHRASE_PIECE_BYTES: usize = 4_000;

/// The most term pieces a site gets: past it, pieces grow instead (as
/// [`MAX_FRAGMENT_PIECES`]), so that with [`MAX_PHRASE_PIECES`], [`MAX_FRAGMENT_PIECES`] and
/// the IVF clusters (`static_embeddings::max_clusters`) a site of 200,000 passages stays under
/// 5,000 files.
pub const MAX_TERM_PIECES: usize = 1_000;

/// The most phrase pieces a site gets: past it, pieces grow instead ([`MAX_TERM_PIECES`]).
pub const MAX_PHRASE_PIECES: usize = 1_000;

/// [`SplitOptions::fragment_text_chars`] by default: 0, the whole text, so that a result's
/// excerpt (`src/excerpt.rs`: the 30-word window with the most query terms, as Pagefind's)
/// can come from anywhere in its passage. A cut makes fragment pieces hold more passages,
/// but the excerpt can then only show a passage's beginning (docs/index-format.md, "Whole
/// texts in 8 KB fragments").
pub const DEFAULT_FRAGMENT_TEXT_CHARS: usize = 0;

/// [`SplitOptions::fragment_piece_gzip_bytes`] by default: Python's docs get about as many
/// fragment pieces as when they were cut every 6,000 bytes of JSON, the size
/// docs/index-format.md ("How to cut the pieces") chose (a piece compressed alone is larger
/// than its passages' shares, `compressed_sizes`, which count what the passages before it
/// let deflate reuse: docs/benchmarks.md, "Fragment pieces cut by their gzipped bytes").
pub const FRAGMENT_PIECE_GZIP_BYTES: usize = 1_700;

/// The most fragment pieces a site gets: past `MAX_FRAGMENT_PIECES ×`
/// [`SplitOptions::fragment_piece_gzip_bytes`] of gzipped passage JSON, pieces grow to keep the count, so a
/// large site's file count stays within static hosts' limits (some cap a site at 20,000
/// files) at more bytes per result shown.
pub const MAX_FRAGMENT_PIECES: usize = 2_000;

/// The opening of `text` a fragment holds, at most `chars` characters: all of it when it fits
/// (or `chars` is 0), else its first `chars − 1` characters cut back to the last whitespace
/// (when that keeps at least half of them) and trimmed, then `…`.
pub fn fragment_text(text: &str, chars: usize) -> String {
    if chars == 0 || text.chars().nth(chars).is_none() {
        return text.to_string();
    }
    let end = text
        .char_indices()
        .nth(chars - 1)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let cut = head
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .filter(|&i| head[..i].chars().count() >= chars / 2)
        .unwrap_or(end);
    format!("{}…", head[..cut].trim_end())
}

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
pub struct SplitIndexFiles {
    /// The meta piece (its name goes into `hipporag-entry.json`).
    pub meta: Piece,
    /// Term, cluster, phrase and fragment pieces, in that order.
    pub pieces: Vec<Piece>,
    /// Term, cluster, phrase and fragment piece counts.
    pub counts: [usize; 4],
}

fn gzip(bytes: &[u8]) -> Piece {
    gzip_sections(&[bytes])
}

/// One gzip member of `sections` in order, a sync flush after each but the last, so that each
/// starts a deflate block with its own Huffman codes ([`PieceSections`]; on Python's docs this
/// made the term pieces 5.5% smaller than one level-9 deflate run over the same bytes; the
/// cluster pieces, two sections of which one is random sign bits, grew 1.2%, so they are not
/// cut).
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
        name: String::new(), // named once every piece is made: split_index
        bytes: e.finish().expect("writing to a Vec cannot fail"),
    }
}

/// Passages whose compressed sizes one deflate stream measures (`compressed_sizes`): the
/// streams run in parallel, and a passage's share depends only on the passages before it in
/// its own run of this many.
const SIZE_RUN: usize = 1_024;

/// Raw bytes of JSON per measured group of `compressed_sizes`.
const SIZE_GROUP: usize = 4_096;

/// Each of `texts`' share of a level-9 deflate stream over them in order, in bytes: texts are
/// written in groups of about [`SIZE_GROUP`] bytes, the stream flushed after each group (a
/// sync flush), and the group's growth shared among its texts by their lengths. One stream
/// per run of [`SIZE_RUN`] texts, so a share counts what the texts before it in its run let
/// deflate reuse (a page's titles and URLs repeat from one passage to the next), as a piece
/// of consecutive passages would; groups rather than single texts, so that the flushes' block
/// headers do not swamp the shares of short, repetitive texts.
fn compressed_sizes(texts: &[String]) -> Vec<usize> {
    let runs: Vec<&[String]> = texts.chunks(SIZE_RUN).collect();
    crate::parallel::map(&runs, |run| {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::best());
        let mut out = Vec::with_capacity(run.len());
        let (mut first, mut raw, mut start) = (0, 0, 0);
        for (k, t) in run.iter().enumerate() {
            e.write_all(t.as_bytes())
                .expect("writing to a Vec cannot fail");
            raw += t.len();
            if raw >= SIZE_GROUP || k + 1 == run.len() {
                e.flush().expect("writing to a Vec cannot fail");
                let grown = (e.get_ref().len() - start) as f64;
                let group = &run[first..=k];
                out.extend(
                    group
                        .iter()
                        .map(|t| (grown * t.len() as f64 / raw.max(1) as f64).round() as usize),
                );
                (first, raw, start) = (k + 1, 0, e.get_ref().len());
            }
        }
        out
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Postcard's size of a varint.
fn varint_len(x: u32) -> usize {
    (32 - x.leading_zeros() as usize).max(1).div_ceil(7)
}

/// The pieces of `data` (see the module docs).
///
/// # Errors
/// [`Error::InvalidRequest`] when `data` has no BM25 index (it is built with every index of
/// this version).
pub fn split_index(data: &IndexData, opts: &SplitOptions) -> Result<SplitIndexFiles> {
    let Some(bm25) = &data.bm25 else {
        return Err(Error::InvalidRequest(
            "the index has no BM25 index, which the index in pieces needs: rebuild it with this version of hipporag".into(),
        ));
    };
    let statics = data.static_embeddings.as_ref();
    let dim_bytes = statics.map_or(0, |s| s.dim as usize / 8);

    // Term pieces: BM25 terms, static words and the deletes dictionary's keys merged in key
    // order (the deletes' keys sort first, [`DELETES_KEY_PREFIX`]), cut between keys.
    let words: &[String] = statics.map_or(&[], |s| &s.words);
    let deletes = deletes_dictionary(&bm25.terms, words);
    let delete_keys: Vec<String> = deletes.keys().map(|k| deletes_key(k)).collect();
    let mut keys: Vec<&str> = bm25
        .terms
        .iter()
        .chain(words)
        .chain(&delete_keys)
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    // Each posting's BM25 impact, what the term pieces hold instead of term frequencies and the
    // passages' lengths.
    let impacts = bm25.impacts();
    // A BM25 term's bytes in its piece: the key, its postings' gap varints and an impact byte
    // each. A static word's are the key and its sign row; a deletes key's, the key and its
    // entries. Summed over all keys for the cap on the piece count.
    let term_bytes = |t: usize| {
        let (a, b) = (bm25.ptr[t] as usize, bm25.ptr[t + 1] as usize);
        bm25.terms[t].len()
            + (b - a)
            + bm25.gaps[a..b]
                .iter()
                .map(|&x| varint_len(x))
                .sum::<usize>()
    };
    let deletes_bytes =
        |key: &str, entries: &[&str]| key.len() + entries.iter().map(|e| e.len()).sum::<usize>();
    let total = (0..bm25.terms.len()).map(term_bytes).sum::<usize>()
        + words.iter().map(|w| w.len() + dim_bytes).sum::<usize>()
        + deletes
            .iter()
            .map(|(k, e)| deletes_bytes(k, e))
            .sum::<usize>();
    let term_piece_bytes = opts.term_piece_bytes.max(total.div_ceil(MAX_TERM_PIECES));
    let (mut ti, mut wi) = (0, 0);
    let mut term_pieces: Vec<(String, TermPiece)> = Vec::new();
    let mut size = usize::MAX;
    let mut prev_key = "";
    for key in keys {
        if size >= term_piece_bytes {
            let first = if term_pieces.is_empty() {
                String::new()
            } else {
                separator(prev_key, key)
            };
            term_pieces.push((first, TermPiece::default()));
            size = 0;
        }
        prev_key = key;
        let p = &mut term_pieces.last_mut().expect("a piece is open").1;
        if let Some(k) = key.strip_prefix(DELETES_KEY_PREFIX) {
            let entries = &deletes[k];
            if p.deletes_ptr.is_empty() {
                p.deletes_ptr.push(0);
            }
            p.deletes.push(k.to_string());
            p.entries.extend(entries.iter().map(|e| e.to_string()));
            p.deletes_ptr.push(p.entries.len() as u32);
            size += deletes_bytes(k, entries);
            continue;
        }
        if bm25.terms.get(ti).is_some_and(|t| t == key) {
            let (a, b) = (bm25.ptr[ti] as usize, bm25.ptr[ti + 1] as usize);
            if p.ptr.is_empty() {
                p.ptr.push(0);
            }
            p.terms.push(key.to_string());
            p.gaps.extend_from_slice(&bm25.gaps[a..b]);
            p.impacts.extend_from_slice(&impacts[a..b]);
            p.ptr.push(p.gaps.len() as u32);
            size += term_bytes(ti);
            ti += 1;
        }
        if let Some(s) = statics.filter(|s| s.words.get(wi).is_some_and(|w| w == key)) {
            p.words.push(key.to_string());
            p.df.push(s.df[wi]);
            p.signs
                .extend_from_slice(&s.signs[wi * dim_bytes..(wi + 1) * dim_bytes]);
            size += key.len() + dim_bytes;
            wi += 1;
        }
    }
    for (_, p) in &mut term_pieces {
        if p.ptr.is_empty() {
            p.ptr.push(0);
        }
    }

    // Every piece is gzipped at level 9 on its own, so they are compressed in parallel (the
    // same bytes in the same order; most of a large site's pieces are fragments and terms).
    let (terms, stored): (Vec<TermRange>, Vec<StoredTermPiece>) = term_pieces
        .into_iter()
        .map(|(first, p)| (TermRange { first }, StoredTermPiece::from(p)))
        .unzip();
    let mut pieces = crate::parallel::map(&stored, |stored| {
        debug_assert_eq!(stored.sections().concat(), encode_piece(tag::TERM, stored));
        gzip_sections(&stored.sections())
    });
    drop(stored);

    // Cluster pieces: the IVF clusters in ascending size, each piece as many as fit in
    // `cluster_piece_bytes` (so a large cluster is a piece of its own, and small ones share).
    let mut clusters = Vec::new();
    if let Some(s) = statics {
        let c = s.centroids.len() / dim_bytes;
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); c];
        for (j, &k) in s.clusters.iter().enumerate() {
            if k != NO_CLUSTER {
                members[k as usize].push(j);
            }
        }
        let size = |k: usize| members[k].len() * (dim_bytes + 1);
        let mut by_size: Vec<usize> = (0..c).collect();
        by_size.sort_by_key(|&k| (size(k), k));
        // A piece takes the next cluster while it stays within `cluster_piece_bytes`.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut acc = 0;
        for k in by_size {
            match groups.last_mut() {
                Some(g) if acc + size(k) <= opts.cluster_piece_bytes => g.push(k),
                _ => {
                    groups.push(vec![k]);
                    acc = 0;
                }
            }
            acc += size(k);
        }
        for g in &mut groups {
            g.sort_unstable();
        }
        groups.sort_unstable();
        pieces.extend(crate::parallel::map(&groups, |g| {
            let mut piece = ClusterPiece::default();
            for &k in g {
                piece.counts.push(members[k].len() as u32);
                let mut prev = 0;
                for &j in &members[k] {
                    piece.gaps.push((j - prev) as u32);
                    prev = j;
                    piece
                        .codes
                        .extend_from_slice(&s.codes[j * dim_bytes..(j + 1) * dim_bytes]);
                }
            }
            gzip(&encode_piece(tag::CLUSTER, &piece))
        }));
        clusters.extend(groups.iter().map(|g| ClusterRef {
            clusters: g.iter().map(|&k| k as u32).collect(),
        }));
    }

    // Phrase pieces: the phrase nodes (and Russian inflection keys) in key order, each with its
    // |P_i| and PPR vector, cut between keys.
    let damping = RetrieveOptions::default().damping;
    let (phrases_meta, phrase_count) = phrase_pieces(data, damping, opts, &mut pieces)?;

    // Fragment pieces: runs of passages in passage order (a page's passages together), cut
    // every `fragment_piece_gzip_bytes` of gzipped JSON (more on a site past
    // MAX_FRAGMENT_PIECES of them).
    let pages = passage_pages(&data.passages);
    // Each passage's JSON object, written once: its compressed share and its piece read it.
    let json: Vec<String> = data
        .passages
        .iter()
        .enumerate()
        .map(|(j, p)| {
            serde_json::json!({
                "id": j,
                "title": p.title,
                "url": p.url,
                "text": fragment_text(&p.text, opts.fragment_text_chars),
            })
            .to_string()
        })
        .collect();
    let order: Vec<usize> = (0..data.passages.len()).collect();
    let sizes = compressed_sizes(&json);
    let fragment_runs = capped_runs(
        &order,
        opts.fragment_piece_gzip_bytes,
        MAX_FRAGMENT_PIECES,
        |j| sizes[j],
    );
    let fragments: Vec<FragmentRange> = fragment_runs
        .iter()
        .map(|run| FragmentRange {
            first: run[0] as u32,
        })
        .collect();
    pieces.extend(crate::parallel::map(&fragment_runs, |run| {
        let passages: Vec<&str> = run.iter().map(|&j| json[j].as_str()).collect();
        gzip(format!("{{\"passages\":[{}]}}", passages.join(",")).as_bytes())
    }));

    // The stopwords and their stems that are no key (the indexer leaves them out of both).
    let mut stopwords: Vec<String> = crate::bm25::stopwords(bm25.language)
        .into_iter()
        .chain(crate::bm25::stopword_terms(bm25.language))
        .filter(|w| bm25.terms.binary_search(w).is_err() && words.binary_search(w).is_err())
        .collect();
    stopwords.sort_unstable();
    stopwords.dedup();
    let counts = [
        terms.len(),
        clusters.len(),
        phrases_meta.len(),
        fragments.len(),
    ];
    // Name the pieces by the build id, now that their bytes are known.
    let build = build_id(pieces.iter().map(|p| p.bytes.as_slice()));
    let kinds = [
        PieceKind::Term,
        PieceKind::Cluster,
        PieceKind::Phrase,
        PieceKind::Fragment,
    ];
    let mut named = pieces.iter_mut();
    for (kind, count) in kinds.into_iter().zip(counts) {
        for (i, p) in named.by_ref().take(count).enumerate() {
            p.name = piece_name(&build, kind, i);
        }
    }
    let meta = MetaPiece {
        passages: data.passages.len() as u32,
        pages,
        bm25_params: bm25.params,
        language: bm25.language,
        stopwords,
        statics: statics.map(|s| StaticMeta {
            model: s.model.clone(),
            dim: s.dim,
            centroids: s.centroids.clone(),
            nprobe: s.nprobe,
        }),
        terms,
        clusters,
        fragments,
        phrases: phrase_count,
        phrase_pieces: phrases_meta,
        query_stopwords: data.header.build.query_stopwords.clone(),
        damping,
        build,
    };
    let mut meta = gzip_sections(&meta.sections());
    meta.name = meta_name(&piece_hash(&meta.bytes));
    Ok(SplitIndexFiles {
        meta,
        pieces,
        counts,
    })
}

/// Every phrase node's PPR vector at `damping` ([`phrase_ppr_vector`] over HippoRAG 2's graph
/// of `index`), in phrase order; in parallel with the `parallel` feature.
///
/// # Errors
/// As [`phrase_ppr_vector`].
pub fn ppr_vectors(index: &Index, damping: f64) -> Result<Vec<PprVector>> {
    let g = hipporag_wasm::graph::build_passage_graph(index);
    let inv = inverse_degrees(&g);
    let n = index.phrases.len();
    let one = |i: usize| phrase_ppr_vector(&g, &inv, n, i as u32, damping);
    let out: hipporag_wasm::Result<Vec<PprVector>> =
        crate::parallel::map_range(n, one).into_iter().collect();
    Ok(out?)
}

/// The phrase pieces of `data` (pushed to `pieces`) and their ranges, with the phrase count.
fn phrase_pieces(
    data: &IndexData,
    damping: f64,
    opts: &SplitOptions,
    pieces: &mut Vec<Piece>,
) -> Result<(Vec<PhraseRange>, u32)> {
    if data.phrases.is_empty() {
        return Ok((Vec::new(), 0));
    }
    let index = Index::from_data(data.clone())?;
    let vectors = ppr_vectors(&index, damping)?;
    let passage_count = |i: usize| {
        index
            .phrase_passages
            .outer_view(i)
            .map_or(0, |r| r.nnz() as u32)
    };
    // Keys in order: a phrase (its id) or an inflection key (its entry in phrase_stems).
    enum Key {
        Phrase(usize),
        Stem(usize),
    }
    let key_text = |k: &Key| match *k {
        Key::Phrase(i) => index.phrases[i].as_str(),
        Key::Stem(s) => index.phrase_stems[s].0.as_str(),
    };
    let mut keys: Vec<Key> = (0..index.phrases.len())
        .map(Key::Phrase)
        .chain((0..index.phrase_stems.len()).map(Key::Stem))
        .collect();
    keys.sort_by(|a, b| key_text(a).cmp(key_text(b)));
    let size = |k: &Key| {
        let v = match *k {
            Key::Phrase(i) => &vectors[i],
            Key::Stem(s) => &vectors[index.phrase_stems[s].1 as usize],
        };
        key_text(k).len() + 6 + 3 * v.passages.len()
    };
    let piece_bytes = opts.phrase_piece_bytes.max(
        keys.iter()
            .map(size)
            .sum::<usize>()
            .div_ceil(MAX_PHRASE_PIECES),
    );
    let mut ranges = Vec::new();
    let mut built: Vec<PhrasePiece> = Vec::new();
    let mut start = 0;
    while start < keys.len() {
        let mut end = start;
        let mut acc = 0;
        // A piece ends between two different keys (a Russian inflection key may equal a
        // phrase's text: both stay in one piece).
        while end < keys.len()
            && (end == start
                || acc < piece_bytes
                || key_text(&keys[end]) == key_text(&keys[end - 1]))
        {
            acc += size(&keys[end]);
            end += 1;
        }
        let run = &keys[start..end];
        let mut piece = PhrasePiece::default();
        let mut phrases: Vec<String> = Vec::new();
        let mut stems: Vec<String> = Vec::new();
        let (mut phrase_vectors, mut stem_vectors) = (Vec::new(), Vec::new());
        let (mut phrase_counts, mut stem_counts) = (Vec::new(), Vec::new());
        for k in run {
            match *k {
                Key::Phrase(i) => {
                    if phrases.is_empty() {
                        piece.first_id = i as u32;
                    }
                    phrases.push(index.phrases[i].clone());
                    phrase_vectors.push(&vectors[i]);
                    phrase_counts.push(passage_count(i));
                }
                Key::Stem(s) => {
                    let (key, id) = &index.phrase_stems[s];
                    stems.push(key.clone());
                    piece.stem_ids.push(*id);
                    piece.stem_texts.push(index.phrases[*id as usize].clone());
                    stem_vectors.push(&vectors[*id as usize]);
                    stem_counts.push(passage_count(*id as usize));
                }
            }
        }
        piece.phrases = FrontCoded::new(&phrases);
        piece.stems = FrontCoded::new(&stems);
        piece.passage_counts = phrase_counts.into_iter().chain(stem_counts).collect();
        for v in phrase_vectors.into_iter().chain(stem_vectors) {
            piece.counts.push(v.passages.len() as u8);
            let mut prev = 0;
            for &j in &v.passages {
                piece.gaps.push(j - prev);
                prev = j;
            }
            piece.codes.extend_from_slice(&v.codes);
            piece.scales.push(v.scale);
        }
        debug_assert_eq!(piece.sections().concat(), encode_piece(tag::PHRASE, &piece));
        ranges.push(PhraseRange {
            first: if ranges.is_empty() {
                String::new()
            } else {
                separator(key_text(&keys[start - 1]), key_text(&run[0]))
            },
        });
        built.push(piece);
        start = end;
    }
    pieces.extend(crate::parallel::map(&built, |p| {
        gzip_sections(&p.sections())
    }));
    Ok((ranges, index.phrases.len() as u32))
}

/// The deletes dictionary of `terms` and `words` ([`hipporag_wasm::lexical`]): each entry key
/// with the distinct entries listed under it, sorted.
fn deletes_dictionary<'a>(
    terms: &'a [String],
    words: &'a [String],
) -> std::collections::BTreeMap<String, Vec<&'a str>> {
    let mut out: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for u in terms.iter().chain(words) {
        for k in entry_keys(u) {
            out.entry(k).or_default().push(u);
        }
    }
    for entries in out.values_mut() {
        entries.sort_unstable();
        entries.dedup();
    }
    out
}

/// The shortest prefix of `first` that sorts after `prev` (`prev < first`): what a piece
/// boundary in the meta piece needs to tell a piece's keys from the previous piece's, as
/// LevelDB's `FindShortestSeparator` shortens its index blocks' keys. Every key of the earlier
/// piece is below it and every key of its piece at or above it, and a key prefix's pieces
/// are the same as with whole keys (a boundary past the prefix's own piece starts with the
/// prefix exactly when its piece's first key does).
fn separator(prev: &str, first: &str) -> String {
    debug_assert!(prev < first, "{prev:?} < {first:?}");
    let common = prev
        .chars()
        .zip(first.chars())
        .take_while(|(a, b)| a == b)
        .count();
    first.chars().take(common + 1).collect()
}

/// `items` cut into runs, each ending at the first item that takes its size to `target` or past.
fn runs(items: &[usize], target: usize, size: impl Fn(usize) -> usize) -> Vec<&[usize]> {
    let mut out = Vec::new();
    let (mut start, mut acc) = (0, 0);
    for (k, &j) in items.iter().enumerate() {
        acc += size(j);
        if acc >= target {
            out.push(&items[start..=k]);
            (start, acc) = (k + 1, 0);
        }
    }
    if start < items.len() {
        out.push(&items[start..]);
    }
    out
}

/// Reads an index in pieces from a directory, as a page fetches it: each piece by its name,
/// then decompressed (gzip's CRC-32 checked).
#[derive(Debug, Clone)]
pub struct PieceDir {
    dir: std::path::PathBuf,
}

impl PieceDir {
    /// The pieces in `dir` (a site's `_hipporag/index/`).
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The decompressed bytes of the piece named `name`.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file when it cannot be read or is not a whole gzip member
    /// (a damaged piece fails its CRC-32).
    pub fn read(&self, name: &str) -> Result<Vec<u8>> {
        use std::io::Read;
        let path = self.dir.join(name);
        let stored = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(stored.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| Error::io(&path, e))?;
        Ok(out)
    }

    /// Loads the meta piece named `meta` (`{hash}.bin`).
    ///
    /// # Errors
    /// As [`PieceDir::read`] and [`Pieces::from_meta`]; [`Error::InvalidRequest`] for a
    /// name that is not 16 hex digits + `.bin`.
    pub fn open(&self, meta: &str) -> Result<Pieces> {
        parse_meta_name(meta).ok_or_else(|| {
            Error::InvalidRequest(format!(
                "{meta}: not a meta piece name ({{16 hex digits}}.bin)"
            ))
        })?;
        Ok(Pieces::from_meta(&self.read(meta)?).map_err(|e| e.in_source(meta))?)
    }

    /// Loads what `question` needs into `index` ([`Pieces::load`]) and ranks
    /// ([`Pieces::search`]).
    ///
    /// # Errors
    /// As [`PieceDir::read`], [`Pieces::add`], [`Pieces::search`].
    pub fn search(
        &self,
        index: &mut Pieces,
        question: &str,
        opts: &RetrieveOptions,
    ) -> Result<Vec<(usize, f64)>> {
        index.load(question, &mut |name| self.read(name))?;
        Ok(index.search(question, opts)?)
    }
}

/// [`runs`] at `target`, or, when that gives more than `cap` runs, at the smallest target
/// that gives at most `cap` (found by bisection: the greedy cut's run count never grows with
/// its target), so that a site past the cap gets exactly as many pieces as it may.
fn capped_runs(
    items: &[usize],
    target: usize,
    cap: usize,
    size: impl Fn(usize) -> usize,
) -> Vec<&[usize]> {
    let count = |t: usize| runs(items, t, &size).len();
    if count(target) <= cap {
        return runs(items, target, &size);
    }
    let (mut lo, mut hi) = (target, items.iter().map(|&j| size(j)).sum::<usize>().max(1));
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if count(mid) <= cap {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    runs(items, hi, &size)
}

#[cfg(test)]
mod tests {
    use super::{compressed_sizes, fragment_text, gzip, runs, separator};

    /// Fragment JSON of two kinds, as rust-doc has them: 600 rows of one trait implementation
    /// listing (one long heading path, a line of text each; the rows of a rustdoc page) and
    /// 600 passages of Wikipedia prose (musique_train's corpus, `../shared/data`). Cut by their
    /// gzipped shares, every piece but the last gzips to within 2× of the others; cut by raw
    /// bytes into as many pieces, the prose pieces gzip to several times the listing ones.
    #[test]
    fn fragment_pieces_cut_by_gzipped_shares_cost_alike() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/musique_train/musique_train_corpus.json"
        );
        let corpus: Vec<serde_json::Value> =
            serde_json::from_slice(&std::fs::read(path).expect(path)).expect("the corpus JSON");
        let methods = [
            "map", "filter", "fold", "zip", "chain", "take", "skip", "step_by",
        ];
        let mut records: Vec<String> = (0..600)
            .map(|j| {
                let m = methods[j % methods.len()];
                serde_json::json!({
                    "id": j,
                    "title": format!("Struct std::collections::hash_map::DrainFilter › Trait Implementations › impl<K, V, F> Iterator for DrainFilter<'_, K, V, F> › fn {m}"),
                    "url": format!("/std/collections/hash_map/struct.DrainFilter.html#method.{m}"),
                    "text": format!("Calls a closure on each element of an iterator ({m}). Read more\n1.0.0 · source"),
                })
                .to_string()
            })
            .collect();
        records.extend(corpus.iter().take(600).enumerate().map(|(k, p)| {
            serde_json::json!({"id": 600 + k, "title": p["title"], "url": format!("/wiki/{k}.html"), "text": p["text"]})
                .to_string()
        }));
        let order: Vec<usize> = (0..records.len()).collect();
        let gz = |cut: &[&[usize]]| -> Vec<usize> {
            cut.iter()
                .map(|run| {
                    let json: Vec<&str> = run.iter().map(|&j| records[j].as_str()).collect();
                    gzip(format!("{{\"passages\":[{}]}}", json.join(",")).as_bytes())
                        .bytes
                        .len()
                })
                .collect()
        };
        let spread = |sizes: &[usize]| {
            let body = &sizes[..sizes.len() - 1];
            *body.iter().max().unwrap() as f64 / *body.iter().min().unwrap() as f64
        };
        let shares = compressed_sizes(&records);
        let by_share = gz(&runs(&order, 2_000, |j| shares[j]));
        assert!(by_share.len() >= 20, "{} pieces", by_share.len());
        assert!(spread(&by_share) < 2.0, "gzipped shares: {by_share:?}");
        let raw_target = records.iter().map(|r| r.len()).sum::<usize>() / by_share.len();
        let by_raw = gz(&runs(&order, raw_target, |j| records[j].len()));
        assert!(spread(&by_raw) > 3.0, "raw bytes: {by_raw:?}");
    }

    #[test]
    fn separator_is_the_shortest_prefix_of_first_after_prev() {
        assert_eq!(separator("numbers", "numpy array"), "nump");
        // `prev` a prefix of `first`: one character past it.
        assert_eq!(separator("sort", "sorted"), "sorte");
        assert_eq!(separator("abc", "b"), "b");
        // Characters, not bytes: "пр" < "пу" at the second character.
        assert_eq!(separator("правило", "пуск"), "пу");
        for (prev, first) in [("numbers", "numpy array"), ("sort", "sorted"), ("a", "ab")] {
            let s = separator(prev, first);
            assert!(
                prev < s.as_str() && s.as_str() <= first,
                "{prev} < {s} <= {first}"
            );
        }
    }

    #[test]
    fn fragment_text_keeps_short_texts_and_cuts_long_ones_at_a_space() {
        assert_eq!(fragment_text("short text", 240), "short text");
        assert_eq!(fragment_text("exactly ten", 11), "exactly ten");
        assert_eq!(fragment_text("anything at all", 0), "anything at all");
        // 12 characters at most: "one two" (7) + "…", cut back from "one two thr".
        assert_eq!(fragment_text("one two three four", 12), "one two…");
        // No space in the second half: cut mid-word.
        assert_eq!(fragment_text("abcdefghijklmnop", 8), "abcdefg…");
    }

    #[test]
    fn fragment_text_counts_characters_not_bytes() {
        // Cyrillic and CJK take 2 and 3 bytes a character; the cut stays on a boundary.
        let ru = "Персонализированный PageRank распространяет массу по графу";
        let cut = fragment_text(ru, 30);
        assert_eq!(cut, "Персонализированный PageRank…");
        assert!(cut.chars().count() <= 30);
        let zh = "个性化PageRank算法在HippoRAG中起什么作用";
        assert_eq!(fragment_text(zh, 10), "个性化PageRa…");
    }
}
