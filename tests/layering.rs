//! ARCHITECTURE.md's layering of the core, checked against the code: each directory of `src/`
//! imports only the layers below it, and no file of a directory imports a file that imports it
//! back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, from ARCHITECTURE.md's line that begins "Layers, lowest first".
fn layers(root: &Path) -> Vec<String> {
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let line = doc
        .lines()
        .skip_while(|l| !l.starts_with("Layers, lowest first"))
        .nth(1)
        .expect("ARCHITECTURE.md: a line after \"Layers, lowest first\" listing the layers");
    line.split('·')
        .map(|s| s.trim().trim_matches('`').to_string())
        .collect()
}

/// `text` without comments (line comments and doc comments; no `//` sits in a string of `src/`
/// that this check would misread).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path `prefix::…` in `code` as its segments, a `{…}` group read as one path per item
/// (`crate::graph::{Seed, top_k}` → `[graph, Seed]`, `[graph, top_k]`).
fn paths(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        expand(rest, Vec::new(), &mut out);
    }
    out
}

fn ident(s: &str) -> (&str, &str) {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// Reads the path at the start of `s` after `head`, into `out`.
fn expand(s: &str, head: Vec<String>, out: &mut Vec<Vec<String>>) {
    let s = s.trim_start();
    if let Some(group) = s.strip_prefix('{') {
        let mut depth = 1;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 1 => {
                    let item = group[start..i].trim();
                    if !item.is_empty() {
                        expand(item, head.clone(), out);
                    }
                    start = i + 1;
                    if c == '}' {
                        return;
                    }
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        return;
    }
    let (name, rest) = ident(s);
    if name.is_empty() {
        return;
    }
    let mut path = head;
    path.push(name.to_string());
    match rest.strip_prefix("::") {
        Some(more) => expand(more, path, out),
        None => out.push(path),
    }
}

/// The files of `src/` by directory (`""` for the root's).
fn sources(root: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in std::fs::read_dir(root.join("src")).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            let dir = p.file_name().unwrap().to_str().unwrap().to_string();
            for f in std::fs::read_dir(&p).unwrap() {
                out.entry(dir.clone()).or_default().push(f.unwrap().path());
            }
        } else {
            out.entry(String::new()).or_default().push(p);
        }
    }
    out
}

/// The layer an item the crate root re-exports lives in (`crate::Error` → `error`), from
/// `src/lib.rs`'s `pub use layer::{…}` lines.
fn root_items(root: &Path) -> BTreeMap<String, String> {
    let lib = code(&std::fs::read_to_string(root.join("src/lib.rs")).unwrap());
    let mut out = BTreeMap::new();
    for path in paths(&lib.replace("pub use ", "pub use ::"), "pub use ::") {
        if let [layer, item] = path.as_slice() {
            out.insert(item.clone(), layer.clone());
        }
    }
    out
}

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let layers = layers(root);
    let rank = |l: &str| layers.iter().position(|x| x == l);
    let dirs = sources(root);
    for dir in dirs.keys().filter(|d| !d.is_empty()) {
        assert!(
            rank(dir).is_some(),
            "src/{dir}/ is in no layer of ARCHITECTURE.md"
        );
    }
    let reexported = root_items(root);
    let mut breaches = Vec::new();
    for (dir, files) in dirs.iter().filter(|(d, _)| !d.is_empty()) {
        for f in files {
            let text = code(&std::fs::read_to_string(f).unwrap());
            for p in paths(&text, "crate::") {
                let layer = if rank(&p[0]).is_some() {
                    p[0].clone()
                } else if let Some(l) = reexported.get(&p[0]) {
                    l.clone()
                } else {
                    continue;
                };
                if rank(&layer) > rank(dir) {
                    breaches.push(format!("{} imports crate::{}", f.display(), p.join("::")));
                }
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "imports upwards:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn no_file_of_a_layer_imports_a_file_that_imports_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, files) in sources(root).iter().filter(|(d, _)| !d.is_empty()) {
        let stem = |p: &Path| p.file_stem().unwrap().to_str().unwrap().to_string();
        // Which file each item the directory's mod.rs re-exports comes from.
        let module =
            code(&std::fs::read_to_string(root.join("src").join(dir).join("mod.rs")).unwrap());
        let mut home: BTreeMap<String, String> = BTreeMap::new();
        for p in paths(&module.replace("use ", "use ::"), "use ::") {
            if let [file, item] = p.as_slice() {
                home.insert(item.clone(), file.clone());
            }
        }
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in files {
            let me = stem(f);
            let text = code(&std::fs::read_to_string(f).unwrap());
            let mut to = BTreeSet::new();
            for p in paths(&text, "crate::") {
                if p[0] == *dir
                    && let Some(h) = p.get(1).and_then(|i| home.get(i))
                {
                    to.insert(h.clone());
                }
            }
            for p in paths(&text, "super::") {
                if let Some(h) = home.get(&p[0]) {
                    to.insert(h.clone());
                } else if files.iter().any(|g| stem(g) == p[0]) {
                    to.insert(p[0].clone());
                }
            }
            to.remove(&me);
            edges.insert(me, to);
        }
        // Depth-first search for a cycle.
        fn visit(
            n: &str,
            edges: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            if let Some(i) = path.iter().position(|p| p == n) {
                return Some(path[i..].to_vec());
            }
            if done.contains(n) {
                return None;
            }
            path.push(n.to_string());
            for m in edges.get(n).into_iter().flatten() {
                if let Some(c) = visit(m, edges, path, done) {
                    return Some(c);
                }
            }
            path.pop();
            done.insert(n.to_string());
            None
        }
        let mut done = BTreeSet::new();
        for n in edges.keys() {
            let cycle = visit(n, &edges, &mut Vec::new(), &mut done);
            assert!(
                cycle.is_none(),
                "src/{dir}/: files import each other: {cycle:?}"
            );
        }
    }
}

#[test]
fn the_path_reader_reads_groups_and_nested_paths() {
    let p = paths(
        "use crate::graph::{Seed, top_k};\nuse crate::{Error, lexical::{a, b::C}};\nxcrate::no",
        "crate::",
    );
    let got: Vec<String> = p.iter().map(|v| v.join("::")).collect();
    assert_eq!(
        got,
        [
            "graph::Seed",
            "graph::top_k",
            "Error",
            "lexical::a",
            "lexical::b::C"
        ]
    );
}
