//! `hipporag site` on a small site made here: pages → passages with url#anchor and heading
//! paths; an incremental rebuild after one page changes reuses the cached OpenIE and
//! embeddings of every unchanged passage and gives exactly the bytes of a clean build; a failed
//! build leaves the previous `_hipporag/` in place. (The real-site test is
//! tests/e2e/site_docs.test.mjs, on Python's documentation.)

use std::collections::BTreeMap;
use std::path::Path;

use hipporag_indexer::graph::BuildOptions;
use hipporag_indexer::site::{Assets, OUTPUT_DIR, PKG_FILES, SiteOptions, build_site, read_site};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::search::RetrieveOptions;
use hipporag_wasm::text::{Language, StemmerBuild};

const PAGES: &[(&str, &str)] = &[
    (
        "index.html",
        r#"<html><head><title>Widgets docs</title></head><body><nav>Home</nav><main>
<h1 id="widgets">Widgets</h1><p>Widgets is a library by Ada Lovelace for drawing gears.</p>
<h2 id="install">Install</h2><p>Install Widgets with pip from the Python Package Index.</p>
</main><footer>© Widgets</footer></body></html>"#,
    ),
    (
        "guide/gears.html",
        r#"<html><body><main><h1 id="gears">Gears</h1><p>A Gear turns a Spindle. Gears were designed by Charles Babbage.</p>
<h2 id="spindles">Spindles</h2><p>The Spindle module connects to the Analytical Engine.</p></main></body></html>"#,
    ),
    (
        "notes.md",
        "# Release notes\n\nVersion 2 adds the Spindle module.\n\n## Known issues\n\nThe Analytical Engine is slow.\n",
    ),
];

fn write_site(dir: &Path) {
    for (name, text) in PAGES {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn opts(pkg: &Path) -> SiteOptions {
    SiteOptions {
        pkg: Assets::Dir(pkg.to_path_buf()),
        ui: Assets::Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/site")),
        build: BuildOptions::default(),
        exclude: Vec::new(),
        include_noindex: false,
        query_encoder: None,
        full_index: true,
        pieces: Default::default(),
        glob: None,
        root_selector: None,
        exclude_selectors: Vec::new(),
        force_language: None,
        output: None,
    }
}

/// The hashed encoder under another id: an encoder whose vectors the site caches, as it caches
/// MiniLM's (the hashed encoder's own are computed again on every build).
struct Slow(HashedNgramEncoder);

impl hipporag_wasm::embeddings::Encoder for Slow {
    fn info(&self) -> hipporag_wasm::embeddings::EncoderInfo {
        hipporag_wasm::embeddings::EncoderInfo {
            id: "slow-test-encoder".into(),
            ..self.0.info()
        }
    }
    fn encode(&self, texts: &[&str]) -> hipporag_wasm::Result<Vec<f32>> {
        self.0.encode(texts)
    }
}

/// The lines of the site's OpenIE cache and the names of its cache files.
fn cache_files(dir: &Path) -> (usize, Vec<String>) {
    let cache = dir.join(".hipporag-cache");
    let lines = std::fs::read_to_string(cache.join("openie.jsonl"))
        .unwrap()
        .lines()
        .count();
    let mut names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (lines, names)
}

/// Stand-ins for the wasm package (the build only copies these files).
fn fake_pkg(dir: &Path) {
    for f in PKG_FILES {
        std::fs::write(dir.join(f), format!("stand-in for {f}")).unwrap();
    }
}

/// Every file below the output directory, by its path relative to it.
fn output(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    let base = dir.join(OUTPUT_DIR);
    walk(&base, &base, &mut out);
    out
}

#[test]
fn passages_carry_url_anchor_and_heading_path() {
    let tmp = tempfile::tempdir().unwrap();
    write_site(tmp.path());
    let read = read_site(tmp.path(), &[], false, Language::English).unwrap();
    let (pages, passages) = (read.files, read.passages);
    assert_eq!(pages, 3);
    let got: Vec<(&str, &str)> = passages
        .iter()
        .map(|p| (p.passage.url.as_deref().unwrap(), p.passage.title.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("/guide/gears.html#gears", "Gears"),
            ("/guide/gears.html#spindles", "Gears › Spindles"),
            ("/index.html#widgets", "Widgets"),
            ("/index.html#install", "Widgets › Install"),
            ("/notes.html#release-notes", "Release notes"),
            ("/notes.html#known-issues", "Release notes › Known issues"),
        ]
    );
    assert!(
        passages.iter().all(|p| !p.passage.text.contains("©")),
        "footer skipped"
    );
    let read = read_site(tmp.path(), &["guide/**".into()], false, Language::English).unwrap();
    assert_eq!(read.files, 2, "--exclude");
}

/// The heads of two kinds of page on Debian's rust-doc: mdBook's `book/print.html` (the whole
/// book again, `noindex`) and one of its 10,098 redirect stubs
/// (`rustdoc/the-doc-attribute.html`).
#[test]
fn noindex_pages_and_redirect_stubs_are_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    write_site(tmp.path());
    std::fs::write(
        tmp.path().join("print.html"),
        r#"<!DOCTYPE HTML><html lang="en"><head><meta charset="UTF-8"><title>The Rust Programming Language</title>
<meta name="robots" content="noindex" /></head><body><main><h1>Widgets, all chapters</h1><p>Widgets again.</p></main></body></html>"#,
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("moved.html"),
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Redirecting...</title>
<meta http-equiv="refresh" content="0;URL='index.html'"></head>
<body><p>Redirecting to... <a href="index.html">index.html</a>.</p></body></html>"#,
    )
    .unwrap();
    let urls = |r: &hipporag_indexer::site::SitePages| -> Vec<String> {
        let mut u: Vec<String> = r
            .passages
            .iter()
            .map(|p| {
                p.passage
                    .url
                    .clone()
                    .unwrap()
                    .split('#')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        u.dedup();
        u
    };
    let read = read_site(tmp.path(), &[], false, Language::English).unwrap();
    assert_eq!((read.files, read.noindex, read.redirects), (5, 1, 1));
    assert_eq!(
        urls(&read),
        ["/guide/gears.html", "/index.html", "/notes.html"]
    );
    let read = read_site(tmp.path(), &[], true, Language::English).unwrap();
    assert_eq!((read.files, read.noindex, read.redirects), (5, 0, 1));
    assert_eq!(
        urls(&read),
        [
            "/guide/gears.html",
            "/index.html",
            "/notes.html",
            "/print.html"
        ]
    );
}

/// A site whose every page asks not to be indexed (a staging copy, say) fails with an error
/// that says so and names the flag that indexes them; with the flag it builds.
#[test]
fn a_site_of_noindex_pages_says_why_it_has_no_text() {
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    let site = tempfile::tempdir().unwrap();
    std::fs::write(
        site.path().join("guide.html"),
        r#"<html><head><meta name="robots" content="noindex, nofollow"></head><body><main><h1>Widgets</h1><p>Widgets turn spindles.</p></main></body></html>"#,
    )
    .unwrap();
    let err = build_site(site.path(), &enc, None, &opts(pkg.path()), &())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no page with text")
            && err.contains("1 of 1 pages ask not to be indexed")
            && err.contains("--include-noindex"),
        "{err}"
    );
    let with_flag = SiteOptions {
        include_noindex: true,
        ..opts(pkg.path())
    };
    let r = build_site(site.path(), &enc, None, &with_flag, &()).unwrap();
    assert_eq!((r.pages, r.noindex_pages, r.passages), (1, 0, 1));
}

/// Pagefind's rule: once a page marks its body (`data-pagefind-body`), pages that do not are
/// not content (listings, tag pages) and are left out.
#[test]
fn pages_without_a_marked_body_are_left_out_once_one_page_has_one() {
    let tmp = tempfile::tempdir().unwrap();
    write_site(tmp.path());
    let read = read_site(tmp.path(), &[], false, Language::English).unwrap();
    assert_eq!(read.unmarked, 0, "no page is marked");
    std::fs::write(
        tmp.path().join("post.html"),
        r#"<html><body><nav>Tags</nav><article data-pagefind-body><h1>Spindle torque</h1><p>Torque grows with the spindle's gear ratio.</p></article></body></html>"#,
    )
    .unwrap();
    let read = read_site(tmp.path(), &[], false, Language::English).unwrap();
    assert_eq!((read.files, read.unmarked), (4, 3));
    let urls: Vec<&str> = read
        .passages
        .iter()
        .map(|p| p.passage.url.as_deref().unwrap())
        .collect();
    assert_eq!(urls, ["/post.html#spindle-torque"]);
}

#[test]
fn incremental_rebuild_reuses_unchanged_passages_and_equals_a_clean_build() {
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    // The static word embeddings' encoder (MiniLM on real sites): another dimension, its own cache.
    let words = Slow(HashedNgramEncoder::new(64));
    let a = tempfile::tempdir().unwrap();
    write_site(a.path());
    let first = build_site(a.path(), &enc, Some(&words), &opts(pkg.path()), &()).unwrap();
    assert_eq!(
        (first.pages, first.passages, first.openie_cached),
        (3, 6, 0)
    );
    // The hashed encoder's vectors are computed, not cached; the word encoder's are cached.
    assert!(first.vectors_cached == 0 && first.vectors_encoded > 0);
    assert_eq!(
        cache_files(a.path()),
        (
            6,
            vec![
                "openie.jsonl".to_string(),
                "words.slow-test-encoder.bin".to_string()
            ]
        )
    );
    assert!(
        first.static_words > 5 && first.static_words_cached == 0,
        "{first:?}"
    );
    let files = output(a.path());
    assert!(files.contains_key(first.index_file.as_ref().unwrap()));
    let meta = first
        .pieces_meta
        .as_ref()
        .expect("a lean site is written in pieces");
    assert!(files.contains_key(meta), "{meta}");
    // One term piece or more, cluster pieces holding the IVF clusters, one fragment piece or
    // more; the meta piece named by its hash, the others by the build id.
    assert!(
        first.piece_counts.by_kind().iter().all(|&(_, c)| c >= 1),
        "{first:?}"
    );
    let pieces: Vec<_> = files.keys().filter(|f| f.starts_with("index/")).collect();
    assert_eq!(pieces.len(), 1 + first.piece_counts.total());
    let name = hipporag_wasm::pieces::meta_name(&hipporag_wasm::pieces::piece_hash(&files[meta]));
    assert_eq!(*meta, format!("index/{name}"));
    let index = hipporag_indexer::pieces::PieceDir::new(a.path().join("_hipporag/index"))
        .open(&name)
        .unwrap();
    let build = hipporag_wasm::pieces::hex(&index.meta().build);
    let named = pieces
        .iter()
        .filter(|p| p.starts_with(&format!("index/{build}-")))
        .count();
    assert_eq!(named, first.piece_counts.total());
    use hipporag_indexer::site::ui_strings::{UI_STRINGS_DIR, UI_STRINGS_FILE};
    for f in hipporag_indexer::site::UI_FILES {
        if *f == UI_STRINGS_FILE {
            // Shipped cut into one file per language, which a page loads alone.
            assert!(!files.contains_key(*f), "{f} is shipped whole");
            for code in ["de", "ar", "ja", "zh-Hant"] {
                let part = format!("{UI_STRINGS_DIR}/{code}.json");
                let strings: serde_json::Value = serde_json::from_slice(&files[&part]).unwrap();
                assert!(strings["search"].is_string(), "{part}: {strings}");
            }
        } else {
            assert!(files.contains_key(*f), "{f} is shipped");
        }
    }

    // Unchanged rebuild: everything from the cache, same bytes.
    let again = build_site(a.path(), &enc, Some(&words), &opts(pkg.path()), &()).unwrap();
    assert_eq!(
        (again.openie_cached, again.vectors_encoded),
        (6, first.vectors_encoded)
    );
    assert_eq!(again.static_words_cached, first.static_words);
    assert_eq!(output(a.path()), files);

    // One page changes (one of its two sections): only its changed passage is extracted again.
    let changed = PAGES[1]
        .1
        .replace("designed by Charles Babbage", "designed by Mary Somerville");
    std::fs::write(a.path().join("guide/gears.html"), &changed).unwrap();
    let inc = build_site(a.path(), &enc, Some(&words), &opts(pkg.path()), &()).unwrap();
    assert_eq!(inc.openie_cached, 5);
    assert_ne!(inc.index_file, first.index_file);
    // The OpenIE cache holds this build's passages alone: the old section's record is gone.
    assert_eq!(cache_files(a.path()).0, 6);

    // A clean build of the changed site gives the same bytes.
    let b = tempfile::tempdir().unwrap();
    write_site(b.path());
    std::fs::write(b.path().join("guide/gears.html"), &changed).unwrap();
    let clean = build_site(b.path(), &enc, Some(&words), &opts(pkg.path()), &()).unwrap();
    assert_eq!(clean.openie_cached, 0);
    assert_eq!(output(a.path()), output(b.path()));
    assert_failed_build_keeps_output(a.path(), &enc, pkg.path());
}

/// A failed build of `site` (a page changed, but the wasm package is missing from `pkg`) leaves
/// its last good output in place.
fn assert_failed_build_keeps_output(site: &Path, enc: &HashedNgramEncoder, pkg: &Path) {
    let before = output(site);
    std::fs::write(
        site.join("index.html"),
        "<html><body><p>changed</p></body></html>",
    )
    .unwrap();
    let err = build_site(site, enc, None, &opts(&pkg.join("nope")), &())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(PKG_FILES[0]) && err.contains("missing"),
        "{err}"
    );
    assert_eq!(output(site), before);
}

/// The rule extractor reads the site's corpus statistics, as `hipporag index` reads a corpus's:
/// a sentence-initial word the site writes in lower case elsewhere is no phrase. When another
/// page changes whether a word is common, the passages that hold it are extracted again, and
/// the incremental rebuild still equals a clean build.
#[test]
fn corpus_statistics_reach_cached_passages() {
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    let gears = r#"<html><body><main><h1 id="gears">Gears</h1><p>Currently, Gears turn the Spindle of Ada Lovelace.</p></main></body></html>"#;
    let notes = |body: &str| {
        format!(r#"<html><body><main><h1 id="notes">Notes</h1><p>{body}</p></main></body></html>"#)
    };
    let write = |dir: &Path, body: &str| {
        std::fs::write(dir.join("gears.html"), gears).unwrap();
        std::fs::write(dir.join("notes.html"), notes(body)).unwrap();
    };
    let a = tempfile::tempdir().unwrap();
    write(a.path(), "Nothing else turns here.");
    let first = build_site(a.path(), &enc, None, &opts(pkg.path()), &()).unwrap();
    assert_eq!((first.passages, first.openie_cached), (2, 0));
    // "currently" becomes a lower-case word of the site: the gears page's passage, unchanged,
    // is extracted again ("Currently" is no longer a phrase), with the notes page's.
    write(a.path(), "The shop is currently closed.");
    let inc = build_site(a.path(), &enc, None, &opts(pkg.path()), &()).unwrap();
    assert_eq!(inc.openie_cached, 0, "{inc:?}");
    let b = tempfile::tempdir().unwrap();
    write(b.path(), "The shop is currently closed.");
    build_site(b.path(), &enc, None, &opts(pkg.path()), &()).unwrap();
    assert_eq!(output(a.path()), output(b.path()));
    // Unchanged again: both from the cache.
    let again = build_site(a.path(), &enc, None, &opts(pkg.path()), &()).unwrap();
    assert_eq!(again.openie_cached, 2);
}

/// A site in three languages: one index per `<html lang>`, each answering its own language.
#[test]
fn each_html_lang_gets_its_own_index() {
    use hipporag_indexer::pieces::PieceDir;
    use hipporag_wasm::search::Mode;
    let tmp = tempfile::tempdir().unwrap();
    write_site(tmp.path());
    // From the Chinese and Russian HippoRAG explainers (../shared/data/multilingual/).
    let zh = r#"<html lang="zh-CN"><body><main><h1 id="hipporag">HippoRAG</h1><p>俄亥俄州立大学的研究人员提出了一种新的检索框架。</p>
<h2 id="ppr">个性化PageRank</h2><p>个性化PageRank算法在知识图谱上传播概率。</p></main></body></html>"#;
    let ru = r#"<html lang="ru-RU"><body><main><h1 id="hipporag">HippoRAG</h1><p>Авторы используют персонализированный алгоритм PageRank для обхода графа знаний.</p></main></body></html>"#;
    std::fs::write(tmp.path().join("zh.html"), zh).unwrap();
    std::fs::write(tmp.path().join("ru.html"), ru).unwrap();
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let r = build_site(
        tmp.path(),
        &HashedNgramEncoder::default(),
        None,
        &opts(pkg.path()),
        &(),
    )
    .unwrap();
    let langs: Vec<(&str, usize)> = r
        .languages
        .iter()
        .map(|l| (l.lang.as_str(), l.passages))
        .collect();
    // English (no lang, and the Markdown page) has the most passages: the default, first.
    assert_eq!(langs, [("en", 6), ("zh", 2), ("ru", 1)]);
    let entry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(tmp.path().join(OUTPUT_DIR).join("hipporag-entry.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(entry["pieces"], entry["languages"][0]["pieces"]);
    assert_eq!(entry["languages"][1]["lang"], "zh");
    let dir = PieceDir::new(tmp.path().join(OUTPUT_DIR).join("index"));
    let open = |k: usize| {
        let meta = entry["languages"][k]["pieces"].as_str().unwrap();
        dir.open(meta.strip_prefix("index/").unwrap()).unwrap()
    };
    let (mut en, mut zh, mut ru) = (open(0), open(1), open(2));
    assert_eq!(
        [en.meta().language, zh.meta().language, ru.meta().language],
        [Language::English, Language::Chinese, Language::Russian]
    );
    let search = |index: &mut hipporag_wasm::pieces::Pieces, q: &str| {
        let opts = RetrieveOptions {
            mode: Mode::Bm25,
            top_k: 5,
            ..Default::default()
        };
        dir.search(index, q, &opts).unwrap()
    };
    // A Chinese question finds the Chinese section about PageRank (by character bigrams), and
    // nothing in the English index.
    let hits = search(&mut zh, "知识图谱上的概率");
    assert_eq!(hits.first().map(|h| h.0), Some(1), "{hits:?}");
    let none = |hits: Vec<(usize, f64)>| hits.iter().all(|h| h.1 == 0.0);
    assert!(none(search(&mut en, "知识图谱上的概率")));
    // An inflected Russian word finds its stem ("графа" → "граф").
    assert!(search(&mut ru, "граф")[0].1 > 0.0);
    assert!(none(search(&mut en, "граф")));
}

/// The default (lean) site is the index in pieces alone: it runs OpenIE and builds the phrase
/// graph (its phrase pieces hold every phrase node's PPR vector), and its pieces are the ones a
/// build with the single file writes, byte for byte.
#[test]
fn a_lean_site_writes_the_full_builds_pieces_with_its_phrase_graph() {
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    let words = HashedNgramEncoder::new(64);
    let pieces = |dir: &Path| -> BTreeMap<String, Vec<u8>> {
        output(dir)
            .into_iter()
            .filter(|(f, _)| f.starts_with("index/"))
            .collect()
    };
    let full = tempfile::tempdir().unwrap();
    write_site(full.path());
    let f = build_site(full.path(), &enc, Some(&words), &opts(pkg.path()), &()).unwrap();
    assert!(f.phrases > 0 && f.index_file.is_some(), "{f:?}");

    let lean = tempfile::tempdir().unwrap();
    write_site(lean.path());
    let lean_opts = SiteOptions {
        full_index: false,
        ..opts(pkg.path())
    };
    let l = build_site(lean.path(), &enc, Some(&words), &lean_opts, &()).unwrap();
    assert_eq!((l.phrases, l.index_file.clone()), (f.phrases, None));
    assert_eq!((l.pages, l.passages), (f.pages, f.passages));
    assert!(
        l.piece_counts.phrase >= 1,
        "phrase pieces: {:?}",
        l.piece_counts
    );
    assert_eq!(l.pieces_meta, f.pieces_meta);
    let lean_pieces = pieces(lean.path());
    assert!(lean_pieces.len() > 3, "{:?}", lean_pieces.keys());
    assert_eq!(lean_pieces, pieces(full.path()));
    // Only the full build ships the single file and the retriever's module.
    let files = output(lean.path());
    assert!(
        !files.keys().any(|k| k.ends_with(".hipporag")),
        "{:?}",
        files.keys()
    );
    assert!(!files.contains_key("hipporag_wasm_bg.wasm"));
    // An English site gets the small search module.
    assert_eq!(
        files["hipporag_pieces_wasm_bg.wasm"],
        b"stand-in for hipporag_pieces_wasm_bg.wasm"
    );
    // The entry names the mode only: every weight is the Rust default.
    let entry: serde_json::Value =
        serde_json::from_slice(&files[hipporag_indexer::site::ENTRY_FILE]).unwrap();
    assert_eq!(entry["search"], serde_json::json!({ "mode": "hybrid" }));
    let typed: hipporag_indexer::site::SiteEntry =
        serde_json::from_slice(&files[hipporag_indexer::site::ENTRY_FILE]).unwrap();
    assert_eq!(typed.pieces, l.pieces_meta);
}

/// Each `<html lang>` is counted with the analysis its pages were read with: XQuAD's German
/// and Thai passages as pages read as German and Thai, beside the English site; a tag without
/// an analysis of its own (Belarusian, `be`, on XQuAD's Russian passages) gets the generic one
/// (`und`) and is marked as not its own, which the CLI warns about.
#[test]
fn each_pages_language_is_reported_with_its_analysis() {
    let tmp = tempfile::tempdir().unwrap();
    write_site(tmp.path());
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/multilingual");
    for (lang, file, pages) in [
        ("de-DE", "xquad_de_corpus.json", 3),
        ("th", "xquad_th_corpus.json", 2),
        ("be", "xquad_ru_corpus.json", 1),
    ] {
        let corpus = hipporag_indexer::corpus::read_corpus(&data.join(file)).unwrap();
        for (i, p) in corpus.iter().take(pages).enumerate() {
            let page = format!(
                "<html lang=\"{lang}\"><body><main><h1>{}</h1><p>{}</p></main></body></html>",
                p.title, p.text
            );
            std::fs::write(tmp.path().join(format!("{lang}-{i}.html")), page).unwrap();
        }
    }
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let encoder = HashedNgramEncoder::default();
    let r = build_site(tmp.path(), &encoder, None, &opts(pkg.path()), &()).unwrap();
    let seen: Vec<(&str, usize, &str, bool)> = r
        .page_languages
        .iter()
        .map(|l| (l.tag.as_str(), l.pages, l.analysis.as_str(), l.own))
        .collect();
    // PAGES (the Markdown page among them) have no `<html lang>`.
    assert_eq!(
        seen,
        [
            ("", PAGES.len(), "en", true),
            ("de", 3, "de", true),
            ("th", 2, "th", true),
            ("be", 1, "und", false),
        ]
    );
    // One index per analysis, the largest first.
    let langs: Vec<(&str, &[String])> = r
        .languages
        .iter()
        .map(|l| (l.lang.as_str(), l.tags.as_slice()))
        .collect();
    let be = ["be".to_string()];
    assert_eq!(
        langs,
        [
            ("en", &[][..]),
            ("de", &[][..]),
            ("th", &[][..]),
            ("und", &be[..])
        ]
    );
    // German needs a stemmer the small search module lacks: the site is served the module
    // with rust-stemmers' eighteen, under the small one's names.
    let served_as = |build: StemmerBuild| {
        let files = output(tmp.path());
        for &(b, small, larger) in hipporag_indexer::site::LARGER_PIECES_FILES {
            assert!(!files.contains_key(larger));
            if b == build {
                assert_eq!(files[small], format!("stand-in for {larger}").into_bytes());
            }
        }
    };
    served_as(StemmerBuild::Snowball);
    // A page in Polish, whose stemmer is Snowball 3.0's: the module with those too.
    std::fs::write(
        tmp.path().join("pl.html"),
        "<html lang=\"pl\"><body><main><h1>Wyjątki</h1><p>Błędy wykryte podczas wykonywania programu nazywa się wyjątkami.</p></main></body></html>",
    )
    .unwrap();
    let r = build_site(tmp.path(), &encoder, None, &opts(pkg.path()), &()).unwrap();
    let pl = r.page_languages.iter().find(|l| l.tag == "pl").unwrap();
    assert_eq!((pl.pages, pl.analysis.as_str(), pl.own), (1, "pl", true));
    served_as(StemmerBuild::Snowball3);
}

/// A small site marked up with Pagefind's attributes (ids by path: a, b, c, d in English; one
/// German page in its own index).
const ATTRIBUTED: &[(&str, &str)] = &[
    (
        "a.html",
        r#"<html><head><title>A</title>
<meta data-pagefind-filter="section[content]" content="library">
<meta data-pagefind-sort="date[content]" content="2021-05-01"></head>
<body data-pagefind-sort="weight:10" data-hipporag-sort="rank:2"><main><h1>Alpha gears</h1><img src="/a.png" alt="Alpha">
<p>Alpha gears turn the spindle of the engine.</p><h2 id="more">More</h2><p>Gears mesh with other gears.</p></main></body></html>"#,
    ),
    (
        "b.html",
        r#"<html><body data-pagefind-sort="weight:9" data-hipporag-sort="rank:10"><main data-pagefind-filter="any:x"><h1>Beta spindles</h1>
<p data-pagefind-filter="section">tutorial</p><p data-hipporag-filter="section:library"></p>
<p data-pagefind-meta="author">Ada Lovelace</p><p>Spindles hold the gears.</p>
<span data-pagefind-sort="date">2020-01-01</span></main></body></html>"#,
    ),
    (
        "c.html",
        r#"<html><body data-pagefind-sort="weight:-1.5" data-hipporag-sort="rank:x"><main><h1>Gamma engine</h1>
<p data-pagefind-filter="section:tutorial">The engine runs on steam.</p></main></body></html>"#,
    ),
    ("d.md", "# Delta notes\n\nNotes on the engine's gears.\n"),
    (
        "de.html",
        r#"<html lang="de"><body><main data-pagefind-filter="section:handbuch"><h1>Zahnräder</h1>
<p>Die Zahnräder drehen die Spindel der Maschine.</p></main></body></html>"#,
    ),
];

fn gunzip(bytes: &[u8]) -> serde_json::Value {
    let mut d = flate2::read::GzDecoder::new(bytes);
    serde_json::from_reader(&mut d).unwrap()
}

/// The page records in the fragment pieces of `site`'s index whose meta piece is `meta`
/// (`index/….bin`), by page id (a page in two pieces must be listed alike in both).
fn fragment_pages(site: &Path, meta: &str) -> BTreeMap<u64, serde_json::Value> {
    let files = output(site);
    let index = hipporag_indexer::pieces::PieceDir::new(site.join(OUTPUT_DIR).join("index"))
        .open(meta.strip_prefix("index/").unwrap())
        .unwrap();
    let build = hipporag_wasm::pieces::hex(&index.meta().build);
    let mut pages = BTreeMap::new();
    for (name, bytes) in &files {
        if !name.starts_with(&format!("index/{build}-f")) {
            continue;
        }
        let piece = gunzip(bytes);
        // Its passages' pages, in order: pages are numbered by first appearance, so the k-th
        // distinct URL (without `#anchor`) is the k-th record's.
        let mut urls: Vec<(String, String)> = Vec::new();
        for p in piece["passages"].as_array().unwrap() {
            let url = p["url"].as_str().unwrap_or("").split('#').next().unwrap();
            let title = p["title"].as_str().unwrap().split(" › ").next().unwrap();
            if urls.last().is_none_or(|(u, _)| u != url) {
                urls.push((url.to_string(), title.to_string()));
            }
        }
        for (k, r) in piece["pages"].as_array().unwrap().iter().enumerate() {
            let id = r["id"].as_u64().unwrap();
            let r = expand_record(r, &urls[k]);
            if let Some(before) = pages.insert(id, r.clone()) {
                assert_eq!(before, r, "page {id} listed twice, differently");
            }
        }
    }
    pages
}

/// A fragment piece's page record `r` with what it leaves out filled back in from its page's
/// passages (`url`, `title`), as hipporag-pieces.js's `page()` does (docs/index-format.md).
fn expand_record(r: &serde_json::Value, (url, title): &(String, String)) -> serde_json::Value {
    let mut r = r.as_object().unwrap().clone();
    r.entry("url").or_insert(url.as_str().into());
    let meta = r
        .entry("meta")
        .or_insert(serde_json::json!({}))
        .as_object_mut()
        .unwrap();
    match meta.get("title") {
        None => {
            meta.insert("title".into(), title.as_str().into());
        }
        Some(serde_json::Value::Null) => {
            meta.remove("title");
        }
        Some(_) => {}
    }
    r.entry("filters").or_insert(serde_json::json!({}));
    r.entry("sort").or_insert(serde_json::json!({}));
    serde_json::Value::Object(r)
}

/// Pagefind's filters, metadata and sorts through a whole build: the entry names each
/// language's filter and sort pieces (the default language's at the top level too), the pieces
/// hold each value's pages and each key's order (numeric only when every value is a number,
/// pages without the key left out), every fragment piece lists its pages' records, a reserved
/// filter key is named in the problems, and two builds give the same bytes. A site without the
/// attributes gets no filter or sort piece, and its fragments still carry each page's title.
#[test]
fn filters_metadata_and_sorts_reach_the_index() {
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    let write = |dir: &Path| {
        for (name, text) in ATTRIBUTED {
            std::fs::write(dir.join(name), text).unwrap();
        }
    };
    let lean = SiteOptions {
        full_index: false,
        ..opts(pkg.path())
    };
    let site = tempfile::tempdir().unwrap();
    write(site.path());
    let r = build_site(site.path(), &enc, None, &lean, &()).unwrap();
    let files = output(site.path());
    let entry: serde_json::Value = serde_json::from_slice(&files["hipporag-entry.json"]).unwrap();
    let (en, de) = (&entry["languages"][0], &entry["languages"][1]);
    assert_eq!(
        (en["lang"].as_str(), de["lang"].as_str()),
        (Some("en"), Some("de"))
    );
    assert_eq!(entry["filters"], en["filters"]);
    assert_eq!(entry["sorts"], en["sorts"]);
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&en["filters"]), ["section"]);
    assert_eq!(keys(&en["sorts"]), ["date", "rank", "weight"]);
    assert_eq!(keys(&de["filters"]), ["section"]);
    assert!(de.get("sorts").is_none(), "{de}");
    let piece = |path: &serde_json::Value| {
        let path = path.as_str().unwrap();
        let name =
            hipporag_wasm::pieces::meta_name(&hipporag_wasm::pieces::piece_hash(&files[path]));
        assert_eq!(path, format!("index/{name}"), "named by its hash");
        gunzip(&files[path])
    };
    assert_eq!(
        piece(&en["filters"]["section"]),
        serde_json::json!({"key": "section", "values": {"library": [0, 1], "tutorial": [1, 2]}})
    );
    assert_eq!(
        piece(&de["filters"]["section"]),
        serde_json::json!({"key": "section", "values": {"handbuch": [0]}})
    );
    // Dates are no numbers: by their bytes. Weights are: -1.5 < 9 < 10. Ranks "2", "10", "x":
    // not all numbers, so "10" < "2" < "x". The Markdown page (3) has no sort value: absent.
    let sorts = &en["sorts"];
    assert_eq!(
        piece(&sorts["date"]),
        serde_json::json!({"key": "date", "numeric": false, "pages": [1, 0]})
    );
    assert_eq!(
        piece(&sorts["weight"]),
        serde_json::json!({"key": "weight", "numeric": true, "pages": [2, 1, 0]})
    );
    assert_eq!(
        piece(&sorts["rank"]),
        serde_json::json!({"key": "rank", "numeric": false, "pages": [1, 0, 2]})
    );

    // Every page's record, in the fragments.
    let read = read_site(site.path(), &[], false, Language::English).unwrap();
    let words = |url: &str| -> usize {
        read.passages
            .iter()
            .filter(|p| p.passage.url.as_deref().unwrap().split('#').next() == Some(url))
            .map(|p| p.passage.text.split_whitespace().count())
            .sum()
    };
    let pages = fragment_pages(site.path(), en["pieces"].as_str().unwrap());
    assert_eq!(pages.keys().copied().collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(
        pages[&0],
        serde_json::json!({
            "id": 0, "url": "/a.html",
            "meta": {"title": "Alpha gears", "image": "/a.png", "image_alt": "Alpha"},
            "filters": {"section": ["library"]},
            "sort": {"date": "2021-05-01", "rank": "2", "weight": "10"},
            "word_count": words("/a.html"),
        })
    );
    assert!(words("/a.html") > 10);
    assert_eq!(
        pages[&1]["meta"],
        serde_json::json!({"title": "Beta spindles", "author": "Ada Lovelace"})
    );
    assert_eq!(
        pages[&1]["filters"],
        serde_json::json!({"section": ["tutorial", "library"]})
    );
    assert_eq!(
        pages[&3],
        serde_json::json!({
            "id": 3, "url": "/d.html", "meta": {"title": "Delta notes"}, "filters": {},
            "sort": {}, "word_count": words("/d.html"),
        })
    );
    // In the pieces, that plain page's record holds only what its passages do not say.
    let raw: Vec<serde_json::Value> = files
        .iter()
        .filter(|(name, _)| name.starts_with("index/") && name.contains("-f"))
        .flat_map(|(_, bytes)| {
            gunzip(bytes)["pages"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|r| r["id"] == 3)
        .collect();
    assert!(!raw.is_empty());
    for r in raw {
        assert_eq!(
            r,
            serde_json::json!({"id": 3, "word_count": words("/d.html")})
        );
    }
    let de_pages = fragment_pages(site.path(), de["pieces"].as_str().unwrap());
    assert_eq!(de_pages[&0]["url"], "/de.html");

    // The reserved key is left out and named.
    let reserved: Vec<&hipporag_indexer::site::PageProblem> = r
        .problems
        .iter()
        .filter(|p| p.problem == hipporag_indexer::site::Problem::ReservedFilterKey)
        .collect();
    assert_eq!(reserved.len(), 1, "{:?}", r.problems);
    assert!(
        reserved[0].page == "b.html"
            && !reserved[0].left_out
            && reserved[0].detail.contains("\"any\"")
    );

    // Same inputs, same bytes.
    let again = tempfile::tempdir().unwrap();
    write(again.path());
    build_site(again.path(), &enc, None, &lean, &()).unwrap();
    assert_eq!(output(again.path()), files);

    // A site without the attributes: no filter or sort piece; fragments with each page's title.
    let plain = tempfile::tempdir().unwrap();
    write_site(plain.path());
    let p = build_site(plain.path(), &enc, None, &lean, &()).unwrap();
    let files = output(plain.path());
    let entry: serde_json::Value = serde_json::from_slice(&files["hipporag-entry.json"]).unwrap();
    for e in [&entry, &entry["languages"][0]] {
        assert!(
            e.get("filters").is_none() && e.get("sorts").is_none(),
            "{e}"
        );
    }
    assert_eq!(
        files.keys().filter(|f| f.starts_with("index/")).count(),
        1 + p.piece_counts.total()
    );
    let pages = fragment_pages(plain.path(), entry["pieces"].as_str().unwrap());
    let titles: Vec<&str> = pages
        .values()
        .map(|r| r["meta"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Gears", "Widgets", "Release notes"]);
}

/// Every file below `base`, by its `/`-separated path relative to it.
fn tree(base: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut open = vec![base.to_path_buf()];
    while let Some(dir) = open.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                open.push(p);
            } else {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy();
                out.insert(rel.replace('\\', "/"), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Asserts that two output trees hold the same files with the same bytes, naming those that
/// differ.
fn assert_same_files(got: &BTreeMap<String, Vec<u8>>, expected: &BTreeMap<String, Vec<u8>>) {
    let only = |a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        a.keys().filter(|k| !b.contains_key(*k)).cloned().collect()
    };
    let (extra, missing) = (only(got, expected), only(expected, got));
    assert!(
        extra.is_empty() && missing.is_empty(),
        "extra {extra:?}, missing {missing:?}"
    );
    let differ: Vec<&String> = got
        .iter()
        .filter(|(k, v)| expected[*k] != **v)
        .map(|(k, _)| k)
        .collect();
    assert!(differ.is_empty(), "differ: {differ:?}");
}

/// The URLs of a read site's pages, in order.
fn page_urls(read: &hipporag_indexer::site::SitePages) -> Vec<&str> {
    read.pages.iter().map(|p| p.url.as_str()).collect()
}

/// Pagefind's `glob`: which files are pages, `*` within a directory and `**` across them; a
/// `.md` page is still Markdown; `--exclude` still leaves pages out; a bad glob is named.
#[test]
fn the_glob_picks_the_pages() {
    use hipporag_indexer::site::ReadOptions;
    let tmp = tempfile::tempdir().unwrap();
    write_site(tmp.path());
    std::fs::write(
        tmp.path().join("guide/notes.txt"),
        "<h1>Plain</h1><p>Text read as HTML.</p>",
    )
    .unwrap();
    let read = |glob: &str, exclude: &[String]| {
        let opts = ReadOptions {
            glob: Some(glob.into()),
            ..ReadOptions::new(exclude, false, Language::English)
        };
        hipporag_indexer::site::read_site_with(tmp.path(), &opts).unwrap()
    };
    let default = read_site(tmp.path(), &[], false, Language::English).unwrap();
    assert_eq!(
        page_urls(&default),
        ["/guide/gears.html", "/index.html", "/notes.html"]
    );
    assert_eq!(
        page_urls(&read("**/*.{html,htm,md}", &[])),
        page_urls(&default)
    );
    assert_eq!(
        page_urls(&read("*.html", &[])),
        ["/index.html"],
        "* stays in its directory"
    );
    assert_eq!(
        page_urls(&read("**/*.html", &[])),
        ["/guide/gears.html", "/index.html"]
    );
    assert_eq!(page_urls(&read("*.md", &[])), ["/notes.html"]);
    assert_eq!(
        page_urls(&read("guide/**", &[])),
        ["/guide/gears.html", "/guide/notes.txt"]
    );
    assert_eq!(
        page_urls(&read("**/*", &["guide/**".into()])),
        ["/index.html", "/notes.html"]
    );
    let opts = ReadOptions {
        glob: Some("**/*.{html".into()),
        ..ReadOptions::new(&[], false, Language::English)
    };
    let e = hipporag_indexer::site::read_site_with(tmp.path(), &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--glob (glob) \"**/*.{html\""), "{e}");
}

/// Pagefind's `force_language`: every page in one language, whatever its `<html lang>`; one
/// index for the site. A tag without an analysis of its own keeps its tag.
#[test]
fn force_language_reads_every_page_in_one_language() {
    use hipporag_indexer::site::ReadOptions;
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let site = tempfile::tempdir().unwrap();
    write_site(site.path());
    std::fs::write(
        site.path().join("de.html"),
        r#"<html lang="de"><body><main><h1>Zahnräder</h1><p>Ein Zahnrad dreht die Spindel.</p></main></body></html>"#,
    )
    .unwrap();
    let opts = ReadOptions {
        force_language: Some("de-CH".into()),
        ..ReadOptions::new(&[], false, Language::English)
    };
    let read = hipporag_indexer::site::read_site_with(site.path(), &opts).unwrap();
    assert!(read.passages.iter().all(|p| p.language == Language::German));
    assert_eq!(read.languages.keys().collect::<Vec<_>>(), ["de"]);
    let enc = HashedNgramEncoder::default();
    let r = build_site(
        site.path(),
        &enc,
        None,
        &SiteOptions {
            force_language: Some("cs".into()),
            full_index: false,
            ..opts_for(pkg.path())
        },
        &(),
    )
    .unwrap();
    let langs: Vec<(&str, &[String])> = r
        .languages
        .iter()
        .map(|l| (l.lang.as_str(), l.tags.as_slice()))
        .collect();
    assert_eq!(langs, [("und", &["cs".to_string()][..])]);
    assert_eq!(r.pages, 4);
}

/// `opts` of a lean site.
fn opts_for(pkg: &Path) -> SiteOptions {
    SiteOptions {
        full_index: false,
        ..opts(pkg)
    }
}

/// The root selector and exclude selectors on a whole build: a page where the root matches
/// nothing is left out and named; the rest is read inside the root, less the excluded.
#[test]
fn root_and_exclude_selectors_reach_the_build() {
    use hipporag_indexer::site::Problem;
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let site = tempfile::tempdir().unwrap();
    std::fs::write(
        site.path().join("a.html"),
        r#"<html><body><div class="sidebar"><p>Sidebar links</p></div><article><h1>Gears</h1><p>A Gear turns a Spindle.</p><p class="ad">Buy gears now.</p></article></body></html>"#,
    )
    .unwrap();
    std::fs::write(
        site.path().join("b.html"),
        r#"<html><body><p>A listing without an article.</p></body></html>"#,
    )
    .unwrap();
    let enc = HashedNgramEncoder::default();
    let opts = SiteOptions {
        root_selector: Some("article".into()),
        exclude_selectors: vec![".ad".into()],
        ..opts_for(pkg.path())
    };
    let r = build_site(site.path(), &enc, None, &opts, &()).unwrap();
    assert_eq!((r.pages, r.failed_pages, r.passages), (1, 1, 1));
    assert_eq!(r.problems.len(), 1);
    assert_eq!(
        (r.problems[0].page.as_str(), r.problems[0].problem),
        ("b.html", Problem::NoRoot)
    );
    assert!(r.problems[0].detail.contains("\"article\""));
    let read = hipporag_indexer::site::read_site_with(
        site.path(),
        &hipporag_indexer::site::ReadOptions {
            root_selector: Some("article".into()),
            exclude_selectors: vec![".ad".into()],
            ..hipporag_indexer::site::ReadOptions::new(&[], false, Language::English)
        },
    )
    .unwrap();
    assert_eq!(read.passages[0].passage.text, "A Gear turns a Spindle.");
    let bad = SiteOptions {
        exclude_selectors: vec!["p >".into()],
        ..opts_for(pkg.path())
    };
    let e = build_site(site.path(), &enc, None, &bad, &())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--exclude-selectors (exclude_selectors) \"p >\""),
        "{e}"
    );
}

/// Pagefind's `output_subdir` and `output_path`: the same files as `_hipporag/`, elsewhere; an
/// output inside the site is not read as pages; a directory that holds the site, or that is
/// not empty and no previous output, is refused (the build replaces it whole).
#[test]
fn the_output_goes_where_it_is_asked_with_the_same_bytes() {
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    let default = tempfile::tempdir().unwrap();
    write_site(default.path());
    build_site(default.path(), &enc, None, &opts_for(pkg.path()), &()).unwrap();
    let expected = tree(&default.path().join(OUTPUT_DIR));
    assert!(expected.contains_key("hipporag-entry.json"));

    // A subdirectory of the site, twice (the second build replaces the first).
    let site = tempfile::tempdir().unwrap();
    write_site(site.path());
    let sub = site.path().join("assets/search");
    let with_sub = SiteOptions {
        output: Some(sub.clone()),
        ..opts_for(pkg.path())
    };
    for _ in 0..2 {
        build_site(site.path(), &enc, None, &with_sub, &()).unwrap();
        assert_same_files(&tree(&sub), &expected);
        assert!(!site.path().join(OUTPUT_DIR).exists());
    }
    // A page in the output directory is none of the site's.
    std::fs::write(sub.join("stray.html"), "<h1>Stray</h1><p>Not a page.</p>").unwrap();
    let read = hipporag_indexer::site::read_site_with(
        site.path(),
        &hipporag_indexer::site::ReadOptions {
            skip_dir: Some(sub.clone()),
            ..hipporag_indexer::site::ReadOptions::new(&[], false, Language::English)
        },
    )
    .unwrap();
    assert_eq!(read.files, 3);
    // (Once the output is elsewhere, this directory is the site's.)
    std::fs::remove_file(sub.join("stray.html")).unwrap();

    // Outside the site.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = elsewhere.path().join("out/search");
    let outside = SiteOptions {
        output: Some(out.clone()),
        ..opts_for(pkg.path())
    };
    build_site(site.path(), &enc, None, &outside, &()).unwrap();
    assert_same_files(&tree(&out), &expected);

    // Refused: the site itself, a directory holding it, a directory of other files, a file.
    for (out, why) in [
        (site.path().to_path_buf(), "it holds the site"),
        (site.path().join("guide/.."), "it holds the site"),
        (site.path().join("guide"), "no previous output"),
        (site.path().join("index.html"), "not a directory"),
    ] {
        let refused = SiteOptions {
            output: Some(out),
            ..opts_for(pkg.path())
        };
        let e = build_site(site.path(), &enc, None, &refused, &())
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{e}");
    }
    assert!(site.path().join("guide/gears.html").is_file());
}

/// `data-pagefind-weight` (Pagefind's weighting.md) reaches BM25 through `build_site`: of two
/// pages of the same text, the one whose matching line is in a `data-pagefind-weight="3"`
/// element ranks first, a line of weight 0 matches nothing, a bad value is reported naming
/// the page; and weights of 1 give the bytes of a site without the attribute.
#[test]
fn weights_move_the_bm25_ranking() {
    use hipporag_indexer::pieces::PieceDir;
    use hipporag_indexer::site::Problem;
    use hipporag_wasm::search::Mode;
    let pkg = tempfile::tempdir().unwrap();
    fake_pkg(pkg.path());
    let enc = HashedNgramEncoder::default();
    let page = |first: &str, second: &str| {
        format!(
            r#"<html><body><main><h1 id="gears">Gears</h1><p{first}>A Gear turns a Spindle. Gears were designed by Charles Babbage.</p>
<div{second}><p>The Spindle module connects to the Analytical Engine.</p></div></main></body></html>"#
        )
    };
    let write = |dir: &Path, pages: &[(&str, String)]| {
        for (name, text) in pages {
            std::fs::write(dir.join(name), text).unwrap();
        }
        std::fs::write(
            dir.join("other.html"),
            "<html><body><main><h1>Widgets</h1><p>Widgets is a library by Ada Lovelace.</p></main></body></html>",
        )
        .unwrap();
    };
    // a.html and b.html read the same; b.html's engine line weighs 3, a.html's 0.
    let site = tempfile::tempdir().unwrap();
    write(
        site.path(),
        &[
            ("a.html", page("", r#" data-pagefind-weight="0""#)),
            (
                "b.html",
                page(
                    r#" data-hipporag-weight="11""#,
                    r#" data-pagefind-weight="3""#,
                ),
            ),
        ],
    );
    let r = build_site(site.path(), &enc, None, &opts_for(pkg.path()), &()).unwrap();
    let bad: Vec<(&str, Problem, &str)> = r
        .problems
        .iter()
        .map(|p| (p.page.as_str(), p.problem, p.detail.as_str()))
        .collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!((bad[0].0, bad[0].1), ("b.html", Problem::InvalidWeight));
    assert!(bad[0].2.contains("\"11\""), "{}", bad[0].2);
    let entry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(site.path().join(OUTPUT_DIR).join("hipporag-entry.json")).unwrap(),
    )
    .unwrap();
    let dir = PieceDir::new(site.path().join(OUTPUT_DIR).join("index"));
    let meta = entry["pieces"].as_str().unwrap();
    let mut index = dir.open(meta.strip_prefix("index/").unwrap()).unwrap();
    let mut search = |q: &str| {
        let opts = RetrieveOptions {
            mode: Mode::Bm25,
            top_k: 5,
            ..Default::default()
        };
        dir.search(&mut index, q, &opts).unwrap()
    };
    // Passages in file order: a.html (0), b.html (1), other.html (2).
    let hits = search("analytical engine");
    assert_eq!(hits.first().map(|h| h.0), Some(1), "{hits:?}");
    assert!(
        hits.iter().all(|&(i, s)| i != 0 || s == 0.0),
        "weight 0: {hits:?}"
    );
    // a.html's unweighted line still matches.
    let hits = search("charles babbage");
    assert!(hits.iter().any(|&(i, s)| i == 0 && s > 0.0), "{hits:?}");

    // Weights of 1 (and none at all): the same bytes as the site without the attribute.
    let plain = tempfile::tempdir().unwrap();
    write(
        plain.path(),
        &[("a.html", page("", "")), ("b.html", page("", ""))],
    );
    build_site(plain.path(), &enc, None, &opts_for(pkg.path()), &()).unwrap();
    let ones = tempfile::tempdir().unwrap();
    write(
        ones.path(),
        &[
            ("a.html", page(r#" data-pagefind-weight="1""#, "")),
            ("b.html", page("", r#" data-hipporag-weight="1.0""#)),
        ],
    );
    build_site(ones.path(), &enc, None, &opts_for(pkg.path()), &()).unwrap();
    assert_same_files(
        &tree(&ones.path().join(OUTPUT_DIR)),
        &tree(&plain.path().join(OUTPUT_DIR)),
    );
}
