//! `hipporag site DIR`: a built static site → DIR/_hipporag/ (index, wasm, JS API, default UI).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use hipporag_indexer::Result;
use hipporag_indexer::graph::BuildOptions;
use hipporag_wasm::encoder::HashedNgramEncoder;

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
}

pub(crate) fn run(a: SiteArgs) -> Result<()> {
    let t0 = Instant::now();
    let encoder = HashedNgramEncoder::default();
    let opts = hipporag_indexer::site::SiteOptions {
        pkg: a.pkg,
        ui: a.ui,
        build: BuildOptions {
            synonymy_threshold: a.synonymy_threshold,
            ..Default::default()
        },
        exclude: a.exclude,
    };
    let r = hipporag_indexer::site::build_site(&a.dir, &encoder, &opts, &Bars::new())?;
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
        "{}: {} pages, {} passages, {} phrases; OpenIE reused for {} passages, {} embeddings reused, {} encoded; {} ({} bytes); {:.2} s",
        a.dir.join(hipporag_indexer::site::OUTPUT_DIR).display(),
        r.pages,
        r.passages,
        r.phrases,
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
