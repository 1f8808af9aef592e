//! # hipporag-minilm
//!
//! all-MiniLM-L6-v2 sentence embeddings (Wang et al. 2020; the sentence-transformers model
//! `sentence-transformers/all-MiniLM-L6-v2`) with candle's `BertModel` and Hugging Face
//! `tokenizers`: one 384-dimensional, L2-normalised vector per text, the same natively (the
//! `hipporag index --encoder minilm` indexer) and in WebAssembly (the browser's JS-called
//! encoder, the `wasm` module on wasm32), so query vectors live in the space the index was built in.
//!
//! ## What a vector is
//! sentence-transformers' pipeline for this model (its `modules.json`: Transformer → Pooling
//! (mean) → Normalize), reproduced exactly:
//! 1. WordPiece tokens from `tokenizer.json` with `[CLS]` … `[SEP]`, **truncated to 256 tokens**
//!    (the model's `max_seq_length`). The file also turns on padding to 128 tokens; that is
//!    disabled here: each forward pass holds texts of one token count, so none is padded and a
//!    text's vector is the same to the bit whatever else is in the call (a padded pass sums
//!    its matrix products over a longer inner dimension, in another order, which changes some
//!    floats' last bits: docs/tuning.md, "Measurements behind the code").
//! 2. The BERT forward pass (`config.json`: 6 layers, hidden size 384, GELU), token type 0.
//! 3. **Mean pooling** of the last hidden states over the attention mask (every real token,
//!    `[CLS]` and `[SEP]` included; padding excluded).
//! 4. **L2 normalisation** (a text's vector has unit norm; cosine = dot product).
//!
//! Checked in `tests/` against `../shared/data/encoder/minilm_reference.json` (an independent
//! NumPy forward pass): cosine ≥ 0.999 for all 44 strings, natively and in wasm.
//!
//! ## Which model directories work
//! Any BERT-family sentence-transformer directory with `model.safetensors` (f32 weights named
//! as in Hugging Face's `BertModel`, with or without a `bert.` prefix), `tokenizer.json` and a
//! BERT `config.json`, whose sentence-transformers pooling is *mean* with normalisation: e.g.
//! all-MiniLM-L12-v2, multi-qa-MiniLM-L6-cos-v1, paraphrase-multilingual-MiniLM-L12-v2. Models
//! pooled by `[CLS]` (BGE, GTE) are not supported: nothing in their files tells this loader their
//! pooling, so they would load and give vectors of the wrong kind — do not point `--model` at
//! them. Other architectures (MPNet, RoBERTa/XLM-R) fail to load with an error naming the file.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Tokenizer, TruncationParams};

pub mod int8;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// The identifier recorded in index headers for this encoder.
pub const MODEL_ID: &str = "sentence-transformers/all-MiniLM-L6-v2";
/// Tokens kept per text, `[CLS]` and `[SEP]` included (sentence-transformers' `max_seq_length`).
pub const MAX_TOKENS: usize = 256;
/// Tokens per forward pass: a pass holds `max(1, TOKENS_PER_PASS / n)` texts of `n` tokens each
/// ([`MiniLm::encode`]), so its matrices have about this many rows whatever the texts' length.
/// 4,096 was the fastest setting tried on words sampled from rust-doc's pages: a word has few
/// tokens, so passes of a fixed number of texts made small matrix products
/// (docs/benchmarks.md, "MiniLM passes of about 4,096 tokens", has the sweep).
pub const TOKENS_PER_PASS: usize = 4096;

/// Errors of loading or running the encoder.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A model file is missing, unreadable or not what a BERT sentence encoder needs.
    #[error("{file}: {message}")]
    Model {
        /// The file (or part of the model) at fault: `model.safetensors`, `tokenizer.json`,
        /// `config.json`, or a directory.
        file: String,
        /// What was expected.
        message: String,
    },
    /// Tokenisation or the forward pass failed.
    #[error("all-MiniLM-L6-v2 encoding failed: {0}")]
    Inference(String),
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

fn model_err(file: &str, e: impl std::fmt::Display) -> Error {
    Error::Model {
        file: file.to_string(),
        message: e.to_string(),
    }
}

fn infer_err(e: impl std::fmt::Display) -> Error {
    Error::Inference(e.to_string())
}

/// A loaded sentence encoder (see the crate docs for what a vector is).
pub struct MiniLm {
    model: BertModel,
    tokenizer: Tokenizer,
    dim: usize,
    pad_id: u32,
    device: Device,
}

impl MiniLm {
    /// Loads the model from the bytes of its three files: `model.safetensors` (f32 weights, or
    /// int8 ones written by [`int8::quantize`]), `tokenizer.json` and `config.json`.
    ///
    /// # Errors
    /// [`Error::Model`] naming the file that does not parse or lacks a tensor the BERT
    /// architecture of `config.json` needs.
    pub fn from_bytes(weights: Vec<u8>, tokenizer_json: &[u8], config_json: &[u8]) -> Result<Self> {
        let config: Config = serde_json::from_slice(config_json)
            .map_err(|e| model_err("config.json", format!("not a BERT config: {e}")))?;
        let dim = config.hidden_size;
        let pad_id = serde_json::from_slice::<serde_json::Value>(config_json)
            .ok()
            .and_then(|v| v.get("pad_token_id").and_then(serde_json::Value::as_u64))
            .unwrap_or(0) as u32;
        let mut tokenizer =
            Tokenizer::from_bytes(tokenizer_json).map_err(|e| model_err("tokenizer.json", e))?;
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| model_err("tokenizer.json", e))?;
        let device = Device::Cpu;
        // An int8 file ([`int8::quantize`]) is dequantized to f32 here; an f32 one is used as is.
        let vb = if int8::is_int8(&weights)? {
            VarBuilder::from_tensors(int8::dequantize(&weights, &device)?, DType::F32, &device)
        } else {
            VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)
                .map_err(|e| model_err("model.safetensors", e))?
        };
        let model = BertModel::load(vb, &config).map_err(|e| {
            model_err(
                "model.safetensors",
                format!("does not hold the BERT weights config.json describes: {e}"),
            )
        })?;
        Ok(Self {
            model,
            tokenizer,
            dim,
            pad_id,
            device,
        })
    }

    /// Loads `dir/model.safetensors`, `dir/tokenizer.json` and `dir/config.json` (native only).
    ///
    /// # Errors
    /// [`Error::Model`] naming the missing or unreadable file, or as [`MiniLm::from_bytes`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_dir(dir: &std::path::Path) -> Result<Self> {
        let read = |name: &str| {
            let p = dir.join(name);
            std::fs::read(&p).map_err(|e| model_err(&p.display().to_string(), e))
        };
        let weights = read("model.safetensors")?;
        let tokenizer = read("tokenizer.json")?;
        let config = read("config.json")?;
        Self::from_bytes(weights, &tokenizer, &config).map_err(|e| match e {
            Error::Model { file, message } => Error::Model {
                file: dir.join(file).display().to_string(),
                message,
            },
            other => other,
        })
    }

    /// Values per vector (the model's hidden size: 384 for all-MiniLM-L6-v2).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Encodes `texts` into a row-major `texts.len() × dim` matrix of f32, each row with unit
    /// L2 norm. Texts are tokenised, sorted by token count and run in passes of texts of one
    /// token count, [`TOKENS_PER_PASS`] tokens at most or one text (candle spreads each pass's
    /// matrix products over its CPU threads natively); the output keeps the input order, and a
    /// text's row does not depend on the other texts. Empty input gives an empty vector.
    ///
    /// # Errors
    /// [`Error::Inference`] if tokenisation or the forward pass fails.
    pub fn encode(&self, texts: &[&str]) -> Result<Vec<f32>> {
        let mut out = vec![0f32; texts.len() * self.dim];
        if texts.is_empty() {
            return Ok(out);
        }
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(infer_err)?;
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| (encodings[i].get_ids().len(), i));
        let len = |i: &usize| encodings[*i].get_ids().len();
        for chunk in order
            .chunk_by(|a, b| len(a) == len(b))
            .flat_map(|same| same.chunks((TOKENS_PER_PASS / len(&same[0])).max(1)))
        {
            let ids: Vec<&[u32]> = chunk.iter().map(|&i| encodings[i].get_ids()).collect();
            let vecs = self.forward(&ids)?;
            for (&i, v) in chunk.iter().zip(vecs.chunks_exact(self.dim)) {
                out[i * self.dim..(i + 1) * self.dim].copy_from_slice(v);
            }
        }
        Ok(out)
    }

    /// One batch through BERT (padded to its longest text, which [`MiniLm::encode`] never
    /// needs), mean pooling over the mask, L2 normalisation.
    fn forward(&self, batch: &[&[u32]]) -> Result<Vec<f32>> {
        let b = batch.len();
        let len = batch.iter().map(|t| t.len()).max().unwrap_or(0).max(1);
        let mut ids = vec![self.pad_id; b * len];
        let mut mask = vec![0u32; b * len];
        for (r, t) in batch.iter().enumerate() {
            ids[r * len..r * len + t.len()].copy_from_slice(t);
            mask[r * len..r * len + t.len()].fill(1);
        }
        let dev = &self.device;
        let ids = Tensor::from_vec(ids, (b, len), dev).map_err(infer_err)?;
        let mask = Tensor::from_vec(mask, (b, len), dev).map_err(infer_err)?;
        let types = ids.zeros_like().map_err(infer_err)?;
        let hidden = self
            .model
            .forward(&ids, &types, Some(&mask))
            .map_err(infer_err)?; // (b, len, dim)
        let m = mask
            .to_dtype(DType::F32)
            .and_then(|m| m.unsqueeze(2))
            .map_err(infer_err)?; // (b, len, 1)
        let summed = hidden
            .broadcast_mul(&m)
            .and_then(|h| h.sum(1))
            .map_err(infer_err)?; // (b, dim)
        let counts = m.sum(1).map_err(infer_err)?; // (b, 1)
        let mean = summed.broadcast_div(&counts).map_err(infer_err)?;
        let norm = mean
            .sqr()
            .and_then(|s| s.sum_keepdim(1))
            .and_then(|s| s.sqrt())
            .map_err(infer_err)?;
        let unit = mean.broadcast_div(&norm).map_err(infer_err)?;
        unit.flatten_all()
            .and_then(|t| t.to_vec1::<f32>())
            .map_err(infer_err)
    }
}
