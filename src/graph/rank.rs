//! Passage ranking (HippoRAG §3.2): passage scores `Pᵀ·ppr`, top-k, and the explanation.
//!
//! A passage's score is the sum over its phrases of (occurrences × the phrase's PPR
//! probability) — the reference implementation's `docs_to_phrases_mat · ppr`. Ties are broken
//! by passage id (corpus order), so rankings are deterministic across platforms.

use serde::Serialize;

use crate::graph::top_k;
use crate::index::Index;

/// A phrase node and its PPR probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhraseScore {
    /// Phrase node id.
    pub phrase_id: u32,
    /// Phrase (normalised).
    pub phrase: String,
    /// PPR probability.
    pub ppr: f64,
}

/// How much one phrase added to a passage's score.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Contribution {
    /// Phrase node id.
    pub phrase_id: u32,
    /// Phrase (normalised).
    pub phrase: String,
    /// Occurrences of the phrase in the passage's triples (`P_ij`).
    pub count: f32,
    /// The phrase's PPR probability.
    pub ppr: f64,
    /// `count × ppr`: its share of the passage score.
    pub score: f64,
}

/// One ranked passage.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankedPassage {
    /// 1-based rank.
    pub rank: u32,
    /// Passage id (position in the corpus).
    pub id: u32,
    /// Title.
    pub title: String,
    /// Text.
    pub text: String,
    /// URL, for sites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Ranking score (HippoRAG 1: `(Pᵀ·ppr)_j`; dense: cosine; HippoRAG 2: PPR of the passage node).
    pub score: f64,
    /// The phrases that contributed most, highest first (empty for dense ranking).
    pub contributions: Vec<Contribution>,
}

/// `Pᵀ·ppr`: one score per passage.
pub fn passage_scores(index: &Index, ppr: &[f64]) -> Vec<f64> {
    index
        .passage_phrases
        .outer_iterator()
        .map(|row| row.iter().map(|(i, &c)| f64::from(c) * ppr[i]).sum())
        .collect()
}

/// The `k` phrase nodes with the highest PPR probability.
pub fn top_phrases(index: &Index, ppr: &[f64], k: usize) -> Vec<PhraseScore> {
    top_k(&ppr[..index.phrases.len()], k)
        .into_iter()
        .map(|(i, p)| PhraseScore {
            phrase_id: i as u32,
            phrase: index.phrases[i].clone(),
            ppr: p,
        })
        .collect()
}

/// The at most `k` phrases that contributed most to passage `j`'s score: its phrases (row `j` of
/// `Pᵀ`) by occurrence count × PPR probability, best first. A phrase whose probability is 0
/// contributed nothing and is left out (with damping 0 no phrase has any: the list is empty).
pub fn contributions(index: &Index, j: usize, ppr: &[f64], k: usize) -> Vec<Contribution> {
    let Some(row) = index.passage_phrases.outer_view(j) else {
        return Vec::new();
    };
    let mut c: Vec<Contribution> = row
        .iter()
        .map(|(i, &count)| Contribution {
            phrase_id: i as u32,
            phrase: index.phrases[i].clone(),
            count,
            ppr: ppr[i],
            score: f64::from(count) * ppr[i],
        })
        .filter(|c| c.score > 0.0)
        .collect();
    c.sort_unstable_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.phrase_id.cmp(&b.phrase_id))
    });
    c.truncate(k);
    c
}

/// Builds ranked passages from `(id, score)` pairs.
pub fn ranked(
    index: &Index,
    top: &[(usize, f64)],
    ppr: Option<&[f64]>,
    k_contrib: usize,
) -> Vec<RankedPassage> {
    top.iter()
        .enumerate()
        .map(|(r, &(j, score))| {
            let p = &index.passages[j];
            RankedPassage {
                rank: r as u32 + 1,
                id: j as u32,
                title: p.title.clone(),
                text: p.text.clone(),
                url: p.url.clone(),
                score,
                contributions: ppr
                    .map_or_else(Vec::new, |ppr| contributions(index, j, ppr, k_contrib)),
            }
        })
        .collect()
}
