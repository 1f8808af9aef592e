//! all-MiniLM-L6-v2 as an [`Encoder`] for indexing (feature `minilm`, native only).

pub use hipporag_minilm::MODEL_ID;
use hipporag_wasm::Error;
use hipporag_wasm::embeddings::{Encoder, EncoderInfo};

use hipporag_wasm::Result;

/// all-MiniLM-L6-v2 (`sentence-transformers/all-MiniLM-L6-v2`, 384-d, mean pooling, L2 norm)
/// through the `hipporag-minilm` crate (candle `BertModel` + `tokenizers`), native only; the
/// browser runs the same crate as its own wasm module (`pkg/minilm/`).
///
/// Loaded from a directory holding `model.safetensors`, `tokenizer.json` and `config.json`
/// (`./build.sh model` fetches them; see the `hipporag-minilm` crate docs for which other
/// BERT-family sentence-transformer directories work). The id recorded in index headers is
/// [`hipporag_minilm::MODEL_ID`] unless [`MiniLmEncoder::with_id`] names another model (the
/// CLI's `--encoder-id`), so a page never encodes queries with a model the index was not built
/// with: it runs only the encoders it knows by id.
pub struct MiniLmEncoder {
    inner: hipporag_minilm::MiniLm,
    id: String,
}

impl MiniLmEncoder {
    /// Loads the model files from `dir`.
    ///
    /// # Errors
    /// [`Error::Encoder`] naming the missing or malformed file.
    pub fn from_dir(dir: &std::path::Path) -> Result<Self> {
        hipporag_minilm::MiniLm::from_dir(dir)
            .map(|inner| Self {
                inner,
                id: hipporag_minilm::MODEL_ID.into(),
            })
            .map_err(|e| Error::Encoder {
                encoder: hipporag_minilm::MODEL_ID.into(),
                message: format!(
                    "{e} (./build.sh model fetches the model files; the hipporag npm and PyPI packages install them)"
                ),
            })
    }

    /// The same encoder recorded under another id (e.g. `sentence-transformers/all-MiniLM-L12-v2`
    /// for a directory holding that model).
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = id.into();
        self
    }

    /// The model directory used when none is given: `$HIPPORAG_MODEL_DIR`; else
    /// `share/hipporag/all-MiniLM-L6-v2` beside the running binary's `bin/`, when it holds
    /// `config.json` (where `pip install hipporag` puts the binary and the model); else
    /// `$HIPPORAG_CACHE/all-MiniLM-L6-v2`, else `~/.cache/hipporag-wasm/all-MiniLM-L6-v2`
    /// (where `./build.sh model` puts it).
    pub fn default_dir() -> std::path::PathBuf {
        if let Some(d) = std::env::var_os("HIPPORAG_MODEL_DIR") {
            return d.into();
        }
        if let Some(d) = installed_dir() {
            return d;
        }
        let cache = std::env::var_os("HIPPORAG_CACHE")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                    .join(".cache/hipporag-wasm")
            });
        cache.join("all-MiniLM-L6-v2")
    }
}

/// `PREFIX/share/hipporag/all-MiniLM-L6-v2` for a binary at `PREFIX/bin/hipporag`, if it
/// holds `config.json`.
fn installed_dir() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe
        .parent()?
        .parent()?
        .join("share/hipporag/all-MiniLM-L6-v2");
    dir.join("config.json").is_file().then_some(dir)
}

impl Encoder for MiniLmEncoder {
    fn info(&self) -> EncoderInfo {
        EncoderInfo {
            id: self.id.clone(),
            dim: self.inner.dim() as u32,
            normalized: true,
        }
    }

    fn encode(&self, texts: &[&str]) -> Result<Vec<f32>> {
        self.inner.encode(texts).map_err(|e| Error::Encoder {
            encoder: self.id.clone(),
            message: e.to_string(),
        })
    }
}
