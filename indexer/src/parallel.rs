//! Order-preserving parallel maps over the build's independent items (passages, phrase nodes,
//! codes): on the rayon thread pool with the `parallel` feature, in order on one thread
//! without it (the in-browser indexer). Either way the output is in input order, so the index
//! bytes do not depend on the thread count.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// `f` of every item of `items`, in order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "parallel")]
    return items.par_iter().map(f).collect();
    #[cfg(not(feature = "parallel"))]
    return items.iter().map(f).collect();
}

/// `f(i)` for every `i` in `0..n`, in order.
pub fn map_range<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "parallel")]
    return (0..n).into_par_iter().map(f).collect();
    #[cfg(not(feature = "parallel"))]
    return (0..n).map(f).collect();
}

/// `f(&mut state, i)` for every `i` in `0..n`, in order, with a `state` made by `init` for
/// each rayon task (or once, without the feature) and reused across its items.
pub fn map_range_init<S, R: Send>(
    n: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    return (0..n).into_par_iter().map_init(init, f).collect();
    #[cfg(not(feature = "parallel"))]
    return {
        let mut state = init();
        (0..n).map(|i| f(&mut state, i)).collect()
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn maps_keep_the_input_order() {
        let items: Vec<u64> = (0..10_000).collect();
        assert_eq!(
            super::map(&items, |x| x * 3),
            (0..10_000).map(|x| x * 3).collect::<Vec<u64>>()
        );
        assert_eq!(super::map_range(5, |i| i + 1), [1, 2, 3, 4, 5]);
        let sums = super::map_range_init(5, Vec::new, |seen: &mut Vec<usize>, i| {
            seen.push(i);
            i * 2
        });
        assert_eq!(sums, [0, 2, 4, 6, 8]);
    }
}
