//! `hipporag site`'s command line, environment and config file, as Pagefind's: the binary run on
//! a made-up site with each of Pagefind's options as a flag, as `HIPPORAG_*` and `PAGEFIND_*`
//! variables and as a key of each config file format (a table of cases, each checked by what the
//! build did); every key of every format read (`--verbose` names each option's value and
//! source); flags over variables over the file over the defaults; the errors for unknown and
//! unsupported keys, flags and variables; Pagefind's `pagefind.*` read when there is no
//! `hipporag.*`; `--output-path`; and `--serve` answering HTTP on loopback.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use hipporag_indexer::site::PKG_FILES;
use serde_json::{Value, json};

/// The made-up site, below `public/`: an English page with a sponsored block, a page whose
/// content is an `<article>`, a Markdown page, a German page and a `noindex` page.
const PAGES: &[(&str, &str)] = &[
    (
        "index.html",
        r#"<html lang="en"><head><title>Widgets</title></head><body><nav>Home</nav><main>
<h1 id="widgets">Widgets</h1><p>Widgets is a library for drawing gears.</p>
<div class="ad"><h2 id="sponsored">Sponsored</h2><p>Buy gears now.</p></div></main></body></html>"#,
    ),
    (
        "guide/gears.html",
        r#"<html lang="en"><body><div class="sidebar">Links</div><article><h1 id="gears">Gears</h1>
<p>A Gear turns a Spindle.</p></article></body></html>"#,
    ),
    (
        "notes.md",
        "# Release notes\n\nVersion 2 adds the Spindle module.\n",
    ),
    (
        "de/index.html",
        r#"<html lang="de"><body><main><h1 id="zahnraeder">Zahnräder</h1><p>Ein Zahnrad dreht die Spindel.</p></main></body></html>"#,
    ),
    (
        "print.html",
        r#"<html lang="en"><head><meta name="robots" content="noindex"></head><body><main><h1>All</h1><p>Widgets again.</p></main></body></html>"#,
    ),
];

/// A working directory holding the site (`public/`) and stand-ins for the wasm package.
struct Work {
    dir: tempfile::TempDir,
}

impl Work {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in PAGES {
            let p = dir.path().join("public").join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let pkg = dir.path().join("pkg");
        std::fs::create_dir(&pkg).unwrap();
        for f in PKG_FILES {
            std::fs::write(pkg.join(f), format!("stand-in for {f}")).unwrap();
        }
        Work { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `hipporag site ARGS` in this directory with the variables `vars`, the stand-in package,
    /// this checkout's UI and no static embeddings given as variables unless `bare` (none of the
    /// test runner's own `HIPPORAG_*` or `PAGEFIND_*` variables reach it).
    fn run_with(&self, args: &[&str], vars: &[(&str, &str)], bare: bool) -> Output {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hipporag"));
        c.current_dir(self.path()).arg("site").args(args);
        for (k, _) in std::env::vars() {
            if k.starts_with("HIPPORAG_") || k.starts_with("PAGEFIND_") || k == "RUST_LOG" {
                c.env_remove(k);
            }
        }
        if !bare {
            c.env("HIPPORAG_PKG", self.path().join("pkg"))
                .env("HIPPORAG_UI", ui())
                .env("HIPPORAG_NO_STATIC_EMBEDDINGS", "true");
        }
        c.envs(vars.iter().copied());
        c.output().unwrap()
    }

    fn run(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        self.run_with(args, vars, false)
    }

    /// The build report of a run with `--json` (as a flag, unless a case set it otherwise).
    fn report(&self, args: &[&str], vars: &[(&str, &str)]) -> Value {
        let out = self.run(args, &[vars, &[("HIPPORAG_JSON", "1")]].concat());
        assert!(out.status.success(), "{args:?} {vars:?}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
    }

    /// Writes the config file `name` with `text`, removing every other one.
    fn config(&self, name: &str, text: &str) {
        self.no_config();
        std::fs::write(self.path().join(name), text).unwrap();
    }

    fn no_config(&self) {
        for kind in ["hipporag", "pagefind"] {
            for ext in ["toml", "yml", "yaml", "json"] {
                let _ = std::fs::remove_file(self.path().join(format!("{kind}.{ext}")));
            }
        }
    }

    /// Removes what a build wrote, for the next.
    fn clean(&self) {
        for d in ["public/_hipporag", "public/search", "out"] {
            let _ = std::fs::remove_dir_all(self.path().join(d));
        }
    }
}

/// This checkout's JS API and UI.
fn ui() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/site")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A config file of format `name` (its extension) with one key: every value here is JSON,
/// which TOML (for strings, lists and booleans) and YAML (flow style) read too.
fn one_key(name: &str, key: &str, value: &Value) -> String {
    if name.ends_with(".json") {
        return json!({ key: value }).to_string();
    }
    let sep = if name.ends_with(".toml") { " =" } else { ":" };
    format!("{key}{sep} {value}\n")
}

/// The pages a report says were indexed, and its passages.
fn counts(r: &Value) -> (u64, u64) {
    (
        r["pages"].as_u64().unwrap(),
        r["passages"].as_u64().unwrap(),
    )
}

/// One of Pagefind's options, and how a build shows it took effect.
struct Case {
    key: &'static str,
    /// Its value, as a config file and a variable give it (a variable: the string, or the
    /// list's one item).
    value: Value,
    /// Flags that give it.
    flag: &'static [&'static str],
    /// Checks the build's report (`work` for files it wrote).
    check: fn(&Work, &Value),
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            key: "glob",
            value: json!("**/*.html"),
            flag: &["--glob", "**/*.html"],
            // The Markdown page is none; the noindex page is found and left out.
            check: |_, r| assert_eq!(counts(r), (3, 5), "{r}"),
        },
        Case {
            key: "root_selector",
            value: json!("article"),
            flag: &["--root-selector", "article"],
            check: |_, r| {
                // The article, and the Markdown page (no template); the others named.
                assert_eq!(counts(r), (2, 2), "{r}");
                let named: Vec<&str> = r["problems"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["page"].as_str().unwrap())
                    .collect();
                assert_eq!(named, ["de/index.html", "index.html"], "{r}");
                assert_eq!(r["problems"][0]["problem"], "noRoot");
            },
        },
        Case {
            key: "exclude_selectors",
            value: json!([".ad"]),
            flag: &["--exclude-selectors", ".ad"],
            // The sponsored section is no passage.
            check: |_, r| assert_eq!(counts(r), (4, 5), "{r}"),
        },
        Case {
            key: "force_language",
            value: json!("en"),
            flag: &["--force-language", "en"],
            check: |_, r| {
                let langs: Vec<&str> = r["languages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l["lang"].as_str().unwrap())
                    .collect();
                assert_eq!(langs, ["en"], "{r}");
            },
        },
        Case {
            key: "output_subdir",
            value: json!("search"),
            flag: &["--output-subdir", "search"],
            check: |w, _| {
                assert!(w.path().join("public/search/hipporag-entry.json").is_file());
                assert!(!w.path().join("public/_hipporag").exists());
            },
        },
        Case {
            key: "output_path",
            value: json!("out/search"),
            flag: &["--output-path", "out/search"],
            check: |w, _| {
                assert!(w.path().join("out/search/hipporag-entry.json").is_file());
                assert!(!w.path().join("public/_hipporag").exists());
            },
        },
        Case {
            key: "site",
            value: json!("public"),
            flag: &["--site", "public"],
            check: |w, r| {
                assert_eq!(counts(r), (4, 6), "{r}");
                assert!(
                    w.path()
                        .join("public/_hipporag/hipporag-entry.json")
                        .is_file()
                );
            },
        },
    ]
}

/// Each of Pagefind's options as a flag, as `HIPPORAG_*`, as `PAGEFIND_*` and as a key of a
/// config file (the formats in turn, hipporag's and Pagefind's), each checked by its effect.
#[test]
fn each_pagefind_option_as_flag_variable_and_config_key() {
    let w = Work::new();
    let files = [
        "hipporag.toml",
        "hipporag.yml",
        "hipporag.yaml",
        "hipporag.json",
        "pagefind.toml",
        "pagefind.yml",
        "pagefind.yaml",
        "pagefind.json",
    ];
    // Four pages (the noindex one left out), six passages: gears.html has no `<main>`, so its
    // `<body>` is read, sidebar and all.
    let plain = w.report(&["public"], &[]);
    assert_eq!(counts(&plain), (4, 6), "{plain}");
    w.clean();
    for (i, case) in cases().into_iter().enumerate() {
        // The site as DIR unless the case is the site.
        let site: &[&str] = if case.key == "site" { &[] } else { &["public"] };
        let text = match &case.value {
            Value::Array(items) => items[0].as_str().unwrap().to_string(),
            v => v.as_str().unwrap().to_string(),
        };
        let ours = format!("HIPPORAG_{}", case.key.to_uppercase());
        let pagefinds = format!("PAGEFIND_{}", case.key.to_uppercase());
        let file = files[i % files.len()];
        let args = [site, case.flag].concat();
        let runs = [
            ("flag", &args[..], None, None),
            (
                "HIPPORAG_*",
                site,
                Some((ours.as_str(), text.as_str())),
                None,
            ),
            (
                "PAGEFIND_*",
                site,
                Some((pagefinds.as_str(), text.as_str())),
                None,
            ),
            (file, site, None, Some(file)),
        ];
        for (how, args, var, config) in runs {
            let vars: Vec<(&str, &str)> = var.into_iter().collect();
            match config {
                Some(name) => w.config(name, &one_key(name, case.key, &case.value)),
                None => w.no_config(),
            }
            eprintln!("{} as {how}", case.key);
            let r = w.report(args, &vars);
            (case.check)(&w, &r);
            w.clean();
        }
    }
    w.no_config();
    // A Pagefind key in a config file whose list holds two selectors.
    w.config(
        "pagefind.yml",
        "exclude_selectors:\n  - \".ad\"\n  - \"h1\"\n",
    );
    let r = w.report(&["public"], &[]);
    // No `h1` left to start a section, no sponsored section: each page's text is one passage.
    assert_eq!(counts(&r), (4, 4), "{r}");
}

/// One of hipporag's own options: its key, its value, the flags that give it, and the check of
/// the build's report.
type OwnCase = (&'static str, Value, &'static [&'static str], fn(&Value));

/// hipporag's own flags keep working, each also as its variable and as a key.
#[test]
fn hipporags_own_options_as_flag_variable_and_config_key() {
    let w = Work::new();
    let cases: [OwnCase; 5] = [
        (
            "exclude",
            json!(["guide/**"]),
            &["--exclude", "guide/**"],
            |r| assert_eq!(counts(r), (3, 4), "{r}"),
        ),
        (
            "include_noindex",
            json!(true),
            &["--include-noindex"],
            |r| assert_eq!(counts(r), (5, 7), "{r}"),
        ),
        ("lang", json!("fr"), &["--lang", "fr"], |r| {
            // The Markdown page, without a tag, is French.
            let fr = r["pageLanguages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["tag"] == "")
                .unwrap();
            assert_eq!(fr["analysis"], "fr", "{r}");
        }),
        ("full_index", json!(true), &["--full-index"], |r| {
            assert!(r["indexFile"].is_string(), "{r}")
        }),
        (
            "fragment_text_chars",
            json!(5),
            &["--fragment-text-chars", "5"],
            |r| assert_eq!(counts(r), (4, 6), "{r}"),
        ),
    ];
    for (i, (key, value, flag, check)) in cases.into_iter().enumerate() {
        let text = match &value {
            Value::Array(items) => items[0].as_str().unwrap().to_string(),
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let var = format!("HIPPORAG_{}", key.to_uppercase());
        let file = ["hipporag.toml", "hipporag.yml", "hipporag.json"][i % 3];
        w.no_config();
        check(&w.report(&[&["public"], flag].concat(), &[]));
        w.clean();
        check(&w.report(&["public"], &[(&var, &text)]));
        w.clean();
        w.config(file, &one_key(file, key, &value));
        check(&w.report(&["public"], &[]));
        w.clean();
    }
    // --json as a flag (the others above had it as HIPPORAG_JSON).
    w.no_config();
    let out = w.run(&["public", "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice::<Value>(&out.stdout).unwrap();
}

/// A config file with every key hipporag reads, in each format, and Pagefind's with every key
/// of Pagefind's it reads: `verbose` in the file makes the build name each option's value and
/// where it came from; the package directory named there does not exist, so the build stops
/// right after.
#[test]
fn every_key_of_every_format_is_read() {
    let w = Work::new();
    let ours = [
        (
            "hipporag.toml",
            r#"site = "public"
glob = "**/*.html"
root_selector = "main"
exclude_selectors = [".ad", "nav"]
force_language = "de"
output_subdir = "search"
output_path = "out/search"
serve = true
verbose = true
quiet = true
silent = true
exclude = ["print.html"]
include_noindex = true
lang = "fr"
encoder = "minilm"
model_weights = "f32"
full_index = true
fragment_text_chars = 300
no_static_embeddings = true
model = "no-such-model"
synonymy_threshold = 0.9
pkg = "no-such-pkg"
ui = "no-such-ui"
json = true
# Pagefind's, with the value that asks for what hipporag does anyway.
keep_index_url = true
write_playground = false
"#,
        ),
        (
            "hipporag.yml",
            r#"site: public
glob: "**/*.html"
root_selector: main
exclude_selectors:
  - .ad
  - nav
force_language: de
output_subdir: search
output_path: out/search
serve: true
verbose: true
quiet: true
silent: true
exclude:
  - print.html
include_noindex: true
lang: fr
encoder: minilm
model_weights: f32
full_index: true
fragment_text_chars: 300
no_static_embeddings: true
model: no-such-model
synonymy_threshold: 0.9
pkg: no-such-pkg
ui: no-such-ui
json: true
keep_index_url: true
write_playground: false
"#,
        ),
        (
            "hipporag.json",
            r#"{"site": "public", "glob": "**/*.html", "root_selector": "main",
"exclude_selectors": [".ad", "nav"], "force_language": "de", "output_subdir": "search",
"output_path": "out/search", "serve": true, "verbose": true, "quiet": true, "silent": true,
"exclude": ["print.html"], "include_noindex": true, "lang": "fr", "encoder": "minilm",
"model_weights": "f32", "full_index": true, "fragment_text_chars": 300,
"no_static_embeddings": true, "model": "no-such-model", "synonymy_threshold": 0.9,
"pkg": "no-such-pkg", "ui": "no-such-ui", "json": true, "keep_index_url": true,
"write_playground": false}"#,
        ),
    ];
    let expected_ours = [
        ("site", "\"public\""),
        ("glob", "\"**/*.html\""),
        ("root_selector", "\"main\""),
        ("exclude_selectors", "[\".ad\", \"nav\"]"),
        ("force_language", "\"de\""),
        ("output_subdir", "\"search\""),
        ("output_path", "\"out/search\""),
        ("serve", "true"),
        ("verbose", "true"),
        ("quiet", "true"),
        ("silent", "true"),
        ("exclude", "[\"print.html\"]"),
        ("include_noindex", "true"),
        ("lang", "\"fr\""),
        ("encoder", "minilm"),
        ("model_weights", "f32"),
        ("full_index", "true"),
        ("fragment_text_chars", "300"),
        ("no_static_embeddings", "true"),
        ("model", "\"no-such-model\""),
        ("synonymy_threshold", "0.9"),
        ("pkg", "\"no-such-pkg\""),
        ("ui", "\"no-such-ui\""),
        ("json", "true"),
    ];
    // The same in YAML's other extension.
    let yaml = ours[1].1;
    for (name, text) in ours.iter().copied().chain([("hipporag.yaml", yaml)]) {
        w.config(name, text);
        let out = w.run_with(&[], &[], true);
        let err = stderr(&out);
        assert!(!out.status.success(), "{name}: {err}");
        for (key, value) in expected_ours {
            let line = format!("option {key} = {value} ({name})");
            assert!(err.contains(&line), "{name}: no `{line}` in\n{err}");
        }
    }
    let pagefinds = [
        (
            "pagefind.toml",
            "site = \"public\"\nglob = \"**/*.html\"\nroot_selector = \"main\"\nexclude_selectors = [\".ad\"]\nforce_language = \"de\"\noutput_subdir = \"search\"\noutput_path = \"out/search\"\nserve = true\nverbose = true\nquiet = true\nsilent = true\n",
        ),
        (
            "pagefind.yml",
            "site: public\nglob: \"**/*.html\"\nroot_selector: main\nexclude_selectors:\n  - .ad\nforce_language: de\noutput_subdir: search\noutput_path: out/search\nserve: true\nverbose: true\nquiet: true\nsilent: true\n",
        ),
        (
            "pagefind.yaml",
            "site: public\nglob: \"**/*.html\"\nroot_selector: main\nexclude_selectors: [.ad]\nforce_language: de\noutput_subdir: search\noutput_path: out/search\nserve: true\nverbose: true\nquiet: true\nsilent: true\n",
        ),
        (
            "pagefind.json",
            r#"{"site": "public", "glob": "**/*.html", "root_selector": "main", "exclude_selectors": [".ad"], "force_language": "de", "output_subdir": "search", "output_path": "out/search", "serve": true, "verbose": true, "quiet": true, "silent": true}"#,
        ),
    ];
    for (name, text) in pagefinds {
        w.config(name, text);
        // A missing UI directory stops the build before it writes or serves anything.
        let vars = [
            ("HIPPORAG_UI", "no-such-ui"),
            ("HIPPORAG_NO_STATIC_EMBEDDINGS", "1"),
        ];
        let out = w.run_with(&[], &vars, true);
        let err = stderr(&out);
        assert!(!out.status.success(), "{name}: {err}");
        for (key, value) in &expected_ours[..11] {
            let value = if *key == "exclude_selectors" {
                "[\".ad\"]"
            } else {
                value
            };
            let line = format!("option {key} = {value} ({name})");
            assert!(err.contains(&line), "{name}: no `{line}` in\n{err}");
        }
        assert!(
            err.contains("option ui = \"no-such-ui\" ($HIPPORAG_UI)"),
            "{err}"
        );
    }
}

/// Flags over `HIPPORAG_*` over `PAGEFIND_*` over the config file over the defaults, each
/// seen in what the build read and in `--verbose`'s sources.
#[test]
fn precedence_is_flag_then_variables_then_file_then_default() {
    let w = Work::new();
    w.config("hipporag.toml", "site = \"public\"\nglob = \"**/*.md\"\n");
    let run = |args: &[&str], vars: &[(&str, &str)]| {
        let out = w.run(&[&["--verbose", "--json"], args].concat(), vars);
        assert!(out.status.success(), "{}", stderr(&out));
        w.clean();
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        (counts(&r).0, stderr(&out))
    };
    let (pages, err) = run(&[], &[]);
    assert_eq!(pages, 1, "the file's glob: the Markdown page");
    assert!(
        err.contains("option glob = \"**/*.md\" (hipporag.toml)"),
        "{err}"
    );
    assert!(
        err.contains("option root_selector = (none) (default)"),
        "{err}"
    );
    let pagefind = [("PAGEFIND_GLOB", "**/*.html")];
    let (pages, err) = run(&[], &pagefind);
    assert_eq!(pages, 3, "PAGEFIND_GLOB over the file");
    assert!(
        err.contains("option glob = \"**/*.html\" ($PAGEFIND_GLOB)"),
        "{err}"
    );
    let both = [pagefind[0], ("HIPPORAG_GLOB", "guide/**")];
    let (pages, err) = run(&[], &both);
    assert_eq!(pages, 1, "HIPPORAG_GLOB over PAGEFIND_GLOB");
    assert!(
        err.contains("option glob = \"guide/**\" ($HIPPORAG_GLOB)"),
        "{err}"
    );
    let (pages, err) = run(&["--glob", "*.html"], &both);
    assert_eq!(
        pages, 1,
        "the flag over both: index.html (print.html is noindex)"
    );
    assert!(err.contains("option glob = \"*.html\" (flag)"), "{err}");
    // DIR over $HIPPORAG_SITE and the file's site.
    std::fs::create_dir_all(w.path().join("other")).unwrap();
    std::fs::write(
        w.path().join("other/a.html"),
        "<html><body><main><h1>Other</h1><p>One page.</p></main></body></html>",
    )
    .unwrap();
    let (pages, _) = run(&["other", "--glob", "**/*"], &[("HIPPORAG_SITE", "public")]);
    assert_eq!(pages, 1);
    let (pages, err) = run(&["--glob", "**/*"], &[("HIPPORAG_SITE", "other")]);
    assert_eq!(pages, 1);
    assert!(
        err.contains("option site = \"other\" ($HIPPORAG_SITE)"),
        "{err}"
    );
}

#[test]
fn unknown_and_unsupported_options_are_named() {
    let w = Work::new();
    let fails = |args: &[&str], vars: &[(&str, &str)], needle: &str| {
        let out = w.run(args, vars);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.contains(needle), "no `{needle}` in: {err}");
    };
    w.config("hipporag.yml", "site: public\nfoo: 1\n");
    fails(&[], &[], "hipporag.yml: unknown key \"foo\"");
    w.config(
        "hipporag.toml",
        "site = \"public\"\nroot-selector = \"main\"\n",
    );
    fails(
        &[],
        &[],
        "hipporag.toml: unknown key \"root-selector\" (did you mean \"root_selector\"?)",
    );
    w.config("pagefind.yml", "site: public\nwrite_playground: true\n");
    fails(
        &[],
        &[],
        "pagefind.yml: \"write_playground\" is Pagefind's and hipporag does not support it",
    );
    w.config(
        "pagefind.json",
        r#"{"site": "public", "include_characters": "<>$"}"#,
    );
    fails(
        &[],
        &[],
        "pagefind.json: \"include_characters\" is Pagefind's and hipporag does not support it",
    );
    w.config("pagefind.toml", "site = \"public\"\nencoder = \"minilm\"\n");
    fails(&[], &[], "pagefind.toml: unknown key \"encoder\"");
    w.config(
        "hipporag.json",
        r#"{"site": "public", "fragment_text_chars": "many"}"#,
    );
    fails(
        &[],
        &[],
        "hipporag.json: \"fragment_text_chars\": expected a whole number",
    );
    w.config("hipporag.yml", "site: public\n");
    std::fs::write(w.path().join("hipporag.json"), "{}").unwrap();
    fails(&[], &[], "found hipporag.yml and hipporag.json");
    w.no_config();
    fails(
        &["public", "--write-playground"],
        &[],
        "--write-playground is Pagefind's and hipporag does not support it",
    );
    fails(
        &["public", "--logfile", "x.log"],
        &[],
        "--logfile is Pagefind's and hipporag does not support it",
    );
    fails(&["public", "--no-such-flag"], &[], "--no-such-flag");
    fails(
        &["public"],
        &[("PAGEFIND_WRITE_PLAYGROUND", "true")],
        "PAGEFIND_WRITE_PLAYGROUND: \"write_playground\" is Pagefind's",
    );
    fails(
        &["public", "--root-selector", "div["],
        &[],
        "--root-selector (root_selector) \"div[\": not a CSS selector",
    );
    fails(
        &["public", "--glob", "**/*.{html"],
        &[],
        "--glob (glob) \"**/*.{html\"",
    );
    fails(&[], &[], "no site");
    fails(
        &["public", "--site", "other"],
        &[],
        "the site is given twice",
    );
    // What Pagefind does by default asks for nothing hipporag lacks.
    let out = w.run(&["public", "--keep-index-url"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A Pagefind site switches with no change: its `pagefind.yml` is read when there is no
/// `hipporag.*`, and a `hipporag.*` wins over it.
#[test]
fn pagefinds_config_file_is_read_when_there_is_no_hipporag_one() {
    let w = Work::new();
    w.config(
        "pagefind.yml",
        "# As Pagefind reads it.\nsite: public\nroot_selector: article\n",
    );
    let r = w.report(&[], &[]);
    assert_eq!(counts(&r), (2, 2), "{r}");
    std::fs::write(w.path().join("hipporag.toml"), "site = \"public\"\n").unwrap();
    let r = w.report(&["--verbose"], &[]);
    assert_eq!(counts(&r), (4, 6), "hipporag.toml wins: {r}");
}

/// `--output-path` is relative to the working directory and wins over `--output-subdir`; the
/// summary names it; a directory of other files is not replaced.
#[test]
fn output_path_is_relative_to_the_working_directory() {
    let w = Work::new();
    let out = w.run(
        &[
            "public",
            "--output-subdir",
            "search",
            "--output-path",
            "out/idx",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(w.path().join("out/idx/hipporag-entry.json").is_file());
    assert!(!w.path().join("public/search").exists());
    assert!(
        stderr(&out).contains("out/idx: 4 pages"),
        "{}",
        stderr(&out)
    );
    // Outside the site: the page's script tag names no URL it cannot know.
    assert!(
        stdout(&out).contains("serve out/idx with the site"),
        "{}",
        stdout(&out)
    );
    let out = w.run(&["public", "--output-subdir", "search/ui"], &[]);
    assert!(
        stdout(&out).contains("src=\"/search/ui/hipporag-ui.js\""),
        "{}",
        stdout(&out)
    );
    let out = w.run(&["public", "--output-path", "public/guide"], &[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no previous output"),
        "{}",
        stderr(&out)
    );
    assert!(w.path().join("public/guide/gears.html").is_file());
}

/// `--verbose` names the options, `--quiet` keeps warnings but no progress or summary,
/// `--silent` keeps errors only.
#[test]
fn verbose_quiet_and_silent() {
    let w = Work::new();
    let args = ["public", "--root-selector", "article"];
    let out = w.run(&[&args[..], &["--verbose"]].concat(), &[]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("option root_selector = \"article\" (flag)"),
        "{err}"
    );
    assert!(err.contains("pages read"), "{err}");
    let out = w.run(&[&args[..], &["--quiet"]].concat(), &[]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("no element matches the root selector"),
        "{err}"
    );
    assert!(
        !err.contains("pages read") && !err.contains("option "),
        "{err}"
    );
    assert!(
        !stdout(&out).contains("Add to your pages"),
        "{}",
        stdout(&out)
    );
    let out = w.run(&args, &[("PAGEFIND_SILENT", "true")]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
    assert_eq!(stdout(&out), "");
}

/// One HTTP/1.1 GET of `path` on `127.0.0.1:port`: the status code and the body.
fn get(port: u16, path: &str) -> (u16, Vec<u8>) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).unwrap();
    let head_end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, bytes[head_end + 4..].to_vec())
}

/// `--serve` (here on the port `$HIPPORAG_PORT` asks for, 0: any free one): the site's pages
/// and its search files over HTTP on loopback, then the process is ended.
#[test]
fn serve_answers_on_loopback() {
    let w = Work::new();
    let mut c = Command::new(env!("CARGO_BIN_EXE_hipporag"));
    c.current_dir(w.path())
        .args(["site", "public", "--serve"])
        .env("HIPPORAG_PKG", w.path().join("pkg"))
        .env("HIPPORAG_UI", ui())
        .env("HIPPORAG_NO_STATIC_EMBEDDINGS", "1")
        .env("HIPPORAG_PORT", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = c.spawn().unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let url = loop {
        match rx.recv_timeout(Duration::from_secs(180)) {
            Ok(line) if line.starts_with("Serving ") => {
                break line.rsplit(' ').next().unwrap().to_string();
            }
            Ok(_) => {}
            Err(e) => {
                let _ = child.kill();
                panic!("no `Serving` line: {e}");
            }
        }
    };
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{url}"));
    let checks = std::panic::catch_unwind(|| {
        let (status, body) = get(port, "/index.html");
        assert_eq!(status, 200);
        assert!(String::from_utf8_lossy(&body).contains("Widgets is a library"));
        let (status, body) = get(port, "/_hipporag/hipporag-entry.json");
        assert_eq!(status, 200);
        let entry: Value = serde_json::from_slice(&body).unwrap();
        assert!(entry["pieces"].is_string(), "{entry}");
        assert_eq!(get(port, "/guide").0, 301);
        assert_eq!(get(port, "/de/").0, 200);
        assert_eq!(get(port, "/../pkg/hipporag.js").0, 404);
        assert_eq!(get(port, "/missing.html").0, 404);
    });
    child.kill().unwrap();
    child.wait().unwrap();
    if let Err(e) = checks {
        std::panic::resume_unwind(e);
    }
}
