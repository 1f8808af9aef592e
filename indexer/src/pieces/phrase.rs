//! Phrase pieces: the phrase nodes (and Russian inflection keys) in key order, each with its
//! `|Pᵢ|` and PPR vector, cut between keys.

use hipporag_wasm::graph::{PprVector, PushState, inverse_degrees, phrase_ppr_vector_with};
use hipporag_wasm::index::{Index, IndexData};
use hipporag_wasm::pieces::{FrontCoded, PhrasePiece, PhraseRange, tag};

use super::cut::{boundaries, cut};
use super::{MAX_PHRASE_PIECES, Piece, PieceOptions, gaps, gzip_piece};
use crate::Result;

/// Every phrase node's PPR vector at `damping` ([`phrase_ppr_vector_with`] over HippoRAG 2's
/// graph of `index`, one push state a rayon task), in phrase order; in parallel with the
/// `parallel` feature.
///
/// # Errors
/// As [`phrase_ppr_vector_with`].
pub fn ppr_vectors(index: &Index, damping: f64) -> Result<Vec<PprVector>> {
    let g = hipporag_wasm::graph::build_passage_graph(index);
    let inv = inverse_degrees(&g);
    let n = index.phrases.len();
    let nodes = g.rows();
    let one = |state: &mut PushState, i: usize| {
        phrase_ppr_vector_with(state, &g, &inv, n, i as u32, damping)
    };
    let out: hipporag_wasm::Result<Vec<PprVector>> =
        crate::parallel::map_range_init(n, || PushState::new(nodes), one)
            .into_iter()
            .collect();
    Ok(out?)
}

/// A key of the phrase pieces: a phrase node (its id) or an inflection key (its entry in
/// [`Index::phrase_stems`]).
#[derive(Debug, Clone, Copy)]
enum Key {
    Phrase(usize),
    Stem(usize),
}

/// What the phrase pieces are cut from.
struct Phrases<'a> {
    index: &'a Index,
    vectors: &'a [PprVector],
}

/// The phrase pieces of `data` at `damping` (gzipped, unnamed), their ranges and the phrase
/// count (none and 0 for an index without phrase nodes).
pub(super) fn pieces(
    data: &IndexData,
    damping: f64,
    opts: &PieceOptions,
) -> Result<(Vec<PhraseRange>, Vec<Piece>, u32)> {
    if data.phrases.is_empty() {
        return Ok((Vec::new(), Vec::new(), 0));
    }
    let index = Index::from_data(data.clone())?;
    let vectors = ppr_vectors(&index, damping)?;
    let p = Phrases {
        index: &index,
        vectors: &vectors,
    };
    let mut keys: Vec<Key> = (0..index.phrases.len())
        .map(Key::Phrase)
        .chain((0..index.phrase_stems.len()).map(Key::Stem))
        .collect();
    keys.sort_by(|&a, &b| p.text(a).cmp(p.text(b)));
    let total = keys.iter().map(|&k| p.size(k)).sum::<usize>();
    let target = opts
        .phrase_piece_bytes
        .max(total.div_ceil(MAX_PHRASE_PIECES));
    // A piece ends between two different keys (a Russian inflection key may equal a phrase's
    // text: both stay in one piece).
    let runs = cut(
        keys.len(),
        |k| p.size(keys[k]),
        |run, k| run >= target && p.text(keys[k]) != p.text(keys[k - 1]),
    );
    let ranges = boundaries(&runs, |k| p.text(keys[k]))
        .into_iter()
        .map(|first| PhraseRange { first })
        .collect();
    let pieces = crate::parallel::map(&runs, |r| {
        gzip_piece(tag::PHRASE, &p.piece(&keys[r.clone()]))
    });
    Ok((ranges, pieces, index.phrases.len() as u32))
}

impl Phrases<'_> {
    /// The key's text.
    fn text(&self, k: Key) -> &str {
        match k {
            Key::Phrase(i) => &self.index.phrases[i],
            Key::Stem(s) => &self.index.phrase_stems[s].0,
        }
    }

    /// The phrase node the key stands for.
    fn node(&self, k: Key) -> usize {
        match k {
            Key::Phrase(i) => i,
            Key::Stem(s) => self.index.phrase_stems[s].1 as usize,
        }
    }

    /// The key's bytes in its piece, about: its text, count and scale, and 3 bytes a kept
    /// passage.
    fn size(&self, k: Key) -> usize {
        self.text(k).len() + 6 + 3 * self.vectors[self.node(k)].passages.len()
    }

    /// The phrase piece of the keys `run`: its phrases, then its inflection keys.
    fn piece(&self, run: &[Key]) -> PhrasePiece {
        let (phrases, stems): (Vec<Key>, Vec<Key>) =
            run.iter().partition(|k| matches!(k, Key::Phrase(_)));
        let texts = |keys: &[Key]| {
            keys.iter()
                .map(|&k| self.text(k).to_string())
                .collect::<Vec<_>>()
        };
        let stem_ids: Vec<u32> = stems.iter().map(|&k| self.node(k) as u32).collect();
        let nodes: Vec<usize> = phrases
            .iter()
            .chain(&stems)
            .map(|&k| self.node(k))
            .collect();
        let mut piece = PhrasePiece {
            first_id: phrases.first().map_or(0, |&k| self.node(k) as u32),
            phrases: FrontCoded::new(&texts(&phrases)),
            stems: FrontCoded::new(&texts(&stems)),
            stem_texts: stem_ids
                .iter()
                .map(|&i| self.index.phrases[i as usize].clone())
                .collect(),
            stem_ids,
            passage_counts: nodes.iter().map(|&i| self.passage_count(i)).collect(),
            ..PhrasePiece::default()
        };
        for &i in &nodes {
            let v = &self.vectors[i];
            piece.counts.push(v.passages.len() as u8);
            piece.gaps.extend(gaps(&v.passages));
            piece.codes.extend_from_slice(&v.codes);
            piece.scales.push(v.scale);
        }
        piece
    }

    /// `|Pᵢ|`: the passages phrase node `i` is in.
    fn passage_count(&self, i: usize) -> u32 {
        self.index
            .phrase_passages
            .outer_view(i)
            .map_or(0, |r| r.nnz() as u32)
    }
}
