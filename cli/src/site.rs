//! `hipporag site DIR`: a built static site → DIR/_hipporag/ (index, wasm, JS API, default UI).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use hipporag_indexer::Result;
use hipporag_indexer::graph::BuildOptions;
use hipporag_wasm::encoder::{Encoder, HashedNgramEncoder};

use crate::common::Bars;

#[derive(Args)]
pub(crate) struct SiteArgs {
    /// The built site's root directory (its pages' URLs are their paths below it).
    pub(crate) dir: PathBuf,
    /// The wasm package to copy into DIR/_hipporag/ (`./build.sh build` writes it).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../pkg"))]
    pub(crate) pkg: PathBuf,
    /// The JS API and default UI to copy (hipporag-site.js and .d.ts, hipporag-ui.js and .css,
    /// hipporag-dom.js, hipporag-encoders.js).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../www/site"))]
    pub(crate) ui: PathBuf,
    /// Leave out pages whose path below DIR matches this glob (repeatable), e.g. generated
    /// indexes: `--exclude 'genindex*.html'`.
    #[arg(long)]
    pub(crate) exclude: Vec<String>,
    /// Synonymy threshold τ on cosine.
    #[arg(long, default_value_t = 0.8)]
    pub(crate) synonymy_threshold: f32,
    /// Print the build report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Leave out the static word embeddings (the hybrid ranking's semantic signal, distilled
    /// from all-MiniLM-L6-v2 at build time; no model runs in the page either way): the site
    /// then ranks by BM25 and the graph only, and the build needs no model.
    #[arg(long)]
    pub(crate) no_static_embeddings: bool,
    /// all-MiniLM-L6-v2 model directory for the static word embeddings [default:
    /// $HIPPORAG_MODEL_DIR, else ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long)]
    pub(crate) model: Option<PathBuf>,
}

/// The encoder of the static word embeddings: all-MiniLM-L6-v2, unless left out.
#[cfg(feature = "minilm")]
fn static_encoder(a: &SiteArgs) -> Result<Option<Box<dyn Encoder>>> {
    if a.no_static_embeddings {
        return Ok(None);
    }
    match crate::common::load_minilm(a.model.as_deref()) {
        Ok(e) => Ok(Some(Box::new(e))),
        Err(e) => Err(hipporag_wasm::Error::Encoder {
            encoder: crate::common::MINILM_ID.into(),
            message: format!(
                "the static word embeddings need it: {e} (or pass --no-static-embeddings)"
            ),
        }
        .into()),
    }
}

#[cfg(not(feature = "minilm"))]
fn static_encoder(a: &SiteArgs) -> Result<Option<Box<dyn Encoder>>> {
    if !a.no_static_embeddings {
        log::warn!(
            "this hipporag was built without the `minilm` feature: no static word embeddings (BM25 and the graph only)"
        );
    }
    Ok(None)
}

pub(crate) fn run(a: SiteArgs) -> Result<()> {
    let t0 = Instant::now();
    let encoder = HashedNgramEncoder::default();
    let words = static_encoder(&a)?;
    let opts = hipporag_indexer::site::SiteOptions {
        pkg: a.pkg,
        ui: a.ui,
        build: BuildOptions {
            synonymy_threshold: a.synonymy_threshold,
            ..Default::default()
        },
        exclude: a.exclude,
    };
    let r = hipporag_indexer::site::build_site(
        &a.dir,
        &encoder,
        words.as_deref(),
        &opts,
        &Bars::new(),
    )?;
    let secs = t0.elapsed().as_secs_f64();
    if a.json {
        let mut v = serde_json::to_value(&r).expect("serialisable");
        v["seconds"] = serde_json::json!(secs);
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
        return Ok(());
    }
    log::info!(
        "{}: {} pages, {} passages, {} phrases, {} words with static embeddings; OpenIE reused for {} passages, {} embeddings reused, {} encoded; {} ({} bytes); {:.2} s",
        a.dir.join(hipporag_indexer::site::OUTPUT_DIR).display(),
        r.pages,
        r.passages,
        r.phrases,
        r.static_words,
        r.openie_cached,
        r.vectors_cached,
        r.vectors_encoded,
        r.index_file,
        r.index_bytes,
        secs
    );
    println!(
        "Add to your pages:\n  <div id=\"hipporag-search\"></div>\n  <script type=\"module\" src=\"/{}/hipporag-ui.js\"></script>",
        hipporag_indexer::site::OUTPUT_DIR
    );
    Ok(())
}
