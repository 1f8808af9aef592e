//! How every kind of piece is cut: items in their order into runs ([`cut`], [`runs`],
//! [`capped_runs`]), and the lower boundary a key-ranged piece gets in the meta piece
//! ([`boundaries`]).

use std::ops::Range;

/// Items `0..n` cut into consecutive runs, none empty (none at all for no item): item `k`
/// starts a new run when `ends(size, k)`, `size` the summed `item_size` of the run so far.
pub(super) fn cut(
    n: usize,
    item_size: impl Fn(usize) -> usize,
    ends: impl Fn(usize, usize) -> bool,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut size) = (0, 0);
    for k in 0..n {
        if k > start && ends(size, k) {
            out.push(start..k);
            (start, size) = (k, 0);
        }
        size += item_size(k);
    }
    if start < n {
        out.push(start..n);
    }
    out
}

/// [`cut`] with each run ending at the first item that takes its size to `target` or past.
pub(super) fn runs(n: usize, target: usize, size: impl Fn(usize) -> usize) -> Vec<Range<usize>> {
    cut(n, size, |run, _| run >= target)
}

/// [`runs`] at `target`, or, when that gives more than `cap` runs, at the smallest target
/// that gives at most `cap` (found by bisection: the greedy cut's run count never grows with
/// its target), so that a site past the cap gets exactly as many pieces as it may.
pub(super) fn capped_runs(
    n: usize,
    target: usize,
    cap: usize,
    size: impl Fn(usize) -> usize,
) -> Vec<Range<usize>> {
    let count = |t: usize| runs(n, t, &size).len();
    if count(target) <= cap {
        return runs(n, target, &size);
    }
    let (mut lo, mut hi) = (target, (0..n).map(&size).sum::<usize>().max(1));
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if count(mid) <= cap {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    runs(n, hi, &size)
}

/// The lower boundary of each run of the sorted keys `key(0..)`: "" for the first run, then
/// the [`separator`] between the key before the run and its first.
pub(super) fn boundaries<'a>(runs: &[Range<usize>], key: impl Fn(usize) -> &'a str) -> Vec<String> {
    runs.iter()
        .map(|r| match r.start {
            0 => String::new(),
            k => separator(key(k - 1), key(k)),
        })
        .collect()
}

/// The shortest prefix of `first` that sorts after `prev` (`prev < first`), as LevelDB's
/// `FindShortestSeparator` shortens its index blocks' keys: every key of the earlier piece is
/// below it and every key of its piece at or above it.
fn separator(prev: &str, first: &str) -> String {
    debug_assert!(prev < first, "{prev:?} < {first:?}");
    let common = prev
        .chars()
        .zip(first.chars())
        .take_while(|(a, b)| a == b)
        .count();
    first.chars().take(common + 1).collect()
}

#[cfg(test)]
mod tests {
    use super::{boundaries, capped_runs, cut, runs, separator};

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
        let keys = ["a", "numbers", "numpy array", "z"];
        assert_eq!(boundaries(&[0..2, 2..4], |k| keys[k]), ["", "nump"]);
    }

    #[test]
    fn runs_end_at_the_item_that_reaches_the_target_and_caps_raise_it() {
        let sizes = [3, 1, 1, 4, 2, 2];
        assert!(cut(0, |_| 1, |_, _| true).is_empty());
        // A run ends once it holds 4 or more.
        assert_eq!(runs(6, 4, |k| sizes[k]), [0..2, 2..4, 4..6]);
        // Target 0: every item alone; a join rule keeps items 1 and 2 together.
        assert_eq!(runs(3, 0, |k| sizes[k]), [0..1, 1..2, 2..3]);
        assert_eq!(cut(3, |k| sizes[k], |_, k| k != 2), [0..1, 1..3]);
        // At most two runs: the smallest target that gives two.
        assert_eq!(capped_runs(6, 4, 2, |k| sizes[k]), [0..4, 4..6]);
        assert_eq!(capped_runs(6, 4, 3, |k| sizes[k]), runs(6, 4, |k| sizes[k]));
    }
}
