//! `hipporag site` needs no source tree: a binary built after `./build.sh build` carries the wasm
//! packages and the UI (`build.rs`), so a copy of it run from another directory writes a
//! complete `_hipporag/` whose files equal the repository's. Built before them, it names the
//! missing file and the command that makes it.

use std::path::Path;
use std::process::Command;

use hipporag_indexer::site::ui_strings::{UI_STRINGS_DIR, UI_STRINGS_FILE, split};
use hipporag_indexer::site::{LARGER_PIECES_FILES, PKG_FILES as PKG, UI_FILES as UI};

#[test]
fn an_installed_binary_writes_the_site_files_from_any_directory() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let elsewhere = tempfile::tempdir().unwrap();
    // The binary alone, away from the source tree (as `cargo install` leaves it).
    let bin = elsewhere.path().join("hipporag");
    std::fs::copy(env!("CARGO_BIN_EXE_hipporag"), &bin).unwrap();
    let site = elsewhere.path().join("public");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(
        site.join("index.html"),
        "<html><body><main><h1>Widgets</h1><p>Install widgets with <code>pip install widgets</code>.</p></main></body></html>",
    )
    .unwrap();
    let out = Command::new(&bin)
        .current_dir(elsewhere.path())
        .args([
            "site",
            "public",
            "--no-static-embeddings",
            "--full-index",
            "--json",
        ])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let built_after_pkg = PKG.iter().all(|f| repo.join("pkg").join(f).is_file());
    if !built_after_pkg {
        // No package to embed or copy: the error names the file and the fix.
        assert!(!out.status.success());
        assert!(
            PKG.iter().any(|f| stderr.contains(f)) && stderr.contains("./build.sh build"),
            "{stderr}"
        );
        return;
    }
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Not this source tree's pkg/ (which still exists here): the binary's own copy.
    assert_eq!(report["pkg"], "embedded", "{report}");
    let written = site.join("_hipporag");
    // The UI as build.rs embeds it: minified into pkg/site/ by `./build.sh build`, else as written.
    let ui = if repo.join("pkg/site").is_dir() {
        repo.join("pkg/site")
    } else {
        repo.join("www/site")
    };
    // The search module's larger builds serve sites in other languages, under the small
    // module's names: this English site gets the small one.
    let served = |f: &&&str| {
        !LARGER_PIECES_FILES
            .iter()
            .any(|(_, _, larger)| larger == *f)
    };
    let whole = |f: &&&str| **f != UI_STRINGS_FILE;
    for (dir, files) in [(repo.join("pkg"), PKG), (ui.clone(), UI)] {
        for f in files.iter().filter(served).filter(whole) {
            assert_eq!(
                std::fs::read(written.join(f)).unwrap(),
                std::fs::read(dir.join(f)).unwrap(),
                "{f} differs from the repository's"
            );
        }
    }
    // The UI's strings, one file per language, each the repository's.
    let strings = ui.join(UI_STRINGS_FILE);
    let parts = split(&strings, &std::fs::read(&strings).unwrap()).unwrap();
    assert!(parts.len() >= 50, "{} languages", parts.len());
    for (code, json) in parts {
        let f = written.join(UI_STRINGS_DIR).join(format!("{code}.json"));
        assert_eq!(std::fs::read(&f).unwrap(), json, "{}", f.display());
    }
}
