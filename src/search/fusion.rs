//! The `hybrid` ranking's mix of signals ([`hybrid_scores`]), which [`crate::search::hybrid`]
//! calls for the single file and the index in pieces alike.
//!
//! A passage's score is a mix of two distributions over passages:
//!
//! * the **passage share** `b` ([`passage_share`]): BM25's scores, or, when the index has static
//!   word embeddings, the reciprocal-rank fusion by page of BM25's and the static scores
//!   ([`crate::search::page_rrf`]; a query embedding from a neural encoder joins it), normalised
//!   to sum 1. Where the graph agrees, the static scores' weight falls with the question's
//!   names ([`hybrid_passage_share`]).
//!   Without static embeddings, a neural encoder's dense scores (min-max scaled) are added to
//!   BM25's at `dense_weight`.
//! * the **graph share** `g` ([`graph_share`]): the personalized PageRank of the query's seeds
//!   (query entities that are phrase nodes, [`crate::graph::entity_seeds`], reset weight = node
//!   specificity, HippoRAG §3.2) over HippoRAG 2's graph of phrase and passage nodes, as the
//!   weighted sum of each seed's own PPR vector ([`crate::graph`]; PPR is linear in its
//!   reset vector). It sums to at most 1.
//!
//! `score = (1 − w)·b + w·g`, with `w` the graph weight: a caller's `phrase_weight`, or by
//! default [`graph_weight`], decided per query from how much of the graph share falls on the
//! passages the passage share ranks best. When `0 < w < 1`, the passage share's best two
//! passages then keep a place in the first five ([`keep_passage_share_best`]), and its best
//! ranks first when it leads the passage share's second by [`FIRST_PLACE_LEAD`] or the graph
//! share rates it at [`FIRST_PLACE_GRAPH_SHARE`] of its own best or more
//! ([`put_leading_passage_first`]). Where the graph share is flat (its best passage holds
//! under [`FLAT_GRAPH_PEAK`] of its mass), the first five are then in the passage share's
//! order ([`order_first_five_where_graph_flat`]).
//!
//! **Under a filter** ([`PassageSignals::allowed`]), a passage the filter leaves out scores 0
//! in every signal before the mix (BM25, static, dense, and the graph share), so the passage
//! share is normalised over the allowed passages, the graph weight and every move above see
//! the allowed passages only, and the ranking's first `k` are all allowed: a filter narrows
//! first and the ranking orders what is left, never the other way round.

use std::borrow::Cow;

use crate::graph::{MinMax, PprVector, top_k_positive};
use crate::lexical::TermDictionary;
use crate::text::{Language, name_share, terms};

/// Reciprocal-rank fusion's `k` (Cormack, Clarke & Büttcher, SIGIR 2009: 60).
pub const RRF_K: f64 = 60.0;
/// Ranks of each signal that take part in the fusion.
pub const RRF_DEPTH: usize = 100;
/// The dense scores' weight in the reciprocal-rank fusion by page (indexes with static word
/// embeddings and a neural encoder: a semantic-tier site), beside BM25's and the static scores'
/// 1: equal weights, RRF's plain form (docs/tuning.md, "Semantic tier: the dense weight").
pub const DENSE_RRF_WEIGHT: f64 = 1.0;
/// The graph weight's ceiling in [`graph_weight`]: HippoRAG's multi-hop questions want most of
/// the mass on the seeds (docs/tuning.md, "One hybrid ranking for every corpus").
pub const MAX_GRAPH_WEIGHT: f64 = 0.9;

/// The per-passage signals of one query, each with one value per passage (`|P|`).
#[derive(Debug, Clone, Copy)]
pub struct PassageSignals<'a> {
    /// BM25 scores ([`crate::lexical::Bm25::scores`]).
    pub bm25: &'a [f64],
    /// Static word-embedding scores ([`crate::embeddings`]), when the index has them and
    /// the query has a word in their vocabulary.
    pub statics: Option<&'a [f64]>,
    /// Dense cosine scores, when the index has a neural encoder and a query embedding is given.
    pub dense: Option<&'a [f64]>,
    /// The page of each passage ([`crate::index::Index::pages`]).
    pub pages: &'a [u32],
    /// Which passages a filter lets through (`|P|` values; a passage past the end is left
    /// out), or `None` for every passage. A passage left out scores 0 in every signal and in
    /// the graph share ([`hybrid_scores`]); `None` ranks exactly as before filters existed.
    pub allowed: Option<&'a [bool]>,
}

/// Whether passage `j` is let through by `allowed` ([`PassageSignals::allowed`]): always
/// without a mask; with one, when it holds `true` at `j` (a passage past its end is not).
pub fn is_allowed(allowed: Option<&[bool]>, j: usize) -> bool {
    allowed.is_none_or(|a| a.get(j).copied().unwrap_or(false))
}

/// Sets the scores of the passages `allowed` leaves out to 0 ([`is_allowed`]; one score per
/// passage); with `None` nothing changes.
pub fn mask_disallowed(scores: &mut [f64], allowed: Option<&[bool]>) {
    if allowed.is_some() {
        for (j, x) in scores.iter_mut().enumerate() {
            if !is_allowed(allowed, j) {
                *x = 0.0;
            }
        }
    }
}

/// `scores` with the passages `allowed` leaves out at 0: borrowed unchanged without a mask.
fn masked<'a>(scores: &'a [f64], allowed: Option<&[bool]>) -> Cow<'a, [f64]> {
    match allowed {
        None => Cow::Borrowed(scores),
        Some(_) => {
            let mut v = scores.to_vec();
            mask_disallowed(&mut v, allowed);
            Cow::Owned(v)
        }
    }
}

/// The weights of [`hybrid_scores`], from [`crate::search::RetrieveOptions`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HybridWeights {
    /// The static scores' weight beside BM25's 1 in the fusion by page (0: BM25 alone).
    pub static_weight: f64,
    /// The dense scores' share beside BM25's 1 (indexes without static embeddings); with them,
    /// 0 leaves the dense scores out of the fusion and any other value puts them in at
    /// [`DENSE_RRF_WEIGHT`].
    pub dense_weight: f64,
    /// The graph weight `w` in [0, 1]; `None` decides it per query ([`graph_weight`]).
    pub phrase_weight: Option<f64>,
    /// What the question's names leave of the static weight where the graph agrees with the
    /// passage share ([`name_factor`]; 1 for a question without names).
    pub name_factor: f64,
}

/// One query's hybrid ranking: a score per passage and the graph weight it was mixed with.
#[derive(Debug, Clone, PartialEq)]
pub struct HybridScores {
    /// `(1 − w)·b + w·g` per passage (`|P|` values, summing to at most 1).
    pub scores: Vec<f64>,
    /// The graph weight `w` used.
    pub graph_weight: f64,
    /// The passage share `b` it was mixed from (`|P|` values summing to 1, or all 0).
    pub passage_share: Vec<f64>,
    /// The graph share `g` it was mixed from (`|P|` values summing to at most 1).
    pub graph_share: Vec<f64>,
}

/// The passage share `b` (module docs), normalised to sum 1 over the allowed passages
/// ([`PassageSignals::allowed`]: the others are 0 in every signal, and in the share); all
/// zeros when no signal scores any allowed passage. The dense scores' min-max range is taken
/// over the allowed passages.
pub fn passage_share(s: &PassageSignals<'_>, w: &HybridWeights) -> Vec<f64> {
    let statics = s.statics.filter(|_| w.static_weight > 0.0);
    let dense = s.dense.filter(|_| w.dense_weight > 0.0);
    let mut share = match statics {
        Some(st) => {
            let mut signals: Vec<(&[f64], f64)> = vec![(s.bm25, 1.0), (st, w.static_weight)];
            if let Some(d) = dense {
                signals.push((d, DENSE_RRF_WEIGHT));
            }
            page_rrf_within(&signals, s.pages, s.allowed, RRF_K, RRF_DEPTH)
        }
        None => {
            let mut b = normalised(masked(s.bm25, s.allowed).into_owned());
            if let Some(d) = dense {
                let ok = |j: usize| is_allowed(s.allowed, j);
                let range = MinMax::of(d.iter().enumerate().filter(|x| ok(x.0)).map(|x| *x.1));
                let scaled = normalised(
                    d.iter()
                        .enumerate()
                        .map(|(j, &x)| if ok(j) { range.scale(x) } else { 0.0 })
                        .collect(),
                );
                for (x, y) in b.iter_mut().zip(scaled) {
                    *x += w.dense_weight * y;
                }
            }
            b
        }
    };
    share = normalised(share);
    share
}

/// `v` divided by its sum, or unchanged when the sum is not positive.
fn normalised(mut v: Vec<f64>) -> Vec<f64> {
    let total: f64 = v.iter().sum();
    if total > 0.0 {
        for x in &mut v {
            *x /= total;
        }
    }
    v
}

/// The graph share `g` over `passages` passages: `Σᵢ sᵢ·vᵢ`, with `sᵢ` each seed's weight
/// divided by the seeds' total and `vᵢ` its PPR vector. All zeros without seeds.
pub fn graph_share(seeds: &[(f64, &PprVector)], passages: usize) -> Vec<f64> {
    let mut g = vec![0.0; passages];
    let total: f64 = seeds.iter().map(|s| s.0).sum();
    if total <= 0.0 {
        return g;
    }
    for &(weight, v) in seeds {
        for (j, p) in v.entries() {
            if let Some(x) = g.get_mut(j as usize) {
                *x += weight / total * p;
            }
        }
    }
    g
}

/// The question's name share at or above which [`name_factor`] is 0: one title-case name in
/// ten words.
pub const NAME_SHARE_FULL: f64 = 0.1;
/// The most passages a title-case word may be in and still count as a name for
/// [`name_factor`]: a name picks out a few passages (HippoRAG's node specificity, §3.2, is
/// the inverse of that count), where a site's own name ("Python") or an API's type names
/// (rust-doc's `Mutex` and `String`) are everywhere.
pub const MAX_NAME_PASSAGES: u32 = 100;

/// What `question`'s names leave of the static scores' weight: `1 − clamp(s / 0.1, 0, 1)`,
/// `s` the question's [`name_share`] ([`NAME_SHARE_FULL`]), in [0, 1]. A title-case word
/// counts as a name when BM25 can match it to a few passages: its BM25 term
/// ([`crate::text::terms`] in `language`) is in 1 to [`MAX_NAME_PASSAGES`] passages of
/// `dict`. A name the site lacks (a misspelling, another product's name) does not count: the
/// static scores are then all that can stand in for it. [`hybrid_passage_share`] applies it
/// only where the graph agrees with the text.
///
/// Why: static word vectors bridge a question's concepts to a page's words, which BM25 cannot;
/// a question about named things is matched by its names, which BM25 finds exactly and static
/// vectors barely tell apart (docs/tuning.md, "A question's names leave the static scores out
/// where the graph agrees").
pub fn name_factor(question: &str, language: Language, dict: &dyn TermDictionary) -> f64 {
    // A name BM25 can match to a few passages.
    let matched = |w: &str| {
        terms(w, language)
            .first()
            .is_some_and(|t| (1..=MAX_NAME_PASSAGES).contains(&dict.document_frequency(t)))
    };
    1.0 - (name_share(question, &matched) / NAME_SHARE_FULL).clamp(0.0, 1.0)
}

/// The passage share [`hybrid_scores`] mixes with the graph share `g`: [`passage_share`] with
/// the caller's weights, or, when the question has names (`name_factor` < 1), static scores
/// and a graph share, and the graph agrees with that passage share ([`graph_weight`] > 0),
/// the passage share with the static weight times `name_factor`. Under a filter, `g` is the
/// graph share with the passages [`PassageSignals::allowed`] leaves out at 0, as
/// [`hybrid_scores`] passes it ([`mask_disallowed`]).
///
/// Why the agreement: a multi-hop question's named seeds lead the walk to passages the text
/// signals rank too; an incidental name ("… in Django" on Python's docs) does not, and the
/// static scores are then what finds the answer (docs/tuning.md).
pub fn hybrid_passage_share(s: &PassageSignals<'_>, g: &[f64], w: &HybridWeights) -> Vec<f64> {
    let b = passage_share(s, w);
    let named = w.name_factor < 1.0 && w.static_weight > 0.0 && s.statics.is_some();
    if named && g.iter().any(|&x| x > 0.0) && graph_weight(&b, g) > 0.0 {
        let lowered = HybridWeights {
            static_weight: w.static_weight * w.name_factor,
            ..*w
        };
        return passage_share(s, &lowered);
    }
    b
}

/// Passages of the passage share that [`graph_weight`] counts the graph's agreement on.
pub const AGREEMENT_DEPTH: usize = 50;
/// The agreement at or below which [`graph_weight`] leaves the graph out.
pub const AGREEMENT_FLOOR: f64 = 0.25;
/// The agreement at or above which [`graph_weight`] gives the graph [`MAX_GRAPH_WEIGHT`].
pub const AGREEMENT_FULL: f64 = 0.5;

/// The default graph weight of one query, from its **agreement**: the share of the graph
/// share's mass `g` that falls on the passage share's best [`AGREEMENT_DEPTH`] passages `b`.
/// At or below [`AGREEMENT_FLOOR`] the weight is 0, at or above [`AGREEMENT_FULL`] it is
/// [`MAX_GRAPH_WEIGHT`], linear between; 0 without a graph share.
///
/// Why: a multi-hop question's seeds are named in passages its own words find, so its walk
/// starts where BM25 does and adds passages one hop further; seeds that are not the question's
/// subject lead elsewhere (docs/tuning.md, "One hybrid ranking for every corpus").
pub fn graph_weight(b: &[f64], g: &[f64]) -> f64 {
    let a = agreement(b, g, AGREEMENT_DEPTH);
    MAX_GRAPH_WEIGHT * ((a - AGREEMENT_FLOOR) / (AGREEMENT_FULL - AGREEMENT_FLOOR)).clamp(0.0, 1.0)
}

/// The share of `g`'s mass (one value per passage) on the `depth` passages that `b` scores
/// highest (among those it scores above 0), in [0, 1]; 0 when `g` has no mass.
pub fn agreement(b: &[f64], g: &[f64], depth: usize) -> f64 {
    let total: f64 = g.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let on_top: f64 = top_k_positive(b, depth).iter().map(|x| g[x.0]).sum();
    on_top / total
}

/// The hybrid ranking of one query (module docs): `None` when neither share scores any
/// allowed passage. The graph share of a passage [`PassageSignals::allowed`] leaves out is 0
/// (the rest keep their PPR mass, not scaled up), as is its passage share, so it scores 0.
pub fn hybrid_scores(
    s: &PassageSignals<'_>,
    seeds: &[(f64, &PprVector)],
    w: &HybridWeights,
) -> Option<HybridScores> {
    let mut g = graph_share(seeds, s.bm25.len());
    mask_disallowed(&mut g, s.allowed);
    let b = hybrid_passage_share(s, &g, w);
    let has_b = b.iter().any(|&x| x > 0.0);
    let has_g = g.iter().any(|&x| x > 0.0);
    let weight = match (has_b, has_g) {
        (false, false) => return None,
        (true, false) => 0.0,
        (false, true) => 1.0,
        (true, true) => w.phrase_weight.unwrap_or_else(|| graph_weight(&b, &g)),
    };
    let mut scores: Vec<f64> = b
        .iter()
        .zip(&g)
        .map(|(x, y)| (1.0 - weight) * x + weight * y)
        .collect();
    if weight > 0.0 && weight < 1.0 {
        keep_passage_share_best(&b, &mut scores);
        put_leading_passage_first(&b, &g, &mut scores);
        order_first_five_where_graph_flat(&b, &g, &mut scores);
    }
    Some(HybridScores {
        scores,
        graph_weight: weight,
        passage_share: b,
        graph_share: g,
    })
}

/// How many of the passage share's best passages [`keep_passage_share_best`] keeps in the
/// first [`KEPT_WITHIN`] of the hybrid ranking.
pub const KEPT_PASSAGES: usize = 2;
/// The ranks (1-based) within which [`keep_passage_share_best`] keeps the passage share's best
/// [`KEPT_PASSAGES`] passages.
pub const KEPT_WITHIN: usize = 5;
const _: () = assert!(KEPT_WITHIN > KEPT_PASSAGES);

/// Raises `scores` (the hybrid mix, one value per passage) so that the `i`-th best passage of
/// the passage share `b` (`i` = 1 … [`KEPT_PASSAGES`], among those `b` scores above 0) ranks
/// no lower than `KEPT_WITHIN − KEPT_PASSAGES + i`: 4th and 5th. A passage already there keeps
/// its score; one below gets the score halfway between the passages ranked just above and at
/// that rank, and so takes that rank. Equal scores rank by passage id, as everywhere
/// ([`crate::graph::top_k_positive`]).
///
/// Why: the graph share reorders the passages that hold a question's seeds by their
/// centrality. On a multi-hop question that brings in the passage one hop away; on a
/// single-hop one (XQuAD, JSQuAD, news) it can push the passage the question's words match,
/// the answer, out of the first five below passages that merely name the same entities. Kept
/// within the first five, the text's two best passages cost the graph one or two of its five
/// places at most and never its first three; a multi-hop question's gain is mostly there
/// (docs/tuning.md, "The passage share's best two kept in the first five").
pub fn keep_passage_share_best(b: &[f64], scores: &mut [f64]) {
    let first = KEPT_WITHIN - KEPT_PASSAGES;
    for (i, &(j, _)) in top_k_positive(b, KEPT_PASSAGES).iter().enumerate() {
        let rank = first + i + 1;
        let best = top_k_positive(scores, rank);
        if best.len() == rank && !best.iter().any(|&(k, _)| k == j) {
            // Between the passages ranked `rank − 1` and `rank` (`first ≥ 1`, so both exist).
            let (above, at) = (best[rank - 2].1, best[rank - 1].1);
            let mid = at + (above - at) / 2.0;
            // `at > 0` (a positive score), so its bits + 1 are the next float up
            // (`f64::next_up`, after this crate's minimum Rust).
            scores[j] = if mid > at {
                mid
            } else {
                f64::from_bits(at.to_bits() + 1)
            };
        }
    }
}

/// The lead, as a share of its own score, by which the passage share's best passage must
/// exceed its second for [`put_leading_passage_first`] to rank it first (docs/tuning.md, "The
/// passage share's clear leader ranked first").
pub const FIRST_PLACE_LEAD: f64 = 0.1;

/// The share of the graph share's best passage's mass that the passage share's best passage
/// must hold for [`put_leading_passage_first`] to rank it first without a lead (docs/tuning.md,
/// "The passage share's best ranked first where the graph rates it close to its own").
pub const FIRST_PLACE_GRAPH_SHARE: f64 = 0.3;

/// Ranks the passage share's best passage `j` first in `scores` (the hybrid mix, one value per
/// passage) when the text picks it out or the graph does not rule it out:
/// * it **leads**: its score in `b` (the passage share) exceeds the second best's by at least
///   [`FIRST_PLACE_LEAD`] of its own, `1 − b₂/b₁ ≥ 0.1` (a lone passage with `b > 0` leads by
///   all of it); or
/// * the **graph rates it close** to its own best: `g[j] ≥ 0.3 · max g`
///   ([`FIRST_PLACE_GRAPH_SHARE`]; `g` the graph share, one value per passage).
///
/// It then gets the next float above the best score, so no other passage changes rank but those
/// it passes, each one place down. Otherwise nothing moves.
///
/// Why: when the question's words pick one passage out clearly, that passage is the answer
/// on single-hop questions (XQuAD, JSQuAD) more often than the graph's first, and on
/// multi-hop ones it is a supporting passage as often. When the text's best is close to
/// others, the graph settles the first place only where it tells the passages apart: news
/// reports of one event (RGB) name the same entities, their graph shares are close, and the
/// graph's first is then no likelier the answer than the text's; a multi-hop question's first
/// hop found by its words is central in the walk too, while a distractor sharing its words is
/// not. It moves a passage within the first five only ([`keep_passage_share_best`] has put it
/// there), so recall@5 does not change.
pub fn put_leading_passage_first(b: &[f64], g: &[f64], scores: &mut [f64]) {
    let (j, lead) = match top_k_positive(b, 2).as_slice() {
        [(j, b1), (_, b2)] => (*j, 1.0 - b2 / b1),
        [(j, _)] => (*j, 1.0),
        _ => return,
    };
    let graph_best = top_k_positive(g, 1).first().map_or(0.0, |x| x.1);
    let graph_close = graph_best > 0.0 && g[j] >= FIRST_PLACE_GRAPH_SHARE * graph_best;
    if lead < FIRST_PLACE_LEAD && !graph_close {
        return;
    }
    if let [(first, top)] = top_k_positive(scores, 1).as_slice() {
        if *first != j {
            // `top > 0` (a positive score), so its bits + 1 are the next float up
            // (`f64::next_up`, after this crate's minimum Rust).
            scores[j] = f64::from_bits(top.to_bits() + 1);
        }
    }
}

/// The graph share's peak, `max g / Σ g`, under which [`order_first_five_where_graph_flat`]
/// orders the first five by the passage share (docs/tuning.md, "The first five in the text's
/// order where the graph share is flat").
pub const FLAT_GRAPH_PEAK: f64 = 0.2;

/// Orders the first [`KEPT_WITHIN`] passages of `scores` (the hybrid mix, one value per
/// passage) by the passage share `b` when the graph share `g` is **flat**: its best passage
/// holds less than [`FLAT_GRAPH_PEAK`] of its mass, `max g < 0.2 · Σ g`. The same passages stay
/// in the first five: they trade their scores among themselves, the highest going to the
/// highest `b` (equal `b`: the higher mix, then the lower id). Otherwise nothing moves.
///
/// Why: a flat graph share does not tell passages apart. News reports of one event (RGB) name
/// the same entities, so each seed's walk spreads over all of them; the graph still brings
/// passages into the first five, which is its gain on multi-document questions, but ranks
/// them no better than chance, where the passage share ranks them by their words. A
/// multi-hop question's walk peaks on the passages of its named seeds, so its graph share is
/// seldom flat (docs/tuning.md has each set's peaks). Recall@5 does not change.
pub fn order_first_five_where_graph_flat(b: &[f64], g: &[f64], scores: &mut [f64]) {
    let total: f64 = g.iter().sum();
    let peak = top_k_positive(g, 1).first().map_or(0.0, |x| x.1);
    if total <= 0.0 || peak >= FLAT_GRAPH_PEAK * total {
        return;
    }
    let first = top_k_positive(scores, KEPT_WITHIN);
    let mut by_text: Vec<(usize, f64)> = first.clone();
    by_text.sort_by(|x, y| {
        b[y.0]
            .total_cmp(&b[x.0])
            .then(y.1.total_cmp(&x.1))
            .then(x.0.cmp(&y.0))
    });
    for (&(j, _), &(_, score)) in by_text.iter().zip(&first) {
        scores[j] = score;
    }
}

/// Reciprocal-rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009) of passage scores, by page:
/// the mass each passage gets in the hybrid reset vector (`|P|` values, unnormalised).
///
/// `signals` are `(scores, weight)` pairs, each `scores` with one value per passage (higher is
/// better; only positive scores count); `pages[j]` is passage `j`'s page
/// ([`crate::index::Index::pages`]). Each signal ranks pages by their best passage, and page
/// `p` gets `Σ weight / (k + rank)` over the signals that rank it within their top `depth`.
/// That mass goes to one passage of the page, the one with the highest passage-level fusion of
/// the same signals (lowest id on ties); every other passage gets 0.
///
/// Why pages: docs pages hold many passages, and the two signals often match different
/// passages of the gold page (docs/tuning.md, "Hybrid ranking"). Without URLs every passage is
/// its own page, and this is plain RRF over passages.
pub fn page_rrf(signals: &[(&[f64], f64)], pages: &[u32], k: f64, depth: usize) -> Vec<f64> {
    page_rrf_within(signals, pages, None, k, depth)
}

/// [`page_rrf`] over the passages `allowed` lets through ([`is_allowed`]; `None`: every
/// passage, exactly [`page_rrf`]): the others score 0 in every signal, so pages and passages
/// are ranked among the allowed ones, and a page's mass goes to one of its allowed passages
/// (a page without one gets none). `|P|` values, unnormalised.
pub fn page_rrf_within(
    signals: &[(&[f64], f64)],
    pages: &[u32],
    allowed: Option<&[bool]>,
    k: f64,
    depth: usize,
) -> Vec<f64> {
    let np = pages.iter().map(|&p| p as usize + 1).max().unwrap_or(0);
    let mut by_page = vec![0.0; np];
    let mut by_passage = vec![0.0; pages.len()];
    for &(scores, weight) in signals {
        let scores = masked(scores, allowed);
        let ranked = top_k_positive(&scores, depth);
        for (r, &(j, _)) in ranked.iter().enumerate() {
            by_passage[j] += weight / (k + r as f64 + 1.0);
        }
        // A page's best passage score (0 when none is positive).
        let mut best = vec![0.0f64; np];
        for (j, &x) in scores.iter().enumerate() {
            if x > 0.0 {
                let b = &mut best[pages[j] as usize];
                *b = b.max(x);
            }
        }
        for (r, &(p, _)) in top_k_positive(&best, depth).iter().enumerate() {
            by_page[p] += weight / (k + r as f64 + 1.0);
        }
    }
    let mut shown: Vec<Option<usize>> = vec![None; np];
    for (j, &p) in pages.iter().enumerate() {
        if !is_allowed(allowed, j) {
            continue;
        }
        let s = &mut shown[p as usize];
        if s.is_none_or(|i| by_passage[j] > by_passage[i]) {
            *s = Some(j);
        }
    }
    let mut out = vec![0.0; pages.len()];
    for (p, s) in shown.iter().enumerate() {
        if let Some(j) = *s {
            out[j] = by_page[p];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(entries: &[(u32, u8)], scale: f32) -> PprVector {
        PprVector {
            passages: entries.iter().map(|e| e.0).collect(),
            codes: entries.iter().map(|e| e.1).collect(),
            scale,
        }
    }

    #[test]
    fn name_factor_falls_with_the_names_bm25_can_match() {
        use crate::lexical::{Bm25, Bm25Data, Bm25Params};
        // "python" in every passage (too common to be a name), "collegian" in one.
        let n = MAX_NAME_PASSAGES as usize + 1;
        let docs: Vec<Vec<String>> = (0..n)
            .map(|i| {
                let text = if i == 0 { "Python Collegian" } else { "Python" };
                terms(text, Language::English)
            })
            .collect();
        let data = Bm25Data::build(&docs, Language::English, Bm25Params::default());
        let bm25 = Bm25::from_data(data, n).unwrap();
        let f = |q: &str| name_factor(q, Language::English, &bm25);
        assert_eq!(f("who owned The Collegian"), 0.0);
        assert_eq!(f("how to sort a dict in Python"), 1.0);
        // A name the site lacks (a misspelling, another product) leaves the weight whole.
        assert_eq!(f("who owned The Colegian paper"), 1.0);
        // One name among many words lowers it in proportion: 1 of 20 words → 1 − 0.05/0.1.
        let filler: Vec<String> = (0..19)
            .map(|i| format!("x{}", (b'a' + i) as char))
            .collect();
        let long = format!("how {} Collegian", filler.join(" "));
        assert!((f(&long) - 0.5).abs() < 1e-12, "{}", f(&long));
    }

    #[test]
    fn names_lower_the_static_weight_only_where_the_graph_agrees() {
        // Passages 0..4 on pages 0..4. BM25 ranks 0, 1; the static scores rank 2, 3 above 1.
        let bm25 = [3.0, 2.0, 0.0, 0.0];
        let statics = [0.9, 0.1, 0.8, 0.7];
        let pages = [0, 1, 2, 3];
        let s = PassageSignals {
            bm25: &bm25,
            statics: Some(&statics),
            dense: None,
            pages: &pages,
            allowed: None,
        };
        let w = HybridWeights {
            static_weight: 1.0,
            dense_weight: 0.0,
            phrase_weight: None,
            name_factor: 0.0,
        };
        let with_statics = passage_share(
            &s,
            &HybridWeights {
                name_factor: 1.0,
                ..w
            },
        );
        let bm25_alone = passage_share(
            &s,
            &HybridWeights {
                static_weight: 0.0,
                ..w
            },
        );
        // The graph on BM25's passages agrees: the static scores are left out.
        assert_eq!(
            hybrid_passage_share(&s, &[0.6, 0.4, 0.0, 0.0], &w),
            bm25_alone
        );
        // A graph elsewhere (an incidental name's passages) does not: they stay.
        let elsewhere = [0.0, 0.0, 0.0, 0.0];
        assert_eq!(hybrid_passage_share(&s, &elsewhere, &w), with_statics);
        // No names: the static scores stay whatever the graph says.
        let no_names = HybridWeights {
            name_factor: 1.0,
            ..w
        };
        assert_eq!(
            hybrid_passage_share(&s, &[0.6, 0.4, 0.0, 0.0], &no_names),
            with_statics
        );
    }

    #[test]
    fn graph_weight_grows_with_the_graphs_agreement_with_the_passage_share() {
        // b ranks passages 0..60 (passage j scores 100 − j); passages 60.. are outside its
        // best 50.
        let b: Vec<f64> = (0..100)
            .map(|j| if j < 60 { 100.0 - j as f64 } else { 0.0 })
            .collect();
        let with = |inside: f64| {
            let mut g = vec![0.0; 100];
            g[3] = inside;
            g[80] = 1.0 - inside;
            graph_weight(&b, &g)
        };
        assert_eq!(with(1.0), MAX_GRAPH_WEIGHT);
        assert_eq!(with(0.5), MAX_GRAPH_WEIGHT);
        assert!((with(0.375) - MAX_GRAPH_WEIGHT / 2.0).abs() < 1e-12);
        assert_eq!(with(0.25), 0.0);
        assert_eq!(with(0.0), 0.0);
        // Passage 55 is ranked by b, but not among its best 50.
        let mut g = vec![0.0; 100];
        g[55] = 1.0;
        assert_eq!(graph_weight(&b, &g), 0.0);
        assert_eq!(graph_weight(&b, &[0.0; 100]), 0.0);
    }

    #[test]
    fn hybrid_scores_mix_the_two_shares_and_fall_back_to_either_alone() {
        let bm25 = [2.0, 2.0, 0.0, 0.0];
        let pages = [0, 1, 2, 3];
        let s = PassageSignals {
            bm25: &bm25,
            statics: None,
            dense: None,
            pages: &pages,
            allowed: None,
        };
        let v = vector(&[(2, 255), (3, 51)], 0.5);
        let w = HybridWeights {
            static_weight: 1.0,
            dense_weight: 0.0,
            name_factor: 1.0,
            phrase_weight: Some(0.5),
        };
        let h = hybrid_scores(&s, &[(1.0, &v)], &w).unwrap();
        let want = [0.25, 0.25, 0.25, 0.05];
        for (g, w) in h.scores.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{:?}", h.scores);
        }
        // No seed: BM25's share alone; no BM25 match: the graph's alone.
        let h = hybrid_scores(&s, &[], &w).unwrap();
        assert_eq!((h.graph_weight, h.scores[0]), (0.0, 0.5));
        let none = [0.0; 4];
        let s0 = PassageSignals { bm25: &none, ..s };
        assert_eq!(
            hybrid_scores(&s0, &[(1.0, &v)], &w).unwrap().graph_weight,
            1.0
        );
        assert!(hybrid_scores(&s0, &[], &w).is_none());
    }

    /// Passages by `scores`, best first (ties by id).
    fn ranking(scores: &[f64]) -> Vec<usize> {
        top_k_positive(scores, scores.len())
            .iter()
            .map(|x| x.0)
            .collect()
    }

    #[test]
    fn the_passage_shares_best_two_keep_ranks_four_and_five() {
        // The graph ranks passages 0..8 in order; the text's best are 7, then 6.
        let b = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.7];
        let mut scores = [0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
        keep_passage_share_best(&b, &mut scores);
        assert_eq!(ranking(&scores), [0, 1, 2, 7, 6, 3, 4, 5]);
        // Already in the first five: no score moves.
        let mut kept = [0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
        let b = [0.0, 0.0, 0.0, 0.7, 0.3, 0.0, 0.0, 0.0];
        keep_passage_share_best(&b, &mut kept);
        assert_eq!(kept, [0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]);
        // The best one in the first four already, the second raised to fifth.
        let b = [0.9, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1];
        let mut scores = [0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
        keep_passage_share_best(&b, &mut scores);
        assert_eq!(ranking(&scores), [0, 1, 2, 3, 7, 4, 5, 6]);
    }

    #[test]
    fn the_passage_shares_leader_ranks_first_and_a_close_best_does_not() {
        let graph = [0.8, 0.7, 0.6, 0.5, 0.4];
        // The graph share rates passages 3 and 4 at a tenth of its best: no help.
        let g = [0.5, 0.2, 0.1, 0.05, 0.05];
        // Passage 3 leads passage 4 by a fifth of its score: first; the others one down.
        let mut scores = graph;
        put_leading_passage_first(&[0.0, 0.0, 0.0, 0.5, 0.4], &g, &mut scores);
        assert_eq!(ranking(&scores), [3, 0, 1, 2, 4]);
        // By a twentieth: the graph keeps the first place.
        let mut scores = graph;
        put_leading_passage_first(&[0.0, 0.0, 0.0, 0.5, 0.475], &g, &mut scores);
        assert_eq!(scores, graph);
        // A lone passage the text matches leads by all of it; one first already stays.
        let mut scores = graph;
        put_leading_passage_first(&[0.0, 0.0, 0.0, 0.0, 1.0], &g, &mut scores);
        assert_eq!(ranking(&scores), [4, 0, 1, 2, 3]);
        let mut scores = graph;
        put_leading_passage_first(&[1.0, 0.0, 0.0, 0.0, 0.0], &g, &mut scores);
        assert_eq!(scores, graph);
    }

    #[test]
    fn the_passage_shares_best_ranks_first_where_the_graph_rates_it_close_to_its_own() {
        let graph = [0.8, 0.7, 0.6, 0.5, 0.4];
        // The text's best (3) leads by a twentieth only; the graph gives it 0.3 of its best's
        // mass, at the bound: first.
        let mut scores = graph;
        let b = [0.0, 0.0, 0.0, 0.5, 0.475];
        put_leading_passage_first(&b, &[0.5, 0.2, 0.1, 0.15, 0.05], &mut scores);
        assert_eq!(ranking(&scores), [3, 0, 1, 2, 4]);
        // Just under it: the graph keeps the first place.
        let mut scores = graph;
        put_leading_passage_first(&b, &[0.5, 0.2, 0.1, 0.149, 0.05], &mut scores);
        assert_eq!(scores, graph);
        // Without a graph share nothing moves.
        let mut scores = graph;
        put_leading_passage_first(&b, &[0.0; 5], &mut scores);
        assert_eq!(scores, graph);
    }

    #[test]
    fn hybrid_scores_keep_the_texts_best_passages_unless_the_graph_is_all() {
        // BM25 matches passages 9 and 10, close; the graph peaks on passage 0 (a third of its
        // mass) and spreads over passages 1..9.
        let mut bm25 = [0.0; 11];
        bm25[9] = 1.0;
        bm25[10] = 0.95;
        let pages: Vec<u32> = (0..11).collect();
        let s = PassageSignals {
            bm25: &bm25,
            statics: None,
            dense: None,
            pages: &pages,
            allowed: None,
        };
        let entries: Vec<(u32, u8)> = (0..9)
            .map(|j| (j, if j == 0 { 255 } else { 80 - 5 * j as u8 }))
            .collect();
        let v = vector(&entries, 0.1);
        let w = |phrase_weight| HybridWeights {
            static_weight: 1.0,
            dense_weight: 0.0,
            name_factor: 1.0,
            phrase_weight: Some(phrase_weight),
        };
        let rank_of_9 = |s: &PassageSignals<'_>, pw: f64| {
            let h = hybrid_scores(s, &[(1.0, &v)], &w(pw)).unwrap();
            top_k_positive(&h.scores, 11).iter().position(|x| x.0 == 9)
        };
        // At 0.99 the mix alone puts passages 9 and 10 last; they are kept fourth and fifth.
        assert_eq!(rank_of_9(&s, 0.99), Some(3));
        // The graph alone (a caller's weight 1) ranks as the graph does.
        assert_eq!(rank_of_9(&s, 1.0), None);
        // BM25 matching passage 9 alone: it leads, and ranks first.
        let mut alone = bm25;
        alone[10] = 0.0;
        let s = PassageSignals { bm25: &alone, ..s };
        assert_eq!(rank_of_9(&s, 0.99), Some(0));
        // A flat graph share (its best passage holds an eighth of its mass): the first five
        // are the same passages, in the text's order, so passage 9 ranks first.
        let flat: Vec<(u32, u8)> = (0..8).map(|j| (j, 200)).collect();
        let v = vector(&flat, 0.1);
        let s = PassageSignals { bm25: &bm25, ..s };
        let h = hybrid_scores(&s, &[(1.0, &v)], &w(0.99)).unwrap();
        assert_eq!(ranking(&h.scores)[..5], [9, 10, 0, 1, 2]);
    }

    #[test]
    fn order_first_five_where_graph_flat_follows_the_text_among_the_same_five() {
        // The mix ranks passages 0..5 in order; the text ranks 4, 2, 5, 0 and not 1 or 3.
        let b = [0.1, 0.0, 0.3, 0.0, 0.5, 0.2];
        let mix = [0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
        // A flat graph share (a sixth of its mass on its best): the first five keep their
        // places as a set; 4, 2 and 0 by the text, then 1 and 3 (no text score) by the mix.
        // Passage 5 stays sixth though the text rates it above 0.
        let mut scores = mix;
        order_first_five_where_graph_flat(&b, &[0.2; 6], &mut scores);
        assert_eq!(ranking(&scores), [4, 2, 0, 1, 3, 5]);
        // A peaked one (half of its mass on passage 0), or none: nothing moves.
        for g in [[0.5, 0.1, 0.1, 0.1, 0.1, 0.1], [0.0; 6]] {
            let mut scores = mix;
            order_first_five_where_graph_flat(&b, &g, &mut scores);
            assert_eq!(scores, mix);
        }
    }

    #[test]
    fn a_filter_masks_every_signal_and_the_graph_share_before_the_mix() {
        // Four passages on four pages. BM25 ranks 0, then 1 and 2; the graph share puts 0.1 on
        // passage 2 and 0.5 on passage 3, which no text signal matches.
        let bm25 = [3.0, 1.0, 1.0, 0.0];
        let pages = [0, 1, 2, 3];
        let all = PassageSignals {
            bm25: &bm25,
            statics: None,
            dense: None,
            pages: &pages,
            allowed: None,
        };
        let v = vector(&[(2, 51), (3, 255)], 0.5);
        let decided = HybridWeights {
            static_weight: 1.0,
            dense_weight: 0.0,
            name_factor: 1.0,
            phrase_weight: None,
        };
        // Unfiltered, a sixth of the graph's mass is on BM25's passages: no graph weight.
        let h = hybrid_scores(&all, &[(1.0, &v)], &decided).unwrap();
        assert_eq!(h.graph_weight, 0.0);
        // Passage 3 filtered out: all the graph's mass left is on BM25's passages, so the graph
        // weighs in fully, and passage 3 scores 0 though the walk rated it highest.
        let no_3 = [true, true, true, false];
        let s = PassageSignals {
            allowed: Some(&no_3),
            ..all
        };
        let h = hybrid_scores(&s, &[(1.0, &v)], &decided).unwrap();
        assert_eq!(h.graph_weight, MAX_GRAPH_WEIGHT);
        assert_eq!(h.scores[3], 0.0);
        // 0.9 · 0.1 lifts passage 2 over passage 1; BM25's clear leader stays first.
        assert_eq!(ranking(&h.scores), [0, 2, 1]);

        // Passage 0 filtered out: the passage share is normalised over passages 1..4 (half
        // each to 1 and 2), and passage 0's graph share is gone too. The others' graph share
        // is not scaled up: passage 2 keeps its 0.1.
        let v = vector(&[(0, 255), (2, 51)], 0.5);
        let no_0 = [false, true, true, true];
        let s = PassageSignals {
            allowed: Some(&no_0),
            ..all
        };
        let half = HybridWeights {
            phrase_weight: Some(0.5),
            ..decided
        };
        assert_eq!(passage_share(&s, &half), [0.0, 0.5, 0.5, 0.0]);
        let h = hybrid_scores(&s, &[(1.0, &v)], &half).unwrap();
        let want = [0.0, 0.25, 0.3, 0.0];
        for (x, w) in h.scores.iter().zip(want) {
            assert!((x - w).abs() < 1e-9, "{:?}", h.scores);
        }
        assert_eq!(h.scores[0], 0.0);
        // Unfiltered, passage 0 leads on both shares.
        assert_eq!(
            ranking(&hybrid_scores(&all, &[(1.0, &v)], &half).unwrap().scores)[0],
            0
        );
        // Only passage 0 allowed, which neither BM25 nor the walk reaches: nothing to rank.
        let none_scored = PassageSignals {
            bm25: &[0.0, 1.0, 1.0, 0.0],
            allowed: Some(&[true, false, false, false]),
            ..all
        };
        assert!(hybrid_scores(&none_scored, &[(1.0, &vector(&[(2, 255)], 0.5))], &half).is_none());

        // Every passage allowed: the same bits as no filter, with static and dense scores too.
        let statics = [0.2, 0.9, 0.0, 0.4];
        let dense = [0.1, -0.3, 0.5, 0.2];
        let every = [true; 4];
        for st in [None, Some(&statics[..])] {
            let plain = PassageSignals {
                statics: st,
                dense: Some(&dense),
                ..all
            };
            let masked = PassageSignals {
                allowed: Some(&every),
                ..plain
            };
            for w in [
                decided,
                half,
                HybridWeights {
                    dense_weight: 0.5,
                    ..decided
                },
            ] {
                assert_eq!(
                    hybrid_scores(&masked, &[(1.0, &v)], &w),
                    hybrid_scores(&plain, &[(1.0, &v)], &w)
                );
            }
        }
    }

    #[test]
    fn a_filter_scales_the_dense_scores_over_the_allowed_passages() {
        // Without static scores, dense scores are min-max scaled: over passages 1 and 2 only,
        // passage 1 (−0.3, the lowest allowed) gets 0 and passage 2 all of the dense share.
        let bm25 = [0.0; 4];
        let dense = [0.9, -0.3, 0.5, 0.8];
        let s = PassageSignals {
            bm25: &bm25,
            statics: None,
            dense: Some(&dense),
            pages: &[0, 1, 2, 3],
            allowed: Some(&[false, true, true, false]),
        };
        let w = HybridWeights {
            static_weight: 0.0,
            dense_weight: 0.5,
            name_factor: 1.0,
            phrase_weight: None,
        };
        assert_eq!(passage_share(&s, &w), [0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn page_rrf_within_ranks_allowed_passages_and_gives_a_page_to_an_allowed_one() {
        // Passages 0 and 1 on page 0, 2 on page 1. Passage 0 filtered out: page 1 (2.0) ranks
        // above page 0 (1.0, its allowed passage's), and page 0's mass goes to passage 1.
        let a = [3.0, 1.0, 2.0];
        let pages = [0, 0, 1];
        assert_eq!(
            page_rrf(&[(&a, 1.0)], &pages, 1.0, 10),
            [0.5, 0.0, 1.0 / 3.0]
        );
        let out = page_rrf_within(&[(&a, 1.0)], &pages, Some(&[false, true, true]), 1.0, 10);
        assert_eq!(out, [0.0, 1.0 / 3.0, 0.5]);
        // Page 1 (passages 2 and 3) is in the first two pages but neither of its passages in the
        // first two passages: its mass goes to its lowest allowed passage, 3 once 2 is out.
        let a = [5.0, 4.0, 0.0, 3.0];
        let pages = [0, 0, 1, 1];
        let out = page_rrf(&[(&a, 1.0)], &pages, 1.0, 2);
        assert_eq!(out, [0.5, 0.0, 1.0 / 3.0, 0.0]);
        let allowed = [true, true, false, true];
        let out = page_rrf_within(&[(&a, 1.0)], &pages, Some(&allowed), 1.0, 2);
        assert_eq!(out, [0.5, 0.0, 0.0, 1.0 / 3.0]);
        // A page with no allowed passage gets nothing; every passage allowed is page_rrf.
        let out = page_rrf_within(
            &[(&a, 1.0)],
            &pages,
            Some(&[true, true, false, false]),
            1.0,
            2,
        );
        assert_eq!(out, [0.5, 0.0, 0.0, 0.0]);
        let out = page_rrf_within(&[(&a, 1.0)], &pages, Some(&[true; 4]), 1.0, 2);
        assert_eq!(out, page_rrf(&[(&a, 1.0)], &pages, 1.0, 2));
    }

    #[test]
    fn page_rrf_sums_page_ranks_onto_the_best_fused_passage() {
        // Passages 0 and 1 share page 0. A ranks pages 0, 1, 2; B ranks pages 0, 2.
        let a = [3.0, 0.0, 2.0, 1.0];
        let b = [0.0, 5.0, 0.0, 4.0];
        let out = page_rrf(&[(&a, 1.0), (&b, 1.0)], &[0, 0, 1, 2], 1.0, 10);
        // Page 0: 1/2 + 1/2 on passage 0 (tied with passage 1 at 1/2: lower id);
        // page 1: 1/3; page 2: 1/4 + 1/3.
        let want = [1.0, 0.0, 1.0 / 3.0, 7.0 / 12.0];
        for (o, w) in out.iter().zip(want) {
            assert!((o - w).abs() < 1e-12, "{out:?}");
        }
        // Depth 1: only each signal's first page counts; B's heavier weight makes its passage
        // the one that carries page 0.
        let out = page_rrf(&[(&a, 1.0), (&b, 2.0)], &[0, 0, 1, 2], 1.0, 1);
        assert_eq!(out, [0.0, 1.5, 0.0, 0.0]);
    }
}
