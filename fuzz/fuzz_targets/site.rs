//! `hipporag site` on sites of random pages: the input, cut at 0x1D bytes, is up to six
//! entries, each a name (its first byte picks one, some of them links) and the page's bytes.
//! The build returns a report or an error and never panics; the reader fails on no page (it
//! would name it `readerFailed`), and no passage holds a control character.
#![no_main]

use std::path::Path;
use std::sync::LazyLock;

use hipporag_indexer::site::{Assets, PKG_FILES, Problem, SiteOptions, UI_FILES};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::text::Language;

/// The names an entry's first byte picks from: pages of each kind, a page in a directory
/// named like a page, and links (`->`): to the previous page, to a directory, dangling.
const NAMES: &[&str] = &[
    "index.html",
    "guide/page.html",
    "notes.md",
    "old.htm",
    "dir.html/inner.html",
    "deep/a/b/c.md",
    "link.html -> index.html",
    "up -> ..",
    "dangling.html -> nowhere.html",
    "self.html -> self.html",
];

/// Stand-ins for every browser file the output copies ([`PKG_FILES`], [`UI_FILES`]): with one
/// missing, every build would stop at its check of the files, before reading a page.
fn stand_ins(names: &'static [&'static str]) -> Vec<(&'static str, &'static [u8])> {
    let bytes = |f: &str| -> &'static [u8] {
        match f.rsplit('.').next() {
            Some("wasm") => b"\0asm",
            Some("json") => br#"{"de":{"search":"Suche"}}"#,
            Some("css") => b"p{}",
            _ => b"export {};",
        }
    };
    names.iter().map(|&f| (f, bytes(f))).collect()
}
static PKG: LazyLock<Vec<(&str, &[u8])>> = LazyLock::new(|| stand_ins(PKG_FILES));
static UI: LazyLock<Vec<(&str, &[u8])>> = LazyLock::new(|| stand_ins(UI_FILES));

/// Writes the entries of `data` below `dir`.
fn write_site(dir: &Path, data: &[u8]) {
    for entry in data.split(|&b| b == 0x1D).take(6) {
        let Some((&pick, bytes)) = entry.split_first() else {
            continue;
        };
        let name = NAMES[usize::from(pick) % NAMES.len()];
        match name.split_once(" -> ") {
            Some((link, target)) => {
                let _ = std::os::unix::fs::symlink(target, dir.join(link));
            }
            None => {
                let path = dir.join(name);
                let _ = std::fs::create_dir_all(path.parent().expect("a parent"));
                let _ = std::fs::write(path, bytes);
            }
        }
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let site = tempfile::tempdir().expect("a temporary directory");
    write_site(site.path(), data);
    let read = hipporag_indexer::site::read_site(site.path(), &[], false, Language::English)
        .expect("a readable directory");
    assert!(
        read.problems
            .iter()
            .all(|p| p.problem != Problem::ReaderFailed),
        "{:?}",
        read.problems
    );
    for p in &read.passages {
        let (title, text) = (&p.passage.title, &p.passage.text);
        assert!(!title.contains(char::is_control), "{title:?}");
        assert!(
            !text.contains(|c: char| c.is_control() && c != '\n'),
            "{text:?}"
        );
    }
    let opts = SiteOptions {
        pkg: Assets::Embedded(PKG.as_slice()),
        ui: Assets::Embedded(UI.as_slice()),
        build: Default::default(),
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
    let encoder = HashedNgramEncoder::default();
    let _ = hipporag_indexer::site::build_site(site.path(), &encoder, None, &opts, &());
});
