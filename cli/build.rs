//! Embeds the browser files of `hipporag site` — the retriever's wasm package (`pkg/`), the
//! MiniLM query encoder's (`pkg/minilm/`) and the JS API and default UI (`www/site/`, minified
//! into `pkg/site/` by `./build.sh build`) — into the
//! binary when `./build.sh build` has made them, so that an installed `hipporag site DIR` works
//! from any directory (Pagefind ships its wasm the same way). Without them (`cargo build` before
//! `./build.sh build`) the binary reads them from this source tree instead, or from `--pkg` /
//! `--ui`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The `.js` and `.wasm` files of `dir` (not the TypeScript declarations or package.json the
/// wasm-bindgen output also holds), or every file for the UI; sorted; `None` when `dir` is
/// missing or holds none.
fn files(dir: &Path, all: bool) -> Option<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| all || matches!(p.extension().and_then(|x| x.to_str()), Some("js" | "wasm")))
        .collect();
    out.sort();
    (!out.is_empty()).then_some(out)
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo")).join("..");
    let sets = [
        ("PKG", root.join("pkg"), false),
        ("MINILM_PKG", root.join("pkg/minilm"), false),
        // `./build.sh build` minifies www/site/ into pkg/site/: the files sites serve.
        (
            "UI",
            if root.join("pkg/site").is_dir() {
                root.join("pkg/site")
            } else {
                root.join("www/site")
            },
            true,
        ),
    ];
    println!("cargo::rustc-check-cfg=cfg(embedded_assets)");
    // pkg/site/ may appear after a first build without it.
    println!(
        "cargo::rerun-if-changed={}",
        root.join("pkg/site").display()
    );
    let mut code = String::new();
    let mut complete = true;
    for (name, dir, all) in &sets {
        println!("cargo::rerun-if-changed={}", dir.display());
        let Some(list) = files(dir, *all) else {
            complete = false;
            continue;
        };
        writeln!(code, "pub static {name}: &[(&str, &[u8])] = &[").unwrap();
        for p in list {
            let file = p
                .file_name()
                .and_then(|f| f.to_str())
                .expect("UTF-8 file name");
            let abs = p.canonicalize().expect("a listed file");
            writeln!(
                code,
                "    ({file:?}, include_bytes!({:?})),",
                abs.display().to_string()
            )
            .unwrap();
        }
        writeln!(code, "];").unwrap();
    }
    if complete {
        let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("assets.rs");
        std::fs::write(&out, code).expect("write OUT_DIR/assets.rs");
        println!("cargo::rustc-cfg=embedded_assets");
    }
}
