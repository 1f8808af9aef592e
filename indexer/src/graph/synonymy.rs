//! Synonymy edges (HippoRAG §3.1): exact nearest neighbours by cosine among phrase embeddings.

use std::collections::BTreeMap;

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::progress::Progress;

/// How far below τ a blocked product's cosine may be and the pair still be checked exactly.
/// `sgemm`'s kernels sum in an order that depends on the target (AVX natively, scalar in
/// wasm), so the same pair's cosine differs in its last bits between the two; the cosine of
/// every candidate is then recomputed by [`cosine`] in one fixed order, so the edges and their
/// weights are bit-identical on every target (the in-browser indexer's bytes equal the
/// binary's). The products' error is far below this margin (unit vectors of 384 f32s).
const SGEMM_MARGIN: f32 = 1e-3;

/// The cosine of unit rows `i` and `j` of `unit` (`dim` each): a sum in index order in f64,
/// rounded to f32 once, the same on every IEEE 754 target.
fn cosine(unit: &[f32], dim: usize, i: usize, j: usize) -> f32 {
    let (a, b) = (&unit[i * dim..(i + 1) * dim], &unit[j * dim..(j + 1) * dim]);
    a.iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum::<f64>() as f32
}

/// Exact synonymy neighbours: for every row `i` of the row-major `emb` (`n × dim`, taken so that
/// its rows are scaled to unit length in place rather than copied), the at most
/// `k` rows `j ≠ i` with cosine ≥ `tau`, highest first (lower `j` on ties). Returns the union of
/// those directed pairs as undirected pairs `(min, max) → cosine`, sorted.
///
/// Candidates come from the L2-normalised rows, over the upper triangle of the Gram
/// matrix (cosine is symmetric), by one of two products that find the same pairs:
/// * **sparse** rows (at most [`SPARSE_DENSITY`] of the values non-zero, as the hashed n-gram
///   encoder's are) and `tau > SGEMM_MARGIN`: the all-pairs similarity search of Bayardo et al.
///   (WWW 2007) with ℓ2 bounds as in L2AP (Anastasiu & Karypis, ICDE 2014), at the bound
///   `tau − SGEMM_MARGIN`: each row's values in its most common dimensions stay out of the
///   inverted index (`PrefixIndex`), a row gains candidates only while its values not yet
///   run can reach the bound, and a candidate's dot product is completed only when its upper
///   bound can (`sparse_block`). Every bound holds for unit rows, so no pair at or above
///   the bound is lost (the tests compare with a brute force and the dense product).
/// * **dense** rows (neural encoders): blocked `sgemm` products, row block `[r0, r1)` by rows
///   `[r0, n)`, about `n² · dim / 2` multiply-adds.
///
/// Every pair either product puts within `SGEMM_MARGIN` of `tau` gets its cosine recomputed
/// in a fixed order (`cosine`), and every pair whose exact cosine is at least `tau` is offered
/// to both of its rows before each row keeps its top `k`. Row blocks run in parallel (feature
/// `parallel`); the result does not depend on the thread count or on which product ran. Rows
/// whose `seeks_synonyms` flag is false get no neighbours of their own (they can still be
/// another row's neighbour). Memory: `emb` itself (normalised in place) plus, per thread,
/// one `256 × n` f32 block (dense) or two `n`-long accumulators (sparse, beside the index's 8
/// to 16 bytes per non-zero value), plus the pairs above `tau`. Time and peak memory at scale
/// (`examples/synonymy_scale.rs`): docs/benchmarks.md, "Synonymy edges at scale".
pub fn synonymy_pairs(
    emb: Vec<f32>,
    seeks_synonyms: &[bool],
    dim: usize,
    tau: f32,
    k: usize,
    progress: &dyn Progress,
) -> BTreeMap<(u32, u32), f32> {
    let n = emb.len().checked_div(dim).unwrap_or(0);
    assert_eq!(seeks_synonyms.len(), n, "one flag per row");
    let unit = unit_rows(emb, dim);
    let nonzero = unit.iter().filter(|&&x| x != 0.0).count();
    let sparse = tau > SGEMM_MARGIN && (nonzero as f64) <= SPARSE_DENSITY * unit.len() as f64;
    let above = pairs_above(&unit, dim, sparse, seeks_synonyms, tau, progress);
    top_k_pairs(above, seeks_synonyms, k)
}

/// The rows of `emb` (`dim` each) scaled to unit length, in place; all-zero rows stay zero.
fn unit_rows(emb: Vec<f32>, dim: usize) -> Vec<f32> {
    let mut unit = emb;
    for row in unit.chunks_exact_mut(dim.max(1)) {
        let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            row.iter_mut().for_each(|x| *x /= norm);
        }
    }
    unit
}

/// The pairs `(i, j)`, `i < j`, of the upper triangle of the Gram matrix of the unit rows
/// `unit` whose exact cosine is at least `tau`, by the sparse product or the dense one, with
/// that cosine; row blocks in parallel (feature `parallel`).
fn pairs_above(
    unit: &[f32],
    dim: usize,
    sparse: bool,
    seeks_synonyms: &[bool],
    tau: f32,
    progress: &dyn Progress,
) -> Vec<(u32, u32, f32)> {
    let n = seeks_synonyms.len();
    let index = if sparse {
        PrefixIndex::new(unit, dim, tau - SGEMM_MARGIN)
    } else {
        PrefixIndex::default()
    };
    const BLOCK: usize = 256;
    #[cfg(feature = "parallel")]
    let block_ids = (0..n.div_ceil(BLOCK)).into_par_iter();
    #[cfg(not(feature = "parallel"))]
    let block_ids = 0..n.div_ceil(BLOCK);
    let blocks: Vec<Vec<(u32, u32, f32)>> = block_ids
        .map(|b| {
            let rows = b * BLOCK..((b + 1) * BLOCK).min(n);
            let mut out = Vec::new();
            let mut offer = |i: usize, j: usize, s: f32| {
                if s >= tau - SGEMM_MARGIN && (seeks_synonyms[i] || seeks_synonyms[j]) {
                    let exact = cosine(unit, dim, i, j);
                    if exact >= tau {
                        out.push((i as u32, j as u32, exact.min(1.0)));
                    }
                }
            };
            let count = rows.len() as u64;
            if sparse {
                sparse_block(unit, dim, &index, rows, tau - SGEMM_MARGIN, &mut offer);
            } else {
                dense_block(unit, dim, rows, &mut offer);
            }
            progress.advance(count);
            out
        })
        .collect();
    blocks.into_iter().flatten().collect()
}

/// Each row's candidates among `above` from both sides of the triangle (rows that seek
/// synonyms only), its top `k` (highest cosine first, lower id on ties), as undirected pairs.
fn top_k_pairs(
    above: Vec<(u32, u32, f32)>,
    seeks_synonyms: &[bool],
    k: usize,
) -> BTreeMap<(u32, u32), f32> {
    let mut per_row: Vec<Vec<(u32, f32)>> = vec![Vec::new(); seeks_synonyms.len()];
    for (i, j, s) in above {
        if seeks_synonyms[i as usize] {
            per_row[i as usize].push((j, s));
        }
        if seeks_synonyms[j as usize] {
            per_row[j as usize].push((i, s));
        }
    }
    let mut pairs = BTreeMap::new();
    for (i, cand) in per_row.iter_mut().enumerate() {
        cand.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        cand.truncate(k);
        let i = i as u32;
        for &(j, s) in cand.iter() {
            pairs.entry((i.min(j), i.max(j))).or_insert(s);
        }
    }
    pairs
}

/// The largest share of non-zero values for which [`synonymy_pairs`] takes the sparse product.
/// Its cost falls with the square of the density while `sgemm`'s does not, and it scatters
/// where `sgemm` streams, so it is taken only well below one half.
pub const SPARSE_DENSITY: f64 = 0.25;

/// The sparse product's index of unit rows (Bayardo et al., WWW 2007, "All-Pairs", with ℓ2
/// bounds as in L2AP, Anastasiu & Karypis, ICDE 2014). The dimensions are ordered by how many
/// rows have them, most first; each row's non-zero values in that order are split into its
/// *prefix*, the longest run from the start whose ℓ2 norm stays under the bound, and the rest,
/// which the inverted index holds. A unit row's prefix adds less than the bound to its dot
/// product with any unit row, so a pair at or above the bound shares an indexed value.
#[derive(Default)]
struct PrefixIndex {
    /// For each dimension, the rows whose value in it is indexed, ascending, and that value.
    postings: Vec<Vec<(u32, f32)>>,
    /// Each row's non-zero values `(dimension, value)` in dimension order, at
    /// `row_ptr[i]..row_ptr[i + 1]`; the first `prefix_len[i]` of them are its prefix.
    values: Vec<(u32, f32)>,
    row_ptr: Vec<usize>,
    prefix_len: Vec<u32>,
    /// Each row's prefix norm.
    prefix_norm: Vec<f64>,
    /// Each dimension's position in the order.
    position: Vec<u32>,
}

impl PrefixIndex {
    /// Splits every row of `unit` (`dim` values each) with the ℓ2 bound `bound`: a prefix's
    /// norm, summed in f64, stays strictly below it.
    fn new(unit: &[f32], dim: usize, bound: f32) -> Self {
        let rows = unit.chunks_exact(dim.max(1));
        let mut nnz = vec![0usize; dim];
        for row in rows.clone() {
            for (d, &x) in row.iter().enumerate() {
                nnz[d] += usize::from(x != 0.0);
            }
        }
        let mut order: Vec<usize> = (0..dim).collect();
        order.sort_by_key(|&d| (std::cmp::Reverse(nnz[d]), d));
        let bound = f64::from(bound.max(0.0));
        let mut position = vec![0u32; dim];
        for (p, &d) in order.iter().enumerate() {
            position[d] = p as u32;
        }
        let mut index = Self {
            postings: vec![Vec::new(); dim],
            row_ptr: vec![0],
            position,
            ..Self::default()
        };
        for (i, row) in rows.enumerate() {
            let mut squares = 0f64;
            let mut prefix = 0u32;
            let mut in_prefix = true;
            for &d in &order {
                let x = row[d];
                if x == 0.0 {
                    continue;
                }
                let next = squares + f64::from(x) * f64::from(x);
                in_prefix = in_prefix && next.sqrt() < bound;
                if in_prefix {
                    squares = next;
                    prefix += 1;
                } else {
                    index.postings[d].push((i as u32, x));
                }
                index.values.push((d as u32, x));
            }
            index.row_ptr.push(index.values.len());
            index.prefix_len.push(prefix);
            index.prefix_norm.push(squares.sqrt());
        }
        index
    }

    /// Row `i`'s non-zero values in dimension order.
    fn values(&self, i: usize) -> &[(u32, f32)] {
        &self.values[self.row_ptr[i]..self.row_ptr[i + 1]]
    }

    /// Row `i`'s prefix.
    fn prefix(&self, i: usize) -> &[(u32, f32)] {
        &self.values(i)[..self.prefix_len[i] as usize]
    }
}

/// Offers `(i, j, dot)` for every row `i` of `rows` (unit rows of `unit`, `dim` values each)
/// and every row `j > i` whose dot product with it may reach `bound` ([`PrefixIndex`]).
///
/// Row `i`'s values are run over the index from its last dimension in order back to its first;
/// a row met for the first time becomes a candidate only while the norm of row `i`'s values
/// not yet run is at least `bound`. That misses no pair at or above `bound`: such a row shares
/// no indexed value with row `i` in the dimensions already run, and its prefix lies before its
/// indexed values in the order, so its dot product with row `i` is at most that norm. A
/// candidate's indexed values give the exact part `A` of its dot product; its prefix adds at
/// most its norm times the norm of row `i`'s values before its first indexed one, and only a
/// candidate whose `A` plus that can reach `bound` has its prefix summed and is offered.
fn sparse_block(
    unit: &[f32],
    dim: usize,
    index: &PrefixIndex,
    rows: std::ops::Range<usize>,
    bound: f32,
    offer: &mut impl FnMut(usize, usize, f32),
) {
    let n = unit.len() / dim.max(1);
    let bound = f64::from(bound);
    let mut dot = vec![0f32; n];
    // `seen[j] == i + 1` once row j is a candidate of row i (a dot product may sum to 0).
    let mut seen = vec![0u32; n];
    let mut touched = Vec::new();
    // Row i's values' positions in the order, and the squared norms of its first k values.
    let (mut positions, mut squares) = (Vec::new(), Vec::new());
    for i in rows {
        let row = &unit[i * dim..(i + 1) * dim];
        let values = index.values(i);
        positions.clear();
        squares.clear();
        squares.push(0f64);
        for &(d, x) in values {
            positions.push(index.position[d as usize]);
            squares.push(squares[squares.len() - 1] + f64::from(x) * f64::from(x));
        }
        // The squared norm of the values not yet run, the current one included.
        let mut rest = squares[values.len()];
        for &(d, x) in values.iter().rev() {
            let admit = rest.sqrt() >= bound;
            rest -= f64::from(x) * f64::from(x);
            let list = &index.postings[d as usize];
            let after = list.partition_point(|&(j, _)| j as usize <= i);
            for &(j, y) in &list[after..] {
                let j = j as usize;
                if seen[j] != i as u32 + 1 {
                    if !admit {
                        continue;
                    }
                    seen[j] = i as u32 + 1;
                    dot[j] = 0.0;
                    touched.push(j);
                }
                dot[j] += x * y;
            }
        }
        for &j in &touched {
            let prefix = index.prefix(j);
            // Row i's norm before j's first indexed value (j has one: it was met in the index).
            let first_indexed = index.position[index.values(j)[prefix.len()].0 as usize];
            let before = squares[positions.partition_point(|&p| p < first_indexed)].sqrt();
            // 1e-4 of slack for the f32 sum in `dot`.
            if f64::from(dot[j]) + index.prefix_norm[j] * before + 1e-4 < bound {
                continue;
            }
            let rest: f32 = prefix.iter().map(|&(d, y)| row[d as usize] * y).sum();
            offer(i, j, dot[j] + rest);
        }
        touched.clear();
    }
}

/// Offers `(i, j, dot)` for every row `i` of `rows` and every row `j > i`, from one blocked
/// `sgemm` product of rows `rows` by rows `rows.start..n`.
fn dense_block(
    unit: &[f32],
    dim: usize,
    rows: std::ops::Range<usize>,
    offer: &mut impl FnMut(usize, usize, f32),
) {
    let n = unit.len() / dim.max(1);
    let r0 = rows.start;
    let (m, cols) = (rows.len(), n - r0);
    let mut c = vec![0f32; m * cols];
    // C (m × cols) = A[r0..r1] (m × dim) · A[r0..n]ᵀ (dim × cols); all row-major.
    // SAFETY: sgemm reads `m × dim` values of A from `unit[r0 * dim..]` (row stride dim) and
    // `dim × cols` values of Bᵀ from the same slice (column stride dim), and writes `m × cols`
    // values of C with row stride `cols`; `unit` holds `n × dim` values and `c` exactly
    // `m × cols`, so every access is in bounds.
    unsafe {
        matrixmultiply::sgemm(
            m,
            dim,
            cols,
            1.0,
            unit[r0 * dim..].as_ptr(),
            dim as isize,
            1,
            unit[r0 * dim..].as_ptr(),
            1,
            dim as isize,
            0.0,
            c.as_mut_ptr(),
            cols as isize,
            1,
        );
    }
    for (r, row) in c.chunks_exact(cols.max(1)).enumerate() {
        for (jj, &s) in row.iter().enumerate().skip(r + 1) {
            offer(r0 + r, r0 + jj, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hipporag_wasm::embeddings::{Encoder, HashedNgramEncoder};

    /// Many blocks (n = 900 > 3 × 256), a small k and rows that seek no synonyms: the
    /// upper-triangle computation must equal a brute-force top-k per row over the full matrix.
    #[test]
    fn synonymy_across_blocks_equals_brute_force_topk() {
        let words = [
            "river", "valley", "north", "south", "city", "county", "lake", "mount", "saint", "new",
        ];
        let texts: Vec<String> = (0..900)
            .map(|i| {
                format!(
                    "{} {} {}",
                    words[i % 10],
                    words[(i / 10) % 10],
                    words[(i / 100) % 10]
                )
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let enc = HashedNgramEncoder::default();
        let emb = enc.encode(&refs).unwrap();
        let d = 384;
        let seeks: Vec<bool> = (0..900).map(|i| i % 7 != 0).collect();
        // Below the paper's 0.8 (many pairs) and at it.
        for (tau, k, at_least) in [(0.6, 3, 900), (0.8, 5, 100)] {
            pairs_equal_brute_force(&emb, &seeks, d, tau, k, at_least);
        }
    }

    /// `synonymy_pairs` on `emb` equals the dense product's pairs, bit for bit, and a brute-force
    /// top-k per row over the full matrix; the brute force finds more than `at_least` pairs.
    fn pairs_equal_brute_force(
        emb: &[f32],
        seeks: &[bool],
        d: usize,
        tau: f32,
        k: usize,
        at_least: usize,
    ) {
        let n = seeks.len();
        let got = synonymy_pairs(emb.to_vec(), seeks, d, tau, k, &());
        // Hashed n-gram rows are sparse: the dense product must find the same pairs, bit for bit.
        assert!(emb.iter().filter(|&&x| x != 0.0).count() * 10 < emb.len());
        let unit = unit_rows(emb.to_vec(), d);
        let dense = pairs_above(&unit, d, false, seeks, tau, &());
        assert_eq!(got, top_k_pairs(dense, seeks, k));
        // Every pair's cosine as the products' candidates get theirs (`cosine`, over the same
        // unit rows), so that equal cosines tie bit for bit on both sides.
        let mut want = BTreeMap::new();
        for i in (0..n).filter(|&i| seeks[i]) {
            let mut cand: Vec<(u32, f32)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (j as u32, cosine(&unit, d, i, j).min(1.0)))
                .filter(|&(_, c): &(u32, f32)| c >= tau)
                .collect();
            cand.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for &(j, c) in cand.iter().take(k) {
                want.entry(((i as u32).min(j), (i as u32).max(j)))
                    .or_insert(c);
            }
        }
        assert!(
            want.len() > at_least,
            "the fixture must have many synonym pairs at {tau}: {}",
            want.len()
        );
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>()
        );
        assert_eq!(got, want);
    }

    #[test]
    fn synonymy_is_exact_topk_above_tau() {
        let enc = HashedNgramEncoder::default();
        let words = [
            "stanford university",
            "stanford univ",
            "university of stanford",
            "alzheimer",
            "alzheimers",
            "paris",
        ];
        let emb = enc.encode(&words).unwrap();
        let pairs = synonymy_pairs(emb.clone(), &[true; 6], 384, 0.5, 100, &());
        // Brute force.
        let d = 384;
        for i in 0..words.len() {
            for j in i + 1..words.len() {
                let c: f32 = emb[i * d..(i + 1) * d]
                    .iter()
                    .zip(&emb[j * d..(j + 1) * d])
                    .map(|(a, b)| a * b)
                    .sum();
                assert_eq!(
                    pairs.contains_key(&(i as u32, j as u32)),
                    c >= 0.5,
                    "{} ~ {}: {c}",
                    words[i],
                    words[j]
                );
            }
        }
        let top1 = synonymy_pairs(emb, &[true; 6], 384, -1.0, 1, &());
        assert!(top1.len() <= words.len());
    }
}
