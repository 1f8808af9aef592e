//! A page's main content as sections: HTML (scraper, html5ever's parser) and Markdown
//! (pulldown-cmark, rendered to HTML and then read the same way).
//!
//! **Main content** (Pagefind's rules, which site owners know, and Pagefind's attributes, so
//! that a site marked for Pagefind needs no change): the elements marked `data-hipporag-body`
//! or `data-pagefind-body` (once a page of the site has one, pages without are left out:
//! [`Page::marked_body`]), else `<main>`, else `[role=main]`, else `<body>`. Inside it, `nav`,
//! `header`, `footer`, `aside`, `script`, `style`, `noscript`, `template`, `svg`, `form`,
//! `button` and every element with a `data-hipporag-ignore` or `data-pagefind-ignore`
//! attribute are skipped with their
//! content; so is a heading's permalink (`a.headerlink`, Sphinx's "¶"), and a `<ruby>`'s
//! reading (`rt`, `rp`: pinyin or furigana over the characters, which would cut their words),
//! and a code listing's line-number gutter (an element of one of the [`LINE_NUMBER_CLASSES`]:
//! "1 2 3 …" down the side of a source file, words of no page and, on Debian's rust-doc, more
//! than half of the static vocabulary).
//!
//! **Sections**: every `h1`–`h6` starts one. Its anchor is the heading's `id`, else the target
//! of a `#fragment` link inside it (Sphinx's permalink), else the `id` of the nearest enclosing
//! element that has one (Sphinx and many generators wrap each section in `<section id=…>`),
//! else a slug of the heading text. Its heading path is the chain of enclosing headings, page
//! title first. Text before the first heading forms a section with no anchor.
//!
//! **Code blocks**: text inside `<pre>` keeps its line breaks (one line of section text per code
//! line) and those lines are listed in [`Section::code_lines`], so that the rule extractor reads
//! them as code, not prose.
//!
//! **Attributes as text** (Pagefind's `data-pagefind-index-attrs`,
//! <https://pagefind.app/docs/indexing/#adding-html-attributes-to-the-index>): an element of the
//! main content with `data-pagefind-index-attrs="title,alt"` (or ours,
//! `data-hipporag-index-attrs`) has those attributes' values read as its text, before its
//! content, each followed by a `.` when it ends in a word character (as Pagefind writes them:
//! `Image Title. Image Alt.`); on a heading they open its section's text.
//!
//! **Weights** (Pagefind's `data-pagefind-weight`,
//! <https://pagefind.app/docs/weighting/>, or ours, `data-hipporag-weight`): an element with
//! `data-pagefind-weight="2"` weighs the text inside it; each line of a section takes the
//! weight of the innermost element with the attribute around the text that starts it (1
//! without one), [`Section::line_weights`]. A weight is a number from 0 to 10: one outside is
//! clamped to it, one that is no number reads as 1 (as Pagefind reads them), and both are
//! listed in [`Page::bad_weights`]. The BM25 index counts a line's terms by its weight
//! ([`crate::bm25`]). Headings weigh as Pagefind weighs them, `h1` 7, `h2` 6, … `h6` 2, unless
//! the heading has a weight attribute or is inside an element that has one (then that
//! weight): [`Section::heading_weights`], the page title as its first heading.
//!
//! **Filters, metadata and sort values** come from the whole document ([`super::attributes`]):
//! [`Page::attributes`].
//!
//! **The site's selectors** ([`Selectors`]: Pagefind's `root_selector` and `exclude_selectors`,
//! `hipporag site --root-selector`, `--exclude-selectors`): the root selector names the
//! element read as the document (its outermost matches, in document order), and the body
//! marks, `<main>`, `[role=main]` and `<body>` are looked for inside it, the element itself
//! when none is there; a page where it matches nothing gives no text
//! ([`Page::root_missing`]). Elements an exclude selector matches are skipped with their
//! content, as `data-pagefind-ignore` ones (their filters and metadata still count, as
//! Pagefind's). A Markdown page has no template: the root selector does not apply to it, the
//! exclude selectors do.

use std::borrow::Cow;

use scraper::{ElementRef, Html, Node, Selector};

use super::attributes::{PageAttributes, attribute, read_attributes};
use super::parse::{Dropped, parse_document};

/// One section of a page.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The `#fragment` that scrolls to the section (`None`: the top of the page).
    pub anchor: Option<String>,
    /// Enclosing headings, outermost first; the section's own heading last.
    pub headings: Vec<String>,
    /// Each of `headings`' weight (module docs, "Weights"): the page title's is its heading's
    /// (7, an `h1`'s, when the title comes from `<title>`).
    pub heading_weights: Vec<f32>,
    /// Text, one block element per line (one line per line of a `<pre>`), whitespace collapsed.
    pub text: String,
    /// Indices of `text`'s lines that came from a `<pre>` (code), ascending.
    pub code_lines: Vec<usize>,
    /// Each of `text`'s lines' weight (module docs, "Weights"); empty when every line weighs 1.
    pub line_weights: Vec<f32>,
}

/// A page: its title and its sections in document order.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// `<title>` (or the first heading when there is none).
    pub title: String,
    /// Sections, empty ones dropped.
    pub sections: Vec<Section>,
    /// `<html lang>` as written (`zh-CN`), when the page has one.
    pub lang: Option<String>,
    /// Why the page's `<head>` asks to stay out of search results, if it does.
    pub unlisted: Option<Unlisted>,
    /// Whether an element of the page is marked as its body (`data-hipporag-body` or
    /// `data-pagefind-body`): once one page of a site is, the site's unmarked pages are left
    /// out, as Pagefind leaves them out.
    pub marked_body: bool,
    /// Control characters dropped from its text ([`visible`]).
    pub controls: usize,
    /// Start tags the parser dropped past its limits ([`super::parse`]).
    pub dropped: Dropped,
    /// Its filters, metadata (the automatic `title` among them) and sort values, read from
    /// the whole document ([`super::attributes`]).
    pub attributes: PageAttributes,
    /// Whether a root selector was given ([`Selectors::root`]) and matched no element of the
    /// page: then it has no section.
    pub root_missing: bool,
    /// The weight attributes of its main content whose value is no number from 0 to 10, as
    /// written, each once (module docs, "Weights").
    pub bad_weights: Vec<String>,
}

/// The CSS selectors a site's configuration reads its pages with (module docs), parsed once
/// per build. The default (no root selector, no exclude selector) reads pages as
/// [`extract_html`] does.
#[derive(Debug, Clone, Default)]
pub struct Selectors {
    /// Pagefind's `root_selector`: the element read as the document (`None`: the whole
    /// document, Pagefind's default `html`).
    pub root: Option<Selector>,
    /// Pagefind's `exclude_selectors`: elements skipped with their content, as
    /// `data-pagefind-ignore` ones.
    pub exclude: Vec<Selector>,
}

impl Selectors {
    /// Parses the root selector and the exclude selectors (each may be a selector list,
    /// `"#nav, .toc"`).
    ///
    /// # Errors
    /// [`crate::Error::InvalidRequest`] naming the option (flag and config key) and the
    /// selector that is not CSS.
    pub fn parse(root: Option<&str>, exclude: &[String]) -> crate::Result<Self> {
        let parse = |option: &str, s: &str| {
            Selector::parse(s).map_err(|e| {
                crate::Error::InvalidRequest(format!("{option} {s:?}: not a CSS selector: {e}"))
            })
        };
        Ok(Selectors {
            root: root
                .map(|s| parse("--root-selector (root_selector)", s))
                .transpose()?,
            exclude: exclude
                .iter()
                .map(|s| parse("--exclude-selectors (exclude_selectors)", s))
                .collect::<crate::Result<_>>()?,
        })
    }
}

/// The attributes that mark a page's body (the selector list): ours and Pagefind's, so that a
/// site marked for Pagefind is read as Pagefind reads it.
const BODY_MARKS: &str = "[data-hipporag-body], [data-pagefind-body]";

fn is_body_mark(e: &ElementRef<'_>) -> bool {
    let e = e.value();
    e.attr("data-hipporag-body").is_some() || e.attr("data-pagefind-body").is_some()
}

/// Why a page's `<head>` asks to stay out of search results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unlisted {
    /// `<meta name="robots" content="…noindex…">` (or `none`; Google's robots meta tag): the
    /// page asks search engines not to list it. mdBook writes it on
    /// `print.html`, the whole book on one page again; Pagefind users ask for it to be honoured
    /// (Pagefind issue #1289).
    Noindex,
    /// `<meta http-equiv="refresh" content="…; url=…">`: a stub that only sends the reader to
    /// another page (a moved page's old address; 10,098 of the 32,101 pages of Debian's
    /// rust-doc). Pagefind issues #340 and #787.
    Redirect,
}

/// What a parsed page's `<meta>` elements say about listing it ([`Unlisted`]; `noindex` wins
/// over a redirect).
fn unlisted(doc: &Html) -> Option<Unlisted> {
    let sel = Selector::parse("meta").expect("valid selector");
    let mut redirect = false;
    for m in doc.select(&sel) {
        let attr = |name: &str| m.value().attr(name).unwrap_or("").to_ascii_lowercase();
        if attr("name") == "robots"
            && attr("content")
                .split(',')
                .any(|d| matches!(d.trim(), "noindex" | "none"))
        {
            return Some(Unlisted::Noindex);
        }
        redirect |= attr("http-equiv") == "refresh" && attr("content").contains("url=");
    }
    redirect.then_some(Unlisted::Redirect)
}

const SKIP: &[&str] = &[
    "nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg", "form",
    "button", "head", "rt", "rp",
];
/// Classes of the line-number gutter beside a code listing, as the generators that write one
/// name it: rustdoc's `line-numbers` (`src-line-numbers` since Rust 1.66), Pygments' (Sphinx,
/// MkDocs) `linenos` and `linenodiv`, Rouge's (Jekyll) `lineno`, Chroma's (Hugo) `lnt` and `ln`.
pub const LINE_NUMBER_CLASSES: &[&str] = &[
    "line-numbers",
    "src-line-numbers",
    "linenos",
    "linenodiv",
    "lineno",
    "lnt",
    "ln",
];
const BLOCK: &[&str] = &[
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "pre",
    "dt",
    "dd",
    "dl",
    "tr",
    "table",
    "blockquote",
    "section",
    "article",
    "br",
    "figcaption",
    "td",
    "th",
];

/// A slug for a heading without an id: lower-case letters and digits joined by `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.extend(w.chars().flat_map(char::to_lowercase));
    }
    out
}

/// `s` trimmed, each run of whitespace one space.
pub(super) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s` as a browser shows it: without control characters (Unicode `Cc`) other than whitespace;
/// and how many it dropped. Text converted from PDFs and old encodings carries them.
pub fn visible(s: &str) -> (Cow<'_, str>, usize) {
    let hidden = |c: char| c.is_control() && !c.is_whitespace();
    if !s.contains(hidden) {
        return (Cow::Borrowed(s), 0);
    }
    let kept: String = s.chars().filter(|&c| !hidden(c)).collect();
    let dropped = s.chars().count() - kept.chars().count();
    (Cow::Owned(kept), dropped)
}

/// What leaving an element undoes of entering it ([`Walker::enter`]).
#[derive(Default)]
struct Leave {
    /// It is a block: its end ends a line.
    block: bool,
    /// It pushed its id onto [`Walker::ids`].
    id: bool,
    /// It is a `<pre>`.
    pre: bool,
    /// It pushed its weight onto [`Walker::weights`].
    weight: bool,
}

/// The level of a heading element's name (`h2` → 2).
fn heading_level(name: &str) -> Option<u8> {
    name.strip_prefix('h')
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|l| (1..=6).contains(l))
}

/// Whether an element of this name starts and ends a line of text.
pub(super) fn is_block(name: &str) -> bool {
    BLOCK.contains(&name)
}

/// The attributes that name other attributes to read as an element's text (module docs):
/// Pagefind's and ours.
const INDEX_ATTRS: [&str; 2] = ["data-pagefind-index-attrs", "data-hipporag-index-attrs"];

/// The values of the attributes `e`'s [`INDEX_ATTRS`] name, as its text reads them (module
/// docs): `" Image Title. Image Alt. "`; empty when it names none.
fn indexed_attributes(e: &scraper::node::Element) -> String {
    let mut out = String::new();
    let names = e
        .attrs()
        .filter(|(n, _)| INDEX_ATTRS.contains(n))
        .map(|(_, v)| v);
    for name in names.flat_map(|n| n.split(',')) {
        let name = name.trim().to_ascii_lowercase();
        let Some(value) = attribute(e, &name).filter(|_| !name.is_empty()) else {
            continue;
        };
        let value = collapse(value);
        if value.is_empty() {
            continue;
        }
        out.push(' ');
        out.push_str(&value);
        // Pagefind's SENTENCE_CHARS: `[\w'"\)\$\*]`.
        if value
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || "_'\")$*".contains(c))
        {
            out.push('.');
        }
        out.push(' ');
    }
    out
}

/// The attributes that weigh an element's text (module docs, "Weights"): Pagefind's and ours.
const WEIGHT_ATTRS: [&str; 2] = ["data-pagefind-weight", "data-hipporag-weight"];

/// The highest weight ([Pagefind's](https://pagefind.app/docs/weighting/)).
pub const MAX_WEIGHT: f32 = 10.0;

/// The weight `e` gives its text, when it has a weight attribute (the first of
/// [`WEIGHT_ATTRS`] it has), and whether that attribute's value was bad: a number outside 0 to
/// [`MAX_WEIGHT`] is clamped to it, a value that is no number weighs 1, as Pagefind reads it.
fn element_weight(e: &scraper::node::Element) -> Option<(f32, bool)> {
    let value = WEIGHT_ATTRS.iter().find_map(|n| e.attr(n))?.trim();
    Some(match value.parse::<f32>() {
        Ok(w) if (0.0..=MAX_WEIGHT).contains(&w) => (w, false),
        Ok(w) if w > MAX_WEIGHT => (MAX_WEIGHT, true),
        Ok(w) if w < 0.0 => (0.0, true),
        _ => (1.0, true),
    })
}

/// Whether the walk skips an element with its content (module docs).
pub(super) fn skipped(e: &scraper::node::Element) -> bool {
    let name = e.name();
    let permalink = name == "a" && e.classes().any(|c| c == "headerlink");
    let gutter = e.classes().any(|c| LINE_NUMBER_CLASSES.contains(&c));
    SKIP.contains(&name)
        || e.attr("data-hipporag-ignore").is_some()
        || e.attr("data-pagefind-ignore").is_some()
        || permalink
        || gutter
}

/// A heading's text (its permalink's "¶" and the `excluded` elements left out) and the target
/// of the first `#fragment` link inside it.
fn heading_text(el: ElementRef<'_>, excluded: &[Selector]) -> (String, Option<String>) {
    let mut text = String::new();
    let mut link_anchor = None;
    // Iterative, as [`Walker::walk`]: each open element's remaining children.
    let mut open = vec![el.children()];
    while let Some(children) = open.last_mut() {
        let Some(node) = children.next() else {
            open.pop();
            continue;
        };
        if let Some(el) = ElementRef::wrap(node) {
            if excluded.iter().any(|s| s.matches(&el)) {
                continue;
            }
            let e = el.value();
            if e.name() == "a" {
                if let Some(h) = e.attr("href").and_then(|h| h.strip_prefix('#'))
                    && link_anchor.is_none()
                    && !h.is_empty()
                {
                    link_anchor = Some(h.to_string());
                }
                if e.classes().any(|c| c == "headerlink") {
                    continue;
                }
            }
            open.push(node.children());
        } else if let Node::Text(t) = node.value() {
            text.push_str(t);
        }
    }
    (text, link_anchor)
}

struct Walker {
    sections: Vec<Section>,
    /// The enclosing headings: level, text, weight.
    path: Vec<(u8, String, f32)>,
    title: String,
    /// The weight of the heading the page title came from (7 while there is none).
    title_weight: f32,
    anchor: Option<String>,
    lines: Vec<String>,
    line: String,
    ids: Vec<String>,
    /// `<pre>` elements the walk is inside.
    pre_depth: usize,
    /// The current line holds text from a `<pre>`.
    line_is_code: bool,
    /// Indices into `lines` of code lines.
    code_lines: Vec<usize>,
    /// The weights of the weighted elements the walk is inside, innermost last.
    weights: Vec<f32>,
    /// The weight of the current line: the innermost weight when its first text came.
    line_weight: f32,
    /// Each of `lines`' weight.
    line_weights: Vec<f32>,
    /// Bad weight values met ([`Page::bad_weights`]).
    bad_weights: Vec<String>,
    /// Control characters dropped ([`visible`]).
    controls: usize,
    /// The site's exclude selectors ([`Selectors::exclude`]): the elements they match are
    /// skipped with their content.
    excluded: Vec<Selector>,
}

impl Walker {
    fn end_line(&mut self) {
        let l = collapse(&self.line);
        if !l.is_empty() {
            if self.line_is_code {
                self.code_lines.push(self.lines.len());
            }
            self.lines.push(l);
            self.line_weights.push(self.line_weight);
        }
        self.line.clear();
        self.line_is_code = false;
    }

    /// Appends `part` to the current line; the text that starts a line gives it its weight.
    fn push_text(&mut self, part: &str) {
        if self.line.trim().is_empty() && !part.trim().is_empty() {
            self.line_weight = self.weights.last().copied().unwrap_or(1.0);
        }
        self.line.push_str(part);
    }

    /// Text of a node: inside `<pre>`, every line break ends a (code) line.
    fn text(&mut self, t: &str) {
        let (t, controls) = visible(t);
        self.controls += controls;
        if self.pre_depth == 0 {
            self.push_text(&t);
            return;
        }
        for (k, part) in t.split('\n').enumerate() {
            if k > 0 {
                self.end_line();
            }
            self.push_text(part);
            self.line_is_code = true;
        }
    }

    fn end_section(&mut self) {
        self.end_line();
        if !self.lines.is_empty() {
            let mut headings = vec![self.title.clone()];
            let mut heading_weights = vec![self.title_weight];
            for (_, h, w) in &self.path {
                if headings.last() != Some(h) {
                    headings.push(h.clone());
                    heading_weights.push(*w);
                }
            }
            self.sections.push(Section {
                anchor: self.anchor.clone(),
                headings,
                heading_weights,
                text: self.lines.join("\n"),
                code_lines: std::mem::take(&mut self.code_lines),
                line_weights: if self.line_weights.iter().all(|&w| w == 1.0) {
                    Vec::new()
                } else {
                    std::mem::take(&mut self.line_weights)
                },
            });
        }
        self.lines.clear();
        self.code_lines.clear();
        self.line_weights.clear();
    }

    /// A heading of `level` starts a section; `weight` is its own weight attribute's.
    fn heading(&mut self, el: ElementRef<'_>, level: u8, weight: Option<f32>) {
        self.end_section();
        let (text, link_anchor) = heading_text(el, &self.excluded);
        let (text, controls) = visible(&text);
        self.controls += controls;
        let text = collapse(&text);
        self.anchor = el
            .value()
            .id()
            .map(str::to_string)
            .or(link_anchor)
            .or_else(|| self.ids.last().cloned())
            .or_else(|| Some(slug(&text)).filter(|s| !s.is_empty()));
        while self.path.last().is_some_and(|(l, _, _)| *l >= level) {
            self.path.pop();
        }
        // Pagefind's automatic weight applies where no weight attribute does.
        let weight = weight
            .or_else(|| self.weights.last().copied())
            .unwrap_or(f32::from(8 - level));
        if self.title.is_empty() {
            self.title = text.clone();
            self.title_weight = weight;
        }
        self.path.push((level, text, weight));
    }

    /// Walks the content below `root` in document order, without recursion: a stack of the
    /// open elements' remaining children.
    fn walk(&mut self, root: ElementRef<'_>) {
        let mut open = vec![(root.children(), Leave::default())];
        while let Some((children, _)) = open.last_mut() {
            let Some(child) = children.next() else {
                let (_, leave) = open.pop().expect("an open element");
                self.leave(leave);
                continue;
            };
            match child.value() {
                Node::Text(t) => self.text(t),
                Node::Element(_) => {
                    let el = ElementRef::wrap(child).expect("an element node");
                    if let Some(leave) = self.enter(el) {
                        open.push((child.children(), leave));
                    }
                }
                _ => {}
            }
        }
    }

    /// Enters an element: `None` when its content is skipped, or read as a heading.
    fn enter(&mut self, el: ElementRef<'_>) -> Option<Leave> {
        let e = el.value();
        let name = e.name();
        if skipped(e) || self.excluded.iter().any(|s| s.matches(&el)) {
            return None;
        }
        let attrs = indexed_attributes(e);
        let weight = element_weight(e).map(|(w, bad)| {
            if bad {
                let value = WEIGHT_ATTRS.iter().find_map(|n| e.attr(n)).unwrap_or("");
                if !self.bad_weights.iter().any(|b| b == value) {
                    self.bad_weights.push(value.to_string());
                }
            }
            w
        });
        if let Some(level) = heading_level(name) {
            self.heading(el, level, weight);
            if !attrs.is_empty() {
                // (The heading's own weight weighs its attributes' text.)
                self.weights.extend(weight);
                self.text(&attrs);
                if weight.is_some() {
                    self.weights.pop();
                }
            }
            return None;
        }
        let block = BLOCK.contains(&name);
        if block {
            self.end_line();
        }
        self.weights.extend(weight);
        if !attrs.is_empty() {
            self.text(&attrs);
        }
        let id = e.id().filter(|_| name != "span" && name != "a");
        if let Some(id) = id {
            self.ids.push(id.to_string());
        }
        let pre = name == "pre";
        self.pre_depth += usize::from(pre);
        Some(Leave {
            block,
            id: id.is_some(),
            pre,
            weight: weight.is_some(),
        })
    }

    fn leave(&mut self, leave: Leave) {
        self.pre_depth -= usize::from(leave.pre);
        if leave.weight {
            self.weights.pop();
        }
        if leave.id {
            self.ids.pop();
        }
        if leave.block {
            self.end_line();
        }
    }
}

/// Reads a page's main content into sections (see the module docs). Never fails: a page
/// without text gives no section.
pub fn extract_html(html: &str) -> Page {
    extract(html, None, &[])
}

/// [`extract_html`] with the site's [`Selectors`] (module docs).
pub fn extract_html_with(html: &str, selectors: &Selectors) -> Page {
    extract(html, selectors.root.as_ref(), &selectors.exclude)
}

/// The outermost elements of `doc` that `root` matches (none inside another), in document
/// order.
fn root_elements<'a>(doc: &'a Html, root: &Selector) -> Vec<ElementRef<'a>> {
    doc.select(root)
        .filter(|e| {
            !e.ancestors()
                .filter_map(ElementRef::wrap)
                .any(|a| root.matches(&a))
        })
        .collect()
}

/// [`extract_html_with`]: `root`, when given, is the element read as the document; `exclude`
/// are skipped with their content.
fn extract(html: &str, root: Option<&Selector>, exclude: &[Selector]) -> Page {
    let (doc, dropped) = parse_document(html);
    let sel = |s: &str| Selector::parse(s).expect("valid selector");
    let (title, title_controls) = doc
        .select(&sel("title"))
        .next()
        .map(|t| {
            let text: String = t.text().collect();
            let (text, n) = visible(&text);
            (collapse(&text), n)
        })
        .unwrap_or_default();
    // The document's roots: the whole document, or the root selector's elements.
    let scopes = root.map(|r| root_elements(&doc, r));
    let marks = sel(BODY_MARKS);
    let candidates: Vec<ElementRef<'_>> = match &scopes {
        None => doc.select(&marks).collect(),
        // (`select` looks below an element, not at it.)
        Some(scopes) => scopes
            .iter()
            .flat_map(|s| {
                std::iter::once(*s)
                    .filter(is_body_mark)
                    .chain(s.select(&marks))
            })
            .collect(),
    };
    // Every element marked as the body (none inside another), else the first of the others.
    let marked: Vec<ElementRef<'_>> = candidates
        .into_iter()
        .filter(|e| {
            !e.ancestors()
                .filter_map(ElementRef::wrap)
                .any(|a| is_body_mark(&a))
        })
        .collect();
    let marked_body = !marked.is_empty();
    let main = ["main", "[role=main]", "body"];
    let roots = match &scopes {
        _ if !marked.is_empty() => marked,
        None => vec![
            main.iter()
                .find_map(|s| doc.select(&sel(s)).next())
                .unwrap_or_else(|| doc.root_element()),
        ],
        Some(scopes) => scopes
            .iter()
            .map(|scope| {
                main.iter()
                    .find_map(|s| scope.select(&sel(s)).next())
                    .unwrap_or(*scope)
            })
            .collect(),
    };
    let mut w = Walker {
        sections: Vec::new(),
        path: Vec::new(),
        title: String::new(),
        title_weight: 7.0,
        anchor: None,
        lines: Vec::new(),
        line: String::new(),
        ids: Vec::new(),
        pre_depth: 0,
        line_is_code: false,
        code_lines: Vec::new(),
        weights: Vec::new(),
        line_weight: 1.0,
        line_weights: Vec::new(),
        bad_weights: Vec::new(),
        controls: title_controls,
        excluded: exclude.to_vec(),
    };
    // The page title is the first heading when there is one (it names the page's subject
    // without the site's suffix), else <title>.
    for root in roots {
        w.walk(root);
    }
    w.end_section();
    let page_title = if w.title.is_empty() {
        title
    } else {
        w.title.clone()
    };
    for s in &mut w.sections {
        // Heading paths start with the page's first heading (the walker's running title).
        if s.headings.first().is_some_and(String::is_empty) {
            s.headings[0] = page_title.clone();
        }
        // Repeated headings once, with the heavier weight.
        let mut k = 0;
        while k + 1 < s.headings.len() {
            if s.headings[k] == s.headings[k + 1] {
                s.headings.remove(k + 1);
                let w = s.heading_weights.remove(k + 1);
                s.heading_weights[k] = s.heading_weights[k].max(w);
            } else {
                k += 1;
            }
        }
    }
    let lang = doc
        .root_element()
        .value()
        .attr("lang")
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string);
    let attributes = read_attributes(&doc, &page_title, scopes.as_deref());
    Page {
        title: page_title,
        sections: w.sections,
        lang,
        unlisted: unlisted(&doc),
        marked_body,
        controls: w.controls,
        dropped,
        attributes,
        root_missing: scopes.is_some_and(|s| s.is_empty()),
        bad_weights: w.bad_weights,
    }
}

/// Renders Markdown (CommonMark with tables) to HTML and reads it with [`extract_html`];
/// headings get slug anchors.
pub fn extract_markdown(md: &str) -> Page {
    extract_markdown_with(md, &Selectors::default())
}

/// [`extract_markdown`] with the site's exclude selectors (a Markdown page has no template:
/// the root selector does not apply to it).
pub fn extract_markdown_with(md: &str, selectors: &Selectors) -> Page {
    use pulldown_cmark::{Options, Parser, html};
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md, Options::ENABLE_TABLES));
    extract(
        &format!("<html><body>{out}</body></html>"),
        None,
        &selectors.exclude,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_content_sections_anchors_and_ignored_parts() {
        let html = r##"<html><head><title>Guide — Site</title><script>var x=1</script></head><body>
<nav>Home · Docs</nav><header>Site header</header>
<div role="main">
 <section id="the-guide"><h1>The Guide<a class="headerlink" href="#the-guide">¶</a></h1>
 <p>Intro text about Widgets.</p>
 <section id="install"><h2>Install</h2><p>Run <code>pip install widgets</code>.</p>
   <div data-hipporag-ignore><p>Advert</p></div>
   <h3 id="from-source">From source</h3><ul><li>clone</li><li>build</li></ul>
 </section>
 <section><h2>Usage Notes</h2><p>Call it.</p></section>
 </section>
</div>
<footer>Copyright</footer></body></html>"##;
        let p = extract_html(html);
        assert_eq!(p.title, "The Guide");
        let got: Vec<(Option<&str>, Vec<&str>, &str)> = p
            .sections
            .iter()
            .map(|s| {
                (
                    s.anchor.as_deref(),
                    s.headings.iter().map(String::as_str).collect(),
                    s.text.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Some("the-guide"),
                    vec!["The Guide"],
                    "Intro text about Widgets."
                ),
                (
                    Some("install"),
                    vec!["The Guide", "Install"],
                    "Run pip install widgets."
                ),
                (
                    Some("from-source"),
                    vec!["The Guide", "Install", "From source"],
                    "clone\nbuild"
                ),
                (
                    Some("the-guide"),
                    vec!["The Guide", "Usage Notes"],
                    "Call it."
                ),
            ]
        );
    }

    #[test]
    fn ruby_readings_are_left_out() {
        let html = r#"<html><body><main><h1>檢索</h1><p>文檔中的<ruby>關<rp>(</rp><rt>guān</rt><rp>)</rp></ruby>鍵信息</p></main></body></html>"#;
        let p = extract_html(html);
        assert_eq!(p.sections[0].text, "文檔中的關鍵信息");
    }

    /// A page marked up for Pagefind: two `data-pagefind-body` elements (both read, in order)
    /// and a `data-pagefind-ignore` one inside.
    #[test]
    fn pagefind_attributes_are_read_as_ours() {
        let html = r#"<html><body><main><p>Sidebar text</p>
<article data-pagefind-body><h2>First</h2><p>One.</p><div data-pagefind-ignore="all"><p>Comments</p></div></article>
<p>Between</p><section data-pagefind-body><h2>Second</h2><p>Two.</p></section></main></body></html>"#;
        let p = extract_html(html);
        assert!(p.marked_body);
        let texts: Vec<&str> = p.sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["One.", "Two."]);
        assert!(!extract_html("<html><body><main><p>x</p></main></body></html>").marked_body);
    }

    #[test]
    fn data_hipporag_body_wins_and_markdown_gets_slugs() {
        let html = r#"<html><body><main><p>Main text</p></main>
<div data-hipporag-body><h2>Only this</h2><p>Body text</p></div></body></html>"#;
        let p = extract_html(html);
        assert_eq!(p.sections.len(), 1);
        assert_eq!(p.sections[0].text, "Body text");
        let m = extract_markdown("# Title\n\nSome text.\n\n## Second Part!\n\n- a\n- b\n");
        assert_eq!(m.title, "Title");
        assert_eq!(m.sections[1].anchor.as_deref(), Some("second-part"));
        assert_eq!(m.sections[1].headings, vec!["Title", "Second Part!"]);
        assert_eq!(m.sections[1].text, "a\nb");
    }

    /// Python 3.11's library/json.html: a highlighted doctest block (spans inside `<pre>`).
    #[test]
    fn pre_lines_stay_lines_and_are_marked_as_code() {
        let html = r##"<html><body><div role="main"><section id="module-json">
<h1>json — JSON encoder and decoder</h1>
<p>Encoding basic Python object hierarchies:</p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="kn">import</span> <span class="nn">json</span>
<span class="gp">&gt;&gt;&gt; </span><span class="n">json</span><span class="o">.</span><span class="n">dumps</span><span class="p">([</span><span class="s1">&#39;foo&#39;</span><span class="p">])</span>
<span class="go">&#39;[&quot;foo&quot;]&#39;</span>
</pre></div></div>
<p>Compact encoding:</p></section></div></body></html>"##;
        let p = extract_html(html);
        assert_eq!(p.sections.len(), 1);
        let s = &p.sections[0];
        assert_eq!(
            s.text,
            "Encoding basic Python object hierarchies:\n>>> import json\n>>> json.dumps(['foo'])\n'[\"foo\"]'\nCompact encoding:"
        );
        assert_eq!(s.code_lines, vec![1, 2, 3]);
    }

    /// A source page of Debian's rust-doc (rustdoc 1.63, `src/test/helpers/shuffle.rs.html`,
    /// cut short) and a Pygments table listing: the gutter's numbers are no word of the page.
    #[test]
    fn line_number_gutters_are_left_out() {
        let rustdoc = r##"<html><body><section id="main-content" class="content"><div class="example-wrap"><pre class="line-numbers"><span id="1">1</span>
<span id="2">2</span>
<span id="3">3</span>
</pre><pre class="rust"><code><span class="kw">use</span> <span class="ident">std::hash</span>;
<span class="kw">pub</span> <span class="kw">struct</span> <span class="ident">Shuffle</span>;
</code></pre></div></section></body></html>"##;
        let s = &extract_html(rustdoc).sections[0];
        assert_eq!(s.text, "use std::hash;\npub struct Shuffle;");
        assert_eq!(s.code_lines, vec![0, 1]);
        let pygments = r##"<html><body><main><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>
<span class="normal">2</span></pre></div></td><td class="code"><div class="highlight"><pre><span></span>x = 1
y = 2
</pre></div></td></tr></table></main></body></html>"##;
        let s = &extract_html(pygments).sections[0];
        assert_eq!(s.text, "x = 1\ny = 2");
    }

    /// Pagefind's indexing.md example: the listed attributes are read as the element's text,
    /// before its content, each closed with a `.` unless it ends in punctuation; on a heading
    /// they open its section; on a skipped element they are skipped with it.
    #[test]
    fn index_attrs_read_attribute_values_as_text() {
        let html = r#"<html><body><main><h1>Condimentum Nullam</h1>
<img src="/hero.png" title="Image Title" alt="Image Alt" data-pagefind-index-attrs="title,alt" />
<p>Nullam id dolor id nibh ultricies.</p>
<h2 data-hipporag-index-attrs=" Title , missing" title="Done!">Usage</h2><p>Call it.</p>
<div data-pagefind-ignore><img alt="Hidden" data-pagefind-index-attrs="alt"></div>
<p><abbr title="HyperText" data-pagefind-index-attrs="title">HTML</abbr> pages</p></main></body></html>"#;
        let p = extract_html(html);
        let texts: Vec<&str> = p.sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Image Title. Image Alt.\nNullam id dolor id nibh ultricies.",
                "Done!\nCall it.\nHyperText. HTML pages"
            ]
        );
        // Without the attribute, attributes are not text.
        let plain =
            extract_html(r#"<html><body><main><p><img alt="Alt">Text</p></main></body></html>"#);
        assert_eq!(plain.sections[0].text, "Text");
    }

    /// The page's attributes come from the whole document: the automatic title is the first
    /// `h1` even in a skipped `<header>`; without an `h1`, the page title the walk found.
    #[test]
    fn pages_carry_their_attributes() {
        let p = extract_html(
            r#"<html><head><title>Site</title><meta data-pagefind-filter="section[content]" content="guide"></head>
<body><header><h1>Header title</h1></header><main><h2>Usage</h2><p>Text.</p></main></body></html>"#,
        );
        assert_eq!(p.title, "Usage");
        assert_eq!(p.attributes.meta["title"], "Header title");
        assert_eq!(p.attributes.filters["section"], ["guide"]);
        let p = extract_html(
            "<html><head><title>Site</title></head><body><main><h2>Usage</h2></main></body></html>",
        );
        assert_eq!(p.attributes.meta["title"], "Usage");
        let m = extract_markdown(
            "# Notes\n\n<span data-pagefind-filter=\"kind\">release</span> text\n",
        );
        assert_eq!(m.attributes.meta["title"], "Notes");
        assert_eq!(m.attributes.filters["kind"], ["release"]);
    }

    /// Python 3.11's library/json.html (python3.11-doc), cut short, its `div.body` without the
    /// `role="main"` Sphinx writes (as themes without it write it): the whole `<body>` is read,
    /// sidebar and footer included, unless a root selector names the content.
    const SPHINX_WITHOUT_MAIN: &str = r##"<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8" /><title>json — JSON encoder and decoder &#8212; Python 3.11.2 documentation</title></head>
  <body>
    <div class="related" role="navigation" aria-label="related navigation">
      <h3>Navigation</h3>
      <ul>
        <li class="right" style="margin-right: 10px"><a href="../genindex.html" title="General Index" accesskey="I">index</a></li>
      </ul>
    </div>
    <div class="document">
      <div class="documentwrapper">
        <div class="bodywrapper">
          <div class="body">
  <section id="module-json">
<span id="json-json-encoder-and-decoder"></span><h1><a class="reference internal" href="#module-json" title="json: Encode and decode the JSON format."><code class="xref py py-mod docutils literal notranslate"><span class="pre">json</span></code></a> — JSON encoder and decoder<a class="headerlink" href="#module-json" title="Permalink to this heading">¶</a></h1>
<p><strong>Source code:</strong> <a class="reference external" href="https://github.com/python/cpython/tree/3.11/Lib/json/__init__.py">Lib/json/__init__.py</a></p>
<div class="admonition warning">
<p class="admonition-title">Warning</p>
<p>Be cautious when parsing JSON data from untrusted sources.</p>
</div>
<p>Encoding basic Python object hierarchies:</p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="kn">import</span> <span class="nn">json</span>
</pre></div></div>
<section id="basic-usage">
<h2>Basic Usage<a class="headerlink" href="#basic-usage" title="Permalink to this heading">¶</a></h2>
<dl class="py function"><dd><p>Serialize <em>obj</em> as a JSON formatted stream to <em>fp</em>.</p></dd></dl>
</section>
</section>
          </div>
        </div>
      </div>
      <div class="sphinxsidebar" role="navigation" aria-label="main navigation">
        <div class="sphinxsidebarwrapper">
  <div>
    <h3><a href="../contents.html">Table of Contents</a></h3>
    <ul><li><a class="reference internal" href="#basic-usage">Basic Usage</a></li></ul>
  </div>
        </div>
      </div>
    </div>
    <div class="footer">
    &copy; <a href="../copyright.html">Copyright</a> 2001-2026, Python Software Foundation.
    </div>
  </body>
</html>"##;

    fn texts(p: &Page) -> Vec<(Option<&str>, &str, &str)> {
        p.sections
            .iter()
            .map(|s| {
                (
                    s.anchor.as_deref(),
                    s.headings.last().map_or("", String::as_str),
                    s.text.as_str(),
                )
            })
            .collect()
    }

    /// The root selector names the content of a page whose `<body>` holds a sidebar and a
    /// footer the default reading keeps; the body marks are looked for inside it only; a page
    /// where it matches nothing gives nothing.
    #[test]
    fn the_root_selector_picks_the_document() {
        let whole = extract_html(SPHINX_WITHOUT_MAIN);
        let all: String = whole.sections.iter().map(|s| s.text.as_str()).collect();
        assert!(all.contains("Copyright"), "{all}");
        assert!(
            whole
                .sections
                .iter()
                .any(|s| s.headings.contains(&"Table of Contents".to_string()))
        );
        assert_eq!(
            extract_html_with(SPHINX_WITHOUT_MAIN, &Selectors::default()),
            whole
        );
        let root = Selectors::parse(Some("div.body"), &[]).unwrap();
        let p = extract_html_with(SPHINX_WITHOUT_MAIN, &root);
        assert!(!p.root_missing);
        assert_eq!(p.title, "json — JSON encoder and decoder");
        assert_eq!(
            texts(&p),
            [
                (
                    Some("module-json"),
                    "json — JSON encoder and decoder",
                    "Source code: Lib/json/__init__.py\nWarning\nBe cautious when parsing JSON data from untrusted sources.\nEncoding basic Python object hierarchies:\n>>> import json"
                ),
                (
                    Some("basic-usage"),
                    "Basic Usage",
                    "Serialize obj as a JSON formatted stream to fp."
                )
            ]
        );
        // A root holding `<main>` reads the `<main>` (as without a root selector).
        let with_main = SPHINX_WITHOUT_MAIN
            .replace("<div class=\"body\">", "<div class=\"body\"><main>")
            .replace(
                "</section>\n          </div>",
                "</section></main>\n          </div>",
            );
        let outer = Selectors::parse(Some("div.document"), &[]).unwrap();
        assert_eq!(texts(&extract_html_with(&with_main, &outer)), texts(&p));
        // A body mark outside the root is not the page's body; inside it, it is.
        let marked = SPHINX_WITHOUT_MAIN.replace(
            "<div class=\"sphinxsidebar\"",
            "<div data-pagefind-body class=\"sphinxsidebar\"",
        );
        assert!(extract_html(&marked).marked_body);
        let p = extract_html_with(&marked, &root);
        assert!(!p.marked_body);
        assert_eq!(p.sections[0].anchor.as_deref(), Some("module-json"));
        let sidebar = Selectors::parse(Some(".document"), &[]).unwrap();
        let p = extract_html_with(&marked, &sidebar);
        assert!(p.marked_body);
        assert_eq!(
            texts(&p),
            [(
                Some("table-of-contents"),
                "Table of Contents",
                "Basic Usage"
            )]
        );
        // No element matches: no text.
        let none = Selectors::parse(Some("article"), &[]).unwrap();
        let p = extract_html_with(SPHINX_WITHOUT_MAIN, &none);
        assert!(p.root_missing && p.sections.is_empty());
        // Markdown has no template: the root selector does not apply.
        let m = extract_markdown_with("# Notes\n\nText.\n", &none);
        assert!(!m.root_missing);
        assert_eq!(m.sections[0].text, "Text.");

        // Filters, metadata and sort values outside the root are not read (Pagefind reads
        // nothing outside its root_selector); without one, the whole document is.
        let attrs = SPHINX_WITHOUT_MAIN
            .replace(
                "<html lang=\"en\">",
                "<html lang=\"en\" data-pagefind-filter=\"site:python\">",
            )
            .replace(
                "<div class=\"related\"",
                "<div data-pagefind-sort=\"rank:2\" class=\"related\"",
            )
            .replace(
                "<section id=\"basic-usage\">",
                "<section id=\"basic-usage\" data-pagefind-filter=\"kind:module\" data-pagefind-meta=\"area:library\">",
            );
        let whole = extract_html(&attrs).attributes;
        assert_eq!(whole.filters.keys().collect::<Vec<_>>(), ["kind", "site"]);
        assert_eq!(whole.sort.get("rank").map(String::as_str), Some("2"));
        let rooted = extract_html_with(&attrs, &root).attributes;
        assert_eq!(rooted.filters.keys().collect::<Vec<_>>(), ["kind"]);
        assert!(rooted.sort.is_empty());
        assert_eq!(rooted.meta["area"], "library");
        assert_eq!(rooted.meta["title"], "json — JSON encoder and decoder");
    }

    /// Exclude selectors skip their elements with their content, in headings too, as
    /// `data-pagefind-ignore` does; a selector list is one selector; filters inside them count.
    #[test]
    fn exclude_selectors_skip_elements() {
        let sel = Selectors::parse(
            Some("div.body"),
            &[
                "div.admonition.warning, .highlight".into(),
                "h1 code".into(),
            ],
        )
        .unwrap();
        let p = extract_html_with(SPHINX_WITHOUT_MAIN, &sel);
        assert_eq!(
            texts(&p)[0],
            (
                Some("module-json"),
                "— JSON encoder and decoder",
                "Source code: Lib/json/__init__.py\nEncoding basic Python object hierarchies:"
            )
        );
        let m = extract_markdown_with(
            "# Notes\n\nKept.\n\n> Quoted.\n\n## Next\n\nAlso kept.\n",
            &Selectors::parse(None, &["blockquote".into()]).unwrap(),
        );
        let got: Vec<&str> = m.sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(got, ["Kept.", "Also kept."]);
        let f = extract_html_with(
            r#"<html><body><main><p>Text.</p><div class="meta"><span data-pagefind-filter="kind">guide</span></div></main></body></html>"#,
            &Selectors::parse(None, &[".meta".into()]).unwrap(),
        );
        assert_eq!(f.sections[0].text, "Text.");
        assert_eq!(f.attributes.filters["kind"], ["guide"]);
    }

    /// Headings weigh as Pagefind's (`h1` 7 … `h6` 2; the page title as the heading it came
    /// from), unless the heading or an element around it has a weight attribute; a heading
    /// repeated in the path is listed once, with the heavier weight.
    #[test]
    fn headings_weigh_by_level_unless_a_weight_attribute_says_otherwise() {
        let html = r#"<html><head><title>Site</title></head><body><main>
<h1>Guide</h1><p>Intro.</p>
<h2>Install</h2><p>Steps.</p>
<h4>Linux</h4><p>Apt.</p>
<div data-pagefind-weight="2"><h3>Weighted</h3><p>Inside.</p></div>
<h3 data-hipporag-weight="9">Own</h3><p>Heavy.</p>
<h2>Guide</h2><p>Same text as the title.</p>
</main></body></html>"#;
        let p = extract_html(html);
        let got: Vec<(Vec<&str>, Vec<f32>)> = p
            .sections
            .iter()
            .map(|s| {
                (
                    s.headings.iter().map(String::as_str).collect(),
                    s.heading_weights.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (vec!["Guide"], vec![7.0]),
                (vec!["Guide", "Install"], vec![7.0, 6.0]),
                (vec!["Guide", "Install", "Linux"], vec![7.0, 6.0, 4.0]),
                (vec!["Guide", "Install", "Weighted"], vec![7.0, 6.0, 2.0]),
                (vec!["Guide", "Install", "Own"], vec![7.0, 6.0, 9.0]),
                (vec!["Guide"], vec![7.0]),
            ]
        );
        // Text before the first heading: the page title (from the h2 that comes first) at 6.
        let p = extract_html("<main><p>Before.</p><h2>First</h2><p>After.</p></main>");
        let w: Vec<Vec<f32>> = p
            .sections
            .iter()
            .map(|s| s.heading_weights.clone())
            .collect();
        assert_eq!(w, vec![vec![7.0], vec![6.0]]);
        for s in &p.sections {
            assert_eq!(s.headings.len(), s.heading_weights.len());
        }
    }

    /// Pagefind's weighting.md example, nested: each line weighs as the innermost weighted
    /// element around the text that starts it, ours and Pagefind's spelling alike; a section
    /// without weights has none; bad values are clamped (or 1) and listed once each.
    #[test]
    fn lines_weigh_as_their_innermost_weighted_element() {
        let html = r#"<html><body><main><h1>Weights</h1>
<p data-pagefind-weight="2">The main description text of the page.</p>
<p>Other, less important text.</p>
<div data-hipporag-weight="0.5"><p>Very unimportant text.</p>
<p data-pagefind-weight="3">Inner <span data-pagefind-weight="0">wins</span> here.</p>
<p><span data-pagefind-weight="0">Starts</span> the line.</p><p>Back to half.</p></div>
<p data-pagefind-weight="12">Too heavy.</p><p data-pagefind-weight="-1">Negative.</p>
<p data-pagefind-weight="heavy">No number.</p><p data-pagefind-weight="12">Again.</p>
<h2>Plain</h2><p>Nothing weighed.</p></main></body></html>"#;
        let p = extract_html(html);
        let s = &p.sections[0];
        let lines: Vec<(&str, f32)> = s.text.lines().zip(s.line_weights.clone()).collect();
        assert_eq!(s.line_weights.len(), s.text.lines().count());
        assert_eq!(
            lines,
            [
                ("The main description text of the page.", 2.0),
                ("Other, less important text.", 1.0),
                ("Very unimportant text.", 0.5),
                ("Inner wins here.", 3.0),
                ("Starts the line.", 0.0),
                ("Back to half.", 0.5),
                ("Too heavy.", 10.0),
                ("Negative.", 0.0),
                ("No number.", 1.0),
                ("Again.", 10.0),
            ]
        );
        assert_eq!(p.bad_weights, ["12", "-1", "heavy"]);
        assert_eq!(p.sections[1].text, "Nothing weighed.");
        assert!(p.sections[1].line_weights.is_empty());
        // A page without the attribute: no weights, as before.
        let plain = extract_html(SPHINX_WITHOUT_MAIN);
        assert!(plain.sections.iter().all(|s| s.line_weights.is_empty()));
        assert!(plain.bad_weights.is_empty());
    }

    /// A selector that is not CSS is an error naming the option and the selector.
    #[test]
    fn bad_selectors_are_named() {
        let e = Selectors::parse(Some("div["), &[]).unwrap_err().to_string();
        assert!(
            e.contains("--root-selector (root_selector) \"div[\""),
            "{e}"
        );
        let e = Selectors::parse(None, &["main".into(), "p >".into()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--exclude-selectors (exclude_selectors) \"p >\""),
            "{e}"
        );
    }

    /// Python 3.11's library/json.html (python3.11-doc): a definition's permalink sits in a
    /// `<dt>`, not a heading, and its "¶" must not reach the passage text.
    #[test]
    fn sphinx_definition_permalinks_are_left_out() {
        let html = r##"<html><body><div role="main"><section id="command-line-options">
<h3>Command line options<a class="headerlink" href="#command-line-options" title="Permalink to this heading">¶</a></h3>
<dl class="std option">
<dt class="sig sig-object std" id="cmdoption-json.tool-arg-infile">
<span id="cmdoption-json-tool-arg-infile"></span><span class="sig-name descname"><span class="pre">infile</span></span><span class="sig-prename descclassname"></span><a class="headerlink" href="#cmdoption-json.tool-arg-infile" title="Permalink to this definition">¶</a></dt>
<dd><p>The JSON file to be validated or pretty-printed:</p></dd></dl></section></div></body></html>"##;
        let p = extract_html(html);
        assert_eq!(p.sections.len(), 1);
        assert_eq!(
            p.sections[0].text,
            "infile\nThe JSON file to be validated or pretty-printed:"
        );
    }
}
