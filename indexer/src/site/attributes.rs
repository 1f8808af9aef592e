//! A page's filters, metadata and sort values, read from Pagefind's capture attributes
//! (<https://pagefind.app/docs/filtering/>, `/docs/metadata/`, `/docs/sorts/`), so that a site
//! marked up for Pagefind needs no change. Each attribute is read in Pagefind's spelling and in
//! ours: `data-pagefind-filter` / `data-hipporag-filter`, `data-pagefind-meta` /
//! `data-hipporag-meta`, `data-pagefind-default-meta` / `data-hipporag-default-meta`,
//! `data-pagefind-sort` / `data-hipporag-sort`.
//!
//! **Captures** ([`parse_captures`]): an attribute's value is a comma-separated list of
//! `key` (the element's text), `key[attr]` (the value of the element's attribute `attr`) and,
//! as the last item only, `key:value` (everything after the first `:` to the end, commas
//! included). Values are trimmed with their whitespace collapsed (Pagefind's
//! `normalize_content`); empty keys and empty values are left out.
//!
//! **Where:** the whole document, in document order (`<html>`, `<head>`'s `<meta>`, `<body>`),
//! outside the marked body and inside `data-pagefind-ignore` elements too, but not inside an
//! element marked `data-pagefind-ignore="all"` (or with a value other than `index` or `true`,
//! which Pagefind reads as `all`; ours, `data-hipporag-ignore`, likewise).
//!
//! **Per key:** a filter key collects every value of the page in document order, duplicates
//! dropped; a meta, default meta or sort key keeps its last value. On one element Pagefind's
//! spelling is read before ours. The filter keys `any`, `all`, `none` and `not` are reserved by
//! Pagefind's filter syntax: left out, and listed in [`PageAttributes::reserved`] (the build
//! names them in its problems).
//!
//! **Automatic metadata** (Pagefind's): `title` is the text of the document's first `h1` with
//! text (else the page title the walker found, [`super::html::Page::title`]); `image` the `src`
//! of the first `img` with one after that `h1`, and `image_alt` its `alt`, neither set
//! automatically when the page sets its own `image`. A key the page sets with
//! `data-pagefind-meta` wins over the automatic value; `data-pagefind-default-meta` fills only
//! the keys neither sets.
//!
//! **Where this differs from Pagefind's indexer** (`pagefind/src/fossick/parser.rs`): it reads
//! an element's captures when the element ends, so a meta or sort key keeps the value of the
//! element that ends last, and an empty `key[attr]` value is kept; here the last value in
//! document order wins (the same but for two nested elements that set one key), empty values
//! are dropped, and a value is cut at [`MAX_VALUE_BYTES`].

use std::collections::BTreeMap;

use scraper::{ElementRef, Html, Node};

use super::html::{collapse, skipped, visible};

/// The filter keys Pagefind's filter syntax reserves (`{any: […]}`, …): a page's filters with
/// these keys are left out.
pub const RESERVED_FILTER_KEYS: &[&str] = &["any", "all", "none", "not"];

/// The longest value kept, in UTF-8 bytes: a longer one (the text of a whole `<main>`
/// captured as `key`) is cut at the last character boundary within it, so that capturing a
/// large element on every one of 512 nested levels stays a bounded cost.
pub const MAX_VALUE_BYTES: usize = 16 << 10;

/// A page's filters, metadata and sort values (module docs), as its page record carries them
/// into the fragment pieces and the filter and sort pieces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageAttributes {
    /// Filter key → its values on the page, in document order, distinct.
    pub filters: BTreeMap<String, Vec<String>>,
    /// Metadata key → value: the page's own (`data-pagefind-meta`), then the automatic
    /// `title`, `image`, `image_alt`, then the defaults (`data-pagefind-default-meta`).
    pub meta: BTreeMap<String, String>,
    /// Sort key → value (`data-pagefind-sort`), the last one of the page.
    pub sort: BTreeMap<String, String>,
    /// Reserved filter keys ([`RESERVED_FILTER_KEYS`]) the page used, in document order,
    /// distinct: left out of [`PageAttributes::filters`].
    pub reserved: Vec<String>,
}

/// One item of a capture attribute's value ([`parse_captures`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Capture {
    /// `key`: the element's text.
    Text(String),
    /// `key[attr]`: the value of the element's attribute `attr` (lowercased, as HTML's
    /// attribute names are), empty when it has none. `suffix` is what followed a `:` after it
    /// as the last item (`key[attr]:more`), which Pagefind appends as `:more`.
    Attribute {
        /// The key.
        key: String,
        /// The attribute's name.
        attribute: String,
        /// The text after the `:`, when there was one.
        suffix: Option<String>,
    },
    /// `key:value`: the value as written.
    Inline {
        /// The key.
        key: String,
        /// Everything after the first `:`, commas included.
        value: String,
    },
}

/// The captures of a `data-pagefind-filter` (or `-meta`, `-default-meta`, `-sort`) value, as
/// Pagefind's parser reads it (`pagefind/src/fossick/parser.rs`, `parse_attr_string`): split at
/// the first `:`; the part before it split at commas, each item trimmed, `name[attr]` an
/// attribute capture (name and attribute trimmed), any other item a text capture; the part
/// after the `:` the inline value of the last item. Items are returned in order; empty keys
/// are kept (the reader leaves them out).
pub fn parse_captures(spec: &str) -> Vec<Capture> {
    let (head, literal) = match spec.split_once(':') {
        Some((head, literal)) => (head, Some(literal)),
        None => (spec, None),
    };
    let mut out: Vec<Capture> = head.split(',').map(|c| capture(c.trim())).collect();
    if let (Some(literal), Some(last)) = (literal, out.last_mut()) {
        *last = match std::mem::replace(last, Capture::Text(String::new())) {
            Capture::Text(key) => Capture::Inline {
                key,
                value: literal.to_string(),
            },
            Capture::Attribute { key, attribute, .. } => Capture::Attribute {
                key,
                attribute,
                suffix: Some(literal.to_string()),
            },
            inline @ Capture::Inline { .. } => inline,
        };
    }
    out
}

/// One comma-separated item (trimmed): `name[attr]` (Pagefind's
/// `^\s*([^:\[\]]+)\[(.+)\]\s*$`) or a key.
fn capture(item: &str) -> Capture {
    let attribute = item
        .strip_suffix(']')
        .and_then(|s| s.split_once('['))
        .filter(|(name, attr)| !name.is_empty() && !name.contains(']') && !attr.is_empty());
    match attribute {
        Some((name, attr)) => Capture::Attribute {
            key: name.trim().to_string(),
            attribute: attr.trim().to_ascii_lowercase(),
            suffix: None,
        },
        None => Capture::Text(item.to_string()),
    }
}

/// The four capture attributes, each in Pagefind's spelling and ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Filter,
    Meta,
    DefaultMeta,
    Sort,
}

/// Each kind's attribute names: Pagefind's first (read first on an element), then ours.
const ATTRIBUTES: &[(Kind, [&str; 2])] = &[
    (
        Kind::Filter,
        ["data-pagefind-filter", "data-hipporag-filter"],
    ),
    (Kind::Meta, ["data-pagefind-meta", "data-hipporag-meta"]),
    (
        Kind::DefaultMeta,
        ["data-pagefind-default-meta", "data-hipporag-default-meta"],
    ),
    (Kind::Sort, ["data-pagefind-sort", "data-hipporag-sort"]),
];

/// Whether an element and its content are left out of every capture: Pagefind's
/// `data-pagefind-ignore="all"` (and any value but `""`, `index` and `true`, which Pagefind
/// reads as `all`), or ours, `data-hipporag-ignore`, with such a value.
fn excluded(e: &scraper::node::Element) -> bool {
    e.attrs()
        .filter(|(n, _)| matches!(*n, "data-pagefind-ignore" | "data-hipporag-ignore"))
        .any(|(_, v)| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "index" | "true"
            )
        })
}

/// Whether an attribute name is one of Pagefind's or ours (`data-pagefind-…`,
/// `data-hipporag-…`).
fn is_marker(name: &str) -> bool {
    name.starts_with("data-pagefind-") || name.starts_with("data-hipporag-")
}

/// The value of `e`'s attribute `name`, found by a scan of its attributes: `Element::attr`
/// interns the name first, which over every element of a page of 10⁶ costs more than the
/// scan.
pub(super) fn attribute<'a>(e: &'a scraper::node::Element, name: &str) -> Option<&'a str> {
    e.attrs().find(|(n, _)| *n == name).map(|(_, v)| v)
}

/// `s` as a value: control characters dropped, trimmed, whitespace collapsed, at most
/// [`MAX_VALUE_BYTES`].
fn clean(s: &str) -> String {
    let mut v = collapse(&visible(s).0);
    if v.len() > MAX_VALUE_BYTES {
        let mut end = MAX_VALUE_BYTES;
        while !v.is_char_boundary(end) {
            end -= 1;
        }
        v.truncate(end);
        v.truncate(v.trim_end().len());
    }
    v
}

/// Elements whose start and end separate words in a captured text (Pagefind puts a space
/// around its block elements).
fn separates(name: &str) -> bool {
    super::html::is_block(name) || matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// The text of `el` as a capture reads it (Pagefind's element text): its text nodes in order,
/// block elements apart, without the content of the descendants the page walk skips
/// ([`skipped`]: `script`, `nav`, `data-pagefind-ignore`, a heading's permalink, …), cleaned
/// ([`clean`]). Stops once past [`MAX_VALUE_BYTES`].
fn element_text(el: ElementRef<'_>) -> String {
    let mut text = String::new();
    // Each open element's remaining children, and whether it separates words.
    let mut open = vec![(el.children(), false)];
    while let Some((children, _)) = open.last_mut() {
        if text.len() > 2 * MAX_VALUE_BYTES {
            break;
        }
        let Some(node) = children.next() else {
            if open.pop().is_some_and(|(_, sep)| sep) {
                text.push(' ');
            }
            continue;
        };
        match node.value() {
            Node::Text(t) => text.push_str(t),
            Node::Element(e) if !skipped(e) => {
                let sep = separates(e.name());
                if sep {
                    text.push(' ');
                }
                open.push((node.children(), sep));
            }
            _ => {}
        }
    }
    clean(&text)
}

/// The scan's state ([`read_attributes`]).
#[derive(Default)]
struct Scan {
    out: PageAttributes,
    default_meta: BTreeMap<String, String>,
    /// The first `h1`'s text.
    auto_title: Option<String>,
    /// Whether the walk has left that `h1`.
    after_title: bool,
    /// The first `img` after it: `src` and `alt`.
    auto_image: Option<(String, String)>,
}

impl Scan {
    /// Reads `el`'s captures and automatic metadata; whether it is the title's `h1`.
    fn element(&mut self, el: ElementRef<'_>) -> bool {
        let e = el.value();
        let automatic = matches!(e.name(), "h1" | "img");
        if !automatic && !e.attrs().any(|(n, _)| is_marker(n)) {
            return false;
        }
        let mut text: Option<String> = None;
        for (kind, names) in ATTRIBUTES {
            for spec in names.iter().filter_map(|n| attribute(e, n)) {
                for c in parse_captures(spec) {
                    let (key, value) = match c {
                        Capture::Text(key) => {
                            let t = text.get_or_insert_with(|| element_text(el)).clone();
                            (key, t)
                        }
                        Capture::Attribute {
                            key,
                            attribute,
                            suffix,
                        } => {
                            let mut v = self::attribute(e, &attribute).unwrap_or("").to_string();
                            if let Some(s) = suffix {
                                v.push(':');
                                v.push_str(&s);
                            }
                            (key, clean(&v))
                        }
                        Capture::Inline { key, value } => (key, clean(&value)),
                    };
                    let key = visible(&key).0.trim().to_string();
                    if !key.is_empty() && !value.is_empty() {
                        self.add(*kind, key, value);
                    }
                }
            }
        }
        match e.name() {
            "h1" if self.auto_title.is_none() => {
                let t = text.unwrap_or_else(|| element_text(el));
                if !t.is_empty() {
                    self.auto_title = Some(t);
                    return true;
                }
            }
            "img" if self.after_title && self.auto_image.is_none() => {
                let src = clean(attribute(e, "src").unwrap_or(""));
                if !src.is_empty() {
                    self.auto_image = Some((src, clean(attribute(e, "alt").unwrap_or(""))));
                }
            }
            _ => {}
        }
        false
    }

    fn add(&mut self, kind: Kind, key: String, value: String) {
        // As Pagefind's indexer: a later value of a meta or sort key replaces an earlier one.
        let last = |map: &mut BTreeMap<String, String>| {
            map.insert(key.clone(), value.clone());
        };
        match kind {
            Kind::Filter if RESERVED_FILTER_KEYS.contains(&key.as_str()) => {
                if !self.out.reserved.contains(&key) {
                    self.out.reserved.push(key);
                }
            }
            Kind::Filter => {
                let values = self.out.filters.entry(key).or_default();
                if !values.contains(&value) {
                    values.push(value);
                }
            }
            Kind::Meta => last(&mut self.out.meta),
            Kind::DefaultMeta => last(&mut self.default_meta),
            Kind::Sort => last(&mut self.out.sort),
        }
    }

    /// The attributes, automatic and default metadata applied (module docs).
    fn finish(self, page_title: &str) -> PageAttributes {
        let mut out = self.out;
        let page_title = clean(page_title);
        if let Some(title) = self
            .auto_title
            .or((!page_title.is_empty()).then_some(page_title))
        {
            out.meta.entry("title".into()).or_insert(title);
        }
        if let Some((src, alt)) = self.auto_image
            && !out.meta.contains_key("image")
        {
            out.meta.insert("image".into(), src);
            if !alt.is_empty() {
                out.meta.entry("image_alt".into()).or_insert(alt);
            }
        }
        for (k, v) in self.default_meta {
            out.meta.entry(k).or_insert(v);
        }
        out
    }
}

/// The filters, metadata and sort values of the parsed page `doc` (module docs); `page_title`
/// is the title `title` falls back to when the document has no `h1` with text. With `roots`
/// (the elements a root selector matched, [`super::html::Selectors::root`]), only they and
/// what they hold are read, as Pagefind reads nothing outside its `root_selector`.
pub fn read_attributes(
    doc: &Html,
    page_title: &str,
    roots: Option<&[ElementRef<'_>]>,
) -> PageAttributes {
    let mut scan = Scan::default();
    let whole = [doc.root_element()];
    for &root in roots.unwrap_or(&whole) {
        if excluded(root.value()) {
            continue;
        }
        let title = scan.element(root);
        // Iterative, as the page walk: each open element's remaining children, and whether it
        // is the title's `h1` (leaving it starts the search for the automatic image).
        let mut open = vec![(root.children(), title)];
        while let Some((children, _)) = open.last_mut() {
            let Some(node) = children.next() else {
                if open.pop().is_some_and(|(_, title)| title) {
                    scan.after_title = true;
                }
                continue;
            };
            let Some(el) = ElementRef::wrap(node) else {
                continue;
            };
            if excluded(el.value()) {
                continue;
            }
            let title = scan.element(el);
            open.push((node.children(), title));
        }
    }
    scan.finish(page_title)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(html: &str) -> PageAttributes {
        read_attributes(&Html::parse_document(html), "Fallback title", None)
    }

    fn map<V: Clone>(pairs: &[(&str, V)]) -> BTreeMap<String, V> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn captures_split_as_pagefind_splits_them() {
        use Capture::*;
        let attr = |k: &str, a: &str| Attribute {
            key: k.into(),
            attribute: a.into(),
            suffix: None,
        };
        // Pagefind's filtering.md example: the inline value runs to the end, commas included.
        assert_eq!(
            parse_captures(
                "heading, tag[data-section], tag[data-category], author:Freeform text, captured to the end"
            ),
            vec![
                Text("heading".into()),
                attr("tag", "data-section"),
                attr("tag", "data-category"),
                Inline {
                    key: "author".into(),
                    value: "Freeform text, captured to the end".into()
                },
            ]
        );
        // parser.rs's test: an inline item first swallows the rest.
        assert_eq!(
            parse_captures("incorrect:post, self[data-pagefind-meta]"),
            vec![Inline {
                key: "incorrect".into(),
                value: "post, self[data-pagefind-meta]".into()
            }]
        );
        assert_eq!(
            parse_captures(" image [ SRC ] ,alt"),
            vec![attr("image", "src"), Text("alt".into())]
        );
        assert_eq!(
            parse_captures("tag[data-x]:more"),
            vec![Attribute {
                key: "tag".into(),
                attribute: "data-x".into(),
                suffix: Some("more".into())
            }]
        );
        // Not `name[attr]`: a key as written.
        assert_eq!(parse_captures("a[]"), vec![Text("a[]".into())]);
        assert_eq!(parse_captures("[x]"), vec![Text("[x]".into())]);
    }

    #[test]
    fn the_three_capture_forms_and_several_in_one_attribute() {
        let a = read(
            r#"<html><body><main>
<h1 data-section="Documentation" data-category="Article"
    data-pagefind-filter="heading, tag[data-section], tag[data-category], author:Freeform text, captured to the end">
  Hello   <em>World</em></h1>
<p>Authors: <span data-pagefind-filter="author">CloudCannon</span> and
<span data-pagefind-filter="author">Liam
  Bigelow</span>, <span data-pagefind-filter="author">CloudCannon</span></p>
</main></body></html>"#,
        );
        assert_eq!(
            a.filters,
            map(&[
                ("heading", strings(&["Hello World"])),
                ("tag", strings(&["Documentation", "Article"])),
                (
                    "author",
                    strings(&[
                        "Freeform text, captured to the end",
                        "CloudCannon",
                        "Liam Bigelow"
                    ])
                ),
            ])
        );
    }

    #[test]
    fn empty_keys_and_values_are_left_out() {
        let a = read(
            r#"<html><body><p data-pagefind-filter="empty, missing[data-none], :orphan, blank:  ">  </p>
<p data-pagefind-sort=", date:2024-01-02"></p></body></html>"#,
        );
        assert!(a.filters.is_empty(), "{:?}", a.filters);
        assert_eq!(a.sort, map(&[("date", "2024-01-02".to_string())]));
    }

    /// Captures anywhere: on `<html>`, in `<head>`'s `<meta>`, on `<body>`, outside the marked
    /// body, inside an ignored element; not inside `data-pagefind-ignore="all"`.
    #[test]
    fn captures_are_read_anywhere_but_inside_ignore_all() {
        let a = read(
            r#"<html lang="en" data-pagefind-filter="site:docs"><head>
<meta data-pagefind-filter="author[content]" content="Pagefind" property="og:site_name">
<meta data-pagefind-meta="description[content]" content="A   page.">
</head><body data-pagefind-sort="weight:3">
<nav data-pagefind-filter="section">Library</nav>
<article data-pagefind-body><h1>Post</h1><p>Body.</p>
<aside data-pagefind-ignore><span data-pagefind-filter="tag">ignored-but-read</span></aside>
<aside data-pagefind-ignore="all"><span data-pagefind-filter="tag">excluded</span>
<h1>Not the title</h1></aside>
<div data-pagefind-ignore="bogus" data-pagefind-filter="tag:bogus-is-all"></div>
</article></body></html>"#,
        );
        assert_eq!(
            a.filters,
            map(&[
                ("site", strings(&["docs"])),
                ("author", strings(&["Pagefind"])),
                ("section", strings(&["Library"])),
                ("tag", strings(&["ignored-but-read"])),
            ])
        );
        assert_eq!(a.sort, map(&[("weight", "3".to_string())]));
        assert_eq!(
            a.meta,
            map(&[
                ("description", "A page.".to_string()),
                ("title", "Post".to_string())
            ])
        );
    }

    /// The element's text leaves out what the page walk skips inside it (a script, an ignored
    /// part, a permalink) and keeps block elements apart.
    #[test]
    fn element_text_leaves_out_skipped_content() {
        let a = read(
            r##"<html><body><div data-pagefind-meta="summary"><p>One</p><p>two<script>x()</script></p>
<span data-pagefind-ignore>hidden</span><a class="headerlink" href="#s">¶</a></div>
<h1 data-hipporag-meta="heading">Title<a class="headerlink" href="#t">¶</a></h1></body></html>"##,
        );
        assert_eq!(a.meta["summary"], "One two");
        assert_eq!(a.meta["heading"], "Title");
        assert_eq!(a.meta["title"], "Title");
    }

    /// `data-hipporag-*` is read as `data-pagefind-*`; on one element Pagefind's is read first,
    /// so for a meta or sort key ours, read last, wins.
    #[test]
    fn both_spellings_are_read() {
        let a = read(
            r#"<html><body><p data-hipporag-filter="lang:rust" data-pagefind-filter="lang:c"></p>
<p data-hipporag-sort="date:2020" data-pagefind-sort="date:2021"></p>
<p data-hipporag-meta="by:Ada"></p><p data-hipporag-default-meta="image:/d.png"></p></body></html>"#,
        );
        assert_eq!(a.filters, map(&[("lang", strings(&["c", "rust"]))]));
        assert_eq!(a.sort["date"], "2020");
        assert_eq!(a.meta["by"], "Ada");
        assert_eq!(a.meta["image"], "/d.png");
    }

    /// One value per meta and sort key: the last in document order, as Pagefind keeps it.
    #[test]
    fn meta_and_sort_keep_the_last_value() {
        let a = read(
            r#"<html><body><p data-pagefind-meta="k:first" data-pagefind-sort="s:1"></p>
<p data-pagefind-meta="k:second" data-pagefind-sort="s:2"></p></body></html>"#,
        );
        assert_eq!(
            (a.meta["k"].as_str(), a.sort["s"].as_str()),
            ("second", "2")
        );
    }

    /// Pagefind's metadata.md: title from the first `h1`, image and alt from the first `img`
    /// after it; the page's own keys win, defaults fill only what neither sets.
    #[test]
    fn automatic_and_default_metadata() {
        let a = read(
            r#"<html><head><title>Site</title>
<meta data-pagefind-default-meta="image[content], image_alt:Social" content="/social.png">
<meta data-pagefind-default-meta="author:Nobody"></head>
<body><img src="/logo.png" alt="Logo"><main><h1>Hello <img src="/inside.png"> World</h1>
<p>Text</p><img alt="no src"><img src="/hero.png" alt="Hero"><img src="/second.png"></main></body></html>"#,
        );
        assert_eq!(
            a.meta,
            map(&[
                ("title", "Hello World".to_string()),
                ("image", "/hero.png".to_string()),
                ("image_alt", "Hero".to_string()),
                ("author", "Nobody".to_string()),
            ])
        );
        // The page's own image: no automatic image_alt (the default's stands).
        let own = read(
            r#"<html><head><meta data-pagefind-default-meta="image_alt:Social" content="/s.png"></head><body>
<h1 data-pagefind-meta="title:Custom">Heading</h1><img src="/auto.png" alt="Auto">
<div data-pagefind-meta="image:/own.png"></div></body></html>"#,
        );
        assert_eq!(
            own.meta,
            map(&[
                ("title", "Custom".to_string()),
                ("image", "/own.png".to_string()),
                ("image_alt", "Social".to_string()),
            ])
        );
        // No h1: the walker's page title; an img without an h1 before it is no image.
        let none = read(r#"<html><body><img src="/x.png"><h2>Sub</h2></body></html>"#);
        assert_eq!(none.meta, map(&[("title", "Fallback title".to_string())]));
        let untitled = read_attributes(&Html::parse_document("<p>x</p>"), "  ", None);
        assert!(untitled.meta.is_empty());
    }

    #[test]
    fn reserved_filter_keys_are_left_out_and_listed() {
        let a = read(
            r#"<html><body><p data-pagefind-filter="any:x"></p><p data-pagefind-filter="all, not[id], ok:y" id="n">t</p>
<p data-hipporag-filter="any:z"></p><p data-pagefind-sort="any:1" data-pagefind-meta="none:2"></p></body></html>"#,
        );
        assert_eq!(a.filters, map(&[("ok", strings(&["y"]))]));
        assert_eq!(a.reserved, strings(&["any", "all", "not"]));
        // Only filter keys are reserved.
        assert_eq!(a.sort["any"], "1");
        assert_eq!(a.meta["none"], "2");
    }

    #[test]
    fn long_values_are_cut_at_a_character_boundary() {
        let long = "é".repeat(MAX_VALUE_BYTES);
        let a = read(&format!(
            r#"<html><body><p data-pagefind-meta="long">{long}</p></body></html>"#
        ));
        assert_eq!(a.meta["long"].len(), MAX_VALUE_BYTES);
        assert!(a.meta["long"].chars().all(|c| c == 'é'));
    }
}
