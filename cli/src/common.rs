//! What several commands share: loading an index file, the encoder an index names, progress
//! bars, creating an output's directory.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use hipporag_indexer::Result;
#[cfg(feature = "minilm")]
use hipporag_indexer::minilm::MiniLmEncoder;
use hipporag_indexer::progress::Progress;
use hipporag_wasm::embeddings::{Encoder, EncoderInfo, HASHED_NGRAM_ID, HashedNgramEncoder};
use indicatif::{ProgressBar, ProgressStyle};

/// indicatif progress bars for [`Progress`] on a terminal. Off a terminal (CI, a pipe, a log
/// file), where indicatif draws nothing, one line per stage on stderr when it ends, with its
/// counts and seconds, as Pagefind prints its stages.
pub(crate) struct Bars(Mutex<Option<Stage>>);

/// The running stage: its bar, name and start.
struct Stage {
    bar: ProgressBar,
    name: String,
    started: Instant,
}

impl Bars {
    /// No bar until a stage starts.
    pub(crate) fn new() -> Self {
        Bars(Mutex::new(None))
    }
}

impl Progress for Bars {
    fn start(&self, stage: &str, total: u64) {
        // A stage of unknown size (total 0) counts without a length: a bar of length 0 would
        // hold its position at 0.
        let bar = if total == 0 {
            ProgressBar::no_length()
        } else {
            ProgressBar::new(total)
        }
        .with_prefix(stage.to_string());
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>18} [{bar:30}] {pos}/{len} ({per_sec}, {eta}) {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        *self.0.lock().expect("progress lock") = Some(Stage {
            bar,
            name: stage.to_string(),
            started: Instant::now(),
        });
    }
    fn advance(&self, n: u64) {
        if let Some(s) = &*self.0.lock().expect("progress lock") {
            s.bar.inc(n);
        }
    }
    fn detail(&self, text: &str) {
        if let Some(s) = &*self.0.lock().expect("progress lock") {
            s.bar.set_message(text.to_string());
        }
    }
    fn finish(&self) {
        if let Some(s) = self.0.lock().expect("progress lock").take() {
            s.bar.finish_and_clear();
            if !std::io::stderr().is_terminal() {
                let total = s.bar.length().filter(|&n| n > 0);
                eprintln!(
                    "{}: {}{} in {:.1} s{}",
                    s.name,
                    s.bar.position(),
                    total.map_or(String::new(), |n| format!(" of {n}")),
                    s.started.elapsed().as_secs_f64(),
                    Some(s.bar.message())
                        .filter(|m| !m.is_empty())
                        .map_or(String::new(), |m| format!(" ({m})"))
                );
            }
        }
    }
}

#[cfg(feature = "minilm")]
pub(crate) fn load_minilm(model: Option<&Path>) -> Result<MiniLmEncoder> {
    let dir = model.map_or_else(MiniLmEncoder::default_dir, Path::to_path_buf);
    let t = std::time::Instant::now();
    let e = MiniLmEncoder::from_dir(&dir)?;
    log::info!(
        "all-MiniLM-L6-v2 loaded from {} in {:.2} s",
        dir.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(e)
}

/// The id of all-MiniLM-L6-v2 in index headers (`hipporag_minilm::MODEL_ID`).
#[cfg(feature = "minilm")]
pub(crate) use hipporag_indexer::minilm::MODEL_ID as MINILM_ID;
/// The id of all-MiniLM-L6-v2 in index headers (`hipporag_minilm::MODEL_ID`; this build has no
/// MiniLM, the `minilm` feature).
#[cfg(not(feature = "minilm"))]
pub(crate) const MINILM_ID: &str = "sentence-transformers/all-MiniLM-L6-v2";

/// The encoder an index was built with (its header's `encoder.id`), for encoding queries
/// natively; a MiniLM index needs the model directory (`--model`, or the default one).
pub(crate) fn encoder_for(
    info: &EncoderInfo,
    #[cfg_attr(not(feature = "minilm"), allow(unused_variables))] model: Option<&Path>,
) -> Result<Box<dyn Encoder>> {
    if info.id == HASHED_NGRAM_ID {
        return Ok(Box::new(HashedNgramEncoder::new(info.dim as usize)));
    }
    // all-MiniLM-L6-v2 from the default directory, or any model id with an explicit --model.
    #[cfg(feature = "minilm")]
    if info.id == MINILM_ID || model.is_some() {
        let e = load_minilm(model)?.with_id(info.id.clone());
        if e.info().dim != info.dim {
            return Err(hipporag_wasm::Error::Encoder {
                encoder: info.id.clone(),
                message: format!(
                    "the model gives {}-d vectors, the index holds {}-d ones",
                    e.info().dim,
                    info.dim
                ),
            }
            .into());
        }
        return Ok(Box::new(e));
    }
    Err(hipporag_wasm::Error::Encoder {
        encoder: info.id.clone(),
        message: format!(
            "this build cannot run that encoder natively (it runs {HASHED_NGRAM_ID}{})",
            if cfg!(feature = "minilm") {
                format!(
                    ", {MINILM_ID} and, with --model DIR, other BERT-family sentence-transformers"
                )
            } else {
                format!("; {MINILM_ID} needs the `minilm` feature: cargo build -p hipporag-cli")
            }
        ),
    }
    .into())
}

pub(crate) use hipporag_indexer::files::{create_parent, read_retriever as load};

/// Parses a share of the hybrid reset vector (`--phrase-weight`): a number in [0, 1], the range
/// `RetrieveOptions::phrase_weight` accepts, so clap names the flag in the error.
pub(crate) fn unit_interval(s: &str) -> std::result::Result<f64, String> {
    let w: f64 = s
        .parse()
        .map_err(|_| format!("expected a number in [0, 1], got {s:?}"))?;
    if (0.0..=1.0).contains(&w) {
        Ok(w)
    } else {
        Err(format!("expected a number in [0, 1], got {w}"))
    }
}
