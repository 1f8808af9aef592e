//! html5ever's parser within the limits a browser keeps on a hostile page. The tokens pass
//! through a filter on their way to the tree builder, which drops a start tag past
//! [`MAX_DEPTH`] open elements, or once the tree holds [`MAX_ELEMENTS`] elements or
//! [`MAX_ATTRIBUTES`] attributes (its text stays, in the element that is open); a tag's
//! attributes past [`MAX_TAG_ATTRIBUTES`] are cut from the source first. Below the limits the
//! tree is html5ever's, node for node.
//!
//! Each limit stops a cost html5ever pays per token, which grows without bound on a hostile
//! page: it scans its stack of open elements on every start tag, and a tag's attributes for
//! each new one. Blink flattens the tree past 512 (`kMaximumHTMLParserDOMTreeDepth`).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, Tracer, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{Attribute, LocalName, QualName, TokenizerResult, local_name};
use scraper::{Html, HtmlTreeSink};

/// Open elements (and formatting elements the parser keeps to reopen) past which a start tag is
/// dropped: Blink's limit, far deeper than documentation pages nest.
pub const MAX_DEPTH: usize = 512;
/// Elements in the tree past which start tags are dropped: a bound on the tree's memory, above
/// the largest documentation pages.
pub const MAX_ELEMENTS: usize = 1_000_000;
/// Attributes in the tree past which start tags are dropped: a bound on the tree's memory.
pub const MAX_ATTRIBUTES: usize = 4_000_000;
/// Attributes of one tag past which the rest are cut.
pub const MAX_TAG_ATTRIBUTES: usize = 100;

/// What [`parse_document`] left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Start tags past [`MAX_DEPTH`].
    pub too_deep: usize,
    /// Start tags past [`MAX_ELEMENTS`] or [`MAX_ATTRIBUTES`].
    pub too_many: usize,
    /// Whether it stopped reading there: the tree was full and still grew (html5ever reopens
    /// unclosed formatting elements at each text), so the rest of the page is left out.
    pub stopped: bool,
    /// Attributes past [`MAX_TAG_ATTRIBUTES`] cut from their tags.
    pub attributes: usize,
}

/// A node of the tree being built.
type Handle = <HtmlTreeSink as TreeSink>::Handle;

/// Parses a whole document as [`Html::parse_document`] does, within the limits (module docs).
pub fn parse_document(html: &str) -> (Html, Dropped) {
    let (html, attributes) = cap_attributes(html);
    let sink = Counted {
        inner: HtmlTreeSink::new(Html::new_document()),
        elements: Cell::new(0),
        attributes: Cell::new(0),
    };
    let builder = TreeBuilder::new(sink, TreeBuilderOpts::default());
    let tokenizer = Tokenizer::new(Limits::new(builder), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(&html));
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    let limits = tokenizer.sink;
    let dropped = Dropped {
        attributes,
        ..limits.dropped.get()
    };
    (limits.builder.sink.finish(), dropped)
}

/// HTML's whitespace.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// A tag as [`scan_tag`] reads it.
struct TagSpan {
    /// The index of its `>`, or the text's length.
    end: usize,
    /// Its attributes.
    attributes: usize,
    /// Where its attribute past [`MAX_TAG_ATTRIBUTES`] starts, if it has one.
    cut: Option<usize>,
}

/// The tag whose name starts at `i`, read as the tokenizer reads one (without its rarer
/// errors).
fn scan_tag(b: &[u8], mut i: usize) -> TagSpan {
    let skip = |i: &mut usize, stop: &dyn Fn(u8) -> bool| {
        while *i < b.len() && !stop(b[*i]) {
            *i += 1;
        }
    };
    skip(&mut i, &|c| is_space(c) || c == b'/' || c == b'>');
    let (mut attributes, mut cut) = (0, None);
    loop {
        skip(&mut i, &|c| !(is_space(c) || c == b'/'));
        if i >= b.len() || b[i] == b'>' {
            return TagSpan {
                end: i.min(b.len()),
                attributes,
                cut,
            };
        }
        attributes += 1;
        if attributes == MAX_TAG_ATTRIBUTES + 1 {
            cut = Some(i);
        }
        // The name (a first `=` is part of it), then `=` and a value, quoted or not.
        i += 1;
        skip(&mut i, &|c| is_space(c) || matches!(c, b'/' | b'>' | b'='));
        skip(&mut i, &|c| !is_space(c));
        if b.get(i) != Some(&b'=') {
            continue;
        }
        i += 1;
        skip(&mut i, &|c| !is_space(c));
        match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                i += 1;
                skip(&mut i, &|c| c == q);
                i += 1;
            }
            _ => skip(&mut i, &|c| is_space(c) || c == b'>'),
        }
    }
}

/// Elements whose content the tokenizer reads as text up to their end tag.
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
];

/// The index in `b` of the first `needle` (ASCII case aside) at or after `from`, or `b`'s length.
fn find_from(b: &[u8], from: usize, needle: &[u8]) -> usize {
    b.get(from..)
        .and_then(|rest| {
            rest.windows(needle.len())
                .position(|w| w.eq_ignore_ascii_case(needle))
        })
        .map_or(b.len(), |k| from + k)
}

/// `html` with every tag's attributes past [`MAX_TAG_ATTRIBUTES`] cut (html5ever compares each
/// new attribute's name with the earlier ones'), and how many were cut. Comments and the content
/// of raw-text elements (`<script>`, `<style>`, …) are skipped, as the tokenizer reads no tag
/// there; `<plaintext>` ends the scan.
fn cap_attributes(html: &str) -> (Cow<'_, str>, usize) {
    let b = html.as_bytes();
    let (mut out, mut copied, mut cut_attributes) = (String::new(), 0, 0);
    let mut i = 0;
    while let Some(k) = b[i.min(b.len())..].iter().position(|&c| c == b'<') {
        i += k + 1;
        if b[i..].starts_with(b"!--") {
            i = find_from(b, i + 3, b"-->");
            continue;
        }
        if !b.get(i).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let name = &b[i..find_tag_name_end(b, i)];
        let tag = scan_tag(b, i);
        if let Some(cut) = tag.cut {
            cut_attributes += tag.attributes - MAX_TAG_ATTRIBUTES;
            out.push_str(&html[copied..cut]);
            copied = tag.end;
        }
        i = tag.end;
        if name.eq_ignore_ascii_case(b"plaintext") {
            break;
        }
        if let Some(raw) = RAW_TEXT
            .iter()
            .find(|r| r.as_bytes().eq_ignore_ascii_case(name))
        {
            i = find_from(b, i, format!("</{raw}").as_bytes());
        }
    }
    if cut_attributes == 0 {
        return (Cow::Borrowed(html), 0);
    }
    out.push_str(&html[copied..]);
    (Cow::Owned(out), cut_attributes)
}

/// The end of the tag name that starts at `i`.
fn find_tag_name_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| is_space(c) || c == b'/' || c == b'>')
        .map_or(b.len(), |k| i + k)
}

/// html5ever's tree builder's sink, scraper's, counting the elements and attributes it makes
/// and leaving out parse errors (which nothing reads, and a hostile page has one every few
/// bytes).
struct Counted {
    inner: HtmlTreeSink,
    elements: Cell<usize>,
    attributes: Cell<usize>,
}

impl Counted {
    /// Elements and attributes made so far.
    fn size(&self) -> (usize, usize) {
        (self.elements.get(), self.attributes.get())
    }

    /// Whether the tree is as large as the limits let it be.
    fn full(&self) -> bool {
        self.elements.get() >= MAX_ELEMENTS || self.attributes.get() >= MAX_ATTRIBUTES
    }
}

impl TreeSink for Counted {
    type Handle = Handle;
    type Output = Html;
    type ElemName<'a> = <HtmlTreeSink as TreeSink>::ElemName<'a>;

    fn finish(self) -> Html {
        self.inner.finish()
    }
    fn parse_error(&self, _: Cow<'static, str>) {}
    fn get_document(&self) -> Handle {
        self.inner.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a Handle) -> Self::ElemName<'a> {
        self.inner.elem_name(target)
    }
    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.elements.set(self.elements.get() + 1);
        self.attributes.set(self.attributes.get() + attrs.len());
        self.inner.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> Handle {
        self.inner.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.inner.create_pi(target, data)
    }
    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        self.inner.append(parent, child);
    }
    fn append_based_on_parent_node(&self, e: &Handle, prev: &Handle, child: NodeOrText<Handle>) {
        self.inner.append_based_on_parent_node(e, prev, child);
    }
    fn append_doctype_to_document(&self, name: StrTendril, public: StrTendril, system: StrTendril) {
        self.inner.append_doctype_to_document(name, public, system);
    }
    fn mark_script_already_started(&self, node: &Handle) {
        self.inner.mark_script_already_started(node);
    }
    fn pop(&self, node: &Handle) {
        self.inner.pop(node);
    }
    fn get_template_contents(&self, target: &Handle) -> Handle {
        self.inner.get_template_contents(target)
    }
    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        self.inner.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode);
    }
    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.inner.append_before_sibling(sibling, new_node);
    }
    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.attributes.set(self.attributes.get() + attrs.len());
        self.inner.add_attrs_if_missing(target, attrs);
    }
    fn associate_with_form(&self, t: &Handle, form: &Handle, nodes: (&Handle, Option<&Handle>)) {
        self.inner.associate_with_form(t, form, nodes);
    }
    fn remove_from_parent(&self, target: &Handle) {
        self.inner.remove_from_parent(target);
    }
    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        self.inner.reparent_children(node, new_parent);
    }
    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        self.inner
            .is_mathml_annotation_xml_integration_point(handle)
    }
    fn set_current_line(&self, line: u64) {
        self.inner.set_current_line(line);
    }
    fn allow_declarative_shadow_roots(&self, parent: &Handle) -> bool {
        self.inner.allow_declarative_shadow_roots(parent)
    }
    fn attach_declarative_shadow(&self, at: &Handle, t: &Handle, attrs: &[Attribute]) -> bool {
        self.inner.attach_declarative_shadow(at, t, attrs)
    }
    fn maybe_clone_an_option_into_selectedcontent(&self, option: &Handle) {
        self.inner
            .maybe_clone_an_option_into_selectedcontent(option);
    }
}

/// The token filter between html5ever's tokenizer and its tree builder.
struct Limits {
    builder: TreeBuilder<Handle, Counted>,
    /// Dropped start tags by name whose end tags are still to come (and to drop).
    open_dropped: RefCell<HashMap<LocalName, usize>>,
    /// The raw-text element (`script`, `style`, …) whose start tag was dropped: its text is
    /// dropped too, up to its end tag.
    swallowing: RefCell<Option<LocalName>>,
    dropped: Cell<Dropped>,
}

/// Counts the handles the tree builder holds: its open elements, its formatting elements and
/// a few more (the document, `head`, `form`).
struct Count(Cell<usize>);

impl Tracer for Count {
    type Handle = Handle;
    fn trace_handle(&self, _: &Handle) {
        self.0.set(self.0.get() + 1);
    }
}

/// Elements without content, which the tree builder closes at once.
fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

/// How the tokenizer reads the content of an element whose content is text, as the tree
/// builder would have told it.
fn raw_content(name: &LocalName) -> Option<TokenSinkResult<Handle>> {
    Some(match *name {
        local_name!("script") => TokenSinkResult::RawData(RawKind::ScriptData),
        local_name!("style")
        | local_name!("xmp")
        | local_name!("iframe")
        | local_name!("noembed")
        | local_name!("noframes")
        | local_name!("noscript") => TokenSinkResult::RawData(RawKind::Rawtext),
        local_name!("textarea") | local_name!("title") => TokenSinkResult::RawData(RawKind::Rcdata),
        local_name!("plaintext") => TokenSinkResult::Plaintext,
        _ => return None,
    })
}

impl Limits {
    fn new(builder: TreeBuilder<Handle, Counted>) -> Self {
        Self {
            builder,
            open_dropped: RefCell::new(HashMap::new()),
            swallowing: RefCell::new(None),
            dropped: Cell::new(Dropped::default()),
        }
    }

    /// The handles the tree builder holds (O(depth), as its own scope checks are).
    fn depth(&self) -> usize {
        let count = Count(Cell::new(0));
        self.builder.trace_handles(&count);
        count.0.get()
    }

    /// Whether the start tag `tag` stays; counts it as dropped when not.
    fn keep_start(&self, tag: &Tag) -> bool {
        let mut d = self.dropped.get();
        if self.builder.sink.full() {
            d.too_many += 1;
        } else if !is_void(&tag.name) && self.depth() >= MAX_DEPTH {
            d.too_deep += 1;
        } else {
            return true;
        }
        self.dropped.set(d);
        false
    }

    /// A dropped start tag: its end tag is dropped too, and a raw-text element's text with it.
    fn drop_start(&self, tag: Tag) -> TokenSinkResult<Handle> {
        let raw = raw_content(&tag.name);
        if raw.is_some() {
            *self.swallowing.borrow_mut() = Some(tag.name.clone());
        }
        if !is_void(&tag.name) {
            *self.open_dropped.borrow_mut().entry(tag.name).or_default() += 1;
        }
        raw.unwrap_or(TokenSinkResult::Continue)
    }

    /// Whether the end tag `name` closes a dropped start tag (and is dropped with it).
    fn drops_end(&self, name: &LocalName) -> bool {
        let mut open = self.open_dropped.borrow_mut();
        match open.get_mut(name) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    /// Whether `token` is text of a dropped raw-text element (and ends it at its end tag).
    fn swallows(&self, token: &Token) -> bool {
        let mut swallowing = self.swallowing.borrow_mut();
        let Some(name) = swallowing.as_ref() else {
            return false;
        };
        match token {
            Token::TagToken(t) if t.kind == TagKind::EndTag && t.name == *name => {
                *swallowing = None;
                drop(swallowing);
                self.drops_end(&t.name);
                true
            }
            Token::CharacterTokens(_) | Token::NullCharacterToken => true,
            _ => false,
        }
    }

    /// Passes `token` to the tree builder. A token that still grows a full tree stops the
    /// reading: the tree builder reopens formatting elements at each text, past any limit.
    fn forward(&self, token: Token, line: u64) -> TokenSinkResult<Handle> {
        let sink = &self.builder.sink;
        let (full, before) = (sink.full(), sink.size());
        let result = self.builder.process_token(token, line);
        if full && sink.size() != before {
            let mut d = self.dropped.get();
            d.stopped = true;
            self.dropped.set(d);
        }
        result
    }
}

impl TokenSink for Limits {
    type Handle = Handle;

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<Handle> {
        if (self.dropped.get().stopped && token != Token::EOFToken) || self.swallows(&token) {
            return TokenSinkResult::Continue;
        }
        match token {
            Token::TagToken(t) if t.kind == TagKind::StartTag && !self.keep_start(&t) => {
                self.drop_start(t)
            }
            Token::TagToken(t) if t.kind == TagKind::EndTag && self.drops_end(&t.name) => {
                TokenSinkResult::Continue
            }
            Token::ParseError(_) => TokenSinkResult::Continue,
            token => self.forward(token, line),
        }
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Below the limits the tree is html5ever's own.
    #[test]
    fn the_tree_is_html5evers_below_the_limits() {
        let page = r#"<!DOCTYPE html><html lang="en"><head><title>T</title><script>if (a < b) {}</script></head>
<body><table><tr><td>cell<p>para<b>bold<i>both</b>italic</i></table><p>one<p>two<br>three
<svg><path d="M0 0"/></svg><template><p>t</p></template><select><option>o</select></body></html>"#;
        let (doc, dropped) = parse_document(page);
        assert_eq!(dropped, Dropped::default());
        assert_eq!(doc.html(), Html::parse_document(page).html());
    }

    /// Past MAX_DEPTH start tags are dropped with their end tags, a script's text with them;
    /// the text stays, and what follows the deep part is read where it belongs.
    #[test]
    fn deep_nesting_is_flattened_keeping_its_text() {
        let n = 100_000;
        let page = format!(
            "<html><body><main>{}deep<script>var x = '<b>';</script>{}<p>after</p></main></body></html>",
            "<div>".repeat(n),
            "</div>".repeat(n)
        );
        let (doc, dropped) = parse_document(&page);
        assert!(dropped.too_deep > n - MAX_DEPTH, "{dropped:?}");
        let text: String = doc.root_element().text().collect();
        assert_eq!(text, "deepafter");
        let sel = scraper::Selector::parse("main > p").unwrap();
        assert_eq!(doc.select(&sel).count(), 1);
    }

    /// A tag's attributes past MAX_TAG_ATTRIBUTES are cut, quoted values holding `>` and
    /// spaces included; the tag's content stays.
    #[test]
    fn a_tags_attributes_are_capped() {
        let attrs: String = (0..150).map(|i| format!(" a{i}=\"x > {i}\"")).collect();
        let page = format!("<html><body><p{attrs}>kept</p><p b=1>too</p></body></html>");
        let (doc, dropped) = parse_document(&page);
        assert_eq!(dropped.attributes, 50);
        let sel = scraper::Selector::parse("p").unwrap();
        let ps: Vec<_> = doc.select(&sel).collect();
        assert_eq!(ps[0].value().attrs().count(), MAX_TAG_ATTRIBUTES);
        assert_eq!(ps[0].text().collect::<String>(), "kept");
        assert_eq!(ps[1].value().attr("b"), Some("1"));
    }

    /// A script or a comment whose text looks like a tag of many attributes is left as it
    /// is: the tokenizer reads no tag there.
    #[test]
    fn scripts_and_comments_are_not_read_as_tags() {
        let words = "x = y + 1; ".repeat(60);
        for page in [
            format!(
                "<html><body><script>if (a<b) {{ {words} }}</script><p>after</p></body></html>"
            ),
            format!("<html><body><!-- <b {words} --><p>after</p></body></html>"),
        ] {
            let (doc, dropped) = parse_document(&page);
            assert_eq!(dropped, Dropped::default());
            assert_eq!(doc.html(), Html::parse_document(&page).html());
        }
    }

    /// Unclosed formatting elements reopened at every paragraph: the tree stops growing at
    /// the limits.
    #[test]
    fn reopened_formatting_elements_stop_at_the_limits() {
        let open: String = (0..200).map(|i| format!("<b class=c{i}>")).collect();
        let page = format!("<p>{open}</p>{}", "<p>x</p>".repeat(20_000));
        let (doc, dropped) = parse_document(&page);
        assert!(dropped.stopped, "{dropped:?}");
        assert!(doc.tree.nodes().count() < 2 * (MAX_ELEMENTS + MAX_DEPTH) + 100_000);
    }
}
