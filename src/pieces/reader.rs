//! [`Pieces`]: the index in pieces on the query side: the meta piece checked, each piece
//! checked as it is added, and the loaded pieces read as an [`IndexReader`].

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::{
    ClusterPiece, ClusterRef, FragmentRange, MetaPiece, PhrasePiece, StoredTermPiece, TermPiece,
    decode_piece, tag,
};
use crate::embeddings::{CodeScorer, StaticVocabulary, probe};
use crate::error::FormatProblem;
use crate::graph::{
    PPR_VECTOR_PASSAGES, PhraseLookup, PhraseNode, PprVector, extract_query_entities, lookup_keys,
};
use crate::index::MIN_INFLECTED_CHARS;
use crate::lexical::{
    Bm25, IMPACT_LEVELS, ImpactPostings, QueryTerms, TermDictionary, check_postings, deletes_key,
    query_keys,
};
use crate::search::{
    HybridQuery, IndexReader, Mode, RetrieveOptions, bm25_scores, bm25_upper_bound, check_options,
    excerpt, hybrid, mask_disallowed, searched_part, top_k_within,
};
use crate::text::{Language, is_neighbour};
use crate::{Error, Result};

fn invalid(field: &'static str, message: String) -> Error {
    FormatProblem::Invalid { field, message }.into()
}

/// Checks that `v` is sorted and distinct.
fn sorted(field: &'static str, v: &[String]) -> Result<()> {
    match v.windows(2).position(|w| w[0] >= w[1]) {
        Some(i) => Err(invalid(
            field,
            format!("not sorted and distinct at {}", i + 1),
        )),
        None => Ok(()),
    }
}

/// The cluster piece of each of `c` IVF clusters, from the meta piece's list: every cluster
/// in exactly one piece, each piece's ids ascending and not empty (one error, naming
/// `meta.clusters`, for any breach).
fn cluster_pieces(pieces: &[ClusterRef], c: usize) -> Result<Vec<u32>> {
    let mut of = vec![u32::MAX; c];
    let mut ok = true;
    for (i, p) in pieces.iter().enumerate() {
        ok &= !p.clusters.is_empty() && p.clusters.windows(2).all(|w| w[0] < w[1]);
        for &k in &p.clusters {
            match of.get_mut(k as usize) {
                Some(slot) if *slot == u32::MAX => *slot = i as u32,
                _ => ok = false,
            }
        }
    }
    if ok && !of.contains(&u32::MAX) {
        return Ok(of);
    }
    Err(invalid(
        "meta.clusters",
        format!(
            "{} cluster pieces must hold each of the {c} IVF clusters once, in ascending ids",
            pieces.len()
        ),
    ))
}

/// Checks `meta.pages`: one page id per passage (`n`), dense (each page at most one past the
/// highest before it).
fn check_pages(pages: &[u32], n: usize) -> Result<()> {
    if pages.len() != n {
        return Err(invalid(
            "meta.pages",
            format!("{} pages for {n} passages", pages.len()),
        ));
    }
    let mut next = 0;
    for &p in pages {
        if p > next {
            return Err(invalid(
                "meta.pages",
                format!("page {p} before page {next}"),
            ));
        }
        next = next.max(p + 1);
    }
    Ok(())
}

/// Whether piece key ranges, given by their first keys, start at "" (when there are any) and
/// ascend strictly.
fn key_ranges_ascend<'a>(firsts: impl IntoIterator<Item = &'a str>) -> bool {
    let mut previous: Option<&str> = None;
    for key in firsts {
        let in_order = previous.map_or(key.is_empty(), |p| p < key);
        if !in_order {
            return false;
        }
        previous = Some(key);
    }
    true
}

/// Checks `meta.statics` and `meta.clusters` and returns the cluster piece of each IVF
/// cluster ([`cluster_pieces`]; empty without static embeddings).
fn check_statics(meta: &MetaPiece) -> Result<Vec<u32>> {
    let Some(s) = &meta.statics else {
        if !meta.clusters.is_empty() {
            return Err(invalid(
                "meta.clusters",
                "cluster pieces without static embeddings".into(),
            ));
        }
        return Ok(Vec::new());
    };
    let bytes = s.dim as usize / 8;
    if s.dim == 0 || s.dim % 8 != 0 || s.centroids.is_empty() {
        return Err(invalid(
            "meta.statics",
            format!("dim {} with {} centroid bytes", s.dim, s.centroids.len()),
        ));
    }
    let c = s.centroids.len() / bytes;
    if s.centroids.len() % bytes != 0 || s.nprobe == 0 || s.nprobe as usize > c {
        return Err(invalid(
            "meta.statics",
            format!(
                "{} centroid bytes of dim {}, nprobe {}",
                s.centroids.len(),
                s.dim,
                s.nprobe
            ),
        ));
    }
    cluster_pieces(&meta.clusters, c)
}

/// Checks `meta.fragments` over `n` passages: first passages start at 0, ascend strictly and
/// stay below `n`, with at least one piece when there are passages.
fn check_fragments(fragments: &[FragmentRange], n: usize) -> Result<()> {
    let ok = fragments.first().is_none_or(|f| f.first == 0)
        && fragments.windows(2).all(|w| w[0].first < w[1].first)
        && fragments.last().is_none_or(|f| (f.first as usize) < n)
        && (n == 0 || !fragments.is_empty());
    if ok {
        return Ok(());
    }
    Err(invalid(
        "meta.fragments",
        format!(
            "{} fragment pieces for {n} passages: first passages must start at 0, ascend \
             strictly and stay below {n}",
            fragments.len()
        ),
    ))
}

/// BM25's postings over the passages of `meta` with no posting list yet.
fn no_postings(meta: &MetaPiece) -> ImpactPostings {
    ImpactPostings {
        params: meta.bm25_params,
        language: meta.language,
        terms: Vec::new(),
        ptr: vec![0],
        gaps: Vec::new(),
        impacts: Vec::new(),
    }
}

/// The most term pieces one expanded word's key range fetches: a range past them is read only
/// as far as they go, so its expansions may then differ from the single file's
/// (docs/index-format.md, "Term pieces", has the measurements behind 16).
pub const MAX_RANGE_PIECES: usize = 16;

/// The index in pieces on the query side: the meta piece, checked, with the term, phrase and
/// cluster pieces loaded so far. [`Pieces::from_meta`]; per question, fetch what
/// [`Pieces::missing`] lists and [`Pieces::add`] each until nothing is missing (or let
/// [`Pieces::load`] do it), then [`Pieces::search`] (or [`Pieces::search_within`], among the
/// pages a filter allows). Pieces stay loaded for later questions.
#[derive(Debug, Clone)]
pub struct Pieces {
    pub(super) meta: MetaPiece,
    pub(super) terms: BTreeMap<usize, TermPiece>,
    /// The cluster piece of each IVF cluster (an index into `meta.clusters`).
    pub(super) cluster_piece: Vec<u32>,
    /// The loaded IVF clusters: cluster id → (passages ascending, their codes).
    pub(super) clusters: BTreeMap<usize, (Vec<u32>, Vec<u8>)>,
    /// The loaded phrase pieces.
    pub(super) phrases: BTreeMap<usize, Phrases>,
}

/// A phrase piece, decoded and checked.
#[derive(Debug, Clone)]
pub(super) struct Phrases {
    first_id: u32,
    phrases: Vec<String>,
    stems: Vec<String>,
    stem_ids: Vec<u32>,
    stem_texts: Vec<String>,
    /// `|Pᵢ|` of the phrases, then of the inflection keys' nodes.
    passage_counts: Vec<u32>,
    /// The PPR vectors, in the same order.
    vectors: Vec<PprVector>,
}

impl Pieces {
    /// Decodes and checks the meta piece (decompressed bytes).
    ///
    /// # Errors
    /// As [`super::decode_piece`]; [`FormatProblem::Invalid`] naming the field when `pages`
    /// does not have one entry per passage, page ids are not dense, term ranges are
    /// not sorted (or the first is not ""), the centroids do not fit the dimension, nprobe is
    /// outside 1..=C, an IVF cluster is in no cluster piece or in two (or a piece's clusters are
    /// not ascending), or a passage's fragment piece is missing; naming `meta.language` when
    /// this build cannot analyse the index's language ([`Language::analysed_here`]).
    pub fn from_meta(bytes: &[u8]) -> Result<Self> {
        let meta: MetaPiece = decode_piece(tag::META, "meta", bytes)?;
        if !meta.language.analysed_here() {
            return Err(invalid(
                "meta.language",
                format!(
                    "`{}`: this search module was built without that language's stemmer; `hipporag site` serves the module with its stemmer (the pieces-wasm crate's `snowball` or `snowball3` feature) to a site in it",
                    meta.language.code()
                ),
            ));
        }
        let n = meta.passages as usize;
        check_pages(&meta.pages, n)?;
        sorted("meta.stopwords", &meta.stopwords)?;
        // BM25's parameters, checked as the single file's are.
        Bm25::from_impacts(no_postings(&meta), n)?;
        if !key_ranges_ascend(meta.terms.iter().map(|t| t.first.as_str())) {
            return Err(invalid(
                "meta.terms",
                "term ranges must start at \"\" and ascend".into(),
            ));
        }
        let cluster_piece = check_statics(&meta)?;
        let phrase_keys = meta.phrase_pieces.iter().map(|t| t.first.as_str());
        if !key_ranges_ascend(phrase_keys) || (meta.phrases > 0) == meta.phrase_pieces.is_empty() {
            return Err(invalid(
                "meta.phrase_pieces",
                format!(
                    "{} phrase pieces for {} phrase nodes: key ranges must start at \"\" and ascend",
                    meta.phrase_pieces.len(),
                    meta.phrases
                ),
            ));
        }
        sorted("meta.query_stopwords", &meta.query_stopwords)?;
        if !(0.0..1.0).contains(&meta.damping) {
            return Err(invalid(
                "meta.damping",
                "the damping factor is outside [0, 1)".into(),
            ));
        }
        check_fragments(&meta.fragments, n)?;
        Ok(Self {
            meta,
            terms: BTreeMap::new(),
            cluster_piece,
            clusters: BTreeMap::new(),
            phrases: BTreeMap::new(),
        })
    }

    /// The meta piece.
    pub fn meta(&self) -> &MetaPiece {
        &self.meta
    }

    /// The term piece holding `key`.
    pub(super) fn term_piece_of(&self, key: &str) -> Option<usize> {
        self.meta
            .terms
            .partition_point(|t| t.first.as_str() <= key)
            .checked_sub(1)
    }

    /// The entries the loaded term pieces list under deletes-dictionary key `key`
    /// ([`crate::lexical`]; empty when its piece is not loaded).
    pub(super) fn deletes_entries(&self, key: &str) -> &[String] {
        self.term_piece_of(&deletes_key(key))
            .and_then(|i| self.terms.get(&i))
            .map_or(&[], |p| p.deletes_entries(key))
    }

    /// Calls `f(piece, row)` for every key of `keys(piece)` (a term piece's BM25 terms or its
    /// static words) that is a neighbour of the misspelt `t` ([`crate::lexical`]), in key order:
    /// those beginning with one of its query keys, and those listed under one, from the loaded
    /// pieces.
    fn neighbour_rows<'a>(
        &'a self,
        t: &str,
        keys: fn(&TermPiece) -> &[String],
        f: &mut dyn FnMut(&'a TermPiece, usize),
    ) {
        let mut found: std::collections::BTreeSet<&str> = Default::default();
        for key in query_keys(t) {
            self.rows_with_prefix(&key, keys, &mut |p, row| {
                let u = keys(p)[row].as_str();
                if is_neighbour(t, u) {
                    found.insert(u);
                }
            });
            found.extend(
                self.deletes_entries(&key)
                    .iter()
                    .map(String::as_str)
                    .filter(|u| is_neighbour(t, u)),
            );
        }
        for u in found {
            let Some(p) = self.term_piece_of(u).and_then(|i| self.terms.get(&i)) else {
                continue;
            };
            if let Ok(row) = keys(p).binary_search_by(|x| x.as_str().cmp(u)) {
                f(p, row);
            }
        }
    }

    /// The term pieces holding the keys that begin with `prefix`, [`MAX_RANGE_PIECES`] at most.
    pub(super) fn range_pieces(&self, prefix: &str) -> Vec<usize> {
        let first = self.term_piece_of(prefix).unwrap_or(0);
        (first..self.meta.terms.len())
            .take_while(|&i| i == first || self.meta.terms[i].first.starts_with(prefix))
            .take(MAX_RANGE_PIECES)
            .collect()
    }

    /// Calls `f(piece, row)` for every key of `keys(piece)` (a term piece's BM25 terms or its
    /// static words) that begins with `prefix`, over the loaded pieces of its key range
    /// ([`Self::range_pieces`]), in key order.
    fn rows_with_prefix<'a>(
        &'a self,
        prefix: &str,
        keys: fn(&TermPiece) -> &[String],
        f: &mut dyn FnMut(&'a TermPiece, usize),
    ) {
        for i in self.range_pieces(prefix) {
            let Some(p) = self.terms.get(&i) else {
                continue;
            };
            let keys = keys(p);
            let from = keys.partition_point(|t| t.as_str() < prefix);
            for (row, t) in keys.iter().enumerate().skip(from) {
                if !t.starts_with(prefix) {
                    break;
                }
                f(p, row);
            }
        }
    }

    /// The phrase piece holding `key`.
    pub(super) fn phrase_piece_of(&self, key: &str) -> Option<usize> {
        self.meta
            .phrase_pieces
            .partition_point(|t| t.first.as_str() <= key)
            .checked_sub(1)
    }

    /// Decodes and checks phrase piece `i` (decompressed bytes) and keeps it.
    ///
    /// # Errors
    /// As [`super::decode_piece`]; [`FormatProblem::Invalid`] when a key lies outside the
    /// piece's range or keys are unsorted,
    /// a phrase id is out of range, the lists' lengths disagree, a vector holds more than
    /// [`PPR_VECTOR_PASSAGES`] passages, a passage id is out of range or not ascending, or a
    /// code or scale is not positive.
    pub(super) fn add_phrase_piece(&mut self, i: usize, bytes: &[u8]) -> Result<()> {
        let piece = decode_piece::<PhrasePiece>(tag::PHRASE, "phrase piece", bytes)
            .and_then(|p| self.check_phrase_piece(i, p))?;
        self.phrases.insert(i, piece);
        Ok(())
    }

    fn check_phrase_piece(&self, i: usize, p: PhrasePiece) -> Result<Phrases> {
        let bad = |m: String| invalid("phrase piece", m);
        let phrases = p.phrases.decode("phrase piece phrases").map_err(bad)?;
        let stems = p.stems.decode("phrase piece stems").map_err(bad)?;
        sorted("phrase piece phrases", &phrases)?;
        sorted("phrase piece stems", &stems)?;
        let lo = self.meta.phrase_pieces[i].first.as_str();
        let hi = self.meta.phrase_pieces.get(i + 1).map(|t| t.first.as_str());
        if let Some(k) = phrases
            .iter()
            .chain(&stems)
            .find(|k| k.as_str() < lo || hi.is_some_and(|h| k.as_str() >= h))
        {
            return Err(bad(format!(
                "key \"{k}\" outside the piece's range from \"{lo}\""
            )));
        }
        let vectors = phrases.len() + stems.len();
        let ids_ok = u64::from(p.first_id) + phrases.len() as u64 <= u64::from(self.meta.phrases)
            && p.stem_ids.iter().all(|&id| id < self.meta.phrases);
        if !ids_ok
            || p.stem_ids.len() != stems.len()
            || p.stem_texts.len() != stems.len()
            || p.passage_counts.len() != vectors
            || p.counts.len() != vectors
            || p.scales.len() != vectors
        {
            return Err(bad(format!(
                "{} phrases from id {} and {} inflection keys ({} ids, {} texts) of {} phrase \
                 nodes, with {} passage counts, {} vectors and {} scales",
                phrases.len(),
                p.first_id,
                stems.len(),
                p.stem_ids.len(),
                p.stem_texts.len(),
                self.meta.phrases,
                p.passage_counts.len(),
                p.counts.len(),
                p.scales.len()
            )));
        }
        let total: usize = p.counts.iter().map(|&c| usize::from(c)).sum();
        if total != p.gaps.len() || total != p.codes.len() {
            return Err(bad(format!(
                "{total} vector entries, {} passage gaps and {} codes",
                p.gaps.len(),
                p.codes.len()
            )));
        }
        let n = self.n() as u64;
        let mut out = Vec::with_capacity(vectors);
        let mut k = 0;
        for (v, (&count, &scale)) in p.counts.iter().zip(&p.scales).enumerate() {
            let count = usize::from(count);
            if count > PPR_VECTOR_PASSAGES || (count > 0) != (scale > 0.0 && scale.is_finite()) {
                // (No float is printed here or below: float formatting would grow the page's
                // search module.)
                return Err(bad(format!(
                    "vector {v} keeps {count} passages (at most {PPR_VECTOR_PASSAGES}), or its \
                     scale is not positive and finite where it keeps any"
                )));
            }
            let mut passages = Vec::with_capacity(count);
            let mut prev = 0u64;
            for _ in 0..count {
                let j = prev + u64::from(p.gaps[k]);
                if (!passages.is_empty() && p.gaps[k] == 0) || j >= n || p.codes[k] == 0 {
                    return Err(bad(format!(
                        "vector {v}: passage {j} (code {}) not ascending below {n}, or code 0",
                        p.codes[k]
                    )));
                }
                passages.push(j as u32);
                prev = j;
                k += 1;
            }
            out.push(PprVector {
                passages,
                codes: p.codes[k - count..k].to_vec(),
                scale,
            });
        }
        Ok(Phrases {
            first_id: p.first_id,
            phrases,
            stems,
            stem_ids: p.stem_ids,
            stem_texts: p.stem_texts,
            passage_counts: p.passage_counts,
            vectors: out,
        })
    }

    /// The PPR vector of phrase node `id` in the loaded phrase pieces.
    fn vector_of(&self, id: u32) -> Option<&PprVector> {
        self.phrases.values().find_map(|p| {
            if id >= p.first_id && ((id - p.first_id) as usize) < p.phrases.len() {
                return Some(&p.vectors[(id - p.first_id) as usize]);
            }
            let k = p.stem_ids.iter().position(|&s| s == id)?;
            Some(&p.vectors[p.phrases.len() + k])
        })
    }

    /// The node `key` names in the loaded phrase pieces: an exact phrase (`exact`), or an
    /// inflection key.
    fn find_phrase(&self, key: &str, exact: bool) -> Option<PhraseNode> {
        let p = self.phrases.get(&self.phrase_piece_of(key)?)?;
        let specificity = |c: u32| if c == 0 { 1.0 } else { 1.0 / c as f32 };
        if exact {
            let k = p.phrases.binary_search_by(|x| x.as_str().cmp(key)).ok()?;
            return Some(PhraseNode {
                id: p.first_id + k as u32,
                text: p.phrases[k].clone(),
                specificity: specificity(p.passage_counts[k]),
            });
        }
        let k = p.stems.binary_search_by(|x| x.as_str().cmp(key)).ok()?;
        Some(PhraseNode {
            id: p.stem_ids[k],
            text: p.stem_texts[k].clone(),
            specificity: specificity(p.passage_counts[p.phrases.len() + k]),
        })
    }

    /// Decodes and checks term piece `i` (decompressed bytes) and keeps it.
    ///
    /// # Errors
    /// As [`super::decode_piece`]; [`FormatProblem::Invalid`] when a key lies outside the
    /// piece's range, keys are unsorted,
    /// posting bounds or sign rows do not fit, a passage id is out of range or not ascending,
    /// a frequency is 0 or a df is outside 1..=passages.
    pub(super) fn add_term_piece(&mut self, i: usize, bytes: &[u8]) -> Result<()> {
        let piece = decode_piece::<StoredTermPiece>(tag::TERM, "term piece", bytes)
            .and_then(|p| TermPiece::try_from(p).map_err(|m| invalid("term piece", m)))
            .and_then(|p| self.check_term_piece(i, p))?;
        self.terms.insert(i, piece);
        Ok(())
    }

    fn check_term_piece(&self, i: usize, p: TermPiece) -> Result<TermPiece> {
        sorted("term piece terms", &p.terms)?;
        sorted("term piece words", &p.words)?;
        let lo = self.meta.terms[i].first.as_str();
        let hi = self.meta.terms.get(i + 1).map(|t| t.first.as_str());
        sorted("term piece deletes", &p.deletes)?;
        let prefixed: Vec<String> = p.deletes.iter().map(|k| deletes_key(k)).collect();
        if let Some(k) = p.terms.iter().chain(&p.words).chain(&prefixed).find(|k| {
            k.as_str() < lo
                || hi.is_some_and(|h| k.as_str() >= h)
                || self.meta.stopwords.binary_search(k).is_ok()
        }) {
            return Err(invalid(
                "term piece",
                format!("key \"{k}\" outside the piece's range from \"{lo}\", or a stopword"),
            ));
        }
        // The posting lists are checked as the single file's are, in place.
        check_postings(&p.terms, &p.ptr, &p.gaps, p.impacts.len(), self.n(), None)?;
        if let Some(q) = p.impacts.iter().find(|&&q| u32::from(q) >= IMPACT_LEVELS) {
            return Err(invalid(
                "term piece impacts",
                format!("impact {q}, not below {IMPACT_LEVELS}"),
            ));
        }
        let dim = self.meta.statics.as_ref().map_or(0, |s| s.dim as usize);
        if p.df.len() != p.words.len() || p.signs.len() != p.words.len() * dim / 8 {
            return Err(invalid(
                "term piece words",
                format!(
                    "{} words, {} df, {} sign bytes of dim {dim}",
                    p.words.len(),
                    p.df.len(),
                    p.signs.len()
                ),
            ));
        }
        if let Some(k) = p.df.iter().position(|&f| f == 0 || f as usize > self.n()) {
            return Err(invalid(
                "term piece words",
                format!("word \"{}\" has df {}", p.words[k], p.df[k]),
            ));
        }
        Ok(p)
    }

    pub(super) fn n(&self) -> usize {
        self.meta.passages as usize
    }

    /// Decodes and checks cluster piece `i` (decompressed bytes) and keeps its IVF clusters.
    ///
    /// # Errors
    /// As [`super::decode_piece`]; [`FormatProblem::Invalid`] when the piece does not hold
    /// one cluster per id of its
    /// [`super::ClusterRef`], a passage id is out of range or not ascending, or the codes do
    /// not fit.
    pub(super) fn add_cluster_piece(&mut self, i: usize, bytes: &[u8]) -> Result<()> {
        let clusters = decode_piece(tag::CLUSTER, "cluster piece", bytes)
            .and_then(|p| self.check_cluster_piece(i, p))?;
        let held = &self.meta.clusters[i].clusters;
        for (&c, cluster) in held.iter().zip(clusters) {
            self.clusters.insert(c as usize, cluster);
        }
        Ok(())
    }

    /// Each IVF cluster of cluster piece `i`: its passages and their codes.
    fn check_cluster_piece(&self, i: usize, p: ClusterPiece) -> Result<Vec<(Vec<u32>, Vec<u8>)>> {
        let n = self.n() as u64;
        let held = &self.meta.clusters[i].clusters;
        let code = self.meta.statics.as_ref().map_or(0, |s| s.dim as usize / 8);
        let total: u64 = p.counts.iter().map(|&c| u64::from(c)).sum();
        if p.counts.len() != held.len()
            || total != p.gaps.len() as u64
            || p.codes.len() != p.gaps.len() * code
        {
            return Err(invalid(
                "cluster piece",
                format!(
                    "{} clusters of {total} passages, {} passage ids and {} code bytes, where \
                         the meta piece lists {} clusters and {code} bytes a code",
                    p.counts.len(),
                    p.gaps.len(),
                    p.codes.len(),
                    held.len()
                ),
            ));
        }
        let mut out = Vec::with_capacity(held.len());
        let mut k = 0;
        for &count in &p.counts {
            let mut ids = Vec::with_capacity(count as usize);
            let mut prev = 0u64;
            for _ in 0..count {
                let g = p.gaps[k];
                let j = prev + u64::from(g);
                if (!ids.is_empty() && g == 0) || j >= n {
                    return Err(invalid(
                        "cluster piece",
                        format!("passage {k} is {j}, not ascending below {n}"),
                    ));
                }
                ids.push(j as u32);
                prev = j;
                k += 1;
            }
            let codes = p.codes[(k - ids.len()) * code..k * code].to_vec();
            out.push((ids, codes));
        }
        Ok(out)
    }

    /// Ranks passages for `question` (the part of it that is searched, [`searched_part`]) in
    /// `opts.mode` ([`Mode::Bm25`], [`crate::search::bm25_scores`];
    /// [`Mode::Hybrid`], [`crate::search::hybrid`], seeding the query entities that are phrase
    /// nodes) with `opts`' static weight, phrase weight and `top_k`: the (passage, score) pairs
    /// that [`crate::Retriever::retrieve`] gives on the single file with the same options and
    /// [`RetrieveOptions::exact_seeds`], best first. Empty when no query key is in the index
    /// (the single file then falls back to dense ranking, which needs a query embedding).
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] for another mode, options [`check_options`] refuses, a damping
    /// factor other than the phrase pieces' ([`MetaPiece::damping`]) or 0, or when a piece the
    /// question needs is not loaded ([`Pieces::missing`]).
    pub fn search(&self, question: &str, opts: &RetrieveOptions) -> Result<Vec<(usize, f64)>> {
        self.search_within(question, opts, None)
    }

    /// [`Pieces::search`] among the passages of `allowed_pages` (page ids as in
    /// [`MetaPiece::pages`], in any order, repeats allowed; `None`: every page, exactly
    /// [`Pieces::search`]). A filter narrows first and the ranking orders what is left: every
    /// passage of another page scores 0 in every signal, the graph share too
    /// ([`HybridQuery::allowed`]), so the passage share is normalised over the allowed
    /// passages and the `top_k` (passage, score) pairs, best first, are all of allowed pages
    /// (allowed passages scoring 0 fill it, as in [`Pieces::search`], when fewer score above
    /// 0). Empty when nothing in the allowed pages matches the question in `hybrid`, or when
    /// `allowed_pages` is empty.
    ///
    /// # Errors
    /// As [`Pieces::search`]; [`Error::InvalidRequest`] naming a page id that is not a page of
    /// the index.
    pub fn search_within(
        &self,
        question: &str,
        opts: &RetrieveOptions,
        allowed_pages: Option<&[u32]>,
    ) -> Result<Vec<(usize, f64)>> {
        check_options(opts)?;
        let question = searched_part(question, self.meta.language);
        let allowed = allowed_pages
            .map(|pages| self.passages_of_pages(pages))
            .transpose()?;
        let allowed = allowed.as_deref();
        if opts.damping != 0.0 {
            self.check_damping(opts.damping)?;
        }
        if let Some(&piece) = self.missing(question).first() {
            let name = self.name(piece).unwrap_or_default();
            return Err(Error::InvalidRequest(format!(
                "piece {name} of the query is not loaded"
            )));
        }
        match opts.mode {
            Mode::Bm25 => {
                let mut scores = bm25_scores(self, question)?;
                mask_disallowed(&mut scores, allowed);
                Ok(top_k_within(&scores, opts.top_k, allowed))
            }
            Mode::Hybrid => {
                let entities = extract_query_entities(question, self);
                let query = HybridQuery {
                    question,
                    entities: &entities,
                    linked: None,
                    dense: None,
                    allowed,
                };
                Ok(hybrid(self, &query, opts)?
                    .map_or_else(Vec::new, |h| top_k_within(&h.scores, opts.top_k, allowed)))
            }
            m => Err(Error::InvalidRequest(format!(
                "the index in pieces ranks in the hybrid and bm25 modes; {m} needs the single-file index"
            ))),
        }
    }

    /// `question`'s BM25 upper bound over this index ([`crate::search::bm25_upper_bound`], the
    /// meta piece's `k1`), from the term pieces its search loads: its best BM25 score over
    /// this bound is how well the question matches this site on the site's own scale.
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] when a piece the question needs is not loaded
    /// ([`Pieces::missing`]).
    pub fn bm25_upper_bound(&self, question: &str) -> Result<f64> {
        let question = searched_part(question, self.meta.language);
        if let Some(&piece) = self.missing(question).first() {
            let name = self.name(piece).unwrap_or_default();
            return Err(Error::InvalidRequest(format!(
                "piece {name} of the query is not loaded"
            )));
        }
        Ok(bm25_upper_bound(self, question, self.meta.bm25_params))
    }

    /// The passage mask of `pages` (page ids, [`MetaPiece::pages`]): `true` for each passage
    /// on one of them (`|P|` values).
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] naming the first id that is not a page of the index.
    fn passages_of_pages(&self, pages: &[u32]) -> Result<Vec<bool>> {
        let count = self.meta.pages.iter().max().map_or(0, |&p| p as usize + 1);
        let mut on = vec![false; count];
        for &p in pages {
            let Some(slot) = on.get_mut(p as usize) else {
                return Err(Error::InvalidRequest(format!(
                    "allowed page {p} is not a page of the index (page ids are below {count})"
                )));
            };
            *slot = true;
        }
        Ok(self.meta.pages.iter().map(|&p| on[p as usize]).collect())
    }

    /// Whether the phrase pieces' PPR vectors serve damping factor `damping`.
    fn check_damping(&self, damping: f64) -> Result<()> {
        if damping == self.meta.damping {
            return Ok(());
        }
        Err(Error::InvalidRequest(
            "the phrase pieces hold PPR vectors at the meta piece's damping factor only \
             (MetaPiece::damping): another needs the single file"
                .into(),
        ))
    }

    /// The excerpt of a result's `text` for `question` ([`crate::search::excerpt`]), the query's
    /// words marked where the loaded term pieces hold them (its search loaded them).
    pub fn excerpt(&self, text: &str, question: &str) -> Vec<String> {
        excerpt(self, text, question)
    }

    /// The fragment piece (its number in [`MetaPiece::fragments`]) holding passage `j`, if
    /// `j` is a passage.
    pub fn fragment_of(&self, j: usize) -> Option<usize> {
        if j >= self.meta.passages as usize {
            return None;
        }
        let f = self
            .meta
            .fragments
            .partition_point(|r| r.first as usize <= j);
        f.checked_sub(1)
    }
}

/// The loaded term pieces' dictionary, for [`crate::lexical`].
impl TermDictionary for Pieces {
    fn has_term(&self, term: &str) -> bool {
        self.term_piece_of(term)
            .and_then(|i| self.terms.get(&i))
            .is_some_and(|p| p.terms.binary_search_by(|x| x.as_str().cmp(term)).is_ok())
    }

    /// From the meta piece's stopwords ([`MetaPiece::stopwords`]).
    fn is_stopword(&self, term: &str) -> bool {
        self.meta
            .stopwords
            .binary_search_by(|x| x.as_str().cmp(term))
            .is_ok()
    }

    /// Known once `term`'s term piece is loaded.
    fn lacks(&self, term: &str) -> bool {
        self.term_piece_of(term)
            .is_some_and(|i| self.terms.contains_key(&i) && !self.has_term(term))
    }

    /// Known once the term pieces of `term`'s key range are loaded.
    fn lacks_completion(&self, term: &str) -> bool {
        self.range_pieces(term)
            .iter()
            .all(|i| self.terms.contains_key(i))
            && !self.has_completion(term)
    }

    fn terms_with_prefix(&self, prefix: &str, f: &mut dyn FnMut(&str, u32)) {
        self.rows_with_prefix(prefix, |p| &p.terms, &mut |p, k| {
            f(&p.terms[k], p.ptr[k + 1] - p.ptr[k]);
        });
    }

    /// From the loaded pieces of the term's query keys and deletes keys
    /// ([`Pieces::missing`] loads them).
    fn neighbours(&self, term: &str, f: &mut dyn FnMut(&str, u32)) {
        self.neighbour_rows(term, |p| &p.terms, &mut |p, k| {
            f(&p.terms[k], p.ptr[k + 1] - p.ptr[k]);
        });
    }
}

/// The static words of the loaded term pieces; [`Pieces::missing`] loads those
/// a query's vector reads, the typed word's key range included.
impl StaticVocabulary for Pieces {
    fn dim(&self) -> usize {
        self.meta.statics.as_ref().map_or(0, |s| s.dim as usize)
    }

    fn passages(&self) -> usize {
        self.n()
    }

    fn word(&self, word: &str) -> Option<(&[u8], u32)> {
        let bytes = self.dim() / 8;
        let p = self.terms.get(&self.term_piece_of(word)?)?;
        let r = p.words.binary_search_by(|x| x.as_str().cmp(word)).ok()?;
        Some((&p.signs[r * bytes..(r + 1) * bytes], p.df[r]))
    }

    fn words_with_prefix<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a [u8], u32)) {
        let bytes = self.dim() / 8;
        self.rows_with_prefix(prefix, |p| &p.words, &mut |p, r| {
            f(&p.words[r], &p.signs[r * bytes..(r + 1) * bytes], p.df[r]);
        });
    }

    /// As [`TermDictionary::neighbours`] for [`Pieces`], over the static words.
    fn neighbours<'a>(&'a self, word: &str, f: &mut dyn FnMut(&str, &'a [u8], u32)) {
        let bytes = self.dim() / 8;
        self.neighbour_rows(word, |p| &p.words, &mut |p, r| {
            f(&p.words[r], &p.signs[r * bytes..(r + 1) * bytes], p.df[r]);
        });
    }
}

impl PhraseLookup for Pieces {
    fn language(&self) -> Language {
        self.meta.language
    }

    fn is_query_stopword(&self, t: &str) -> bool {
        self.meta
            .query_stopwords
            .binary_search_by(|w| w.as_str().cmp(t))
            .is_ok()
    }

    /// As [`crate::index::Index::phrase_id_inflected`], from the loaded phrase pieces.
    fn phrase(&self, normalized: &str) -> Option<PhraseNode> {
        self.find_phrase(normalized, true).or_else(|| {
            if normalized.chars().count() < MIN_INFLECTED_CHARS {
                return None;
            }
            let key = lookup_keys(normalized, self.meta.language)
                .into_iter()
                .nth(1)?;
            self.find_phrase(&key, false)
        })
    }
}

/// The index in pieces as a search reads it, from the pieces loaded so far
/// ([`Pieces::missing`] says which a question needs).
impl IndexReader for Pieces {
    fn language(&self) -> Language {
        self.meta.language
    }

    fn passages(&self) -> usize {
        self.n()
    }

    fn pages(&self) -> &[u32] {
        &self.meta.pages
    }

    fn dictionary(&self) -> Option<&dyn TermDictionary> {
        Some(self)
    }

    /// The query's terms as a small inverted index over every passage: the same lists, impacts
    /// and IDFs as the single file's, summed in the same order (ascending term).
    fn bm25_scores(&self, query: &QueryTerms) -> Result<Vec<f64>> {
        let alternatives = query.expanded.iter().flatten().map(|(t, _)| t);
        let mut found: Vec<(&String, usize, usize)> = Vec::new();
        for t in query.exact.iter().chain(alternatives) {
            if let Some(i) = self.term_piece_of(t)
                && let Some(p) = self.terms.get(&i)
                && let Ok(k) = p.terms.binary_search(t)
            {
                found.push((t, i, k));
            }
        }
        found.sort_unstable();
        found.dedup();
        let mut data = no_postings(&self.meta);
        for &(_, i, k) in &found {
            let p = &self.terms[&i];
            let (a, b) = (p.ptr[k] as usize, p.ptr[k + 1] as usize);
            data.terms.push(p.terms[k].clone());
            data.gaps.extend_from_slice(&p.gaps[a..b]);
            data.impacts.extend_from_slice(&p.impacts[a..b]);
            data.ptr.push(data.gaps.len() as u32);
        }
        Ok(Bm25::from_impacts(data, self.n())?.expanded_scores(query, self.n()))
    }

    fn static_vocabulary(&self) -> Option<&dyn StaticVocabulary> {
        self.meta
            .statics
            .as_ref()
            .map(|_| self as &dyn StaticVocabulary)
    }

    /// The passages of the probed IVF clusters, from the loaded cluster pieces.
    fn static_scores(&self, q: &CodeScorer) -> Vec<f64> {
        let mut out = vec![0.0; self.n()];
        let Some(s) = self.meta.statics.as_ref() else {
            return out;
        };
        let bytes = s.dim as usize / 8;
        for c in probe(q, &s.centroids, s.nprobe as usize) {
            let Some((ids, codes)) = self.clusters.get(&(c as usize)) else {
                continue;
            };
            for (k, &j) in ids.iter().enumerate() {
                out[j as usize] = q.score(&codes[k * bytes..(k + 1) * bytes]);
            }
        }
        out
    }

    fn phrases(&self) -> &dyn PhraseLookup {
        self
    }

    /// The stored vector, from the loaded phrase pieces.
    fn ppr_vector(&self, id: u32, damping: f64) -> Result<Option<Cow<'_, PprVector>>> {
        self.check_damping(damping)?;
        Ok(self.vector_of(id).map(Cow::Borrowed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(clusters: &[u32]) -> ClusterRef {
        ClusterRef {
            clusters: clusters.to_vec(),
        }
    }

    #[test]
    fn key_ranges_start_at_the_empty_key_and_ascend_strictly() {
        assert!(key_ranges_ascend([]));
        assert!(key_ranges_ascend(["", "b", "m"]));
        // Not starting at "", out of order, or a range given twice.
        for keys in [vec!["a", "b"], vec!["", "m", "b"], vec!["", "b", "b"]] {
            assert!(!key_ranges_ascend(keys.iter().copied()), "{keys:?}");
        }
    }

    #[test]
    fn every_ivf_cluster_is_in_exactly_one_cluster_piece() {
        assert_eq!(
            cluster_pieces(&[piece(&[0, 2]), piece(&[1])], 3).unwrap(),
            [0, 1, 0]
        );
        for (pieces, c) in [
            (vec![piece(&[0]), piece(&[1])], 3),
            (vec![piece(&[0, 1]), piece(&[1])], 2),
            (vec![piece(&[0, 5])], 2),
            (vec![piece(&[1, 0])], 2),
            (vec![piece(&[0, 1]), piece(&[])], 2),
        ] {
            let e = cluster_pieces(&pieces, c).unwrap_err();
            assert_eq!(e.kind(), "format.invalid", "{e}");
            assert!(e.to_string().contains("meta.clusters"), "{e}");
            assert!(
                e.to_string()
                    .contains(&format!("each of the {c} IVF clusters once")),
                "{e}"
            );
        }
    }
}
