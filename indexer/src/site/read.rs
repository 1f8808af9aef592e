//! A site's pages → passages, whatever the pages hold. A page the reader cannot read is left
//! out, and one it reads only in part is read as far as it can be; either way it is named with
//! why ([`PageProblem`]), and the build goes on.
//!
//! * **Files:** the walk never follows a link to a directory (no loop, no tree outside the
//!   site); a link to a page is read when it resolves inside the site. Dangling links, links
//!   out of the site and anything not a regular file (a FIFO named `x.html`) are named.
//! * **Bytes:** a NUL byte in the first [`SNIFF_BYTES`] makes a file binary (git's rule: an
//!   image or a program saved as `.html`), left out. Text is UTF-8 read as browsers read it,
//!   invalid bytes as U+FFFD (UTF-16 with a byte-order mark decoded); pages past
//!   [`MAX_PAGE_BYTES`] are read up to it.
//! * **Markup:** past the parser's limits ([`super::parse`]) start tags are dropped and their
//!   text kept; control characters are dropped from the text ([`html::visible`]).
//! * **Passages:** lines past [`MAX_LINE_CHARS`] are cut into passages at spaces, so a page
//!   of one 30 MB paragraph gives passages of the usual size.
//! * **The site's configuration** ([`ReadOptions`], Pagefind's options of the same names):
//!   `glob` picks the pages, `root_selector` and `exclude_selectors` what of a page is read
//!   ([`html::Selectors`]), `force_language` the language of every page.

use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::attributes::{PageAttributes, RESERVED_FILTER_KEYS};
use super::{CACHE_DIR, MAX_PASSAGE_CHARS, OUTPUT_DIR, SitePassage, html, parse};
use crate::{Error, Result};
use hipporag_wasm::index::Passage;
use hipporag_wasm::text::Language;

/// Bytes of a page that may tell it is binary (git reads as many, 8,000).
pub const SNIFF_BYTES: usize = 8000;
/// Bytes of a page read; the rest of a larger page is left out (named).
pub const MAX_PAGE_BYTES: usize = 64 << 20;
/// A page larger than this is read whole but named, as most likely no page meant for reading
/// (a dump or a log): documentation sites' largest pages, source listings, are smaller.
pub const LARGE_PAGE_BYTES: usize = 16 << 20;
/// The longest line a passage keeps whole; a longer one is cut at spaces into pieces of at most
/// [`MAX_PASSAGE_CHARS`]. Well above the longest lines of documentation sites, whose passages
/// stay as they were.
pub const MAX_LINE_CHARS: usize = 10_000;

/// What was wrong with a page (or with a file or link that looked like one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Problem {
    /// It could not be read (permissions, an unreadable directory): left out.
    Unreadable,
    /// A link that resolves to nothing (dangling, or a loop): left out.
    BrokenLink,
    /// A link to a file outside the site: left out, so that no file the site does not hold
    /// reaches its index.
    LinkOutOfSite,
    /// A link to a directory: not followed (no loop, no tree outside the site).
    DirectoryLink,
    /// Not a regular file (a FIFO, a socket, a device): left out.
    NotAFile,
    /// Binary (a NUL byte among its first [`SNIFF_BYTES`]): left out.
    Binary,
    /// Larger than [`MAX_PAGE_BYTES`]: read up to it.
    TooLarge,
    /// Larger than [`LARGE_PAGE_BYTES`]: read whole.
    Large,
    /// Bytes that are not UTF-8: read as U+FFFD.
    InvalidUtf8,
    /// Control characters in its text: dropped, as a browser shows none.
    ControlCharacters,
    /// Elements nested past the parser's depth limit: read flattened.
    TooDeep,
    /// More elements or attributes than the parser's limits: the rest read as text (or, where
    /// the tree still grew, not read).
    TooManyElements,
    /// A tag with more attributes than the parser's limit: the rest cut.
    TooManyAttributes,
    /// The reader failed on it (a bug: please report it): left out.
    ReaderFailed,
    /// A filter key Pagefind's filter syntax reserves (`any`, `all`, `none`, `not`,
    /// [`super::attributes::RESERVED_FILTER_KEYS`]): that filter left out, the page read.
    ReservedFilterKey,
    /// The site's root selector ([`ReadOptions::root_selector`]) matches no element of the
    /// page: left out.
    NoRoot,
    /// A `data-pagefind-weight` (or `data-hipporag-weight`) that is no number from 0 to 10:
    /// clamped to it, or 1 when it is no number (as Pagefind reads it); the page read.
    InvalidWeight,
}

impl Problem {
    /// Whether a page with this problem is left out (else it is read, perhaps in part).
    pub fn leaves_out(self) -> bool {
        use Problem::*;
        matches!(
            self,
            Unreadable
                | BrokenLink
                | LinkOutOfSite
                | DirectoryLink
                | NotAFile
                | Binary
                | ReaderFailed
                | NoRoot
        )
    }
}

/// A page left out or read in part, and why: the build's report lists them, the CLI's warnings
/// name them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageProblem {
    /// Its path below the site's directory, `/`-separated.
    pub page: String,
    /// What was wrong.
    pub problem: Problem,
    /// Whether it was left out ([`Problem::leaves_out`]).
    pub left_out: bool,
    /// For people: `"a NUL byte at offset 12"`, `"3 bytes read as U+FFFD"`.
    pub detail: String,
}

impl PageProblem {
    fn new(page: &str, problem: Problem, detail: impl Into<String>) -> Self {
        Self {
            page: page.to_string(),
            problem,
            left_out: problem.leaves_out(),
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for PageProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.left_out { "left out" } else { "read" };
        write!(f, "{}: {what}: {}", self.page, self.detail)
    }
}

/// The pages of a site's directory, and the entries that looked like pages but are not read.
#[derive(Debug, Clone, Default)]
pub struct SiteFiles {
    /// Pages (`*.html`, `*.htm`, `*.md`, or links to them inside the site), sorted by path.
    pub pages: Vec<PathBuf>,
    /// Links and files left out, by path.
    pub problems: Vec<PageProblem>,
}

/// `path` below `dir`, `/`-separated.
fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Whether `path` names a page.
fn is_page_name(path: &Path) -> bool {
    let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
    matches!(ext, "html" | "htm" | "md")
}

/// How [`read_site_with`] reads a site: which files are its pages and what of each it reads.
/// [`ReadOptions::new`] reads as [`read_site`] always has.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Shell globs over site-relative paths of pages to leave out (`--exclude`).
    pub exclude: Vec<String>,
    /// Pagefind's `glob`: the files below the site that are pages, a glob over their
    /// site-relative, `/`-separated paths (`*` within a directory, `**` across them:
    /// `**/*.{html,md}`, `docs/**/*.html`); a page is read as Markdown when its name ends in
    /// `.md`, else as HTML. `None`: every `*.html`, `*.htm` and `*.md`.
    pub glob: Option<String>,
    /// Index the pages marked `noindex` too.
    pub include_noindex: bool,
    /// The language of pages without a supported `<html lang>`, and of Markdown pages.
    pub language: Language,
    /// Pagefind's `force_language`: every page is read as if its `<html lang>` were this
    /// BCP 47 tag (one index for the whole site), whatever it says.
    pub force_language: Option<String>,
    /// Pagefind's `root_selector` ([`html::Selectors::root`]).
    pub root_selector: Option<String>,
    /// Pagefind's `exclude_selectors` ([`html::Selectors::exclude`]).
    pub exclude_selectors: Vec<String>,
    /// A directory the walk leaves out, besides the output and cache directories by their
    /// names: the output directory when it is elsewhere inside the site.
    pub skip_dir: Option<PathBuf>,
}

impl ReadOptions {
    /// Reads every page (`*.html`, `*.htm`, `*.md`) of the site but the `exclude`d ones, as
    /// [`read_site`].
    pub fn new(exclude: &[String], include_noindex: bool, language: Language) -> Self {
        ReadOptions {
            exclude: exclude.to_vec(),
            glob: None,
            include_noindex,
            language,
            force_language: None,
            root_selector: None,
            exclude_selectors: Vec::new(),
            skip_dir: None,
        }
    }
}

/// The `--glob` glob, as Pagefind reads it (`*` stays within a directory).
fn page_glob(glob: &str) -> Result<globset::GlobMatcher> {
    globset::GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| Error::InvalidRequest(format!("--glob (glob) {glob:?}: not a glob: {e}")))
}

/// `path` with `.` and `..` resolved by their names, absolute (from the working directory),
/// without touching the file system: where a build's output goes is compared with the site by
/// it.
pub fn normalized(path: &Path) -> PathBuf {
    use std::path::Component;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The `--exclude` globs.
fn exclude_globs(exclude: &[String]) -> Result<globset::GlobSet> {
    let mut globs = globset::GlobSetBuilder::new();
    for g in exclude {
        globs.add(
            globset::Glob::new(g)
                .map_err(|e| Error::InvalidRequest(format!("--exclude {g:?}: not a glob: {e}")))?,
        );
    }
    globs
        .build()
        .map_err(|e| Error::InvalidRequest(format!("--exclude: {e}")))
}

/// A link found by the walk: whether it is read as a page, or its problem. `is_page` says
/// whether its name is a page's.
fn link(
    root: &Path,
    path: &Path,
    rel: &str,
    is_page: bool,
) -> std::result::Result<bool, PageProblem> {
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        // A broken link is named only when it would have been a page.
        Err(e) if is_page => {
            let detail = format!("a broken link: {e}");
            return Err(PageProblem::new(rel, Problem::BrokenLink, detail));
        }
        Err(_) => return Ok(false),
    };
    if target.is_dir() {
        return Err(PageProblem::new(
            rel,
            Problem::DirectoryLink,
            "a link to a directory: not followed",
        ));
    }
    if !is_page {
        return Ok(false);
    }
    if !target.starts_with(root) {
        return Err(PageProblem::new(
            rel,
            Problem::LinkOutOfSite,
            format!("a link out of the site, to {}", target.display()),
        ));
    }
    if !target.is_file() {
        return Err(PageProblem::new(
            rel,
            Problem::NotAFile,
            "not a regular file",
        ));
    }
    Ok(true)
}

/// Pages of `dir` (`*.html`, `*.htm`, `*.md`), sorted by path; the output and cache directories
/// and paths matching an `exclude` glob (relative to `dir`) are skipped, and the links and
/// files that are not read named (module docs).
///
/// # Errors
/// [`Error::Io`] when `dir` cannot be read; [`Error::InvalidRequest`] for a bad glob.
pub fn pages(dir: &Path, exclude: &[String]) -> Result<SiteFiles> {
    pages_with(dir, &ReadOptions::new(exclude, false, Language::default()))
}

/// [`pages`] with the site's `glob` and the directory to skip of `opts` ([`ReadOptions`]).
///
/// # Errors
/// As [`pages`].
pub fn pages_with(dir: &Path, opts: &ReadOptions) -> Result<SiteFiles> {
    let globs = exclude_globs(&opts.exclude)?;
    let glob = opts.glob.as_deref().map(page_glob).transpose()?;
    let is_page = |path: &Path, rel: &str| match &glob {
        Some(g) => g.is_match(rel),
        None => is_page_name(path),
    };
    let skip = opts.skip_dir.as_deref().map(normalized);
    let root = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
    let mut out = SiteFiles::default();
    for e in walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let n = e.file_name().to_string_lossy();
            let dir = e.depth() > 0 && e.file_type().is_dir();
            !(dir
                && (n == OUTPUT_DIR
                    || n == CACHE_DIR
                    || n.starts_with(".hipporag-tmp")
                    || skip.as_ref().is_some_and(|s| normalized(e.path()) == *s)))
        })
    {
        let e = match e {
            Ok(e) => e,
            Err(err) if err.depth() > 0 => {
                let rel = relative(dir, err.path().unwrap_or(dir));
                let problem = PageProblem::new(&rel, Problem::Unreadable, err.to_string());
                out.problems.push(problem);
                continue;
            }
            Err(err) => return Err(Error::io(dir, std::io::Error::other(err.to_string()))),
        };
        let rel = relative(dir, e.path());
        if e.depth() == 0 || globs.is_match(&rel) {
            continue;
        }
        let ty = e.file_type();
        let page = if ty.is_symlink() {
            link(&root, e.path(), &rel, is_page(e.path(), &rel)).unwrap_or_else(|p| {
                out.problems.push(p);
                false
            })
        } else if !is_page(e.path(), &rel) || ty.is_dir() {
            false
        } else if !ty.is_file() {
            out.problems.push(PageProblem::new(
                &rel,
                Problem::NotAFile,
                "not a regular file",
            ));
            false
        } else {
            true
        };
        if page {
            out.pages.push(e.path().to_path_buf());
        }
    }
    Ok(out)
}

/// A page's bytes as text, or why they are none.
#[derive(Debug)]
enum Decoded {
    /// The text, and the U+FFFD it holds for bytes that were not UTF-8 (or UTF-16).
    Text { text: String, invalid: usize },
    /// A NUL byte at this offset.
    Binary(usize),
}

/// Decodes a page (module docs).
fn decode(bytes: Vec<u8>) -> Decoded {
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        let units = rest.chunks_exact(2).map(|c| unit([c[0], c[1]]));
        let mut invalid = rest.len() % 2;
        let text = char::decode_utf16(units)
            .map(|c| {
                c.unwrap_or_else(|_| {
                    invalid += 1;
                    char::REPLACEMENT_CHARACTER
                })
            })
            .collect();
        Decoded::Text { text, invalid }
    };
    match bytes.as_slice() {
        [0xFF, 0xFE, rest @ ..] => return utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => return utf16(rest, u16::from_be_bytes),
        _ => {}
    }
    if let Some(i) = bytes[..bytes.len().min(SNIFF_BYTES)]
        .iter()
        .position(|&b| b == 0)
    {
        return Decoded::Binary(i);
    }
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Decoded::Text { text, invalid: 0 },
        Err(e) => e.into_bytes(),
    };
    // As `String::from_utf8_lossy`, counting.
    let mut text = String::with_capacity(bytes.len());
    let mut invalid = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
            invalid += 1;
        }
    }
    Decoded::Text { text, invalid }
}

/// Up to [`MAX_PAGE_BYTES`] of the file at `path`, and its size.
fn read_bytes(path: &Path) -> std::io::Result<(Vec<u8>, u64)> {
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut bytes = Vec::with_capacity(size.min(MAX_PAGE_BYTES as u64) as usize);
    file.take(MAX_PAGE_BYTES as u64).read_to_end(&mut bytes)?;
    Ok((bytes, size))
}

/// `n` bytes for people: `"30.0 MiB"`.
fn mib(n: u64) -> String {
    format!("{:.1} MiB", n as f64 / f64::from(1 << 20))
}

/// One page as read.
#[derive(Debug, Default)]
struct ReadPage {
    /// Why its `<head>` asks to stay out of search results (it then gives no passage).
    unlisted: Option<html::Unlisted>,
    /// Whether it marks its body.
    marked_body: bool,
    /// Its URL ([`page_passages`]).
    url: String,
    /// Its filters, metadata and sort values.
    attributes: PageAttributes,
    /// The primary subtag of its `<html lang>`, lowercased (`""` without one).
    lang: String,
    passages: Vec<SitePassage>,
    problems: Vec<PageProblem>,
}

/// What the parsed page `p` says went wrong in reading it.
fn page_problems(rel: &str, p: &html::Page, out: &mut Vec<PageProblem>) {
    if p.controls > 0 {
        let s = if p.controls == 1 { "" } else { "s" };
        let detail = format!("{} control character{s} dropped", p.controls);
        out.push(PageProblem::new(rel, Problem::ControlCharacters, detail));
    }
    if p.dropped.too_deep > 0 {
        let detail = format!(
            "nested past {} elements: {} start tags dropped, their text kept",
            parse::MAX_DEPTH,
            p.dropped.too_deep
        );
        out.push(PageProblem::new(rel, Problem::TooDeep, detail));
    }
    if p.dropped.too_many > 0 || p.dropped.stopped {
        let rest = if p.dropped.stopped {
            "; the rest of the page not read, where the tree still grew"
        } else {
            ""
        };
        let detail = format!(
            "more than {} elements or {} attributes: {} start tags dropped, their text kept{rest}",
            parse::MAX_ELEMENTS,
            parse::MAX_ATTRIBUTES,
            p.dropped.too_many
        );
        out.push(PageProblem::new(rel, Problem::TooManyElements, detail));
    }
    if p.dropped.attributes > 0 {
        let detail = format!(
            "{} attributes cut, past {} on a tag",
            p.dropped.attributes,
            parse::MAX_TAG_ATTRIBUTES
        );
        out.push(PageProblem::new(rel, Problem::TooManyAttributes, detail));
    }
}

/// Reads the page at `f` (site-relative `rel`) into passages, with the site's `selectors`.
fn read_page(f: &Path, rel: &str, opts: &ReadOptions, selectors: &html::Selectors) -> ReadPage {
    let mut out = ReadPage::default();
    let (bytes, size) = match read_bytes(f) {
        Ok(b) => b,
        Err(e) => {
            let p = PageProblem::new(rel, Problem::Unreadable, format!("cannot be read: {e}"));
            out.problems.push(p);
            return out;
        }
    };
    if size > MAX_PAGE_BYTES as u64 {
        let detail = format!(
            "{}: its first {} read",
            mib(size),
            mib(MAX_PAGE_BYTES as u64)
        );
        out.problems
            .push(PageProblem::new(rel, Problem::TooLarge, detail));
    } else if size > LARGE_PAGE_BYTES as u64 {
        let detail = format!("{}, read whole (--exclude leaves it out)", mib(size));
        out.problems
            .push(PageProblem::new(rel, Problem::Large, detail));
    }
    let text = match decode(bytes) {
        Decoded::Binary(at) => {
            let detail = format!("binary: a NUL byte at offset {at}");
            out.problems = vec![PageProblem::new(rel, Problem::Binary, detail)];
            return out;
        }
        Decoded::Text { text, invalid } => {
            if invalid > 0 {
                let detail = format!("not UTF-8: {invalid} invalid sequences read as U+FFFD");
                out.problems
                    .push(PageProblem::new(rel, Problem::InvalidUtf8, detail));
            }
            text
        }
    };
    let mut url = format!("/{rel}");
    let mut page = if let Some(stem) = url.strip_suffix(".md") {
        url = format!("{stem}.html");
        html::extract_markdown_with(&text, selectors)
    } else {
        html::extract_html_with(&text, selectors)
    };
    if let Some(tag) = &opts.force_language {
        page.lang = Some(tag.clone());
    }
    page_problems(rel, &page, &mut out.problems);
    out.marked_body = page.marked_body;
    out.lang = page
        .lang
        .as_deref()
        .map(hipporag_wasm::text::primary_subtag)
        .unwrap_or_default();
    out.unlisted = page
        .unlisted
        .filter(|&u| !(opts.include_noindex && u == html::Unlisted::Noindex));
    // (A page left out for its head is not named for its root.)
    if page.root_missing && out.unlisted.is_none() {
        let detail = format!(
            "no element matches the root selector {:?} (--root-selector, root_selector)",
            opts.root_selector.as_deref().unwrap_or_default()
        );
        out.problems
            .push(PageProblem::new(rel, Problem::NoRoot, detail));
    }
    if out.unlisted.is_none() {
        out.passages = page_passages(&page, &url, opts.language);
        for key in &page.attributes.reserved {
            let detail = format!(
                "filter key {key:?} left out: {} are reserved by Pagefind's filter syntax",
                RESERVED_FILTER_KEYS.join(", ")
            );
            out.problems
                .push(PageProblem::new(rel, Problem::ReservedFilterKey, detail));
        }
        for value in &page.bad_weights {
            let detail = format!(
                "weight {value:?} is no number from 0 to {}: clamped to it, or 1 when no number",
                html::MAX_WEIGHT
            );
            out.problems
                .push(PageProblem::new(rel, Problem::InvalidWeight, detail));
        }
    }
    out.url = url;
    out.attributes = page.attributes;
    out
}

/// [`read_page`], and a panic in it a problem of the page (html5ever and pulldown-cmark read
/// hostile input; the fuzz target checks that they never panic).
fn read_page_guarded(
    f: &Path,
    rel: &str,
    opts: &ReadOptions,
    selectors: &html::Selectors,
) -> ReadPage {
    catch_unwind(AssertUnwindSafe(|| read_page(f, rel, opts, selectors))).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let detail = format!("the reader failed ({message}): please report it");
        ReadPage {
            problems: vec![PageProblem::new(rel, Problem::ReaderFailed, detail)],
            ..Default::default()
        }
    })
}

/// `line` in pieces: itself when it has at most [`MAX_LINE_CHARS`] characters, else pieces of
/// at most [`MAX_PASSAGE_CHARS`] cut at a space when one is in reach.
fn line_pieces(line: &str) -> Vec<&str> {
    if line.len() <= MAX_LINE_CHARS || line.chars().count() <= MAX_LINE_CHARS {
        return vec![line];
    }
    let mut out = Vec::new();
    let mut rest = line;
    while let Some((end, _)) = rest.char_indices().nth(MAX_PASSAGE_CHARS) {
        let cut = rest[..end].rfind(' ').filter(|&i| i > 0).unwrap_or(end);
        out.push(&rest[..cut]);
        rest = rest[cut..].strip_prefix(' ').unwrap_or(&rest[cut..]);
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The passage being filled by [`section_passages`].
#[derive(Default)]
struct Chunk {
    text: String,
    /// `text`'s characters.
    chars: usize,
    /// `text`'s lines.
    lines: usize,
    /// Indices of `text`'s lines that are code.
    code_lines: Vec<usize>,
    /// Each of `text`'s lines' weight, when the section has weights.
    line_weights: Vec<f32>,
}

/// Appends the passages of section `s` to `out` (see [`page_passages`]).
fn section_passages(s: &html::Section, url: &str, language: Language, out: &mut Vec<SitePassage>) {
    let title = s.headings.join(" › ");
    let href = match &s.anchor {
        Some(a) => format!("{url}#{a}"),
        None => url.to_string(),
    };
    let mut push = |chunk: Chunk| {
        if !chunk.text.trim().is_empty() {
            out.push(SitePassage {
                passage: Passage {
                    title: title.clone(),
                    text: chunk.text,
                    url: Some(href.clone()),
                },
                headings: s.headings.clone(),
                heading_weights: s.heading_weights.clone(),
                code_lines: chunk.code_lines,
                // (Every line of this passage may weigh 1 when others of its section do not.)
                line_weights: if chunk.line_weights.iter().all(|&w| w == 1.0) {
                    Vec::new()
                } else {
                    chunk.line_weights
                },
                language,
            });
        }
    };
    let mut chunk = Chunk::default();
    let mut code = s.code_lines.iter().peekable();
    for (k, line) in s.text.lines().enumerate() {
        let is_code = code.next_if_eq(&&k).is_some();
        for piece in line_pieces(line) {
            let n = piece.chars().count();
            if !chunk.text.is_empty() && chunk.chars + n > MAX_PASSAGE_CHARS {
                push(std::mem::take(&mut chunk));
            }
            if !chunk.text.is_empty() {
                chunk.text.push('\n');
                chunk.chars += 1;
            }
            chunk.text.push_str(piece);
            chunk.chars += n;
            if is_code {
                chunk.code_lines.push(chunk.lines);
            }
            // A long line's pieces each weigh as the line.
            if !s.line_weights.is_empty() {
                chunk
                    .line_weights
                    .push(s.line_weights.get(k).copied().unwrap_or(1.0));
            }
            chunk.lines += 1;
        }
    }
    push(chunk);
}

/// Splits a page into passages: one per section, long sections cut at line boundaries into
/// pieces of at most [`MAX_PASSAGE_CHARS`] (a single longer line stays whole, up to
/// [`MAX_LINE_CHARS`]). `url` is the page's site-relative URL (`/library/json.html`); a
/// Markdown page's URL is its path with `.html`, as static site generators publish it.
pub fn page_passages(page: &html::Page, url: &str, default: Language) -> Vec<SitePassage> {
    let language = page
        .lang
        .as_deref()
        .and_then(Language::read_tag)
        .unwrap_or(default);
    let mut out = Vec::new();
    for s in &page.sections {
        section_passages(s, url, language, &mut out);
    }
    out
}

/// The pages of a site as [`read_site`] read them.
#[derive(Debug, Clone, Default)]
pub struct SitePages {
    /// HTML and Markdown files found (those left out below included).
    pub files: usize,
    /// Pages left out as `noindex` ([`html::Unlisted::Noindex`]; 0 with `include_noindex`).
    pub noindex: usize,
    /// Pages left out as redirects ([`html::Unlisted::Redirect`]).
    pub redirects: usize,
    /// Pages left out for having no body marked when other pages of the site have one
    /// ([`html::Page::marked_body`]).
    pub unmarked: usize,
    /// Pages left out for a problem ([`Problem::leaves_out`]).
    pub failed: usize,
    /// Pages left out or read in part, and why, by path.
    pub problems: Vec<PageProblem>,
    /// Pages indexed by the primary subtag of their `<html lang>` ([`hipporag_wasm::text::primary_subtag`]; `""`
    /// for none, Markdown pages among them).
    pub languages: std::collections::BTreeMap<String, usize>,
    /// The passages of the other pages, in path order.
    pub passages: Vec<SitePassage>,
    /// The pages with passages, in path order: where their passages are and their filters,
    /// metadata and sort values.
    pub pages: Vec<SitePage>,
}

/// A page that gave passages ([`SitePages::pages`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SitePage {
    /// Its site-relative URL, as its passages' URLs have it before the `#anchor`
    /// (`/library/json.html`; a Markdown page's with `.html`).
    pub url: String,
    /// Its passages: indices into [`SitePages::passages`], a non-empty run.
    pub passages: std::ops::Range<usize>,
    /// Its filters, metadata (the automatic `title` among them) and sort values
    /// ([`super::attributes`]).
    pub attributes: PageAttributes,
}

impl SitePages {
    /// Pages indexed (those left out aside).
    pub fn indexed(&self) -> usize {
        self.files - self.noindex - self.redirects - self.unmarked - self.failed
    }

    /// The page of passage `i` (an index into [`SitePages::passages`]), `None` past them.
    pub fn page_of(&self, i: usize) -> Option<&SitePage> {
        let k = self.pages.partition_point(|p| p.passages.end <= i);
        self.pages.get(k).filter(|p| p.passages.contains(&i))
    }
}

/// What [`read_site`] left out, for people: `"71 noindex, 10098 redirects"` (the kinds with
/// pages only), or `None` when it left out nothing.
pub fn left_out_summary(
    noindex: usize,
    redirects: usize,
    unmarked: usize,
    failed: usize,
) -> Option<String> {
    let parts: Vec<String> = [
        (noindex, "noindex"),
        (redirects, "redirects"),
        (unmarked, "without a marked body"),
        (failed, "unreadable or not text"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// Reads every page of `dir` (less `exclude`d ones) into passages, in path order; a page
/// without a supported `<html lang>` (and every Markdown page) is in `default`. A page whose
/// `<head>` asks to stay out of search results ([`html::Unlisted`]) gives no passage: a
/// redirect always, a `noindex` page unless `include_noindex`. Once any page marks its body
/// (`data-hipporag-body` or Pagefind's `data-pagefind-body`), the pages that do not are left
/// out, as Pagefind leaves them out. A page that cannot be read is left out and named
/// ([`SitePages::problems`], module docs).
///
/// # Errors
/// [`Error::Io`] when `dir` cannot be read; [`Error::InvalidRequest`] for a bad glob.
pub fn read_site(
    dir: &Path,
    exclude: &[String],
    include_noindex: bool,
    default: Language,
) -> Result<SitePages> {
    read_site_with(dir, &ReadOptions::new(exclude, include_noindex, default))
}

/// [`read_site`] with the site's configuration ([`ReadOptions`]: Pagefind's `glob`,
/// `root_selector`, `exclude_selectors` and `force_language`).
///
/// # Errors
/// As [`read_site`]; [`Error::InvalidRequest`] for a selector that is not CSS, naming it.
pub fn read_site_with(dir: &Path, opts: &ReadOptions) -> Result<SitePages> {
    let selectors = html::Selectors::parse(opts.root_selector.as_deref(), &opts.exclude_selectors)?;
    let files = pages_with(dir, opts)?;
    // Pages are read and parsed in parallel, and joined in file order.
    let pages = crate::parallel::map(&files.pages, |f| {
        read_page_guarded(f, &relative(dir, f), opts, &selectors)
    });
    let marked = pages.iter().any(|p| p.marked_body);
    let mut out = SitePages {
        files: files.pages.len(),
        problems: files.problems,
        ..Default::default()
    };
    for page in pages {
        let failed = page.problems.iter().any(|p| p.left_out);
        out.problems.extend(page.problems);
        match page.unlisted {
            _ if failed => out.failed += 1,
            Some(html::Unlisted::Noindex) => out.noindex += 1,
            Some(html::Unlisted::Redirect) => out.redirects += 1,
            None if marked && !page.marked_body => out.unmarked += 1,
            None => {
                *out.languages.entry(page.lang).or_default() += 1;
                let first = out.passages.len();
                out.passages.extend(page.passages);
                if out.passages.len() > first {
                    out.pages.push(SitePage {
                        url: page.url,
                        passages: first..out.passages.len(),
                        attributes: page.attributes,
                    });
                }
            }
        }
    }
    out.problems.sort_by(|a, b| a.page.cmp(&b.page));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_reads_text_as_browsers_and_knows_binary() {
        let text = |b: &[u8]| match decode(b.to_vec()) {
            Decoded::Text { text, invalid } => (text, invalid),
            Decoded::Binary(at) => panic!("binary at {at}"),
        };
        assert_eq!(text(b"caf\xe9 ok"), ("caf\u{fffd} ok".into(), 1));
        assert_eq!(text("plain é".as_bytes()), ("plain é".into(), 0));
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("<p>hé</p>".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(text(&utf16), ("<p>hé</p>".into(), 0));
        assert!(matches!(
            decode(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec()),
            Decoded::Binary(8)
        ));
    }

    /// A page of one 30 MB paragraph gives passages of the usual size; a long line up to
    /// MAX_LINE_CHARS stays whole, as before.
    #[test]
    fn long_lines_are_cut_at_spaces() {
        let words = "word ".repeat(3000);
        let pieces = line_pieces(words.trim_end());
        assert!(pieces.len() > 1);
        assert!(
            pieces
                .iter()
                .all(|p| p.chars().count() <= MAX_PASSAGE_CHARS && !p.starts_with(' '))
        );
        assert_eq!(pieces.join(" "), words.trim_end());
        let unbroken = "x".repeat(MAX_LINE_CHARS + 1);
        assert_eq!(line_pieces(&unbroken).concat(), unbroken);
        let kept = "y ".repeat(MAX_LINE_CHARS / 2);
        assert_eq!(line_pieces(&kept), [kept.as_str()]);
    }

    /// A long section is cut at line boundaries; each passage's code lines are renumbered
    /// from its own first line.
    #[test]
    fn long_sections_split_at_lines_keeping_code_lines() {
        let prose = "p".repeat(900);
        let code = "c".repeat(900);
        let text = [
            prose.as_str(),
            code.as_str(),
            prose.as_str(),
            code.as_str(),
            "x = 1",
        ]
        .join("\n");
        let page = html::Page {
            title: "T".into(),
            sections: vec![html::Section {
                anchor: Some("a".into()),
                headings: vec!["T".into(), "S".into()],
                heading_weights: vec![7.0, 6.0],
                text,
                code_lines: vec![1, 3, 4],
                line_weights: vec![1.0, 3.0, 1.0, 0.0, 2.0],
            }],
            lang: None,
            unlisted: None,
            marked_body: false,
            controls: 0,
            dropped: Default::default(),
            attributes: Default::default(),
            root_missing: false,
            bad_weights: Vec::new(),
        };
        let ps = page_passages(&page, "/t.html", Language::English);
        let got: Vec<(usize, Vec<usize>, Vec<f32>)> = ps
            .iter()
            .map(|p| {
                (
                    p.passage.text.lines().count(),
                    p.code_lines.clone(),
                    p.line_weights.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (1, vec![], vec![]),
                (1, vec![0], vec![3.0]),
                (1, vec![], vec![]),
                (2, vec![0, 1], vec![0.0, 2.0])
            ]
        );
        assert!(
            ps.iter()
                .all(|p| p.passage.text.chars().count() <= MAX_PASSAGE_CHARS)
        );
        assert_eq!(ps[0].passage.url.as_deref(), Some("/t.html#a"));
        assert_eq!(ps[0].passage.title, "T › S");
    }

    /// An overlong line's pieces each weigh as the line, the lines after them as themselves.
    #[test]
    fn long_lines_keep_their_weight_in_every_piece() {
        let long = "word ".repeat(3000);
        let page = html::Page {
            title: "T".into(),
            sections: vec![html::Section {
                anchor: None,
                headings: vec!["T".into()],
                heading_weights: vec![7.0],
                text: format!("{}\nafter", long.trim_end()),
                code_lines: vec![],
                line_weights: vec![2.0, 0.5],
            }],
            lang: None,
            unlisted: None,
            marked_body: false,
            controls: 0,
            dropped: Default::default(),
            attributes: Default::default(),
            root_missing: false,
            bad_weights: Vec::new(),
        };
        let ps = page_passages(&page, "/t.html", Language::English);
        assert!(ps.len() > 1);
        for p in &ps {
            assert_eq!(p.line_weights.len(), p.passage.text.lines().count());
        }
        let all: Vec<f32> = ps.iter().flat_map(|p| p.line_weights.clone()).collect();
        assert_eq!(all.last(), Some(&0.5));
        assert!(all[..all.len() - 1].iter().all(|&w| w == 2.0));
    }
}
