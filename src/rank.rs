//! Passage ranking (HippoRAG §3.2): passage scores `Pᵀ·ppr`, top-k, and the explanation.
//!
//! A passage's score is the sum over its phrases of (occurrences × the phrase's PPR
//! probability) — the reference implementation's `docs_to_phrases_mat · ppr`. Ties are broken
//! by passage id (corpus order), so rankings are deterministic across platforms.

use serde::Serialize;

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

/// The `k` best `(id, score)` pairs: score descending, id ascending on ties; NaN never wins.
///
/// For `k ≤ 64` one pass keeps the best `k` in a sorted buffer (most scores lose a single
/// comparison with the current `k`-th); larger `k` select with `select_nth_unstable`. A full
/// selection over the 16k phrase nodes was 6% of a hipporag1 query in wasm.
pub fn top_k(scores: &[f64], k: usize) -> Vec<(usize, f64)> {
    let key = |x: f64| if x.is_nan() { f64::NEG_INFINITY } else { x };
    let cmp = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if k <= 64 {
        let mut best: Vec<(usize, f64)> = Vec::with_capacity(k + 1);
        for (i, &x) in scores.iter().enumerate() {
            let c = (i, key(x));
            if best.len() == k && best.last().is_none_or(|l| cmp(&c, l).is_ge()) {
                continue;
            }
            let at = best.partition_point(|b| cmp(b, &c).is_lt());
            best.insert(at, c);
            best.truncate(k);
        }
        return best;
    }
    let mut order: Vec<(usize, f64)> = scores.iter().map(|&x| key(x)).enumerate().collect();
    if k < order.len() {
        order.select_nth_unstable_by(k, cmp);
        order.truncate(k);
    }
    order.sort_by(cmp);
    order
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

/// The at most `k` phrases that contributed most to passage `j`'s score.
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
        .collect();
    c.sort_by(|a, b| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_orders_by_score_then_id() {
        let s = [0.1, 0.5, 0.5, f64::NAN, 0.2];
        let t = top_k(&s, 3);
        assert_eq!(t.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 4]);
        assert_eq!(top_k(&s, 10).len(), 5);
    }

    #[test]
    fn both_selection_paths_equal_a_full_sort() {
        // Scores with many ties, NaNs and -0.0: the k ≤ 64 buffer and the select path must both
        // give exactly the prefix of a full sort (score descending, id ascending).
        let scores: Vec<f64> = (0..3000u64)
            .map(|i| match (i * 2654435761) % 97 {
                0 => f64::NAN,
                1 => -0.0,
                r => (r % 13) as f64 / 7.0,
            })
            .collect();
        let mut full: Vec<(usize, f64)> = scores
            .iter()
            .map(|&x| if x.is_nan() { f64::NEG_INFINITY } else { x })
            .enumerate()
            .collect();
        full.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for k in [1, 5, 40, 64, 65, 500, 3000, 5000] {
            let got = top_k(&scores, k);
            assert_eq!(got.len(), k.min(scores.len()));
            for (g, w) in got.iter().zip(&full) {
                assert_eq!((g.0, g.1.to_bits()), (w.0, w.1.to_bits()), "k = {k}");
            }
        }
    }
}
