//! Score utilities shared by linking, PPR seeding and ranking: top-k selection and min-max
//! scaling.

/// The `k` best `(id, score)` pairs: score descending, id ascending on ties; NaN never wins.
///
/// For `k ≤ 64` one pass keeps the best `k` in a sorted buffer (most scores lose a single
/// comparison with the current `k`-th); larger `k` select with `select_nth_unstable`, where a
/// full sort of every phrase node would cost a query more.
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
