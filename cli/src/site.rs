//! `hipporag site DIR`: a built static site → DIR/_hipporag/ (index, wasm, JS API, default UI).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use clap::builder::BoolishValueParser;
use hipporag_indexer::Result;
use hipporag_indexer::graph::BuildOptions;
use hipporag_indexer::site::Assets;
use hipporag_indexer::site::read::normalized;
use hipporag_wasm::embeddings::{Encoder, HashedNgramEncoder};
use hipporag_wasm::text::Language;

use crate::common::Bars;
use crate::index::EncoderChoice;

/// `hipporag site`'s options. Each is also an environment variable, `HIPPORAG_` and its name
/// (`HIPPORAG_ROOT_SELECTOR`), and a key of a config file (`root_selector`), as Pagefind's:
/// flags win over variables, variables over the file (`site_config`). Pagefind's options keep
/// Pagefind's names, and its `PAGEFIND_*` variables and `pagefind.*` files are read too.
#[derive(Debug, Args)]
pub(crate) struct SiteArgs {
    /// The built site's root directory (its pages' URLs are their paths below it); the same as
    /// --site.
    #[arg(value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
    /// The built site's root directory (Pagefind's --site; DIR is the same).
    #[arg(long, short = 's', env = "HIPPORAG_SITE", value_name = "DIR")]
    pub(crate) site: Option<PathBuf>,
    /// Which files below the site are pages: a glob over their paths below DIR (`*` within a
    /// directory, `**` across them), e.g. `**/*.html` or `docs/**/*.{html,md}`; a page whose
    /// name ends in `.md` is read as Markdown [default: **/*.{html,htm,md}].
    #[arg(long, env = "HIPPORAG_GLOB")]
    pub(crate) glob: Option<String>,
    /// The element read as each HTML page's document (a CSS selector, Pagefind's
    /// --root-selector): the body marks, `<main>`, … are looked for inside it; a page where it
    /// matches nothing is left out [default: the whole page].
    #[arg(long, env = "HIPPORAG_ROOT_SELECTOR", value_name = "SELECTOR")]
    pub(crate) root_selector: Option<String>,
    /// Elements to skip with their content, as `data-pagefind-ignore` ones (a CSS selector,
    /// which may be a list: `"#nav, .toc"`; repeatable).
    #[arg(long, env = "HIPPORAG_EXCLUDE_SELECTORS", value_name = "SELECTOR")]
    pub(crate) exclude_selectors: Vec<String>,
    /// Read every page in this language (a BCP 47 tag), whatever its `<html lang>` says: one
    /// index for the whole site.
    #[arg(long, env = "HIPPORAG_FORCE_LANGUAGE", value_name = "LANG")]
    pub(crate) force_language: Option<String>,
    /// Where to write the search, relative to the site.
    #[arg(long, env = "HIPPORAG_OUTPUT_SUBDIR", value_name = "DIR", default_value = hipporag_indexer::site::OUTPUT_DIR)]
    pub(crate) output_subdir: PathBuf,
    /// Where to write the search, relative to the working directory (wins over
    /// --output-subdir). The directory is replaced whole: it must be new, empty or a previous
    /// output.
    #[arg(long, env = "HIPPORAG_OUTPUT_PATH", value_name = "PATH")]
    pub(crate) output_path: Option<PathBuf>,
    /// After the build, serve the site on http://127.0.0.1:1414/ (another free port when 1414
    /// is taken; $HIPPORAG_PORT picks one, 0 any) until interrupted.
    #[arg(long, env = "HIPPORAG_SERVE", value_parser = BoolishValueParser::new())]
    pub(crate) serve: bool,
    /// Log more: where each option came from, and the build's details.
    #[arg(long, short = 'v', env = "HIPPORAG_VERBOSE", value_parser = BoolishValueParser::new())]
    pub(crate) verbose: bool,
    /// Log only errors and warnings (no progress, no summary).
    #[arg(long, short = 'q', env = "HIPPORAG_QUIET", value_parser = BoolishValueParser::new())]
    pub(crate) quiet: bool,
    /// Log only errors.
    #[arg(long, env = "HIPPORAG_SILENT", value_parser = BoolishValueParser::new())]
    pub(crate) silent: bool,
    /// The wasm package directory to copy into DIR/_hipporag/ (its `minilm/` for `--encoder
    /// minilm`; `./build.sh build` writes `pkg/`) [default: the package embedded in this binary
    /// when it was built after `./build.sh build`, else this source tree's pkg/].
    #[arg(long, env = "HIPPORAG_PKG")]
    pub(crate) pkg: Option<PathBuf>,
    /// The directory of the JS API and default UI to copy (hipporag-site.js and .d.ts,
    /// hipporag-ui.js and .css, hipporag-helpers.js, hipporag-encoders.js) [default: the files
    /// embedded in this binary, else this source tree's www/site/].
    #[arg(long, env = "HIPPORAG_UI")]
    pub(crate) ui: Option<PathBuf>,
    /// Leave out pages whose path below DIR matches this glob (repeatable), e.g. generated
    /// indexes: `--exclude 'genindex*.html'`.
    #[arg(long, env = "HIPPORAG_EXCLUDE")]
    pub(crate) exclude: Vec<String>,
    /// Also index pages whose `<meta name="robots">` says `noindex` (left out by default, as
    /// search engines leave them out; redirect stubs are left out always).
    #[arg(long, env = "HIPPORAG_INCLUDE_NOINDEX", value_parser = BoolishValueParser::new())]
    pub(crate) include_noindex: bool,
    /// Synonymy threshold τ on cosine.
    #[arg(long, env = "HIPPORAG_SYNONYMY_THRESHOLD", default_value_t = 0.8)]
    pub(crate) synonymy_threshold: f32,
    /// The language of pages without an `<html lang>` (Markdown pages among them): a BCP 47
    /// tag. Each language gets its own index; a page searches its own language's
    /// (docs/languages.md lists each language's analysis).
    #[arg(long, env = "HIPPORAG_LANG", default_value = "en")]
    pub(crate) lang: String,
    /// Print the build report as JSON.
    #[arg(long, env = "HIPPORAG_JSON", value_parser = BoolishValueParser::new())]
    pub(crate) json: bool,
    /// Leave out the static word embeddings (the hybrid ranking's semantic signal, distilled
    /// from all-MiniLM-L6-v2 at build time; no model runs in the page either way): the site
    /// then ranks by BM25 and the graph only, and the build needs no model.
    #[arg(long, env = "HIPPORAG_NO_STATIC_EMBEDDINGS", value_parser = BoolishValueParser::new())]
    pub(crate) no_static_embeddings: bool,
    /// all-MiniLM-L6-v2 model directory for the static word embeddings and `--encoder minilm`
    /// [default: $HIPPORAG_MODEL_DIR (npm's `hipporag` sets it), else
    /// ../share/hipporag/all-MiniLM-L6-v2 from the binary's directory (pip's), else
    /// ~/.cache/hipporag-wasm/all-MiniLM-L6-v2 (./build.sh model)].
    #[arg(long, env = "HIPPORAG_MODEL")]
    pub(crate) model: Option<PathBuf>,
    /// Phrase and passage encoder. `hashed` (default, the lean tier): the built-in lexical
    /// hashed-ngram-v1, nothing to download in the page. `minilm` (the semantic tier): the
    /// index holds all-MiniLM-L6-v2 vectors, and the page fetches the model after its first
    /// results and refines them with the query's embedding.
    #[arg(long, env = "HIPPORAG_ENCODER", value_enum, default_value_t = EncoderChoice::Hashed)]
    pub(crate) encoder: EncoderChoice,
    /// With `--encoder minilm`: the weights of the model the page downloads. `int8` (default):
    /// 23 MB, row-wise int8, vectors within cosine 0.998 of f32's; `f32`: the model file as it is
    /// (91 MB). docs/benchmarks.md, "The semantic tier", has the measured effect on ranking.
    #[arg(long, env = "HIPPORAG_MODEL_WEIGHTS", value_enum, default_value_t = ModelWeights::Int8)]
    pub(crate) model_weights: ModelWeights,
    /// Also write the single-file index (the graph, phrases, facts and vectors, ~16 MB gzipped
    /// on Python's docs), which the page fetches only when a search asks for `hipporag1`,
    /// `hipporag2` or `dense`. Without it the site holds the index in pieces alone, which
    /// serves the site's default `hybrid` search and `bm25`. (A `--encoder minilm` site always
    /// has it.)
    #[arg(long, env = "HIPPORAG_FULL_INDEX", value_parser = BoolishValueParser::new())]
    pub(crate) full_index: bool,
    /// Characters of each passage's text a result's `data()` gets (`content`, which its
    /// excerpt is cut from) in the index in pieces; 0, the default, for the whole text. A cut
    /// costs fewer bytes per result shown, and the excerpt then comes from the opening only.
    #[arg(long, env = "HIPPORAG_FRAGMENT_TEXT_CHARS", default_value_t = hipporag_indexer::pieces::DEFAULT_FRAGMENT_TEXT_CHARS)]
    pub(crate) fragment_text_chars: usize,
    // Pagefind's options that hipporag does not implement: hidden, so that giving one is an
    // error that says so (`site_config::PAGEFIND_UNSUPPORTED`) rather than clap's "unexpected
    // argument".
    #[arg(long, hide = true)]
    pub(crate) include_characters: Option<String>,
    #[arg(long, hide = true)]
    pub(crate) keep_index_url: bool,
    #[arg(long, hide = true)]
    pub(crate) write_playground: bool,
    #[arg(long, hide = true)]
    pub(crate) logfile: Option<String>,
    #[arg(long, hide = true)]
    pub(crate) source: Option<String>,
    #[arg(long, hide = true)]
    pub(crate) bundle_dir: Option<String>,
    #[arg(long, hide = true)]
    pub(crate) service: bool,
}

/// `hipporag site --model-weights`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ModelWeights {
    /// Row-wise int8 (`hipporag_minilm::int8`), dequantized in the page.
    Int8,
    /// The f32 weights as the model directory holds them.
    F32,
}

/// all-MiniLM-L6-v2, when the site needs it: for `--encoder minilm` or the static word
/// embeddings (unless left out). One model serves both.
#[cfg(feature = "minilm")]
fn load_model(a: &SiteArgs) -> Result<Option<hipporag_indexer::minilm::MiniLmEncoder>> {
    if a.encoder != EncoderChoice::Minilm && a.no_static_embeddings {
        return Ok(None);
    }
    match crate::common::load_minilm(a.model.as_deref()) {
        Ok(e) => Ok(Some(e)),
        Err(e) if a.encoder == EncoderChoice::Minilm => Err(e),
        Err(e) => Err(hipporag_wasm::Error::Encoder {
            encoder: crate::common::MINILM_ID.into(),
            message: format!(
                "the static word embeddings need it: {e} (or pass --no-static-embeddings)"
            ),
        }
        .into()),
    }
}

/// Without the `minilm` feature: no model; `--encoder minilm` is an error, the static word
/// embeddings are skipped with a warning.
#[cfg(not(feature = "minilm"))]
fn load_model(a: &SiteArgs) -> Result<Option<HashedNgramEncoder>> {
    if a.encoder == EncoderChoice::Minilm {
        return Err(hipporag_indexer::Error::InvalidRequest(format!(
            "--encoder minilm: this hipporag was built without the `minilm` feature ({}); cargo build -p hipporag-cli enables it",
            crate::common::MINILM_ID
        )));
    }
    if !a.no_static_embeddings {
        log::warn!(
            "this hipporag was built without the `minilm` feature: no static word embeddings (BM25 and the graph only)"
        );
    }
    Ok(None)
}

/// The browser files `build.rs` embedded (`PKG`, `MINILM_PKG`, `UI`: `(file name, bytes)`).
#[cfg(embedded_assets)]
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// `--pkg` (its `sub`directory), else the embedded package, else this source tree's.
fn pkg_assets(a: &SiteArgs, sub: Option<&str>) -> Assets {
    let dir = |d: &Path| match sub {
        Some(s) => Assets::Dir(d.join(s)),
        None => Assets::Dir(d.to_path_buf()),
    };
    if let Some(d) = &a.pkg {
        return dir(d);
    }
    #[cfg(embedded_assets)]
    return Assets::Embedded(if sub.is_some() {
        embedded::MINILM_PKG
    } else {
        embedded::PKG
    });
    #[cfg(not(embedded_assets))]
    dir(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../pkg")))
}

/// `--ui`, else the embedded UI, else this source tree's `www/site/`.
fn ui_assets(a: &SiteArgs) -> Assets {
    if let Some(d) = &a.ui {
        return Assets::Dir(d.clone());
    }
    #[cfg(embedded_assets)]
    return Assets::Embedded(embedded::UI);
    #[cfg(not(embedded_assets))]
    Assets::Dir(PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/site"
    )))
}

/// The MiniLM wasm package (`--pkg`'s `minilm/`) and model directory a semantic-tier site ships.
fn query_encoder_files(a: &SiteArgs) -> Option<hipporag_indexer::site::QueryEncoderFiles> {
    #[cfg(feature = "minilm")]
    let default_dir = hipporag_indexer::minilm::MiniLmEncoder::default_dir;
    #[cfg(not(feature = "minilm"))]
    let default_dir = PathBuf::new;
    (a.encoder == EncoderChoice::Minilm).then(|| hipporag_indexer::site::QueryEncoderFiles {
        pkg: pkg_assets(a, Some("minilm")),
        model: a.model.clone().unwrap_or_else(default_dir),
        int8_weights: a.model_weights == ModelWeights::Int8,
    })
}

/// Problems the build log names one by one; `--json` lists them all.
const PROBLEMS_LOGGED: usize = 20;

/// One warning per page left out or read in part, up to [`PROBLEMS_LOGGED`].
fn warn_problems(problems: &[hipporag_indexer::site::PageProblem]) {
    for p in problems.iter().take(PROBLEMS_LOGGED) {
        log::warn!("{p}");
    }
    if problems.len() > PROBLEMS_LOGGED {
        log::warn!(
            "… and {} more problems (--json lists them all)",
            problems.len() - PROBLEMS_LOGGED
        );
    }
}

/// One warning per `<html lang>` read with another language's analysis, naming it and its
/// pages: no language is read as English in silence.
fn warn_languages(languages: &[hipporag_indexer::site::PageLanguage]) {
    for l in languages.iter().filter(|l| !l.own) {
        log::warn!(
            "{} pages have <html lang> `{}`, which has no analysis of its own: they are read with the `{}` analysis{}",
            l.pages,
            l.tag,
            l.analysis,
            if l.analysis == Language::Other.code() {
                " (generic: Unicode words, lowercased, no stemmer, no stopwords)"
            } else {
                " (--lang)"
            }
        );
    }
}

/// The log level `--verbose`, `--quiet` and `--silent` ask for (Pagefind's order: verbose
/// first), or `None` for `RUST_LOG`'s (default `info`).
fn log_level(a: &SiteArgs) -> Option<log::LevelFilter> {
    if a.verbose {
        Some(log::LevelFilter::Debug)
    } else if a.quiet {
        Some(log::LevelFilter::Warn)
    } else if a.silent {
        Some(log::LevelFilter::Error)
    } else {
        None
    }
}

/// The URL of the output directory `out` on the site `dir` (`/_hipporag`), when it is inside
/// the site.
fn output_url(dir: &Path, out: &Path) -> Option<String> {
    let rel = normalized(out)
        .strip_prefix(normalized(dir))
        .ok()?
        .to_path_buf();
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(format!("/{}", parts.join("/")))
}

/// `$HIPPORAG_PORT`, the port `--serve` listens on, when set (0: any free port).
fn serve_port() -> Result<Option<u16>> {
    match std::env::var(crate::serve::PORT_VAR) {
        Err(_) => Ok(None),
        Ok(v) => v.trim().parse().map(Some).map_err(|_| {
            hipporag_indexer::Error::InvalidRequest(format!(
                "{}={v:?}: expected a port number (0 for any free port)",
                crate::serve::PORT_VAR
            ))
        }),
    }
}

/// `hipporag site`: the options resolved from flags, variables and the config file
/// (`site_config`), the build, then with `--serve` the site served.
pub(crate) fn run(mut a: SiteArgs, m: &clap::ArgMatches) -> Result<()> {
    let cwd =
        std::env::current_dir().map_err(|e| hipporag_indexer::Error::io(Path::new("."), e))?;
    let resolved = crate::site_config::resolve(&mut a, m, &|n| std::env::var(n).ok(), &cwd)
        .map_err(hipporag_indexer::Error::InvalidRequest)?;
    crate::init_logging(log_level(&a));
    if let Some(f) = &resolved.file {
        log::debug!("config file: {}", cwd.join(f).display());
    }
    for (key, source) in &resolved.sources {
        log::debug!(
            "option {key} = {} ({source})",
            crate::site_config::shown_option(&a, key)
        );
    }
    let port = if a.serve { serve_port()? } else { None };
    let dir = a.dir.clone().expect("resolved");
    build(&a, &dir)?;
    if a.serve {
        crate::serve::serve(&dir, port)?;
    }
    Ok(())
}

/// The build of `hipporag site` with the resolved options `a`, of the site `dir`.
fn build(a: &SiteArgs, dir: &Path) -> Result<()> {
    let t0 = Instant::now();
    let hashed = HashedNgramEncoder::default();
    let model = load_model(a)?;
    let encoder: &dyn Encoder = match (&a.encoder, &model) {
        (EncoderChoice::Minilm, Some(m)) => m,
        _ => &hashed,
    };
    let words: Option<&dyn Encoder> = match &model {
        Some(m) if !a.no_static_embeddings => Some(m),
        _ => None,
    };
    let output = match (&a.output_path, &a.output_subdir) {
        (Some(p), _) => Some(p.clone()),
        (None, sub) if sub.as_os_str() == hipporag_indexer::site::OUTPUT_DIR => None,
        (None, sub) => Some(dir.join(sub)),
    };
    let opts = hipporag_indexer::site::SiteOptions {
        query_encoder: query_encoder_files(a),
        pkg: pkg_assets(a, None),
        ui: ui_assets(a),
        build: BuildOptions {
            synonymy_threshold: a.synonymy_threshold,
            language: Language::read_tag(&a.lang).ok_or_else(|| {
                hipporag_indexer::Error::InvalidRequest(format!(
                    "--lang {}: expected a BCP 47 language tag (en, de-CH, ja, …)",
                    a.lang
                ))
            })?,
            ..Default::default()
        },
        exclude: a.exclude.clone(),
        include_noindex: a.include_noindex,
        full_index: a.full_index,
        pieces: hipporag_indexer::pieces::PieceOptions {
            fragment_text_chars: a.fragment_text_chars,
            ..Default::default()
        },
        glob: a.glob.clone(),
        root_selector: a.root_selector.clone(),
        exclude_selectors: a.exclude_selectors.clone(),
        force_language: a
            .force_language
            .as_deref()
            .map(|tag| match Language::read_tag(tag) {
                Some(_) => Ok(tag.trim().to_string()),
                None => Err(hipporag_indexer::Error::InvalidRequest(format!(
                    "--force-language {tag}: expected a BCP 47 language tag (en, de-CH, ja, …)"
                ))),
            })
            .transpose()?,
        output,
    };
    let out = opts.output_dir(dir);
    // Quiet: no progress either (Pagefind's --quiet logs warnings and errors only).
    let bars = Bars::new();
    let progress: &dyn hipporag_indexer::progress::Progress =
        if a.quiet || a.silent { &() } else { &bars };
    let r = hipporag_indexer::site::build_site(dir, encoder, words, &opts, progress)?;
    let secs = t0.elapsed().as_secs_f64();
    warn_problems(&r.problems);
    warn_languages(&r.page_languages);
    if a.json {
        let mut v = serde_json::to_value(&r).expect("serialisable");
        v["seconds"] = serde_json::json!(secs);
        // Where the wasm package came from: `embedded` in this binary, or a directory.
        v["pkg"] = serde_json::json!(opts.pkg.describe());
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
        return Ok(());
    }
    let written = match (&r.pieces_meta, &r.index_file) {
        (Some(_), index) => format!(
            "index in pieces: {} term, {} cluster, {} phrase, {} fragment pieces ({} bytes){}",
            r.piece_counts.term,
            r.piece_counts.cluster,
            r.piece_counts.phrase,
            r.piece_counts.fragment,
            r.pieces_bytes,
            index.as_ref().map_or(String::new(), |f| format!(
                "; {f} ({} bytes)",
                r.index_bytes
            ))
        ),
        (None, Some(f)) => format!("{f} ({} bytes)", r.index_bytes),
        (None, None) => String::new(),
    };
    let graph = format!(
        "{} phrases; OpenIE reused for {} passages",
        r.phrases, r.openie_cached
    );
    let left_out = hipporag_indexer::site::left_out_summary(
        r.noindex_pages,
        r.redirect_pages,
        r.unmarked_pages,
        r.failed_pages,
    )
    .map(|why| {
        let n = r.noindex_pages + r.redirect_pages + r.unmarked_pages + r.failed_pages;
        format!(" ({n} more left out: {why})")
    })
    .unwrap_or_default();
    log::info!(
        "{}: {} pages{left_out}, {} passages, {graph}, {} words with static embeddings; {} embeddings reused, {} encoded; {}; {:.2} s",
        out.display(),
        r.pages,
        r.passages,
        r.static_words,
        r.vectors_cached,
        r.vectors_encoded,
        written,
        secs
    );
    if r.static_words_left_out > 0 {
        log::warn!(
            "{} words held by two passages or more got no static embedding: the {} most frequent \
             did (a page of generated text, a data dump or a log?); BM25 still finds every word",
            r.static_words_left_out,
            hipporag_indexer::static_embeddings::MAX_WORDS
        );
    }
    if r.languages.len() > 1 {
        let langs: Vec<String> = r
            .languages
            .iter()
            .map(|l| format!("{} ({} passages)", l.lang, l.passages))
            .collect();
        log::info!(
            "one index per language: {} (the figures above are the first's)",
            langs.join(", ")
        );
    }
    if a.quiet || a.silent {
        return Ok(());
    }
    let (serve, url) = match output_url(dir, &out) {
        Some(url) => (String::new(), url),
        // Outside the site: wherever the site serves it.
        None => (
            format!(" (and serve {} with the site)", out.display()),
            "/URL-OF-THAT-DIRECTORY".into(),
        ),
    };
    println!(
        "Add to your pages{serve}:\n  <div id=\"hipporag-search\"></div>\n  <script type=\"module\" src=\"{url}/hipporag-ui.js\"></script>"
    );
    Ok(())
}
