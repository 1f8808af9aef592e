//! `hipporag site DIR`: multi-hop search for a built static site, the way Pagefind does
//! keyword search — run one command after the site builds, add one script tag and one element.
//!
//! ```text
//!  DIR/**/*.html, *.md ──► html (main content → sections at headings, url#anchor, heading path)
//!        ──► passages (≤ MAX_PASSAGE_CHARS each) ──► rule OpenIE (cached per passage)
//!        ──► graph::GraphBuilder (encoder cached per text) ──► PPR vector per phrase node
//!        ──► static word embeddings (MiniLM per word, cached) ──► DIR/_hipporag/ (atomically)
//! ```
//!
//! The output directory holds the index in pieces, `index/{hash}.bin` ([`crate::pieces`]: named
//! by the first 16 hex digits of the SHA-256 of their bytes, so a CDN may cache them forever),
//! for a semantic-tier site or with `full_index` the single file `index.<hash>.hipporag`
//! (named the same way), `hipporag-entry.json` (the meta piece, the single file, the search
//! defaults, the encoder and counts), the small search module for the pieces
//! (`hipporag_pieces_wasm_bg.wasm`, `hipporag_pieces_wasm.js`; beside pieces only), the retriever's wasm
//! and JS (`hipporag_wasm_bg.wasm`, `hipporag_wasm.js`, `hipporag.js`; beside the single file
//! only), the JS API `hipporag-site.js` (`init`, `search`,
//! `debouncedSearch`, `result.data()`, like Pagefind's) with its types `hipporag-site.d.ts`, the
//! default UI `hipporag-ui.js` + `hipporag-ui.css` with its strings in each language
//! (`hipporag-ui-strings/<code>.json`, [`ui_strings`]), and the two modules they share with the
//! demo: `hipporag-helpers.js` (`h()`) and `hipporag-encoders.js` (the query encoders by index
//! encoder id), the pieces' loader `hipporag-pieces.js`, and the modules the JS API imports
//! only when a search needs them: `hipporag-filters.js` (filters, sorts, listings, merged
//! indexes) and `hipporag-full.js` (the single-file index) — [`UI_FILES`] (as the binary
//! embeds them: minified by `./build.sh build`, from `pkg/site/`). It is written to a temporary
//! sibling directory and renamed over the old one:
//! a failed build leaves the previous `_hipporag/` as it was.
//!
//! **Filters, metadata and sorts** (Pagefind's `data-pagefind-filter`, `-meta`,
//! `-default-meta` and `-sort`, and ours, `data-hipporag-…`: [`attributes`]). Each page's
//! record ([`crate::pieces::PageRecord`]: its page id, URL, metadata, filters, sort values and
//! word count) goes into the fragment pieces that hold its passages; each language's index
//! gets a filter piece per filter key and a sort piece per sort key ([`records`], named by
//! their hash), which `hipporag-entry.json` lists by key (`filters`, `sorts`). A semantic-tier
//! site, which has no pieces, gets none of them.
//!
//! **Incremental rebuilds** ([`cache`]). Extraction runs the rule extractor with the site's
//! corpus statistics (which words the site writes in lower case: a sentence-initial
//! "Currently" is no phrase node), as `hipporag index` does. A passage's OpenIE output depends
//! on its own text and heading path and on what it reads of those statistics
//! ([`crate::openie::rules::RuleExtractor::statistics_read`]); it is cached in
//! `DIR/.hipporag-cache/openie.jsonl` (the append-only cache of [`crate::openie::cache`]) under
//! the SHA-256 of all three. Embeddings are cached in
//! `DIR/.hipporag-cache/vectors.<encoder>.bin` under the SHA-256 of the text, static word
//! vectors in `words.<encoder>.bin`. A rebuild reuses
//! every unchanged passage's entry and gives the same bytes as a clean build (tested).

pub mod assets;
pub mod attributes;
pub mod cache;
pub mod entry;
pub mod html;
pub mod parse;
pub mod read;
pub mod records;
pub mod ui_strings;

pub use assets::Assets;
pub use entry::{ENTRY_FILE, SearchDefaults, SiteEntry};
pub use read::{
    PageProblem, Problem, ReadOptions, SiteFiles, SitePage, SitePages, left_out_summary,
    page_passages, pages, read_site, read_site_with,
};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::graph::{BuildOptions, GraphBuilder};
use crate::hex::hex;
use crate::progress::Progress;
use crate::{Error, Result};
use hipporag_wasm::embeddings::Encoder;
use hipporag_wasm::index::Passage;
use hipporag_wasm::text::{Language, StemmerBuild};

/// Longest passage, in characters: longer sections are split at line boundaries (a passage is
/// the unit a result shows and links to).
pub const MAX_PASSAGE_CHARS: usize = 1500;
/// The output directory's name inside the site.
pub const OUTPUT_DIR: &str = "_hipporag";
/// The cache directory's name inside the site.
pub const CACHE_DIR: &str = ".hipporag-cache";
/// The browser assets `hipporag site` copies next to the index: file names in the wasm
/// package directory (`./build.sh build` writes `pkg/`).
pub const PKG_FILES: &[&str] = &[
    "hipporag_pieces_wasm_bg.wasm",
    "hipporag_pieces_wasm.js",
    "hipporag_pieces_wasm_snowball_bg.wasm",
    "hipporag_pieces_wasm_snowball.js",
    "hipporag_pieces_wasm_snowball3_bg.wasm",
    "hipporag_pieces_wasm_snowball3.js",
    "hipporag_wasm_bg.wasm",
    "hipporag_wasm.js",
    "hipporag.js",
];
/// The search module's larger builds (`./build.sh build` writes them beside the small one):
/// for each build and each of the small module's files, the file served in its place, under
/// the small one's name, to a site with a language whose stemmer the smaller builds lack
/// ([`Language::stemmer_build`]): the pieces-wasm crate's `snowball` feature (rust-stemmers'
/// eighteen) and its `snowball3` (and Snowball 3.0's thirteen).
pub const LARGER_PIECES_FILES: &[(StemmerBuild, &str, &str)] = &[
    (
        StemmerBuild::Snowball,
        "hipporag_pieces_wasm_bg.wasm",
        "hipporag_pieces_wasm_snowball_bg.wasm",
    ),
    (
        StemmerBuild::Snowball,
        "hipporag_pieces_wasm.js",
        "hipporag_pieces_wasm_snowball.js",
    ),
    (
        StemmerBuild::Snowball3,
        "hipporag_pieces_wasm_bg.wasm",
        "hipporag_pieces_wasm_snowball3_bg.wasm",
    ),
    (
        StemmerBuild::Snowball3,
        "hipporag_pieces_wasm.js",
        "hipporag_pieces_wasm_snowball3.js",
    ),
];
/// How to get the wasm packages when they are missing.
const PKG_HINT: &str = "build the wasm packages with ./build.sh build, or pass --pkg";
/// How to get the UI files when they are missing.
const UI_HINT: &str = "the repository's www/site/ holds them; pass --ui";
/// The JS API and default UI `hipporag site` copies from the UI directory (`www/site/`).
pub const UI_FILES: &[&str] = &[
    "hipporag-site.js",
    "hipporag-site.d.ts",
    "hipporag-ui.js",
    "hipporag-ui.css",
    "hipporag-helpers.js",
    ui_strings::UI_STRINGS_FILE,
    "hipporag-encoders.js",
    "hipporag-pieces.js",
    "hipporag-filters.js",
    "hipporag-full.js",
];

/// The query encoder's module files, copied from the MiniLM wasm package (`pkg/minilm/`) into
/// `minilm/` for a semantic-tier site (the names `www/site/hipporag-encoders.js` loads).
pub const MINILM_PKG_FILES: &[&str] = &["hipporag_minilm.js", "hipporag_minilm_bg.wasm"];
/// The model files copied from the model directory into `models/all-MiniLM-L6-v2/`.
pub const MINILM_MODEL_FILES: &[&str] = &["model.safetensors", "tokenizer.json", "config.json"];

/// Where a semantic-tier site's query encoder comes from (`hipporag site --encoder minilm`):
/// the page loads it after its first results ([`MINILM_PKG_FILES`], [`MINILM_MODEL_FILES`]).
#[derive(Debug, Clone)]
pub struct QueryEncoderFiles {
    /// The MiniLM wasm package (`pkg/minilm/`, `./build.sh build`) whose [`MINILM_PKG_FILES`]
    /// are copied.
    pub pkg: Assets,
    /// The all-MiniLM-L6-v2 model directory.
    pub model: PathBuf,
    /// Ship `model.safetensors` with int8 weights (`hipporag_minilm::int8`: 23 MB instead of
    /// 91 MB; needs the `minilm` feature) rather than as it is (f32).
    pub int8_weights: bool,
}

/// Options of [`build_site`].
#[derive(Debug, Clone)]
pub struct SiteOptions {
    /// The wasm package (`pkg/`) whose [`PKG_FILES`] are copied.
    pub pkg: Assets,
    /// The [`UI_FILES`] (`www/site/`).
    pub ui: Assets,
    /// Graph build options (synonymy threshold, quantisation, …).
    pub build: BuildOptions,
    /// Shell globs over site-relative paths (`genindex*.html`, `api/**`) of pages to leave out.
    pub exclude: Vec<String>,
    /// Index the pages marked `noindex` too ([`html::Unlisted::Noindex`]; redirects are left
    /// out whatever this says).
    pub include_noindex: bool,
    /// The query encoder to ship when the index's encoder is a model (None for the built-in
    /// `hashed-ngram-v1`, which hipporag.js runs).
    pub query_encoder: Option<QueryEncoderFiles>,
    /// Also write the single-file index, which the page loads only for a `mode` the pieces do
    /// not serve (`hipporag1`, `hipporag2`, `dense`). Always written for a semantic-tier site
    /// (its dense scores need every passage vector).
    pub full_index: bool,
    /// Where the index in pieces is cut.
    pub pieces: crate::pieces::PieceOptions,
    /// Pagefind's `glob`: the files below the site that are pages
    /// ([`ReadOptions::glob`]; `None`: every `*.html`, `*.htm` and `*.md`).
    pub glob: Option<String>,
    /// Pagefind's `root_selector`: the element read as each HTML page's document; body marks,
    /// `<main>`, … are looked for inside it ([`html::Selectors`]; `None`: the whole page).
    pub root_selector: Option<String>,
    /// Pagefind's `exclude_selectors`: elements skipped with their content, as
    /// `data-pagefind-ignore` ones.
    pub exclude_selectors: Vec<String>,
    /// Pagefind's `force_language`: a BCP 47 tag every page is read as, whatever its
    /// `<html lang>` says (one index for the site). A tag, not a [`Language`], so that a
    /// language read with the generic analysis keeps its tag in `hipporag-entry.json`.
    pub force_language: Option<String>,
    /// Where the output goes (Pagefind's `output_subdir` and `output_path`, resolved):
    /// `None` for `dir/_hipporag` ([`OUTPUT_DIR`]). [`build_site`] refuses a directory that
    /// holds the site, and an existing one that is not empty and not a previous output (no
    /// `hipporag-entry.json`), as it replaces the whole directory.
    pub output: Option<PathBuf>,
}

impl SiteOptions {
    /// Where [`build_site`] writes the site's search for `dir`: [`SiteOptions::output`], else
    /// `dir/_hipporag`.
    pub fn output_dir(&self, dir: &Path) -> PathBuf {
        self.output.clone().unwrap_or_else(|| dir.join(OUTPUT_DIR))
    }
}

/// What a build did (printed by the CLI; the figures of the issue's note).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteReport {
    /// HTML and Markdown pages indexed.
    pub pages: usize,
    /// Pages left out because they ask not to be indexed ([`html::Unlisted::Noindex`]).
    pub noindex_pages: usize,
    /// Pages left out as redirects ([`html::Unlisted::Redirect`]).
    pub redirect_pages: usize,
    /// Pages left out for having no marked body on a site whose other pages have one
    /// ([`html::Page::marked_body`]).
    pub unmarked_pages: usize,
    /// Pages left out for a problem ([`Problem::leaves_out`]: unreadable, binary, …).
    pub failed_pages: usize,
    /// Pages left out or read in part, and why, by path ([`read`]).
    pub problems: Vec<PageProblem>,
    /// Passages indexed.
    pub passages: usize,
    /// Phrase nodes of the phrase graph (the phrase pieces hold their PPR vectors).
    pub phrases: u32,
    /// Passages whose OpenIE output came from the cache (0 when no OpenIE ran).
    pub openie_cached: usize,
    /// Texts whose embedding came from the cache (phrases, passages, facts).
    pub vectors_cached: usize,
    /// Texts encoded in this run.
    pub vectors_encoded: usize,
    /// The single-file index's name inside the output directory, when written.
    pub index_file: Option<String>,
    /// The single-file index's size in bytes, when written (else 0).
    pub index_bytes: usize,
    /// The meta piece of the index in pieces (`index/{hash}.bin`), when written (a lean site).
    pub pieces_meta: Option<String>,
    /// Pieces written of each kind but the meta piece.
    pub piece_counts: crate::pieces::PieceCounts,
    /// Bytes of all pieces (gzipped, as stored).
    pub pieces_bytes: usize,
    /// Words with a static embedding (0 when none were built).
    pub static_words: usize,
    /// Of those, words whose vector came from the cache.
    pub static_words_cached: usize,
    /// Words held by two passages or more that got no static embedding, past
    /// [`crate::static_embeddings::MAX_WORDS`] (a page of generated text); 0 on every real site
    /// measured.
    pub static_words_left_out: usize,
    /// One index per language, the entry's default first (the other figures above are its).
    pub languages: Vec<SiteLanguage>,
    /// The pages indexed by their `<html lang>`, and the analysis each was read with.
    pub page_languages: Vec<PageLanguage>,
}

/// The pages of one `<html lang>` (its primary subtag) and the analysis the build read them
/// with: the tag's own when [`Language::from_tag`] knows it, else the generic one
/// ([`Language::Other`], [`Language::read_tag`]) or for a malformed tag the site's default (`--lang`),
/// which the CLI then warns about.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageLanguage {
    /// The primary subtag, lowercased ([`hipporag_wasm::text::primary_subtag`]); `""` for pages without a
    /// `<html lang>`, Markdown pages among them.
    pub tag: String,
    /// Pages indexed with it.
    pub pages: usize,
    /// The analysis they were read with ([`Language::code`]: `en`, `ru` or `zh`).
    pub analysis: String,
    /// Whether that analysis is the tag's own (false: the default's stood in for it). True
    /// for pages without a tag, which are in the default language by definition.
    pub own: bool,
}

/// [`PageLanguage`]s of the pages counted by primary subtag in `languages`, most pages first;
/// `default` reads pages without a tag and malformed tags ([`Language::read_tag`]).
fn page_languages(
    languages: &std::collections::BTreeMap<String, usize>,
    default: Language,
) -> Vec<PageLanguage> {
    let mut out: Vec<PageLanguage> = languages
        .iter()
        .map(|(tag, &pages)| {
            let own = Language::from_tag(tag);
            let read = Language::read_tag(tag).unwrap_or(default);
            PageLanguage {
                tag: tag.clone(),
                pages,
                analysis: read.code().to_string(),
                own: own.is_some() || tag.is_empty(),
            }
        })
        .collect();
    out.sort_by(|a, b| b.pages.cmp(&a.pages).then_with(|| a.tag.cmp(&b.tag)));
    out
}

/// One language's index of a site, as `hipporag-entry.json` lists it (`languages`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteLanguage {
    /// The analysis' code ([`Language::code`]: `en`, `de`, `ja`, …, `und`): pages whose
    /// `<html lang>` has it as primary subtag use this index.
    pub lang: String,
    /// For the generic analysis (`und`), the primary subtags of the pages it holds (`pl`,
    /// `ko`, …), whose pages use this index too; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Its passages.
    pub passages: usize,
    /// Its meta piece, for a site in pieces.
    pub pieces: Option<String>,
    /// Its single file, when written.
    pub index: Option<String>,
    /// Its filter pieces by filter key (`{"section": "index/….bin"}`, [`records`]), for a site
    /// in pieces whose pages have filters (Pagefind's `data-pagefind-filter`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub filters: BTreeMap<String, String>,
    /// Its sort pieces by sort key (`{"date": "index/….bin"}`, [`records`]), for a site in
    /// pieces whose pages have sort values (Pagefind's `data-pagefind-sort`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sorts: BTreeMap<String, String>,
}

/// One passage with where it lives.
#[derive(Debug, Clone)]
pub struct SitePassage {
    /// Title (heading path), text and `url#anchor`.
    pub passage: Passage,
    /// Heading path, outermost first.
    pub headings: Vec<String>,
    /// Each of `headings`' weight for BM25 ([`html::Section::heading_weights`]: Pagefind's
    /// `h1` 7 … `h6` 2, or a weight attribute's).
    pub heading_weights: Vec<f32>,
    /// Indices of the passage text's lines that are code (from a `<pre>`), ascending.
    pub code_lines: Vec<usize>,
    /// Each of the passage text's lines' weight (`data-pagefind-weight`,
    /// [`html::Section::line_weights`]); empty when every line weighs 1.
    pub line_weights: Vec<f32>,
    /// The page's language: its `<html lang>`'s ([`Language::read_tag`]: the generic
    /// [`Language::Other`] for a language without an analysis of its own), else
    /// the site's default.
    pub language: Language,
}

/// Builds `dir/_hipporag/`, or [`SiteOptions::output`] (see the module docs); returns what it
/// did.
///
/// Four steps: rule OpenIE per passage through the cache ([`cache::extract_cached`]), the
/// graph and embeddings through the vector cache ([`cache::VectorCache`]), with
/// `static_encoder` the static word embeddings ([`crate::static_embeddings`], word vectors
/// through their own vector cache), then the output directory, written aside and swapped in
/// (`write_output`).
///
/// # Errors
/// [`Error::Io`] naming the file that cannot be read or written (a missing asset in
/// `opts.pkg`/`opts.ui` says which `./build.sh` step makes it); [`Error::InvalidRequest`] for a
/// site without any text, a bad glob or selector, or an output directory it may not replace;
/// encoder errors.
pub fn build_site(
    dir: &Path,
    encoder: &dyn Encoder,
    static_encoder: Option<&dyn Encoder>,
    opts: &SiteOptions,
    progress: &dyn Progress,
) -> Result<SiteReport> {
    check_assets(opts)?;
    check_output(dir, opts)?;
    let mut read = read_pages(dir, opts, progress)?;
    let mut report = SiteReport {
        pages: read.indexed(),
        noindex_pages: read.noindex,
        redirect_pages: read.redirects,
        unmarked_pages: read.unmarked,
        failed_pages: read.failed,
        problems: std::mem::take(&mut read.problems),
        passages: read.passages.len(),
        page_languages: page_languages(&read.languages, opts.build.language),
        ..Default::default()
    };
    // The passages move on; `read` keeps the pages, whose attributes the page records take.
    let mut site = std::mem::take(&mut read.passages);
    let cache_dir = dir.join(CACHE_DIR);
    std::fs::create_dir_all(&cache_dir).map_err(|e| Error::io(&cache_dir, e))?;
    let mut docs = extract(&site, &cache_dir, &mut report, progress)?;
    let vectors = cache::VectorCache::open(&cache_dir, encoder);
    let words = static_encoder.map(|e| cache::VectorCache::open_named(&cache_dir, "words", e));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut header = None;
    for (language, ids) in language_groups(&site) {
        // Moved, not copied: each passage and its OpenIE record belong to one language, and
        // copies doubled the build's memory on a large site.
        let passages = ids
            .iter()
            .map(|&i| std::mem::replace(&mut site[i].passage, Passage::new("", "")))
            .collect();
        let group_docs = ids.iter().map(|&i| std::mem::take(&mut docs[i])).collect();
        // Line weights (`data-pagefind-weight`) for BM25, none when every line weighs 1;
        // and the headings' weights of each passage's title.
        let mut weights: Vec<Vec<f32>> = ids
            .iter()
            .map(|&i| std::mem::take(&mut site[i].line_weights))
            .collect();
        if weights.iter().all(Vec::is_empty) {
            weights = Vec::new();
        }
        let title_weights: Vec<Vec<f32>> = ids
            .iter()
            .map(|&i| std::mem::take(&mut site[i].heading_weights))
            .collect();
        let (data, phrases, static_words) = language_index(
            (passages, weights, title_weights),
            group_docs,
            language,
            (&vectors, words.as_ref()),
            opts,
            progress,
        )?;
        report.phrases += phrases;
        report.static_words += static_words.0;
        report.static_words_left_out += static_words.1;
        // The index's passages are the group's, in its order.
        debug_assert_eq!(data.passages.len(), ids.len());
        let pages = records::page_records(&data.passages, |j| {
            read.page_of(ids[j]).map(|p| &p.attributes)
        });
        // (The phrase pieces' PPR vectors, one walk per phrase node, are most of this stage.)
        progress.start("index files", data.phrases.len() as u64);
        let out = language_files(&data, &pages, opts, &mut files)?;
        progress.advance(data.phrases.len() as u64);
        progress.finish();
        add_language(&mut report, language, ids.len(), out);
        header.get_or_insert_with(|| data.header.clone());
    }
    (report.vectors_cached, report.vectors_encoded) = vectors.save()?;
    if let Some(words) = words {
        (report.static_words_cached, _) = words.save()?;
    }
    let header = header.expect("a site with text has a language");
    progress.start("writing files", files.len() as u64);
    write_output(dir, &files, &header, &report, opts)?;
    progress.advance(files.len() as u64);
    progress.finish();
    Ok(report)
}

/// Checks that the output directory ([`SiteOptions::output`]) may be replaced: not the site or
/// a directory holding it, and when it exists, empty or a previous output (it has
/// [`ENTRY_FILE`]). The default, `dir/_hipporag`, always may.
fn check_output(dir: &Path, opts: &SiteOptions) -> Result<()> {
    let Some(out) = &opts.output else {
        return Ok(());
    };
    let refuse = |why: &str| {
        Err(Error::InvalidRequest(format!(
            "output directory {} (--output-subdir, --output-path): {why}; it is replaced whole \
             on every build",
            out.display()
        )))
    };
    let site = read::normalized(&std::fs::canonicalize(dir).unwrap_or_else(|_| dir.into()));
    let target = read::normalized(out);
    let real = std::fs::canonicalize(out).map_or_else(|_| target.clone(), |p| read::normalized(&p));
    if site.starts_with(&target) || site.starts_with(&real) {
        return refuse("it holds the site");
    }
    if out.exists() && !out.is_dir() {
        return refuse("it is a file, not a directory");
    }
    let Ok(mut entries) = std::fs::read_dir(out) else {
        return Ok(());
    };
    if entries.next().is_some() && !out.join(ENTRY_FILE).is_file() {
        return refuse(&format!(
            "it exists and is no previous output of hipporag (no {ENTRY_FILE}): \
             name a new or empty directory"
        ));
    }
    Ok(())
}

/// Checks that every browser file and model file the output copies is there, before the
/// build's long stages.
fn check_assets(opts: &SiteOptions) -> Result<()> {
    opts.pkg.check(PKG_FILES, PKG_HINT)?;
    opts.ui.check(UI_FILES, UI_HINT)?;
    let Some(q) = &opts.query_encoder else {
        return Ok(());
    };
    q.pkg.check(MINILM_PKG_FILES, PKG_HINT)?;
    match MINILM_MODEL_FILES
        .iter()
        .map(|f| q.model.join(f))
        .find(|p| !p.is_file())
    {
        Some(p) => Err(Error::io(
            &p,
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "missing: fetch the model with ./build.sh model, or pass --model",
            ),
        )),
        None => Ok(()),
    }
}

/// The site's pages as passages ([`read_site`]), with what was left out as the stage's detail.
///
/// # Errors
/// [`Error::InvalidRequest`] when no page has text, saying why when pages were left out.
fn read_pages(dir: &Path, opts: &SiteOptions, progress: &dyn Progress) -> Result<SitePages> {
    progress.start("pages read", 0);
    let read = read_site_with(
        dir,
        &ReadOptions {
            glob: opts.glob.clone(),
            force_language: opts.force_language.clone(),
            root_selector: opts.root_selector.clone(),
            exclude_selectors: opts.exclude_selectors.clone(),
            skip_dir: opts.output.clone(),
            ..ReadOptions::new(&opts.exclude, opts.include_noindex, opts.build.language)
        },
    )?;
    progress.advance(read.files as u64);
    let summary = left_out_summary(read.noindex, read.redirects, read.unmarked, read.failed);
    if let Some(why) = &summary {
        progress.detail(&format!("{} left out: {why}", read.files - read.indexed()));
    }
    progress.finish();
    if !read.passages.is_empty() {
        return Ok(read);
    }
    let hint = if read.noindex > 0 {
        format!(
            " ({} of {} pages ask not to be indexed, `<meta name=\"robots\" content=\"noindex\">`: \
             --include-noindex indexes them)",
            read.noindex, read.files
        )
    } else if let Some(why) = summary {
        let first = read.problems.iter().take(3).map(|p| p.to_string());
        format!(
            " (left out: {why}; {})",
            first.collect::<Vec<_>>().join("; ")
        )
    } else {
        String::new()
    };
    let looked_for = opts.glob.as_deref().unwrap_or("*.html, *.htm and *.md");
    Err(Error::InvalidRequest(format!(
        "{}: no page with text (looked for {looked_for}){hint}",
        dir.display()
    )))
}

/// OpenIE (the rule extractor, cached per passage) of every passage: it gives the phrase
/// graph, whose PPR vectors the phrase pieces and the single file's graph modes read.
fn extract(
    site: &[SitePassage],
    cache_dir: &Path,
    report: &mut SiteReport,
    progress: &dyn Progress,
) -> Result<Vec<crate::openie::OpenIeDoc>> {
    progress.start("OpenIE", site.len() as u64);
    let (docs, reused) = cache::extract_cached(site, &cache_dir.join("openie.jsonl"))?;
    progress.advance(site.len() as u64);
    progress.detail(&format!("{reused} from the cache"));
    progress.finish();
    report.openie_cached = reused;
    Ok(docs)
}

/// The passages of each language, the language with the most first (its index is the entry's
/// default), as Pagefind keeps one index per `<html lang>`.
fn language_groups(site: &[SitePassage]) -> Vec<(Language, Vec<usize>)> {
    let mut groups: Vec<(Language, Vec<usize>)> = Language::ALL
        .iter()
        .map(|&l| {
            (
                l,
                (0..site.len()).filter(|&i| site[i].language == l).collect(),
            )
        })
        .filter(|(_, ids): &(Language, Vec<usize>)| !ids.is_empty())
        .collect();
    groups.sort_by_key(|(l, ids)| (std::cmp::Reverse(ids.len()), l.ordinal()));
    groups
}

/// One language's index data: the phrase graph and embeddings (through the vector cache), and
/// for English the static word embeddings (through theirs); with its phrase count, and its
/// static word count and the words left out past [`crate::static_embeddings::MAX_WORDS`].
fn language_index(
    (passages, line_weights, title_weights): (Vec<Passage>, Vec<Vec<f32>>, Vec<Vec<f32>>),
    docs: Vec<crate::openie::OpenIeDoc>,
    language: Language,
    (vectors, words): (&cache::VectorCache, Option<&cache::VectorCache>),
    opts: &SiteOptions,
    progress: &dyn Progress,
) -> Result<(hipporag_wasm::index::IndexData, u32, (usize, usize))> {
    let builder = GraphBuilder::from_openie(passages, &docs)?;
    // Dropped before the graph's build, the stage of the build's peak.
    drop(docs);
    let build_opts = BuildOptions {
        language,
        bm25_line_weights: line_weights,
        bm25_title_weights: title_weights,
        ..opts.build.clone()
    };
    let (mut data, build) = builder.build(vectors, &build_opts, progress)?;
    // Static word embeddings come from an English sentence encoder (all-MiniLM-L6-v2) and
    // words cut at spaces: English pages only.
    let mut static_words = (0, 0);
    if let (Some(words), Language::English) = (words, language) {
        use crate::static_embeddings::{MAX_WORDS, WORDS_PER_CALL};
        let (s, left_out) = crate::static_embeddings::build(
            &data.passages,
            words,
            &crate::bm25::stopwords(language),
            (WORDS_PER_CALL, MAX_WORDS),
            progress,
        )?;
        static_words = (s.words.len(), left_out);
        data.static_embeddings = Some(s);
    }
    Ok((data, build.counts.phrases, static_words))
}

/// Records one language's index in the report: the first (the entry's default) gives the
/// report's file figures.
fn add_language(report: &mut SiteReport, language: Language, passages: usize, out: LanguageFiles) {
    if report.languages.is_empty() {
        report.index_bytes = out.index_bytes;
        report.index_file = out.index.clone();
        report.pieces_meta = out.pieces.clone();
        report.piece_counts = out.piece_counts;
    }
    report.pieces_bytes += out.pieces_bytes;
    // The tags read with the generic analysis, for the page to find their index.
    let tags = match language {
        Language::Other => report
            .page_languages
            .iter()
            .filter(|l| l.analysis == language.code() && !l.tag.is_empty())
            .map(|l| l.tag.clone())
            .collect(),
        _ => Vec::new(),
    };
    report.languages.push(SiteLanguage {
        lang: language.code().to_string(),
        tags,
        passages,
        pieces: out.pieces,
        index: out.index,
        filters: out.filters,
        sorts: out.sorts,
    });
}

/// Whether the output holds the single file (`hipporag1`, `hipporag2`, the explanations and a
/// semantic-tier site read it): with `full_index`, and for a semantic-tier site.
fn writes_single_file(opts: &SiteOptions) -> bool {
    opts.full_index || opts.query_encoder.is_some()
}

/// What one language's index added to the output.
struct LanguageFiles {
    /// Its meta piece (`index/{hash}.bin`), when the pieces were written.
    pieces: Option<String>,
    /// Its single file, when written.
    index: Option<String>,
    /// The single file's size, when written (else 0).
    index_bytes: usize,
    /// Its pieces of each kind but the meta piece.
    piece_counts: crate::pieces::PieceCounts,
    /// Bytes of its pieces, gzipped (its filter and sort pieces among them).
    pieces_bytes: usize,
    /// Its filter pieces by key (`index/{hash}.bin`).
    filters: BTreeMap<String, String>,
    /// Its sort pieces by key (`index/{hash}.bin`).
    sorts: BTreeMap<String, String>,
}

/// Adds one language's index to `files`: the single file (with `full_index` or a semantic
/// tier) and, for a lean site, the index in pieces (all languages' pieces share [`PIECES_DIR`]:
/// each index's meta piece is named by its hash, its other pieces by its build id) with its
/// fragment pieces holding the records of its `pages` ([`records::page_records`]); and for
/// either, its filter and sort pieces ([`records`], named by their hash).
fn language_files(
    data: &hipporag_wasm::index::IndexData,
    pages: &[crate::pieces::PageRecord],
    opts: &SiteOptions,
    files: &mut Vec<(String, Vec<u8>)>,
) -> Result<LanguageFiles> {
    let mut out = LanguageFiles {
        pieces: None,
        index: None,
        index_bytes: 0,
        piece_counts: Default::default(),
        pieces_bytes: 0,
        filters: BTreeMap::new(),
        sorts: BTreeMap::new(),
    };
    // Serialised only when written: on a large site the single file is hundreds of MB.
    if writes_single_file(opts) {
        let bytes = data.to_bytes();
        out.index_bytes = bytes.len();
        let name = format!("index.{}.hipporag", &hex(&Sha256::digest(&bytes))[..16]);
        out.index = Some(name.clone());
        files.push((name, bytes));
    }
    if opts.query_encoder.is_none() {
        let pieces = crate::pieces::write_with_pages(data, &opts.pieces, Some(pages))?;
        out.piece_counts = pieces.counts;
        out.pieces_bytes =
            pieces.meta.bytes.len() + pieces.pieces.iter().map(|p| p.bytes.len()).sum::<usize>();
        out.pieces = Some(format!("{PIECES_DIR}/{}", pieces.meta.name));
        for p in std::iter::once(pieces.meta).chain(pieces.pieces) {
            files.push((format!("{PIECES_DIR}/{}", p.name), p.bytes));
        }
    }
    // Filter and sort pieces beside the single file too (a semantic-tier site): its page ids
    // are the same, numbered by first appearance of a passage's URL without `#anchor`.
    for (list, by_key) in [
        (&mut out.filters, records::filter_pieces(pages)),
        (&mut out.sorts, records::sort_pieces(pages)),
    ] {
        for (key, p) in by_key {
            let name = format!("{PIECES_DIR}/{}", p.name);
            out.pieces_bytes += p.bytes.len();
            list.insert(key, name.clone());
            files.push((name, p.bytes));
        }
    }
    Ok(out)
}

/// The directory of the index's pieces inside the output directory.
pub const PIECES_DIR: &str = "index";

/// `model.safetensors` (read from `path`) with int8 weights.
#[cfg(feature = "minilm")]
fn int8_weights(path: &Path, f32_bytes: &[u8]) -> Result<Vec<u8>> {
    hipporag_minilm::int8::quantize(f32_bytes)
        .map_err(|e| Error::InvalidRequest(format!("{}: {e}", path.display())))
}

#[cfg(not(feature = "minilm"))]
fn int8_weights(path: &Path, _: &[u8]) -> Result<Vec<u8>> {
    Err(Error::InvalidRequest(format!(
        "{}: int8 model weights need the `minilm` feature",
        path.display()
    )))
}

/// Whether an output with the index in `pieces` and/or the `single` file needs asset `f`: the
/// search module serves the pieces, the retriever's module, its wrapper and the query encoders
/// the single file; the rest (the site API, the UI, the pieces' loader, which also fetches the
/// filter and sort pieces for `hipporag-filters.js`) every site.
fn needed(f: &str, pieces: bool, single: bool) -> bool {
    match f {
        "hipporag_pieces_wasm_bg.wasm" | "hipporag_pieces_wasm.js" => pieces,
        // Served under the small module's names ([`LARGER_PIECES_FILES`]).
        "hipporag_pieces_wasm_snowball_bg.wasm"
        | "hipporag_pieces_wasm_snowball.js"
        | "hipporag_pieces_wasm_snowball3_bg.wasm"
        | "hipporag_pieces_wasm_snowball3.js" => false,
        "hipporag_wasm_bg.wasm" | "hipporag_wasm.js" | "hipporag.js" | "hipporag-encoders.js" => {
            single
        }
        _ => true,
    }
}

/// Writes `dir/_hipporag/` — `index_files` (the pieces under [`PIECES_DIR`], the single file),
/// the wasm packages, the UI and `hipporag-entry.json` — in a temporary sibling directory, then
/// renames it over the old one ([`crate::files::replace_dir`]); on any error the old directory
/// stays as it was.
fn write_output(
    dir: &Path,
    index_files: &[(String, Vec<u8>)],
    header: &hipporag_wasm::index::Header,
    report: &SiteReport,
    opts: &SiteOptions,
) -> Result<()> {
    let out = opts.output_dir(dir);
    let tmp = crate::files::temp_dir_beside(&out)?;
    let write = |name: &str, b: &[u8]| {
        let p = tmp.path().join(name);
        std::fs::write(&p, b).map_err(|e| Error::io(&p, e))
    };
    // The pieces, or only the filter and sort pieces beside a semantic tier's single file.
    let in_pieces_dir = |name: &str| Path::new(name).parent() == Some(Path::new(PIECES_DIR));
    if index_files.iter().any(|(name, _)| in_pieces_dir(name)) {
        let pieces = tmp.path().join(PIECES_DIR);
        std::fs::create_dir_all(&pieces).map_err(|e| Error::io(&pieces, e))?;
    }
    for (name, bytes) in index_files {
        write(name, bytes)?;
    }
    let (pieces, single) = (report.pieces_meta.is_some(), report.index_file.is_some());
    // The build the site's languages need: the largest of their stemmer builds.
    let build = report
        .languages
        .iter()
        .filter_map(|l| Language::ALL.into_iter().find(|k| k.code() == l.lang))
        .map(Language::stemmer_build)
        .max()
        .unwrap_or(StemmerBuild::Small);
    for &f in PKG_FILES.iter().filter(|f| needed(f, pieces, single)) {
        let from = LARGER_PIECES_FILES
            .iter()
            .find(|&&(b, small, _)| b == build && small == f)
            .map_or(f, |&(_, _, larger)| larger);
        write(f, &opts.pkg.read(from, PKG_HINT)?)?;
    }
    for f in UI_FILES.iter().filter(|f| needed(f, pieces, single)) {
        let bytes = opts.ui.read(f, UI_HINT)?;
        if *f != ui_strings::UI_STRINGS_FILE {
            write(f, &bytes)?;
            continue;
        }
        let d = tmp.path().join(ui_strings::UI_STRINGS_DIR);
        std::fs::create_dir_all(&d).map_err(|e| Error::io(&d, e))?;
        for (code, json) in ui_strings::split(&opts.ui.path(f), &bytes)? {
            write(
                &format!("{}/{code}.json", ui_strings::UI_STRINGS_DIR),
                &json,
            )?;
        }
    }
    if let Some(q) = &opts.query_encoder {
        let d = tmp.path().join("minilm");
        std::fs::create_dir_all(&d).map_err(|e| Error::io(&d, e))?;
        for f in MINILM_PKG_FILES {
            write(&format!("minilm/{f}"), &q.pkg.read(f, PKG_HINT)?)?;
        }
        for (sub, from, files) in [("models/all-MiniLM-L6-v2", &q.model, MINILM_MODEL_FILES)] {
            let d = tmp.path().join(sub);
            std::fs::create_dir_all(&d).map_err(|e| Error::io(&d, e))?;
            for f in files {
                let src = from.join(f);
                let dst = d.join(f);
                if *f == "model.safetensors" && q.int8_weights {
                    let b = std::fs::read(&src).map_err(|e| Error::io(&src, e))?;
                    let b = int8_weights(&src, &b)?;
                    std::fs::write(&dst, b).map_err(|e| Error::io(&dst, e))?;
                } else {
                    std::fs::copy(&src, &dst).map_err(|e| Error::io(&src, e))?;
                }
            }
        }
    }
    let default = report.languages.first();
    let entry = SiteEntry {
        pieces: report.pieces_meta.clone(),
        index: report.index_file.clone(),
        filters: default.map(|l| l.filters.clone()).unwrap_or_default(),
        sorts: default.map(|l| l.sorts.clone()).unwrap_or_default(),
        search: SearchDefaults::default(),
        languages: report.languages.clone(),
        encoder: header.encoder.clone(),
        counts: header.counts.clone(),
        generator: header.build.generator.clone(),
    };
    write(ENTRY_FILE, entry.to_json().as_bytes())?;
    crate::files::replace_dir(tmp, &out)
}
