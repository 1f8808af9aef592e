//! The IVF clusters of the static passage codes ([`crate::static_embeddings`]): spherical
//! k-means over the codes read as unit ±1 vectors, then a capacity-bounded final assignment.
//!
//! ```text
//!  passage codes (dim sign bits) ──► Lloyd rounds: nearest centroid among the prefilter's
//!                                ──► bounded assignment (≤ cap a cluster) ──► centroids' sign bits, clusters
//! ```
//!
//! **The prefilter.** A passage's nearest centroid by cosine is looked for among the
//! [`PREFILTER`] centroids whose sign bits are nearest to the passage's code in Hamming
//! distance (`popcount` over 64 bits at a time), and only those get a dot product. Without it
//! a round costs `passages × clusters × dim` multiply-adds, most of a large site's build. A
//! query probes the clusters by the centroids' sign bits too
//! ([`hipporag_wasm::embeddings::probe`]). docs/benchmarks.md ("IVF k-means with a Hamming
//! prefilter") compares it with the exhaustive search. Deterministic: ties go to the lower
//! id, and the same arithmetic with or without threads.

use hipporag_wasm::embeddings::{NO_CLUSTER, sign_bits};

use crate::parallel;
use crate::progress::Progress;

/// Lloyd rounds of the k-means, at most (it stops early once no passage changes cluster).
pub const KMEANS_ROUNDS: usize = 15;
/// The most passages an IVF cluster holds, in percent of the mean `⌈n / C⌉`: 150. Unbounded,
/// k-means left some clusters several times the mean, and a query's probes picked the large
/// ones most; bounded, a probe costs at most 1.5× the mean. Chosen on the CoNaLa `dev` split
/// (docs/index-format.md, "Bounded clusters").
pub const CLUSTER_CAPACITY_PERCENT: usize = 150;
/// Nearest centroids per passage the capacity-bounded assignment considers first.
pub const ASSIGNMENT_CANDIDATES: usize = 16;

/// Sign-bit codes packed in 64-bit words, `words` a code (the last one padded with 0 bits).
struct Packed {
    words: usize,
    bits: Vec<u64>,
}

impl Packed {
    /// Packs `codes` (each `bytes` long, bit `d` of a code is bit `d % 8` of byte `d / 8`).
    fn new<'a>(codes: impl Iterator<Item = &'a [u8]>, bytes: usize) -> Self {
        let words = bytes.div_ceil(8);
        let mut bits = Vec::new();
        for code in codes {
            for w in 0..words {
                let mut x = [0u8; 8];
                let part = &code[(w * 8).min(bytes)..((w + 1) * 8).min(bytes)];
                x[..part.len()].copy_from_slice(part);
                bits.push(u64::from_le_bytes(x));
            }
        }
        Packed { words, bits }
    }

    fn len(&self) -> usize {
        self.bits.len() / self.words.max(1)
    }

    fn get(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    /// The codes as bytes, `bytes` each.
    fn to_bytes(&self, bytes: usize) -> Vec<u8> {
        (0..self.len())
            .flat_map(|i| {
                self.get(i)
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .take(bytes)
                    .collect::<Vec<u8>>()
            })
            .collect()
    }
}

/// The Hamming distance of two packed codes.
fn hamming(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

/// The dot product of two vectors of one length, summed in 8 lanes (element `d` into lane
/// `d % 8`, the lanes then added in order; a tail shorter than 8 after them), so that the
/// compiler can keep the lanes in SIMD registers. Deterministic: the same order on every
/// target, with or without threads.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The centroids (unit vectors) with their sign bits packed, for the Hamming prefilter.
struct Centroids {
    vectors: Vec<Vec<f32>>,
    signs: Packed,
}

impl Centroids {
    fn new(vectors: Vec<Vec<f32>>, bytes: usize) -> Self {
        let signs: Vec<Vec<u8>> = vectors.iter().map(|v| sign_bits(v)).collect();
        let signs = Packed::new(signs.iter().map(Vec::as_slice), bytes);
        Centroids { vectors, signs }
    }

    /// The `m` centroids nearest to a passage (its unit vector `u` and packed code `code`) by
    /// cosine, as `(cosine, centroid)` best first (ties to the lower id), among the
    /// `max(PREFILTER, m)` whose sign bits are nearest to the code in Hamming distance (all of
    /// them when there are no more).
    fn nearest(&self, u: &[f32], code: &[u64], m: usize) -> Vec<(f32, u32)> {
        let k = self.vectors.len();
        let mut near: Vec<(u32, u32)> = (0..k)
            .map(|c| (hamming(self.signs.get(c), code), c as u32))
            .collect();
        let keep = PREFILTER.max(m).min(k);
        if keep < k {
            near.select_nth_unstable(keep);
            near.truncate(keep);
        }
        let by = |a: &(f32, u32), b: &(f32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        // (From an iterator over `near`, not its buffer: an in-place collect would keep all
        // `k` slots allocated in every returned vector.)
        let mut r: Vec<(f32, u32)> = near
            .iter()
            .map(|&(_, c)| (dot(u, &self.vectors[c as usize]), c))
            .collect();
        if r.len() > m {
            r.select_nth_unstable_by(m, by);
            r.truncate(m);
        }
        r.sort_unstable_by(by);
        r
    }
}

/// Centroids the prefilter keeps for a passage (or the centroids wanted, when more): those
/// whose sign bits are nearest to its code in Hamming distance (ties to the lower id). 64 ranked
/// Python's docs as the exhaustive search did, over four starts (docs/benchmarks.md).
pub const PREFILTER: usize = 64;

/// Clusters the coded passages (`codes`: `coded.len()` codes of `dim / 8` bytes; passages
/// whose `coded` is false take no part) into `k` IVF clusters. Returns the centroids as sign
/// bits (`k × dim / 8` bytes) and each passage's cluster ([`NO_CLUSTER`] where `coded` is false).
///
/// Spherical k-means of the codes read as unit ±1 vectors: it starts from the coded passages
/// spread evenly over the passage order, runs at most [`KMEANS_ROUNDS`] Lloyd rounds (each
/// passage to the centroid of highest cosine among those the prefilter keeps, module docs;
/// then each centroid to its members' normalised mean, an emptied cluster keeping its
/// centroid), and reports a unit per round and one for the final assignment, which bounds
/// every cluster at [`CLUSTER_CAPACITY_PERCENT`] of the mean (the greedy bounded assignment
/// below); the centroids returned are the sign bits of the clusters' means as assigned.
/// Deterministic.
pub fn kmeans(
    codes: &[u8],
    coded: &[bool],
    dim: usize,
    k: usize,
    progress: &dyn Progress,
) -> (Vec<u8>, Vec<u32>) {
    let bytes = dim / 8;
    let mut clusters = vec![NO_CLUSTER; coded.len()];
    let ids: Vec<usize> = (0..coded.len()).filter(|&j| coded[j]).collect();
    if ids.is_empty() {
        return (vec![0; bytes], clusters);
    }
    let packed = Packed::new(
        ids.iter().map(|&j| &codes[j * bytes..(j + 1) * bytes]),
        bytes,
    );
    let s = 1.0 / (dim as f32).sqrt();
    let units: Vec<Vec<f32>> = (0..ids.len())
        .map(|i| {
            let code = packed.get(i);
            (0..dim)
                .map(|d| {
                    if code[d / 64] >> (d % 64) & 1 == 1 {
                        s
                    } else {
                        -s
                    }
                })
                .collect()
        })
        .collect();
    let start = (0..k).map(|c| units[c * ids.len() / k].clone()).collect();
    let mut centroids = Centroids::new(start, bytes);
    let nearest = |centroids: &Centroids, i: usize| -> u32 {
        centroids.nearest(&units[i], packed.get(i), 1)[0].1
    };
    let mut assign: Vec<u32> = Vec::new();
    for round in 0..KMEANS_ROUNDS {
        let next = parallel::map_range(units.len(), |i| nearest(&centroids, i));
        progress.advance(1);
        if next == assign {
            // Converged: the centroids are already these clusters' means.
            progress.advance((KMEANS_ROUNDS - round - 1) as u64);
            break;
        }
        assign = next;
        centroids = cluster_means(&units, &assign, centroids, bytes);
    }
    let cap = ids.len().div_ceil(k) * CLUSTER_CAPACITY_PERCENT / 100;
    assign = bounded_assignment(&units, &packed, &centroids, cap.max(1));
    centroids = cluster_means(&units, &assign, centroids, bytes);
    progress.advance(1);
    for (&j, &c) in ids.iter().zip(&assign) {
        clusters[j] = c;
    }
    (centroids.signs.to_bytes(bytes), clusters)
}

/// Each cluster's normalised mean of its members' unit vectors; an empty cluster keeps its
/// centroid.
fn cluster_means(
    units: &[Vec<f32>],
    assign: &[u32],
    centroids: Centroids,
    bytes: usize,
) -> Centroids {
    let mut vectors = centroids.vectors;
    let dim = units.first().map_or(0, Vec::len);
    let mut sums = vec![vec![0f32; dim]; vectors.len()];
    for (u, &c) in units.iter().zip(assign) {
        for (s, x) in sums[c as usize].iter_mut().zip(u) {
            *s += x;
        }
    }
    for (c, s) in sums.into_iter().enumerate() {
        let norm = s.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            vectors[c] = s.iter().map(|x| x / norm).collect();
        }
    }
    Centroids::new(vectors, bytes)
}

/// Each unit vector's cluster such that no cluster holds more than `cap` (`cap × centroids`
/// must be at least `units`): the pairs of a vector and one of its [`ASSIGNMENT_CANDIDATES`]
/// nearest centroids (as [`Centroids::nearest`] finds them), by descending cosine (ties: lower
/// vector, then lower centroid), each vector to the first with room; a vector whose candidates
/// all filled up goes to the centroid of highest cosine with room. Greedy capacity-constrained
/// assignment, as balanced k-means approximates it (Malinen & Fränti, S+SSPR 2014, solve it
/// exactly as a transport problem).
fn bounded_assignment(
    units: &[Vec<f32>],
    packed: &Packed,
    centroids: &Centroids,
    cap: usize,
) -> Vec<u32> {
    // Every passage's candidates are held at once: each list at its length (lists that kept
    // every centroid's slot raised a large site's peak memory: docs/benchmarks.md, "Build
    // memory and time on rust-doc").
    let near = |i: usize| {
        let mut r = centroids.nearest(&units[i], packed.get(i), ASSIGNMENT_CANDIDATES);
        r.shrink_to_fit();
        r
    };
    let candidates = parallel::map_range(units.len(), near);
    let mut pairs: Vec<(f32, u32, u32)> = candidates
        .iter()
        .enumerate()
        .flat_map(|(j, r)| r.iter().map(move |&(x, c)| (x, j as u32, c)))
        .collect();
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut assign = vec![u32::MAX; units.len()];
    let mut size = vec![0usize; centroids.vectors.len()];
    for (_, j, c) in pairs {
        if assign[j as usize] == u32::MAX && size[c as usize] < cap {
            assign[j as usize] = c;
            size[c as usize] += 1;
        }
    }
    for (j, u) in units.iter().enumerate() {
        if assign[j] == u32::MAX {
            let mut ranked: Vec<(f32, u32)> = centroids
                .vectors
                .iter()
                .enumerate()
                .map(|(c, v)| (dot(u, v), c as u32))
                .collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let c = ranked
                .into_iter()
                .map(|(_, c)| c)
                .find(|&c| size[c as usize] < cap)
                .expect("cap × clusters ≥ passages");
            assign[j] = c;
            size[c as usize] += 1;
        }
    }
    assign
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_and_hamming_counts_differing_bits() {
        let codes: Vec<u8> = (0..27u8).map(|x| x.wrapping_mul(37)).collect();
        // 9-byte codes: two words a code, the second padded.
        let p = Packed::new(codes.chunks(9), 9);
        assert_eq!((p.words, p.len()), (2, 3));
        assert_eq!(p.to_bytes(9), codes);
        let bits = |i: usize| -> Vec<bool> {
            (0..72)
                .map(|d| codes[i * 9 + d / 8] >> (d % 8) & 1 == 1)
                .collect()
        };
        let differ = bits(0)
            .iter()
            .zip(bits(2))
            .filter(|(a, b)| **a != *b)
            .count();
        assert_eq!(hamming(p.get(0), p.get(2)) as usize, differ);
    }

    #[test]
    fn dot_in_lanes_is_the_dot_product() {
        for n in [0, 5, 8, 13, 384] {
            let a: Vec<f32> = (0..n).map(|d| ((d * 7 % 11) as f32 - 5.0) / 3.0).collect();
            let b: Vec<f32> = (0..n).map(|d| ((d * 5 % 13) as f32 - 6.0) / 4.0).collect();
            let exact: f64 = a
                .iter()
                .zip(&b)
                .map(|(x, y)| f64::from(*x) * f64::from(*y))
                .sum();
            assert!((f64::from(dot(&a, &b)) - exact).abs() < 1e-4, "{n}");
        }
    }

    /// `n` unit vectors of 64 dimensions from a linear congruential generator, and their
    /// packed sign bits.
    fn vectors(n: usize, seed: u64) -> (Vec<Vec<f32>>, Packed) {
        let mut x = seed;
        let vs: Vec<Vec<f32>> = (0..n)
            .map(|_| {
                let v: Vec<f32> = (0..64)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
                    })
                    .collect();
                let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
                v.iter().map(|a| a / norm).collect()
            })
            .collect();
        let signs: Vec<Vec<u8>> = vs.iter().map(|v| sign_bits(v)).collect();
        (vs, Packed::new(signs.iter().map(Vec::as_slice), 8))
    }

    #[test]
    fn the_prefilter_finds_the_nearest_centroids() {
        let (cs, _) = vectors(200, 1);
        let (us, packed) = vectors(100, 2);
        let centroids = Centroids::new(cs.clone(), 8);
        for (i, u) in us.iter().enumerate() {
            let mut all: Vec<(f32, u32)> = cs
                .iter()
                .enumerate()
                .map(|(c, v)| (dot(u, v), c as u32))
                .collect();
            all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            // m = 200 keeps them all: the exact ranking.
            assert_eq!(centroids.nearest(u, packed.get(i), 200), all, "vector {i}");
            // m = 1 scores only the PREFILTER centroids nearest in Hamming distance.
            let mut by_bits: Vec<(u32, u32)> = (0..cs.len())
                .map(|c| (hamming(centroids.signs.get(c), packed.get(i)), c as u32))
                .collect();
            by_bits.sort_unstable();
            let best = by_bits[..PREFILTER]
                .iter()
                .map(|&(_, c)| (dot(u, &cs[c as usize]), c))
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
                .unwrap();
            assert_eq!(centroids.nearest(u, packed.get(i), 1), [best], "vector {i}");
        }
    }

    #[test]
    fn bounded_assignment_fills_the_nearest_clusters_up_to_the_cap() {
        // Five vectors nearest centroid 0 (cosines 0.99 … 0.95 with it), one nearest 1.
        let pad = |x: f32, y: f32| vec![x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let units: Vec<Vec<f32>> = [0.99f32, 0.98, 0.97, 0.96, 0.95, 0.1]
            .into_iter()
            .map(|x| pad(x, (1.0 - x * x).sqrt()))
            .collect();
        let signs: Vec<Vec<u8>> = units.iter().map(|v| sign_bits(v)).collect();
        let packed = Packed::new(signs.iter().map(Vec::as_slice), 1);
        let centroids = Centroids::new(vec![pad(1.0, 0.0), pad(0.0, 1.0), pad(-1.0, 0.0)], 1);
        // Unbounded: all but the last in cluster 0.
        assert_eq!(
            bounded_assignment(&units, &packed, &centroids, 6),
            [0, 0, 0, 0, 0, 1]
        );
        // At most 2 a cluster, pairs by descending cosine: the last (0.995 with 1) and the
        // two nearest 0 go first; of the rest, the one nearest 1 (0.95 with 0, 0.31 with 1)
        // fills it, and the two left over go to the only cluster with room (2).
        assert_eq!(
            bounded_assignment(&units, &packed, &centroids, 2),
            [0, 0, 2, 2, 1, 1]
        );
    }

    #[test]
    fn kmeans_separates_two_groups_of_codes() {
        // Ten codes one bit from all-zeros, then ten one bit from all-ones: the start takes
        // passages 0 and 10, one of each.
        let mut codes = Vec::new();
        for i in 0..10u16 {
            codes.extend((1u16 << i).to_le_bytes());
        }
        for i in 0..10u16 {
            codes.extend((!(1u16 << i)).to_le_bytes());
        }
        let coded = vec![true; 20];
        let (centroids, clusters) = kmeans(&codes, &coded, 16, 2, &());
        assert_ne!(clusters[0], clusters[10]);
        for j in 0..20 {
            assert_eq!(clusters[j], clusters[j / 10 * 10], "passage {j}");
        }
        let c = clusters[0] as usize * 2;
        assert_eq!(&centroids[c..c + 2], [0, 0], "the low group's majority");
        let c = clusters[10] as usize * 2;
        assert_eq!(
            &centroids[c..c + 2],
            [0xff, 0xff],
            "the high group's majority"
        );
        // An uncoded passage gets no cluster.
        let mut coded = coded;
        coded[3] = false;
        let (_, clusters) = kmeans(&codes, &coded, 16, 2, &());
        assert_eq!(clusters[3], NO_CLUSTER);
        assert_ne!(clusters[0], clusters[10]);
    }
}
