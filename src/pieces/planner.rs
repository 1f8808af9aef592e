//! The piece planner: which pieces a question needs, with no fetching of its own. A caller
//! asks [`Pieces::missing`], fetches those pieces, hands each to [`Pieces::add`], and asks
//! again until nothing is missing; then [`Pieces::search`] ranks. The page's JS
//! (`www/site/hipporag-pieces.js`) runs that loop over `fetch`, native callers over files
//! ([`Pieces::load`]).

use super::format::{PieceId, PieceKind, piece_name};
use super::reader::Pieces;
use crate::embeddings::{CodeScorer, probe, static_words, typed_word};
use crate::graph::{PhraseLookup, lookup_keys, phrase_lookups};
use crate::lexical::{deletes_key, query_keys, typed_term, word_neighbour_terms};
use crate::search::{misspelt, searched_part, static_query_vector};
use crate::text::{is_neighbour, lexicon_candidates, terms};
use crate::{Error, Result};

impl Pieces {
    /// The pieces `question` needs that are not loaded yet (those of the part that is searched,
    /// [`searched_part`]), in name order: the term pieces of its keys and expansions and the phrase pieces of its candidate phrases; once none of
    /// those is missing, the cluster pieces its static vector probes. Empty when
    /// [`Pieces::search`] can rank it. A misspelt word's neighbours are known only from the
    /// pieces of earlier rounds, so a caller asks again after adding each round's pieces (five
    /// rounds at most; usually two).
    pub fn missing(&self, question: &str) -> Vec<PieceId> {
        let question = searched_part(question, self.meta().language);
        let of = |kind| move |number| PieceId { kind, number };
        let mut out: Vec<PieceId> = self
            .missing_term_pieces(question)
            .into_iter()
            .map(of(PieceKind::Term))
            .chain(
                self.missing_phrase_pieces(question)
                    .into_iter()
                    .map(of(PieceKind::Phrase)),
            )
            .collect();
        if out.is_empty() {
            out.extend(
                self.missing_cluster_pieces(question)
                    .into_iter()
                    .map(of(PieceKind::Cluster)),
            );
        }
        out
    }

    /// Decodes, checks and keeps piece `piece` (its decompressed bytes).
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] for a piece the meta piece does not list or a fragment piece
    /// (the page's JS reads those); the piece's own checks (its name as the error's origin).
    pub fn add(&mut self, piece: PieceId, bytes: &[u8]) -> Result<()> {
        let name = self.name(piece).ok_or_else(|| {
            Error::InvalidRequest(format!("no piece {}{}", piece.kind.letter(), piece.number))
        })?;
        let added = match piece.kind {
            PieceKind::Term => self.add_term_piece(piece.number, bytes),
            PieceKind::Phrase => self.add_phrase_piece(piece.number, bytes),
            PieceKind::Cluster => self.add_cluster_piece(piece.number, bytes),
            PieceKind::Fragment => {
                return Err(Error::InvalidRequest(format!(
                    "{name}: a fragment piece is JSON for the page, not for the search"
                )));
            }
        };
        added.map_err(|e| e.in_source(name))
    }

    /// Loads every piece `question` needs: [`Pieces::missing`], each piece's decompressed bytes
    /// from `fetch` (its file name → bytes), [`Pieces::add`], until nothing is missing. Returns
    /// the rounds it took.
    ///
    /// # Errors
    /// `fetch`'s errors, and [`Pieces::add`]'s.
    pub fn load<E: From<Error>>(
        &mut self,
        question: &str,
        fetch: &mut dyn FnMut(&str) -> std::result::Result<Vec<u8>, E>,
    ) -> std::result::Result<usize, E> {
        let mut rounds = 0;
        loop {
            let need = self.missing(question);
            if need.is_empty() {
                return Ok(rounds);
            }
            for piece in need {
                let name = self
                    .name(piece)
                    .expect("missing lists the meta piece's pieces");
                let bytes = fetch(&name)?;
                self.add(piece, &bytes)?;
            }
            rounds += 1;
        }
    }

    /// The file name of `piece` (`{build}-{letter}{number}.bin`, [`super::piece_name`]), if
    /// the meta piece lists it.
    pub fn name(&self, piece: PieceId) -> Option<String> {
        let count = match piece.kind {
            PieceKind::Term => self.meta.terms.len(),
            PieceKind::Cluster => self.meta.clusters.len(),
            PieceKind::Phrase => self.meta.phrase_pieces.len(),
            PieceKind::Fragment => self.meta.fragments.len(),
        };
        (piece.number < count).then(|| piece_name(&self.meta.build, piece.kind, piece.number))
    }

    /// The file name of the fragment piece holding passage `j`, if `j` is a passage.
    pub fn fragment_name(&self, j: usize) -> Option<String> {
        let number = self.fragment_of(j)?;
        self.name(PieceId {
            kind: PieceKind::Fragment,
            number,
        })
    }

    /// The term pieces `question`'s keys fall in — its BM25 [`terms`], its lexicon candidates
    /// ([`lexicon_candidates`]) and its static [`static_words`],
    /// stopwords aside — and those its expansion reads, that are not loaded yet, ascending:
    ///
    /// * the word being typed: the pieces of its key range ([`typed_term`], [`typed_word`]);
    /// * a misspelt word ([`misspelt`]): the key ranges of its query keys, the pieces of
    ///   its deletes-dictionary keys ([`crate::lexical`]), the pieces of the neighbours
    ///   listed there, and those of its static neighbours' BM25 terms.
    ///
    /// A range is read [`super::MAX_RANGE_PIECES`] pieces at most. A misspelt word is known only once
    /// its own term piece is loaded, its listed neighbours once its deletes keys' pieces are,
    /// and its static neighbours' terms after those: up to four rounds.
    fn missing_term_pieces(&self, question: &str) -> Vec<usize> {
        let language = self.meta.language;
        let mut keys = terms(question, language);
        keys.extend(lexicon_candidates(question));
        if self.meta.statics.is_some() {
            keys.extend(static_words(question));
        }
        let mut out: Vec<usize> = keys
            .iter()
            .filter(|k| self.meta.stopwords.binary_search(k).is_err())
            .filter_map(|k| self.term_piece_of(k))
            .collect();
        // The word being typed: its BM25 term's range, and its static word's.
        let typed = typed_term(question, language)
            .into_iter()
            .chain(self.meta.statics.as_ref().and(typed_word(question)));
        for prefix in typed {
            out.extend(self.range_pieces(&prefix));
        }
        for m in misspelt(self, question) {
            // The BM25 terms of its static neighbours ([`word_neighbour_terms`]), once those
            // neighbours' pieces are loaded.
            if self.meta.statics.is_some() {
                for t in word_neighbour_terms(&m.word, language, self) {
                    out.extend(self.term_piece_of(&t));
                }
            }
            let mut misspelt = vec![m.term];
            if self.meta.statics.is_some() && m.word != misspelt[0] {
                misspelt.push(m.word);
            }
            for t in &misspelt {
                for key in query_keys(t) {
                    out.extend(self.range_pieces(&key));
                    out.extend(self.term_piece_of(&deletes_key(&key)));
                    for u in self.deletes_entries(&key) {
                        if is_neighbour(t, u) {
                            out.extend(self.term_piece_of(u));
                        }
                    }
                }
            }
        }
        out.retain(|i| !self.terms.contains_key(i));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The phrase pieces `question`'s candidate phrases fall in — every key the query-entity
    /// extractor and the seed lookup may read ([`phrase_lookups`], [`lookup_keys`]) — that are
    /// not loaded yet, ascending. They are fetched with the term pieces.
    fn missing_phrase_pieces(&self, question: &str) -> Vec<usize> {
        if self.meta.phrase_pieces.is_empty() {
            return Vec::new();
        }
        let stop = |t: &str| self.is_query_stopword(t);
        let mut out: Vec<usize> = phrase_lookups(question, &stop)
            .iter()
            .flat_map(|k| lookup_keys(k, self.meta.language))
            .filter_map(|k| self.phrase_piece_of(&k))
            .filter(|i| !self.phrases.contains_key(i))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The cluster pieces (indices into [`MetaPiece::clusters`]) holding the IVF clusters
    /// `question` probes that are not loaded yet, ascending and distinct (none without static
    /// embeddings). Its static vector is known once its term pieces are loaded.
    fn missing_cluster_pieces(&self, question: &str) -> Vec<usize> {
        let (Some(s), Some(q)) = (&self.meta.statics, static_query_vector(self, question)) else {
            return Vec::new();
        };
        let mut out: Vec<usize> = probe(&CodeScorer::new(&q), &s.centroids, s.nprobe as usize)
            .into_iter()
            .map(|c| c as usize)
            .filter(|c| !self.clusters.contains_key(c))
            .map(|c| self.cluster_piece[c] as usize)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
