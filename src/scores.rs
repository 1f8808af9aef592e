//! Score utilities shared by linking, PPR seeding and ranking: top-k selection, min-max
//! scaling and reciprocal-rank fusion by page.

/// The `k` best `(id, score)` pairs: score descending, id ascending on ties; NaN never wins.
///
/// For `k ≤ 64` one pass keeps the best `k` in a sorted buffer (most scores lose a single
/// comparison with the current `k`-th); larger `k` select with `select_nth_unstable`. A full
/// selection over the 16k phrase nodes was 6% of a hipporag1 query in wasm.
pub fn top_k(scores: &[f64], k: usize) -> Vec<(usize, f64)> {
    best_of(scores.iter().copied().enumerate(), k)
}

/// [`top_k`] of the positive scores only: the same pairs in the same order, without the
/// non-positive ones that `top_k` would list after them. Passes over sparse scores (BM25's,
/// the probed clusters' static scores) do not sort the passages nothing matched.
pub fn top_k_positive(scores: &[f64], k: usize) -> Vec<(usize, f64)> {
    best_of(
        scores.iter().copied().enumerate().filter(|&(_, x)| x > 0.0),
        k,
    )
}

/// The `k` best of `items` as [`top_k`] orders them.
fn best_of(items: impl Iterator<Item = (usize, f64)>, k: usize) -> Vec<(usize, f64)> {
    let key = |x: f64| if x.is_nan() { f64::NEG_INFINITY } else { x };
    let cmp = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if k <= 64 {
        let mut best: Vec<(usize, f64)> = Vec::with_capacity(k + 1);
        for (i, x) in items {
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
    let mut order: Vec<(usize, f64)> = items.map(|(i, x)| (i, key(x))).collect();
    if k < order.len() {
        order.select_nth_unstable_by(k, cmp);
        order.truncate(k);
    }
    order.sort_unstable_by(cmp);
    order
}

/// Min-max scaling of a score list, as the reference scales fact scores and dense passage
/// scores (HippoRAG 2, `min_max_normalize`): `(x − min) / (max − min)`, and 1 for every value
/// when all are equal (or the list is empty).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MinMax {
    /// Smallest value (`+∞` for an empty list).
    pub lo: f64,
    /// Largest value (`−∞` for an empty list).
    pub hi: f64,
}

impl MinMax {
    /// The range of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Self {
        let (lo, hi) = values
            .into_iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
                (lo.min(c), hi.max(c))
            });
        Self { lo, hi }
    }

    /// `x` scaled to `[0, 1]` by the range.
    pub fn scale(&self, x: f64) -> f64 {
        if self.hi > self.lo {
            (x - self.lo) / (self.hi - self.lo)
        } else {
            1.0
        }
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
/// passages of the gold page. On the CoNaLa `dev` split of Python's docs, fusing by page gave
/// page recall@10 0.609 against 0.569 for the same fusion by passage (docs/tuning.md, "Hybrid ranking").
/// Without URLs every passage is its own page, and this is plain RRF over passages.
pub fn page_rrf(signals: &[(&[f64], f64)], pages: &[u32], k: f64, depth: usize) -> Vec<f64> {
    let np = pages.iter().map(|&p| p as usize + 1).max().unwrap_or(0);
    let mut by_page = vec![0.0; np];
    let mut by_passage = vec![0.0; pages.len()];
    for &(scores, weight) in signals {
        let ranked = top_k_positive(scores, depth);
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

    #[test]
    fn top_k_positive_is_top_k_without_the_non_positive_scores() {
        let scores = [0.0, 3.0, -1.0, f64::NAN, 3.0, 0.5, 0.0, 2.0];
        for k in [0, 1, 2, 4, 8, 65] {
            let want: Vec<(usize, f64)> = top_k(&scores, k)
                .into_iter()
                .filter(|x| x.1 > 0.0)
                .collect();
            assert_eq!(top_k_positive(&scores, k), want, "k = {k}");
        }
        assert_eq!(top_k_positive(&scores, 2), [(1, 3.0), (4, 3.0)]);
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

    #[test]
    fn top_k_orders_by_score_then_id() {
        let s = [0.1, 0.5, 0.5, f64::NAN, 0.2];
        let t = top_k(&s, 3);
        assert_eq!(t.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 4]);
        assert_eq!(top_k(&s, 10).len(), 5);
    }

    #[test]
    fn min_max_scales_to_unit_range_and_constant_lists_to_one() {
        let r = MinMax::of([2.0, -1.0, 5.0]);
        assert_eq!((r.lo, r.hi), (-1.0, 5.0));
        assert_eq!(r.scale(-1.0), 0.0);
        assert_eq!(r.scale(5.0), 1.0);
        assert_eq!(r.scale(2.0), 0.5);
        assert_eq!(MinMax::of([3.0, 3.0]).scale(3.0), 1.0);
        assert_eq!(MinMax::of([]).scale(0.0), 1.0);
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
