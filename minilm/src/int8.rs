//! Int8 model weights: a `model.safetensors` a quarter the size, for pages that download the
//! query encoder.
//!
//! [`quantize`] turns every f32 matrix (rank ≥ 2: the token, position and type embeddings and
//! the attention and feed-forward weights) into symmetric per-row int8 — row `r` is stored as
//! `round(x / s_r)` with `s_r = max|x_r| / 127`, dtype `I8`, beside an f32 tensor
//! `<name>.scale` of shape `[rows]` — and keeps vectors (biases, LayerNorm) in f32. The file
//! says so in its metadata (`"quantization": "int8-rowwise"`), and [`MiniLm::from_bytes`]
//! dequantizes such a file at load (`x ≈ q · s_r`), so the forward pass is f32 either way.
//!
//! docs/site.md ("The semantic tier") has all-MiniLM-L6-v2's file sizes and the effect on the
//! vectors and on retrieval.
//!
//! [`MiniLm::from_bytes`]: crate::MiniLm::from_bytes

use std::collections::HashMap;

use candle_core::{Device, Tensor};
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};

use crate::{Result, model_err};

/// The metadata key and value that mark a file written by [`quantize`].
pub const QUANTIZATION_KEY: &str = "quantization";
/// See [`QUANTIZATION_KEY`].
pub const INT8_ROWWISE: &str = "int8-rowwise";
/// Suffix of a quantized matrix's per-row scales.
pub const SCALE_SUFFIX: &str = ".scale";

const FILE: &str = "model.safetensors";

/// Rewrites an f32 `model.safetensors` (its bytes) with int8 matrices (see the module docs).
/// Deterministic: the same input gives the same bytes.
///
/// # Errors
/// [`crate::Error::Model`] (file `model.safetensors`) when the bytes are not safetensors or
/// the file is already quantized. Tensors other than f32 (BERT's I64 `position_ids`) are
/// copied as they are.
pub fn quantize(f32_safetensors: &[u8]) -> Result<Vec<u8>> {
    let st = SafeTensors::deserialize(f32_safetensors).map_err(|e| model_err(FILE, e))?;
    if is_int8(f32_safetensors)? {
        return Err(model_err(FILE, "already int8-quantized"));
    }
    let mut names: Vec<String> = st.names().into_iter().map(str::to_string).collect();
    names.sort();
    // Owned bytes per output tensor, then views over them.
    let mut owned: Vec<(String, Dtype, Vec<usize>, Vec<u8>)> = Vec::new();
    for name in names {
        let t = st.tensor(&name).map_err(|e| model_err(FILE, e))?;
        if t.dtype() == Dtype::I8 {
            return Err(model_err(FILE, format!("tensor {name} is already I8")));
        }
        if t.dtype() != Dtype::F32 {
            // Integer buffers (BERT's `position_ids`, I64) pass through.
            owned.push((name, t.dtype(), t.shape().to_vec(), t.data().to_vec()));
            continue;
        }
        let values = f32s(t.data());
        let shape = t.shape().to_vec();
        if shape.len() < 2 || values.is_empty() {
            owned.push((name, Dtype::F32, shape, t.data().to_vec()));
            continue;
        }
        let cols = shape[1..].iter().product::<usize>();
        let rows = values.len() / cols;
        let mut q = Vec::with_capacity(values.len());
        let mut scales = Vec::with_capacity(rows * 4);
        for row in values.chunks_exact(cols) {
            let max = row.iter().fold(0f32, |m, x| m.max(x.abs()));
            let s = if max > 0.0 { max / 127.0 } else { 1.0 };
            q.extend(
                row.iter()
                    .map(|x| (x / s).round().clamp(-127.0, 127.0) as i8 as u8),
            );
            scales.extend_from_slice(&s.to_le_bytes());
        }
        owned.push((
            format!("{name}{SCALE_SUFFIX}"),
            Dtype::F32,
            vec![rows],
            scales,
        ));
        owned.push((name, Dtype::I8, shape, q));
    }
    let views = owned
        .iter()
        .map(|(n, d, s, b)| {
            TensorView::new(*d, s.clone(), b)
                .map(|v| (n.clone(), v))
                .map_err(|e| model_err(FILE, e))
        })
        .collect::<Result<Vec<_>>>()?;
    let meta = HashMap::from([(QUANTIZATION_KEY.to_string(), INT8_ROWWISE.to_string())]);
    safetensors::serialize(views, Some(meta)).map_err(|e| model_err(FILE, e))
}

/// Whether `bytes` is a file written by [`quantize`] (its metadata says `int8-rowwise`).
///
/// # Errors
/// [`crate::Error::Model`] when the safetensors header does not parse.
pub fn is_int8(bytes: &[u8]) -> Result<bool> {
    let (_, meta) = SafeTensors::read_metadata(bytes).map_err(|e| model_err(FILE, e))?;
    Ok(meta
        .metadata()
        .as_ref()
        .and_then(|m| m.get(QUANTIZATION_KEY))
        .is_some_and(|v| v == INT8_ROWWISE))
}

/// The f32 tensors of a [`quantize`]d file: each int8 matrix times its row scales.
///
/// # Errors
/// [`crate::Error::Model`] naming the tensor whose dtype, shape or scales do not match.
pub(crate) fn dequantize(bytes: &[u8], device: &Device) -> Result<HashMap<String, Tensor>> {
    let st = SafeTensors::deserialize(bytes).map_err(|e| model_err(FILE, e))?;
    let mut out = HashMap::new();
    for (name, t) in st.tensors() {
        if name.ends_with(SCALE_SUFFIX)
            && st.tensor(&name[..name.len() - SCALE_SUFFIX.len()]).is_ok()
        {
            continue;
        }
        let shape = t.shape().to_vec();
        let values: Vec<f32> = match t.dtype() {
            Dtype::F32 => f32s(t.data()),
            Dtype::I64 => {
                let tensor =
                    Tensor::from_raw_buffer(t.data(), candle_core::DType::I64, &shape, device)
                        .map_err(|e| model_err(FILE, format!("tensor {name}: {e}")))?;
                out.insert(name, tensor);
                continue;
            }
            Dtype::I8 => {
                let scale_name = format!("{name}{SCALE_SUFFIX}");
                let s = st.tensor(&scale_name).map_err(|_| {
                    model_err(FILE, format!("int8 tensor {name} has no {scale_name}"))
                })?;
                let scales = f32s(s.data());
                let cols = shape[1..].iter().product::<usize>().max(1);
                if s.dtype() != Dtype::F32 || scales.len() * cols != t.data().len() {
                    return Err(model_err(
                        FILE,
                        format!(
                            "{scale_name}: expected {} f32 scales for {name} {shape:?}",
                            t.data().len() / cols
                        ),
                    ));
                }
                t.data()
                    .chunks_exact(cols)
                    .zip(&scales)
                    .flat_map(|(row, &s)| row.iter().map(move |&q| f32::from(q as i8) * s))
                    .collect()
            }
            other => {
                return Err(model_err(
                    FILE,
                    format!("tensor {name}: expected F32, I8 or I64, found {other:?}"),
                ));
            }
        };
        let tensor = Tensor::from_vec(values, shape, device).map_err(|e| model_err(FILE, e))?;
        out.insert(name, tensor);
    }
    Ok(out)
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}
