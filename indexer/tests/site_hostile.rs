//! `hipporag site` on a site of hostile pages beside two normal ones: control characters, 19
//! random bytes, Latin-1, binaries saved as `.html`, NUL bytes, nesting 10⁴ and 10⁵ deep,
//! 30 MB of text, a word of 1 MB, 10⁶ elements, attributes by the hundred thousand, symbolic
//! link loops, dangling links and links out of the site, an unreadable page, a FIFO. The
//! build finishes, the normal pages rank first for their questions, and each bad page is
//! named in the report with why.

use std::collections::BTreeMap;
use std::path::Path;

use hipporag_indexer::graph::BuildOptions;
use hipporag_indexer::site::{
    Assets, MAX_PASSAGE_CHARS, OUTPUT_DIR, PKG_FILES, Problem, SiteOptions, build_site, read_site,
};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::search::{Mode, RetrieveOptions};
use hipporag_wasm::text::Language;

/// A page with `body` in its `<main>`.
fn page(body: &str) -> String {
    format!("<html><head><title>T</title></head><body><main>{body}</main></body></html>")
}

/// A page of 30 MB: a highlighted source listing (as rustdoc and Pygments write them, a
/// `<span>` per token), 4 MB of text in words of a 2,000-word made-up vocabulary. (30 MB of
/// bare text gives tens of thousands of passages, whose graph and pieces take longer to build
/// than a test should.)
fn thirty_megabytes() -> String {
    let mut seed = 7u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (seed >> 33) as usize
    };
    let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po"];
    let vocabulary: Vec<String> = (0..2000)
        .map(|i| {
            (0..3)
                .map(|k| syllables[(i / 10usize.pow(k)) % 10])
                .collect()
        })
        .collect();
    let mut out = String::with_capacity(31 << 20);
    out.push_str("<html><body><main><h1>Source</h1><pre class=\"rust\"><code>");
    while out.len() < 30_000_000 {
        out.push_str("<span class=\"kw\">let</span> ");
        for _ in 0..5 {
            let word = &vocabulary[next() % vocabulary.len()];
            out.push_str(&format!(
                "<span class=\"ident\">{word}</span><span class=\"op\"> + </span>"
            ));
        }
        out.push_str("<span class=\"number\">1</span>;\n");
    }
    out.push_str("</code></pre></main></body></html>");
    out
}

/// What the report must name each page of the site for (`None`: nothing wrong to report).
type Expected = BTreeMap<String, Option<Problem>>;

/// A site being written, and what its report must say.
struct Site<'a> {
    dir: &'a Path,
    expected: Expected,
}

impl Site<'_> {
    /// Writes the page `name` (creating its directories) that the report names for `problem`.
    fn add(&mut self, name: &str, bytes: &[u8], problem: Option<Problem>) {
        let p = self.dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        self.expected.insert(name.to_string(), problem);
    }
}

/// Writes the site: the normal pages and each hostile page, with what the report must say.
fn write_site(dir: &Path) -> Expected {
    let mut site = Site {
        dir,
        expected: BTreeMap::new(),
    };
    write_odd_bytes(&mut site);
    write_odd_markup(&mut site);
    write_links(&mut site);
    site.expected
}

/// The normal pages, and pages of bytes that are not UTF-8 text: control characters, random
/// bytes, Latin-1, binaries, NUL bytes.
fn write_odd_bytes(site: &mut Site<'_>) {
    use Problem::*;
    site.add(
        "gears.html",
        page(r#"<h1 id="gears">Gears</h1><p>A Gear turns a Spindle. Charles Babbage designed the gears of the Difference Engine.</p>"#).as_bytes(),
        None,
    );
    site.add(
        "notes.html",
        page("<h1>Notes</h1><p>The linked page.</p>").as_bytes(),
        None,
    );
    site.add(
        "widgets.html",
        page(r#"<h1 id="widgets">Widgets</h1><p>Widgets is a library written by Ada Lovelace for drawing.</p>"#).as_bytes(),
        None,
    );
    let control =
        page("<h1>Control</h1><p>Levers\u{1} turn\u{2} cranks\u{1f} \u{7f}and\u{9c} pulleys.</p>");
    site.add("control.html", control.as_bytes(), Some(ControlCharacters));
    // 19 bytes of a random page that held "\u{1}\u{6df}\u{365}": a BM25 term beginning with
    // the deletes dictionary's prefix, which panicked in split_index.
    let random = b"\x9c\xe32\x1e;S\xc1J\xd8H\x01\xdb\x9f\xcd\xa5\xf0Y\x80\x7f";
    site.add("random.html", random, Some(InvalidUtf8));
    let latin1: Vec<u8> = page("<p>Le caf\u{e9} de Z\u{fc}rich</p>")
        .chars()
        .map(|c| c as u8)
        .collect();
    site.add("latin1.html", &latin1, Some(InvalidUtf8));
    let png: Vec<u8> = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"
        .iter()
        .copied()
        .chain((0..4000u32).map(|i| (i * 7919 % 251) as u8))
        .collect();
    site.add("image.html", &png, Some(Binary));
    let program = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    site.add(
        "program.html",
        &program[..program.len().min(1 << 20)],
        Some(Binary),
    );
    site.add(
        "nul.html",
        page("<p>text\0with\0nuls</p>").as_bytes(),
        Some(Binary),
    );
}

/// Pages of odd markup or size: deep nesting, 30 MB, a word of 1 MB, 10⁶ elements, attributes
/// by the hundred thousand, odd characters and encodings.
fn write_odd_markup(site: &mut Site<'_>) {
    use Problem::*;
    let nest = |n: usize, open: &str, close: &str, text: &str| {
        page(&format!("{}{text}{}", open.repeat(n), close.repeat(n)))
    };
    site.add(
        "deep.html",
        nest(10_000, "<div>", "</div>", "deepest words").as_bytes(),
        Some(TooDeep),
    );
    site.add(
        "deeper.html",
        nest(100_000, "<div>", "</div>", "x").as_bytes(),
        Some(TooDeep),
    );
    let tables = nest(5_000, "<table><tr><td>", "</td></tr></table>", "cell");
    site.add("tables.html", tables.as_bytes(), Some(TooDeep));
    let lists = nest(10_000, "<ul><li>", "</li></ul>", "item");
    site.add("lists.html", lists.as_bytes(), Some(TooDeep));
    site.add(
        "quotes.md",
        format!("{}quote\n", "> ".repeat(100_000)).as_bytes(),
        Some(TooDeep),
    );
    site.add("big.html", thirty_megabytes().as_bytes(), Some(Large));
    site.add("word.html", page(&"w".repeat(1 << 20)).as_bytes(), None);
    site.add(
        "tiny.html",
        page(&"<b>x</b>".repeat(1_000_000)).as_bytes(),
        Some(TooManyElements),
    );
    let attrs: String = (0..200_000).map(|i| format!(" a{i}=1")).collect();
    site.add(
        "attributes.html",
        page(&format!("<p{attrs}>many</p>")).as_bytes(),
        Some(TooManyAttributes),
    );
    let long_value = page(&format!(
        "<p class=\"{}\">long value</p>",
        "c ".repeat(2_000_000)
    ));
    site.add("value.html", long_value.as_bytes(), None);
    site.add("script.html", b"<script>alert(1)</script>", None);
    site.add("empty.html", b"", None);
    let lang =
        "<html lang=\"\u{1}\"><body><main><p>a language tag of a control</p></main></body></html>";
    site.add("lang.html", lang.as_bytes(), None);
    let bidi = page("<p>abc\u{202e}def\u{200b}ghi\u{200d}\u{2066}jkl\u{feff} mno\u{2028}pqr</p>");
    site.add("bidi.html", bidi.as_bytes(), None);
    let entities = page("<p>&#xD800; &#0; &#x110000; &#x1; &#x80; &#x9F; &#xFFFE; entities</p>");
    site.add(
        "entities.html",
        entities.as_bytes(),
        Some(ControlCharacters),
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            page("<p>sixteen bit text</p>")
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    site.add("utf16.html", &utf16, None);
    site.add(
        "dir.html/inner.html",
        page("<p>a page in a directory named dir.html</p>").as_bytes(),
        None,
    );
}

/// Links: a loop (a directory link to its parent), dangling ones, one out of the site, one to a
/// page of the site (read); a FIFO and an unreadable page.
fn write_links(site: &mut Site<'_>) {
    use Problem::*;
    let (dir, expected) = (site.dir, &mut site.expected);
    let mut link = |name: &str, target: &str, problem: Option<Problem>| {
        std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
        expected.insert(name.to_string(), problem);
    };
    std::fs::create_dir(dir.join("loop")).unwrap();
    link("loop/up", "..", Some(DirectoryLink));
    link("dangling.html", "nowhere.html", Some(BrokenLink));
    link("cycle.html", "cycle.html", Some(BrokenLink));
    link("passwd.html", "/etc/passwd", Some(LinkOutOfSite));
    link("alias.html", "notes.html", None);
    let fifo = dir.join("fifo.html");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        expected.insert("fifo.html".into(), Some(NotAFile));
    }
    // Unreadable, unless the test runs as root (who reads it all the same).
    let secret = dir.join("unreadable.html");
    std::fs::write(&secret, page("<p>secret</p>")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable = std::fs::read(&secret).is_ok();
    expected.insert("unreadable.html".into(), (!readable).then_some(Unreadable));
}

#[test]
fn a_site_of_hostile_pages_builds_and_names_each_bad_page() {
    let site = tempfile::tempdir().unwrap();
    let expected = write_site(site.path());
    let pkg = tempfile::tempdir().unwrap();
    for f in PKG_FILES {
        std::fs::write(pkg.path().join(f), "stand-in").unwrap();
    }
    let opts = SiteOptions {
        pkg: Assets::Dir(pkg.path().to_path_buf()),
        ui: Assets::Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/site")),
        build: BuildOptions::default(),
        exclude: Vec::new(),
        include_noindex: false,
        query_encoder: None,
        full_index: false,
        pieces: Default::default(),
        glob: None,
        root_selector: None,
        exclude_selectors: Vec::new(),
        force_language: None,
        output: None,
    };
    let t0 = std::time::Instant::now();
    let r = build_site(
        site.path(),
        &HashedNgramEncoder::default(),
        None,
        &opts,
        &(),
    )
    .unwrap();
    eprintln!(
        "built in {:.1} s: {} passages",
        t0.elapsed().as_secs_f64(),
        r.passages
    );
    for p in &r.problems {
        eprintln!("{p}");
    }

    // Each bad page is named with why; the others are not.
    for (name, problem) in &expected {
        let named: Vec<Problem> = r
            .problems
            .iter()
            .filter(|p| p.page == *name)
            .map(|p| p.problem)
            .collect();
        match problem {
            Some(p) => assert!(named.contains(p), "{name}: {p:?} not in {named:?}"),
            None => assert!(named.is_empty(), "{name}: {named:?}"),
        }
    }
    let left_out: Vec<&str> = r
        .problems
        .iter()
        .filter(|p| p.left_out)
        .map(|p| p.page.as_str())
        .collect();
    assert!(left_out.contains(&"image.html") && left_out.contains(&"loop/up"));
    assert!(!left_out.contains(&"control.html") && !left_out.contains(&"big.html"));

    // No passage holds a control character, and none is longer than a passage may be (the
    // word of 1 MB and the 30 MB page cut at spaces).
    let read = read_site(site.path(), &[], false, Language::English).unwrap();
    assert_eq!(read.passages.len(), r.passages);
    for p in &read.passages {
        let text = &p.passage.text;
        assert!(
            !text.contains(|c: char| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.chars().count() <= MAX_PASSAGE_CHARS,
            "{}",
            p.passage.title
        );
    }
    let text_of = |url: &str| -> String {
        read.passages
            .iter()
            .filter(|p| p.passage.url.as_deref().unwrap().starts_with(url))
            .map(|p| p.passage.text.clone())
            .collect()
    };
    assert_eq!(text_of("/control.html"), "Levers turn cranks and pulleys.");
    assert!(text_of("/deep.html").contains("deepest words"));
    assert!(text_of("/utf16.html").contains("sixteen bit text"));
    assert_eq!(text_of("/alias.html"), "The linked page.");

    // The normal pages rank first for their questions.
    let entry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(site.path().join(OUTPUT_DIR).join("hipporag-entry.json")).unwrap(),
    )
    .unwrap();
    let meta = entry["pieces"]
        .as_str()
        .unwrap()
        .strip_prefix("index/")
        .unwrap();
    let dir = hipporag_indexer::pieces::PieceDir::new(site.path().join(OUTPUT_DIR).join("index"));
    let mut index = dir.open(meta).unwrap();
    for (question, url) in [
        (
            "Who designed the gears of the Difference Engine?",
            "/gears.html",
        ),
        ("Who wrote the Widgets library?", "/widgets.html"),
    ] {
        let opts = RetrieveOptions {
            mode: Mode::Hybrid,
            top_k: 3,
            ..Default::default()
        };
        let hits = dir.search(&mut index, question, &opts).unwrap();
        let first = read.passages[hits[0].0].passage.url.as_deref().unwrap();
        assert!(first.starts_with(url), "{question}: {first}");
    }
}
