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

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// How embeddings are stored in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Quantization {
    /// 32-bit floats, unchanged.
    F32,
    /// Symmetric per-row int8 with one f32 scale per row (the default: 4× smaller).
    #[default]
    Int8,
}

impl Quantization {
    /// Both storages.
    pub const ALL: [Quantization; 2] = [Quantization::Int8, Quantization::F32];

    /// The CLI's name: `int8` or `f32`.
    pub fn as_str(self) -> &'static str {
        match self {
            Quantization::F32 => "f32",
            Quantization::Int8 => "int8",
        }
    }
}

impl std::fmt::Display for Quantization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Quantization {
    type Err = String;

    /// Parses [`Quantization::as_str`] names; the error names the accepted values.
    fn from_str(s: &str) -> Result<Self, String> {
        Quantization::ALL
            .into_iter()
            .find(|q| q.as_str() == s)
            .ok_or_else(|| format!("unknown quantization {s:?}: expected int8 or f32"))
    }
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
        /// Row-major codes in `-127..=127`, serialised as one byte string; a loaded index's
        /// codes are a view of its bytes ([`Codes`]), not a copy.
        codes: Codes,
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
                    codes: Codes::from(codes),
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

/// Int8 codes: owned (built by the indexer) or a range of a loaded index's bytes.
///
/// Serialised as one byte string (postcard: a length, then the raw bytes). Deserialising
/// copies the bytes, except inside [`Codes::decode_sharing`]: there, codes that the
/// deserializer borrows from the given buffer become a view of it (an `Arc` and a range), so
/// loading an index never copies its embeddings (most of an index's bytes), and the wasm heap
/// stays at the bytes plus the small structures instead of twice the bytes.
#[derive(Clone)]
pub struct Codes(CodesRepr);

#[derive(Clone)]
enum CodesRepr {
    Owned(Vec<i8>),
    Shared {
        buf: Arc<Vec<u8>>,
        range: std::ops::Range<usize>,
    },
}

thread_local! {
    /// The buffer [`Codes::decode_sharing`] is decoding from (one per thread: decoding is
    /// synchronous, and the guard below clears it on every exit path).
    static SHARED_SOURCE: std::cell::RefCell<Option<Arc<Vec<u8>>>> =
        const { std::cell::RefCell::new(None) };
}

impl Codes {
    /// Runs `decode` (which deserialises from `buf`) so that every [`Codes`] it borrows from
    /// `buf` shares `buf` instead of copying it.
    pub fn decode_sharing<T>(buf: &Arc<Vec<u8>>, decode: impl FnOnce(&[u8]) -> T) -> T {
        struct Reset;
        impl Drop for Reset {
            fn drop(&mut self) {
                SHARED_SOURCE.with(|s| s.borrow_mut().take());
            }
        }
        SHARED_SOURCE.with(|s| *s.borrow_mut() = Some(Arc::clone(buf)));
        let _reset = Reset;
        decode(buf.as_slice())
    }

    /// Whether these codes are a view of a loaded index's bytes (not a copy).
    pub fn is_shared(&self) -> bool {
        matches!(self.0, CodesRepr::Shared { .. })
    }

    fn from_borrowed(bytes: &[u8]) -> Self {
        let shared = SHARED_SOURCE.with(|s| {
            let s = s.borrow();
            let buf = s.as_ref()?;
            let start = (bytes.as_ptr() as usize).checked_sub(buf.as_ptr() as usize)?;
            (start + bytes.len() <= buf.len()).then(|| CodesRepr::Shared {
                buf: Arc::clone(buf),
                range: start..start + bytes.len(),
            })
        });
        Codes(shared.unwrap_or_else(|| CodesRepr::Owned(bytemuck::cast_slice(bytes).to_vec())))
    }
}

impl From<Vec<i8>> for Codes {
    fn from(v: Vec<i8>) -> Self {
        Codes(CodesRepr::Owned(v))
    }
}

impl std::ops::Deref for Codes {
    type Target = [i8];
    fn deref(&self) -> &[i8] {
        match &self.0 {
            CodesRepr::Owned(v) => v,
            CodesRepr::Shared { buf, range } => bytemuck::cast_slice(&buf[range.clone()]),
        }
    }
}

impl PartialEq for Codes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Codes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Codes({} bytes, shared: {})",
            self.len(),
            self.is_shared()
        )
    }
}

impl Serialize for Codes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(bytemuck::cast_slice(self))
    }
}

impl<'de> Deserialize<'de> for Codes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Codes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a byte string of int8 codes")
            }
            fn visit_borrowed_bytes<E>(self, v: &'de [u8]) -> Result<Codes, E> {
                Ok(Codes::from_borrowed(v))
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Codes, E> {
                Ok(Codes::from(bytemuck::cast_slice::<u8, i8>(v).to_vec()))
            }
            fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Codes, E> {
                Ok(Codes::from(
                    v.into_iter().map(|b| b as i8).collect::<Vec<i8>>(),
                ))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Codes, A::Error> {
                let mut v = Vec::with_capacity(a.size_hint().unwrap_or(0));
                while let Some(b) = a.next_element::<u8>()? {
                    v.push(b as i8);
                }
                Ok(Codes::from(v))
            }
        }
        d.deserialize_bytes(V)
    }
}

/// [`Vectors`] plus per-row inverse norms: answers cosine queries.
#[derive(Debug, Clone)]
pub struct VectorIndex {
    vectors: Vectors,
    inv_norms: Vec<f32>,
    /// Sign bits of every row (bit set where the value is > 0), `words` u64 per row: binary
    /// codes for the Hamming prefilter of [`VectorIndex::nearest_many_prefiltered`]. Built on
    /// its first use (the default exact scan never needs them, and building them for every row
    /// would slow every load).
    sign_bits: std::sync::OnceLock<Vec<u64>>,
    words: usize,
}

impl VectorIndex {
    /// Precomputes the inverse L2 norm of every stored row (0 for zero rows).
    pub fn new(vectors: Vectors) -> Self {
        let d = vectors.dim();
        let inv_norms: Vec<f32> = match &vectors {
            Vectors::F32 { data, .. } => data
                .chunks_exact(d)
                .map(|r| inv_norm(r.iter().map(|x| x * x).sum()))
                .collect(),
            Vectors::Int8 { codes, .. } => codes
                .chunks_exact(d)
                .map(|r| inv_norm(dot_i8(r, r) as f32))
                .collect(),
        };
        Self {
            vectors,
            inv_norms,
            sign_bits: std::sync::OnceLock::new(),
            words: d.div_ceil(64),
        }
    }

    /// The sign bits of every row (see the field), built on first use.
    fn sign_bits(&self) -> &[u64] {
        self.sign_bits.get_or_init(|| {
            let d = self.vectors.dim();
            let mut bits = Vec::with_capacity(self.rows() * self.words);
            match &self.vectors {
                Vectors::F32 { data, .. } => data
                    .chunks_exact(d)
                    .for_each(|r| push_sign_bits(r.iter().map(|&x| x > 0.0), &mut bits)),
                Vectors::Int8 { codes, .. } => codes
                    .chunks_exact(d)
                    .for_each(|r| push_sign_bits(r.iter().map(|&x| x > 0), &mut bits)),
            }
            bits
        })
    }

    /// [`VectorIndex::nearest_many`] with a binary-code prefilter ("binary codes with
    /// rescoring"): for each query, the `candidates` rows with the smallest Hamming distance
    /// between sign bits (lower index on ties) are rescored with the exact cosine, and the best of
    /// those is returned. With `candidates ≥ rows` it equals `nearest_many`. The Hamming scan
    /// reads `dim/8` bytes a row instead of `dim`, and counts bits with one popcount per 64 dims.
    pub fn nearest_many_prefiltered(&self, qs: &[f32], candidates: usize) -> Vec<(usize, f32)> {
        let (d, n) = (self.vectors.dim(), self.rows());
        if candidates >= n {
            return self.nearest_many(qs);
        }
        let mut keyed: Vec<u64> = Vec::with_capacity(n);
        let mut qbits = Vec::with_capacity(self.words);
        qs.chunks_exact(d.max(1))
            .map(|q| {
                qbits.clear();
                push_sign_bits(q.iter().map(|&x| x > 0.0), &mut qbits);
                keyed.clear();
                keyed.extend(self.sign_bits().chunks_exact(self.words).enumerate().map(
                    |(i, row)| {
                        let dist: u32 = row
                            .iter()
                            .zip(&qbits)
                            .map(|(a, b)| (a ^ b).count_ones())
                            .sum();
                        (u64::from(dist) << 32) | i as u64
                    },
                ));
                let c = candidates.max(1);
                keyed.select_nth_unstable(c - 1);
                keyed.truncate(c);
                keyed.sort_unstable();
                let mut best = (0usize, f32::NEG_INFINITY);
                let prepared = PreparedQuery::new(q, &self.vectors);
                for &k in &keyed {
                    let row = (k & 0xffff_ffff) as usize;
                    let cos = self.cosine_row(&prepared, row);
                    if cos > best.1 || (cos == best.1 && row < best.0) {
                        best = (row, cos);
                    }
                }
                best
            })
            .collect()
    }

    /// Cosine of the query `q` (`dim` values) with row `row`, computed exactly as
    /// [`VectorIndex::nearest_many`] computes it (so the two agree bit for bit).
    ///
    /// # Panics
    /// If `q.len() != dim` or `row >= rows()` (callers check both).
    pub fn cosine(&self, q: &[f32], row: usize) -> f32 {
        assert_eq!(
            q.len(),
            self.vectors.dim(),
            "query of the index's dimension"
        );
        self.cosine_row(&PreparedQuery::new(q, &self.vectors), row)
    }

    /// Cosine of a prepared query with one row, computed exactly as
    /// [`VectorIndex::nearest_many`] does.
    fn cosine_row(&self, q: &PreparedQuery<'_>, row: usize) -> f32 {
        let d = self.vectors.dim();
        match (&self.vectors, q) {
            (Vectors::F32 { data, .. }, PreparedQuery::F32(q, qinv)) => {
                dot_f32(q, &data[row * d..(row + 1) * d]) * self.inv_norms[row] * qinv
            }
            (Vectors::Int8 { codes, .. }, PreparedQuery::Int8(qc, qinv)) => {
                dot_i8(qc, &codes[row * d..(row + 1) * d]) as f32 * self.inv_norms[row] * qinv
            }
            _ => unreachable!("PreparedQuery::new matches the storage"),
        }
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
            Vectors::Int8 { codes, .. } => {
                // The query is quantised like the rows (symmetric, per vector) and the dot
                // products run in exact integer arithmetic: 16 lanes per SIMD instruction, and
                // bit-identical results on every platform.
                let (qc, qinv) = quantize_query(q);
                out.extend(
                    codes
                        .chunks_exact(d)
                        .zip(&self.inv_norms)
                        .map(|(r, inv)| dot_i8(&qc, r) as f32 * inv * qinv),
                );
            }
        }
    }

    /// For each of the `qs.len() / dim` queries (row-major), the row with the highest cosine
    /// (lowest index on ties) and that cosine; empty when the index has no rows.
    ///
    /// One pass over the stored rows serves every query: the scan is memory-bound, so linking
    /// `k` query entities costs about what linking one does.
    pub fn nearest_many(&self, qs: &[f32]) -> Vec<(usize, f32)> {
        let d = self.vectors.dim();
        let k = qs.len() / d.max(1);
        if self.rows() == 0 || k == 0 {
            return Vec::new();
        }
        let mut best = vec![(0usize, f32::NEG_INFINITY); k];
        let mut consider = |row: usize, j: usize, c: f32| {
            if c > best[j].1 {
                best[j] = (row, c);
            }
        };
        match &self.vectors {
            Vectors::F32 { data, .. } => {
                let qinv: Vec<f32> = qs
                    .chunks_exact(d)
                    .map(|q| inv_norm(q.iter().map(|x| x * x).sum()))
                    .collect();
                for (row, (r, inv)) in data.chunks_exact(d).zip(&self.inv_norms).enumerate() {
                    for (j, q) in qs.chunks_exact(d).enumerate() {
                        consider(row, j, dot_f32(q, r) * inv * qinv[j]);
                    }
                }
            }
            Vectors::Int8 { codes, .. } => {
                let quant: Vec<(Vec<i8>, f32)> = qs.chunks_exact(d).map(quantize_query).collect();
                for (row, (r, inv)) in codes.chunks_exact(d).zip(&self.inv_norms).enumerate() {
                    for (j, (q, qinv)) in quant.iter().enumerate() {
                        consider(row, j, dot_i8(q, r) as f32 * inv * qinv);
                    }
                }
            }
        }
        best
    }
}

/// A query ready for cosine against one storage scheme (quantised once for int8).
enum PreparedQuery<'a> {
    F32(&'a [f32], f32),
    Int8(Vec<i8>, f32),
}

impl<'a> PreparedQuery<'a> {
    fn new(q: &'a [f32], v: &Vectors) -> Self {
        match v {
            Vectors::F32 { .. } => PreparedQuery::F32(q, inv_norm(q.iter().map(|x| x * x).sum())),
            Vectors::Int8 { .. } => {
                let (c, inv) = quantize_query(q);
                PreparedQuery::Int8(c, inv)
            }
        }
    }
}

/// Appends the bits of `positive` packed into u64 words (bit `k % 64` of word `k / 64`).
fn push_sign_bits(positive: impl Iterator<Item = bool>, out: &mut Vec<u64>) {
    let mut word = 0u64;
    let mut k = 0;
    for p in positive {
        word |= u64::from(p) << (k % 64);
        k += 1;
        if k % 64 == 0 {
            out.push(word);
            word = 0;
        }
    }
    if k % 64 != 0 {
        out.push(word);
    }
}

fn inv_norm(n2: f32) -> f32 {
    if n2 > 0.0 { 1.0 / n2.sqrt() } else { 0.0 }
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

/// Quantises a query to int8 codes (`round(127·x/max|x|)`) and returns them with the inverse
/// L2 norm of the codes (0 for a zero query).
fn quantize_query(q: &[f32]) -> (Vec<i8>, f32) {
    let m = q.iter().fold(0f32, |m, x| m.max(x.abs()));
    let scale = if m > 0.0 { 127.0 / m } else { 0.0 };
    let codes: Vec<i8> = q
        .iter()
        .map(|x| (x * scale).round().clamp(-127.0, 127.0) as i8)
        .collect();
    let n2: i32 = codes.iter().map(|&c| i32::from(c) * i32::from(c)).sum();
    (
        codes,
        if n2 > 0 {
            1.0 / (n2 as f32).sqrt()
        } else {
            0.0
        },
    )
}

/// Exact int8 dot product (|sum| ≤ 127² · dim fits in i32 for any dim below 133,000).
///
/// Explicit SIMD where the target has it — wasm `simd128` (`i32x4.dot_i16x8_s`) and x86-64
/// SSE2 (`pmaddwd`), 16 products per step — and a scalar loop elsewhere; integer arithmetic
/// makes all three bit-identical.
fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    debug_assert_eq!(a.len(), b.len());
    let n16 = a.len() / 16 * 16;
    let head = simd::dot_i8_16(&a[..n16], &b[..n16]);
    head + a[n16..]
        .iter()
        .zip(&b[n16..])
        .map(|(&x, &y)| i32::from(x) * i32::from(y))
        .sum::<i32>()
}

mod simd {
    /// Dot product of two equal-length slices whose length is a multiple of 16.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub fn dot_i8_16(a: &[i8], b: &[i8]) -> i32 {
        use core::arch::wasm32::*;
        let mut acc = i32x4_splat(0);
        for (x, y) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
            // SAFETY: each chunk is exactly 16 bytes; v128_load accepts unaligned addresses.
            let (x, y) = unsafe { (v128_load(x.as_ptr().cast()), v128_load(y.as_ptr().cast())) };
            let lo = i32x4_dot_i16x8(i16x8_extend_low_i8x16(x), i16x8_extend_low_i8x16(y));
            let hi = i32x4_dot_i16x8(i16x8_extend_high_i8x16(x), i16x8_extend_high_i8x16(y));
            acc = i32x4_add(acc, i32x4_add(lo, hi));
        }
        i32x4_extract_lane::<0>(acc)
            + i32x4_extract_lane::<1>(acc)
            + i32x4_extract_lane::<2>(acc)
            + i32x4_extract_lane::<3>(acc)
    }

    /// Dot product of two equal-length slices whose length is a multiple of 16: AVX2 where the
    /// CPU has it (detected at run time; the x86-64 baseline is SSE2 only), else SSE2. (The
    /// int8 scans dominate native queries; docs/benchmarks.md, has the criterion figures.)
    #[cfg(target_arch = "x86_64")]
    pub fn dot_i8_16(a: &[i8], b: &[i8]) -> i32 {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked above).
            unsafe { dot_i8_16_avx2(a, b) }
        } else {
            dot_i8_16_sse2(a, b)
        }
    }

    /// AVX2: sign-extend 16 bytes of each side to 16 × i16 (`vpmovsxbw`), multiply and add
    /// pairs to 8 × i32 (`vpmaddwd`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn dot_i8_16_avx2(a: &[i8], b: &[i8]) -> i32 {
        use core::arch::x86_64::*;
        let mut acc = _mm256_setzero_si256();
        for (x, y) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
            // SAFETY: each chunk is exactly 16 bytes and the loads are unaligned (loadu).
            let (x, y) = unsafe {
                (
                    _mm_loadu_si128(x.as_ptr().cast()),
                    _mm_loadu_si128(y.as_ptr().cast()),
                )
            };
            let p = _mm256_madd_epi16(_mm256_cvtepi8_epi16(x), _mm256_cvtepi8_epi16(y));
            acc = _mm256_add_epi32(acc, p);
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let mut lanes = [0i32; 4];
        // SAFETY: `lanes` is 16 bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(lanes.as_mut_ptr().cast(), s) };
        lanes.iter().sum()
    }

    /// SSE2 (the x86-64 baseline).
    #[cfg(target_arch = "x86_64")]
    fn dot_i8_16_sse2(a: &[i8], b: &[i8]) -> i32 {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; loads are unaligned (loadu) and each chunk
        // is exactly 16 bytes.
        unsafe {
            let mut acc = _mm_setzero_si128();
            for (x, y) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
                let x = _mm_loadu_si128(x.as_ptr().cast());
                let y = _mm_loadu_si128(y.as_ptr().cast());
                // Sign-extend bytes to 16 bits: interleave with themselves, shift right by 8.
                let xl = _mm_srai_epi16(_mm_unpacklo_epi8(x, x), 8);
                let xh = _mm_srai_epi16(_mm_unpackhi_epi8(x, x), 8);
                let yl = _mm_srai_epi16(_mm_unpacklo_epi8(y, y), 8);
                let yh = _mm_srai_epi16(_mm_unpackhi_epi8(y, y), 8);
                acc = _mm_add_epi32(
                    acc,
                    _mm_add_epi32(_mm_madd_epi16(xl, yl), _mm_madd_epi16(xh, yh)),
                );
            }
            let mut lanes = [0i32; 4];
            _mm_storeu_si128(lanes.as_mut_ptr().cast(), acc);
            lanes.iter().sum()
        }
    }

    /// Dot product of two equal-length slices whose length is a multiple of 16.
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    pub fn dot_i8_16(a: &[i8], b: &[i8]) -> i32 {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simd_int8_dot_equals_the_scalar_sum() {
        // Every path (AVX2 or SSE2 natively, simd128 in wasm) is exact integer arithmetic.
        for len in [0usize, 1, 15, 16, 17, 31, 32, 48, 384, 385] {
            let a: Vec<i8> = (0..len)
                .map(|i| ((i * 73 + 11) % 255) as i32 as i8)
                .collect();
            let b: Vec<i8> = (0..len)
                .map(|i| ((i * 151 + 7) % 255) as i32 as i8)
                .collect();
            let want: i32 = a
                .iter()
                .zip(&b)
                .map(|(&x, &y)| i32::from(x) * i32::from(y))
                .sum();
            assert_eq!(dot_i8(&a, &b), want, "len {len}");
            let extreme = vec![-128i8; len];
            assert_eq!(dot_i8(&extreme, &extreme), 16384 * len as i32, "len {len}");
        }
    }

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
        assert_eq!(f.nearest_many(&query)[0].0, q.nearest_many(&query)[0].0);
        let r = q.vectors().row_f32(2);
        for (x, y) in r.iter().zip(&data[2 * dim..3 * dim]) {
            assert!((x - y).abs() < 0.01);
        }
    }

    #[test]
    fn simd_dot_equals_scalar_and_nearest_many_equals_one_by_one() {
        let a: Vec<i8> = (0..389).map(|i| (i * 71 % 255 - 127) as i8).collect();
        let b: Vec<i8> = (0..389).map(|i| (i * 29 % 255 - 127) as i8).collect();
        let scalar: i32 = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum();
        assert_eq!(dot_i8(&a, &b), scalar);
        let ext: Vec<i8> = vec![127; 64];
        let neg: Vec<i8> = vec![-127; 64];
        assert_eq!(dot_i8(&ext, &neg), -127 * 127 * 64);

        let dim = 24;
        let data: Vec<f32> = (0..dim * 50)
            .map(|i| ((i * 37 % 23) as f32 - 11.0) / 7.0)
            .collect();
        let qs: Vec<f32> = (0..dim * 3)
            .map(|i| ((i * 13 % 17) as f32 - 8.0) / 5.0)
            .collect();
        for q in [Quantization::F32, Quantization::Int8] {
            let v = VectorIndex::new(Vectors::from_f32(dim, &data, q));
            let many = v.nearest_many(&qs);
            for (j, query) in qs.chunks_exact(dim).enumerate() {
                let mut s = vec![];
                v.cosine_all(query, &mut s);
                let best = s
                    .iter()
                    .enumerate()
                    .fold(
                        (0, f32::NEG_INFINITY),
                        |b, (i, &c)| if c > b.1 { (i, c) } else { b },
                    );
                assert_eq!(many[j], best, "{q:?} query {j}");
            }
        }
    }

    #[test]
    fn prefilter_with_all_rows_is_exact_and_finds_identical_rows() {
        let dim = 40;
        let data: Vec<f32> = (0..dim * 300)
            .map(|i| ((i * 7919 % 101) as f32 - 50.0) / 50.0)
            .collect();
        let v = VectorIndex::new(Vectors::from_f32(dim, &data, Quantization::Int8));
        let qs = &data[dim * 17..dim * 20];
        assert_eq!(v.nearest_many_prefiltered(qs, 300), v.nearest_many(qs));
        // A stored row has Hamming distance 0 to itself: one candidate suffices.
        let one = v.nearest_many_prefiltered(qs, 1);
        assert_eq!(
            one.iter().map(|x| x.0).collect::<Vec<_>>(),
            vec![17, 18, 19]
        );
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
