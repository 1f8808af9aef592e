//! Embedding matrices as stored in the index, and cosine search over them.
//!
//! Two storage schemes ([`Quantization`]):
//! * `F32`: the encoder's vectors as they are (4 bytes a value).
//! * `Int8`: symmetric per-row quantisation, `code = round(127 · x / max|x|)` (1 byte a value,
//!   plus one f32 scale a row, `scale = max|x| / 127`, so `x ≈ scale · code`). Cosine against a
//!   query is computed as `q·code / (‖q‖·‖code‖)`: the scale cancels, so the search needs the
//!   codes and a per-row norm computed at load time, never a dequantised copy.
//!
//! The effect on recall is measured by `hipporag eval` on indexes built both ways.

use serde::{Deserialize, Serialize};

/// How embeddings are stored in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Quantization {
    /// 32-bit floats, unchanged.
    F32,
    /// Symmetric per-row int8 with one f32 scale per row (the default: 4× smaller).
    #[default]
    Int8,
}

/// A row-major `rows × dim` matrix of embeddings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Vectors {
    /// Unquantised vectors; `data.len() == rows · dim`.
    F32 {
        /// Values per row.
        dim: u32,
        /// Row-major values.
        data: Vec<f32>,
    },
    /// Int8 codes; `codes.len() == rows · dim`, `scales.len() == rows`.
    Int8 {
        /// Values per row.
        dim: u32,
        /// Row-major codes in `-127..=127`.
        codes: Vec<i8>,
        /// Per-row scale: `x ≈ scale · code`.
        scales: Vec<f32>,
    },
}

impl Vectors {
    /// Stores `data` (row-major, `dim` values a row) with the given scheme.
    pub fn from_f32(dim: usize, data: &[f32], q: Quantization) -> Self {
        assert!(
            dim > 0 && data.len() % dim == 0,
            "data is not a multiple of dim"
        );
        match q {
            Quantization::F32 => Vectors::F32 {
                dim: dim as u32,
                data: data.to_vec(),
            },
            Quantization::Int8 => {
                let rows = data.len() / dim;
                let mut codes = Vec::with_capacity(data.len());
                let mut scales = Vec::with_capacity(rows);
                for row in data.chunks_exact(dim) {
                    let m = row.iter().fold(0f32, |m, x| m.max(x.abs()));
                    let scale = if m > 0.0 { m / 127.0 } else { 1.0 };
                    scales.push(scale);
                    codes.extend(
                        row.iter()
                            .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8),
                    );
                }
                Vectors::Int8 {
                    dim: dim as u32,
                    codes,
                    scales,
                }
            }
        }
    }

    /// Values per row.
    pub fn dim(&self) -> usize {
        match self {
            Vectors::F32 { dim, .. } | Vectors::Int8 { dim, .. } => *dim as usize,
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        let d = self.dim().max(1);
        match self {
            Vectors::F32 { data, .. } => data.len() / d,
            Vectors::Int8 { codes, .. } => codes.len() / d,
        }
    }

    /// The storage scheme.
    pub fn quantization(&self) -> Quantization {
        match self {
            Vectors::F32 { .. } => Quantization::F32,
            Vectors::Int8 { .. } => Quantization::Int8,
        }
    }

    /// Checks the internal lengths; `Err` holds what is wrong.
    pub fn check(&self, rows: usize, dim: usize) -> Result<(), String> {
        if self.dim() != dim {
            return Err(format!(
                "dimension {} but the header says {dim}",
                self.dim()
            ));
        }
        let ok = match self {
            Vectors::F32 { data, .. } => data.len() == rows * dim,
            Vectors::Int8 { codes, scales, .. } => {
                codes.len() == rows * dim && scales.len() == rows
            }
        };
        if !ok {
            return Err(format!("expected {rows} rows of {dim} values"));
        }
        Ok(())
    }

    /// Row `i` as f32 (dequantised for int8).
    pub fn row_f32(&self, i: usize) -> Vec<f32> {
        let d = self.dim();
        match self {
            Vectors::F32 { data, .. } => data[i * d..(i + 1) * d].to_vec(),
            Vectors::Int8 { codes, scales, .. } => codes[i * d..(i + 1) * d]
                .iter()
                .map(|&c| f32::from(c) * scales[i])
                .collect(),
        }
    }
}

/// [`Vectors`] plus per-row inverse norms: answers cosine queries.
#[derive(Debug, Clone)]
pub struct VectorIndex {
    vectors: Vectors,
    inv_norms: Vec<f32>,
}

impl VectorIndex {
    /// Precomputes the inverse L2 norm of every stored row (0 for zero rows).
    pub fn new(vectors: Vectors) -> Self {
        let d = vectors.dim();
        let inv = |n2: f32| if n2 > 0.0 { 1.0 / n2.sqrt() } else { 0.0 };
        let inv_norms = match &vectors {
            Vectors::F32 { data, .. } => data
                .chunks_exact(d)
                .map(|r| inv(r.iter().map(|x| x * x).sum()))
                .collect(),
            Vectors::Int8 { codes, .. } => codes
                .chunks_exact(d)
                .map(|r| inv(r.iter().map(|&c| i32::from(c) * i32::from(c)).sum::<i32>() as f32))
                .collect(),
        };
        Self { vectors, inv_norms }
    }

    /// The stored vectors.
    pub fn vectors(&self) -> &Vectors {
        &self.vectors
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.inv_norms.len()
    }

    /// Cosine of `q` (length `dim`) with every row, written to `out` (length `rows`).
    /// A zero query or zero row gives cosine 0.
    pub fn cosine_all(&self, q: &[f32], out: &mut Vec<f32>) {
        let d = self.vectors.dim();
        debug_assert_eq!(q.len(), d);
        let qn: f32 = q.iter().map(|x| x * x).sum::<f32>().sqrt();
        let qinv = if qn > 0.0 { 1.0 / qn } else { 0.0 };
        out.clear();
        match &self.vectors {
            Vectors::F32 { data, .. } => out.extend(
                data.chunks_exact(d)
                    .zip(&self.inv_norms)
                    .map(|(r, inv)| dot_f32(q, r) * inv * qinv),
            ),
            Vectors::Int8 { codes, .. } => out.extend(
                codes
                    .chunks_exact(d)
                    .zip(&self.inv_norms)
                    .map(|(r, inv)| dot_i8(q, r) * inv * qinv),
            ),
        }
    }

    /// The row with the highest cosine to `q` (lowest index on ties), or `None` if empty.
    pub fn nearest(&self, q: &[f32], scratch: &mut Vec<f32>) -> Option<(usize, f32)> {
        self.cosine_all(q, scratch);
        let mut best: Option<(usize, f32)> = None;
        for (i, &c) in scratch.iter().enumerate() {
            if best.is_none_or(|(_, b)| c > b) {
                best = Some((i, c));
            }
        }
        best
    }
}

fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    // Eight independent accumulators: lets LLVM vectorise (wasm simd128, SSE/AVX natively).
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

fn dot_i8(a: &[f32], b: &[i8]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * f32::from(y[k]);
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, &y)| x * f32::from(y)).sum();
    acc.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int8_cosines_track_f32() {
        let dim = 16;
        let data: Vec<f32> = (0..dim * 5)
            .map(|i| ((i * 37 % 23) as f32 - 11.0) / 7.0)
            .collect();
        let f = VectorIndex::new(Vectors::from_f32(dim, &data, Quantization::F32));
        let q = VectorIndex::new(Vectors::from_f32(dim, &data, Quantization::Int8));
        let query: Vec<f32> = (0..dim).map(|i| (i as f32).sin()).collect();
        let (mut a, mut b) = (vec![], vec![]);
        f.cosine_all(&query, &mut a);
        q.cosine_all(&query, &mut b);
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() < 0.02, "{x} vs {y}");
        }
        assert_eq!(
            f.nearest(&query, &mut a).unwrap().0,
            q.nearest(&query, &mut b).unwrap().0
        );
        let r = q.vectors().row_f32(2);
        for (x, y) in r.iter().zip(&data[2 * dim..3 * dim]) {
            assert!((x - y).abs() < 0.01);
        }
    }

    #[test]
    fn zero_rows_have_zero_cosine() {
        let v = VectorIndex::new(Vectors::from_f32(
            2,
            &[0.0, 0.0, 1.0, 0.0],
            Quantization::Int8,
        ));
        let mut s = vec![];
        v.cosine_all(&[1.0, 0.0], &mut s);
        assert_eq!(s[0], 0.0);
        assert!((s[1] - 1.0).abs() < 1e-6);
    }
}
