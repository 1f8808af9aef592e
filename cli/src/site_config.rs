//! `hipporag site`'s options from its four sources, as Pagefind merges its own
//! (<https://pagefind.app/docs/config-sources/>): flags, then environment variables, then a
//! config file in the working directory, then the defaults.
//!
//! * **Flags** and **`HIPPORAG_*` variables** are clap's (each flag has its `env`); clap says
//!   which of the two gave a value ([`ValueSource`]).
//! * **`PAGEFIND_*` variables** of Pagefind's options ([`KEYS`] marked `pagefind`) stand in
//!   for ours when ours is unset, so a CI set up for Pagefind needs no change.
//! * **The config file**: the first of [`CONFIG_FILES`] in the working directory, else the
//!   first of Pagefind's [`PAGEFIND_FILES`] (read with Pagefind's keys only); two of one kind
//!   present is an error naming both. Its keys are the flags' names in snake_case.
//!
//! A key, flag or variable that hipporag does not implement is an error that names it, and the
//! file or variable it came from ([`PAGEFIND_UNSUPPORTED`], unknown keys).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ArgMatches;
use clap::parser::ValueSource;
use serde_json::Value;

use crate::index::EncoderChoice;
use crate::site::{ModelWeights, SiteArgs};

/// hipporag's config files, in the order looked for.
pub(crate) const CONFIG_FILES: &[&str] = &[
    "hipporag.toml",
    "hipporag.yml",
    "hipporag.yaml",
    "hipporag.json",
];
/// Pagefind's config files, read when none of [`CONFIG_FILES`] is there.
pub(crate) const PAGEFIND_FILES: &[&str] = &[
    "pagefind.toml",
    "pagefind.yml",
    "pagefind.yaml",
    "pagefind.json",
];

/// What a key's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Str,
    Path,
    /// A list of strings (a single string is a list of one).
    List,
    F32,
    Usize,
    /// One of these names.
    Choice(&'static [&'static str]),
}

/// One option of `hipporag site`: its config key, which is also its clap id (the flag's name in
/// snake_case) and, upper-cased, its variable's name after `HIPPORAG_` (and `PAGEFIND_`).
#[derive(Debug)]
pub(crate) struct Key {
    pub(crate) name: &'static str,
    kind: Kind,
    /// Pagefind's option of the same name and meaning: read from `pagefind.*` and `PAGEFIND_*`.
    pub(crate) pagefind: bool,
}

const fn key(name: &'static str, kind: Kind, pagefind: bool) -> Key {
    Key {
        name,
        kind,
        pagefind,
    }
}

/// Every option a config file or a variable may set (docs/site.md, "Configuration").
pub(crate) const KEYS: &[Key] = &[
    // Pagefind's.
    key("site", Kind::Path, true),
    key("glob", Kind::Str, true),
    key("root_selector", Kind::Str, true),
    key("exclude_selectors", Kind::List, true),
    key("force_language", Kind::Str, true),
    key("output_subdir", Kind::Path, true),
    key("output_path", Kind::Path, true),
    key("serve", Kind::Bool, true),
    key("verbose", Kind::Bool, true),
    key("quiet", Kind::Bool, true),
    key("silent", Kind::Bool, true),
    // hipporag's own.
    key("exclude", Kind::List, false),
    key("include_noindex", Kind::Bool, false),
    key("lang", Kind::Str, false),
    key("encoder", Kind::Choice(&["hashed", "minilm"]), false),
    key("model_weights", Kind::Choice(&["int8", "f32"]), false),
    key("full_index", Kind::Bool, false),
    key("fragment_text_chars", Kind::Usize, false),
    key("no_static_embeddings", Kind::Bool, false),
    key("model", Kind::Path, false),
    key("synonymy_threshold", Kind::F32, false),
    key("pkg", Kind::Path, false),
    key("ui", Kind::Path, false),
    key("json", Kind::Bool, false),
];

/// Pagefind's options that hipporag does not implement: the name, the one value that asks
/// for nothing hipporag does not do anyway (`None`: any value is an error), and what to do
/// instead.
pub(crate) const PAGEFIND_UNSUPPORTED: &[(&str, Option<bool>, &str)] = &[
    (
        "include_characters",
        None,
        "its word analysis is its own (docs/languages.md), with no list of extra word characters",
    ),
    (
        "keep_index_url",
        Some(true),
        "its result URLs always keep index.html, as keep_index_url: true does",
    ),
    (
        "write_playground",
        Some(false),
        "it has no playground; --serve serves the site with its search",
    ),
    ("logfile", None, "its log goes to stderr: redirect it"),
    ("source", None, "Pagefind 1.0 renamed it `site`"),
    (
        "bundle_dir",
        None,
        "Pagefind 1.0 replaced it with `output_subdir`",
    ),
    ("service", None, "it has no service mode"),
];

/// A config file as read: its name (for errors and `--verbose`), whether it is Pagefind's,
/// and its keys.
#[derive(Debug, Clone)]
pub(crate) struct ConfigFile {
    pub(crate) name: String,
    pub(crate) pagefind: bool,
    pub(crate) values: BTreeMap<String, Value>,
}

/// Where one option's value came from (`--verbose` prints them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    Flag,
    Env(String),
    File(String),
    Default,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Flag => f.write_str("flag"),
            Source::Env(v) => write!(f, "${v}"),
            Source::File(n) => f.write_str(n),
            Source::Default => f.write_str("default"),
        }
    }
}

/// The options as resolved: each key's source, in [`KEYS`] order, and the config file read.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub(crate) sources: Vec<(&'static str, Source)>,
    pub(crate) file: Option<String>,
}

/// `NAME` as its variable after the prefix: `root_selector` → `ROOT_SELECTOR`.
pub(crate) fn var(prefix: &str, name: &str) -> String {
    format!("{prefix}{}", name.to_ascii_uppercase())
}

/// A name folded for "did you mean": `rootSelector`, `root-selector` → `rootselector`.
fn folded(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Reads the config file `path` (its format by its extension) into its top-level keys.
///
/// # Errors
/// The file's name and what is wrong with it.
pub(crate) fn read_file(path: &Path, pagefind: bool) -> Result<ConfigFile, String> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let values: Option<BTreeMap<String, Value>> = if text.trim().is_empty() {
        None
    } else if name.ends_with(".toml") {
        Some(toml::from_str(&text).map_err(|e| format!("{name}: not TOML: {e}"))?)
    } else if name.ends_with(".json") {
        Some(serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON: {e}"))?)
    } else {
        // YAML: an empty document (comments only) is null.
        yaml_serde::from_str::<Option<BTreeMap<String, Value>>>(&text)
            .map_err(|e| format!("{name}: not YAML (or not a mapping of keys): {e}"))?
    };
    let file = ConfigFile {
        name,
        pagefind,
        values: values.unwrap_or_default(),
    };
    check_keys(&file)?;
    Ok(file)
}

/// Every key of `file` is one hipporag reads ([`KEYS`]; Pagefind's only, in Pagefind's file),
/// or an error naming each that is not.
fn check_keys(file: &ConfigFile) -> Result<(), String> {
    let name = &file.name;
    let mut problems = Vec::new();
    for (k, v) in &file.values {
        if let Some(&(_, ok, why)) = PAGEFIND_UNSUPPORTED.iter().find(|(n, _, _)| n == k) {
            if ok.is_none() || v.as_bool() != ok {
                problems.push(format!(
                    "{name}: \"{k}\" is Pagefind's and hipporag does not support it ({why})"
                ));
            }
            continue;
        }
        match KEYS.iter().find(|key| key.name == k) {
            Some(key) if key.pagefind || !file.pagefind => {}
            Some(_) => problems.push(format!(
                "{name}: unknown key \"{k}\" (it is hipporag's own: put it in hipporag.toml, .yml, .yaml or .json)"
            )),
            None => {
                let near = KEYS
                    .iter()
                    .find(|key| folded(key.name) == folded(k))
                    .map_or(String::new(), |key| {
                        format!(" (did you mean \"{}\"?)", key.name)
                    });
                problems.push(format!("{name}: unknown key \"{k}\"{near}"));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The config file of the working directory `cwd` (module docs), or `None`.
///
/// # Errors
/// Two files of one kind (naming both), or a file that cannot be read or holds a key
/// hipporag does not read.
pub(crate) fn find_file(cwd: &Path) -> Result<Option<ConfigFile>, String> {
    for (names, pagefind) in [(CONFIG_FILES, false), (PAGEFIND_FILES, true)] {
        let found: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| cwd.join(n).is_file())
            .collect();
        match found.as_slice() {
            [] => continue,
            [one] => return read_file(&cwd.join(one), pagefind).map(Some),
            many => {
                return Err(format!(
                    "found {} in {}: read only one config file, so remove all but one",
                    many.join(" and "),
                    cwd.display()
                ));
            }
        }
    }
    Ok(None)
}

/// A value for people: `"abc"`, `[1, 2]`.
fn shown(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// `v` as a string.
fn string(v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("expected a string, got {}", shown(v)))
}

/// `v` as a list of strings (a string alone is a list of one).
fn list(v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items.iter().map(string).collect(),
        _ => Err(format!(
            "expected a string or a list of strings, got {}",
            shown(v)
        )),
    }
}

/// `v` as a boolean.
fn boolean(v: &Value) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("expected true or false, got {}", shown(v)))
}

/// A variable's value as a boolean, as clap reads ours (`true`/`false`, `yes`/`no`, `on`/`off`,
/// `1`/`0`, any case).
pub(crate) fn boolish(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "y" | "on" | "1" => Some(true),
        "false" | "no" | "n" | "off" | "0" | "" => Some(false),
        _ => None,
    }
}

/// Sets the option `key` of `a` to `v`.
///
/// # Errors
/// What `v` should have been.
fn set(a: &mut SiteArgs, key: &Key, v: &Value) -> Result<(), String> {
    let path = |v: &Value| string(v).map(PathBuf::from);
    match key.name {
        "site" => a.site = Some(path(v)?),
        "glob" => a.glob = Some(string(v)?),
        "root_selector" => a.root_selector = Some(string(v)?),
        "exclude_selectors" => a.exclude_selectors = list(v)?,
        "force_language" => a.force_language = Some(string(v)?),
        "output_subdir" => a.output_subdir = path(v)?,
        "output_path" => a.output_path = Some(path(v)?),
        "serve" => a.serve = boolean(v)?,
        "verbose" => a.verbose = boolean(v)?,
        "quiet" => a.quiet = boolean(v)?,
        "silent" => a.silent = boolean(v)?,
        "exclude" => a.exclude = list(v)?,
        "include_noindex" => a.include_noindex = boolean(v)?,
        "lang" => a.lang = string(v)?,
        "encoder" => {
            a.encoder =
                clap::ValueEnum::from_str(&string(v)?, true).map_err(|_| choices(key, v))?;
        }
        "model_weights" => {
            a.model_weights =
                clap::ValueEnum::from_str(&string(v)?, true).map_err(|_| choices(key, v))?;
        }
        "full_index" => a.full_index = boolean(v)?,
        "fragment_text_chars" => {
            a.fragment_text_chars = v
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("expected a whole number ≥ 0, got {}", shown(v)))?;
        }
        "no_static_embeddings" => a.no_static_embeddings = boolean(v)?,
        "model" => a.model = Some(path(v)?),
        "synonymy_threshold" => {
            a.synonymy_threshold = v
                .as_f64()
                .map(|x| x as f32)
                .ok_or_else(|| format!("expected a number, got {}", shown(v)))?;
        }
        "pkg" => a.pkg = Some(path(v)?),
        "ui" => a.ui = Some(path(v)?),
        "json" => a.json = boolean(v)?,
        other => unreachable!("every key of KEYS is set: {other}"),
    }
    Ok(())
}

/// The error for a [`Kind::Choice`] value that is none of its choices.
fn choices(key: &Key, v: &Value) -> String {
    match key.kind {
        Kind::Choice(names) => format!("expected one of {}, got {}", names.join(", "), shown(v)),
        _ => format!("unexpected {}", shown(v)),
    }
}

/// A variable's text as the value of `key`.
fn from_var(key: &Key, s: &str) -> Result<Value, String> {
    Ok(match key.kind {
        Kind::Bool => {
            Value::Bool(boolish(s).ok_or_else(|| format!("expected true or false, got {s:?}"))?)
        }
        Kind::List => Value::Array(vec![Value::String(s.to_string())]),
        _ => Value::String(s.to_string()),
    })
}

/// Whether clap took option `id` from the command line or its `HIPPORAG_*` variable, and
/// which.
fn given(m: &ArgMatches, id: &str) -> Option<Source> {
    match m.value_source(id) {
        Some(ValueSource::CommandLine) => Some(Source::Flag),
        Some(ValueSource::EnvVariable) => Some(Source::Env(var("HIPPORAG_", id))),
        _ => None,
    }
}

/// Pagefind's flags that hipporag does not implement, given on the command line: an error
/// naming each (a hidden flag of [`SiteArgs`] each, so that the error says why).
fn unsupported_flags(a: &SiteArgs, m: &ArgMatches) -> Vec<String> {
    let flags: [(&str, Option<bool>); 7] = [
        ("include_characters", None),
        ("keep_index_url", Some(a.keep_index_url)),
        ("write_playground", Some(a.write_playground)),
        ("logfile", None),
        ("source", None),
        ("bundle_dir", None),
        ("service", Some(a.service)),
    ];
    let mut out = Vec::new();
    for (id, value) in flags {
        if m.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let (_, ok, why) = PAGEFIND_UNSUPPORTED
            .iter()
            .find(|(n, _, _)| *n == id)
            .expect("listed");
        if ok.is_none() || value != *ok {
            out.push(format!(
                "--{} is Pagefind's and hipporag does not support it ({why})",
                id.replace('_', "-")
            ));
        }
    }
    out
}

/// Pagefind's variables of options hipporag does not implement, set: an error naming each.
fn unsupported_vars(env: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    for &(name, ok, why) in PAGEFIND_UNSUPPORTED {
        let v = var("PAGEFIND_", name);
        let Some(value) = env(&v) else {
            continue;
        };
        if ok.is_none() || boolish(&value) != ok {
            out.push(format!(
                "{v}: \"{name}\" is Pagefind's and hipporag does not support it ({why})"
            ));
        }
    }
    out
}

/// Fills `a` (as clap parsed it, `m` its matches) from `PAGEFIND_*` variables (`env`) and
/// the config file of `cwd` wherever neither a flag nor a `HIPPORAG_*` variable gave a value
/// (module docs); returns where each value came from. The site's directory ends in `a.dir`.
///
/// # Errors
/// A key, flag or variable hipporag does not support, a value of the wrong type, two config
/// files, or no site at all.
pub(crate) fn resolve(
    a: &mut SiteArgs,
    m: &ArgMatches,
    env: &dyn Fn(&str) -> Option<String>,
    cwd: &Path,
) -> Result<Resolved, String> {
    let mut problems = unsupported_flags(a, m);
    problems.extend(unsupported_vars(env));
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    // DIR and --site name the same thing: the positional stands for the flag.
    if let (Some(dir), Some(site)) = (&a.dir, &a.site)
        && m.value_source("site") == Some(ValueSource::CommandLine)
        && dir != site
    {
        return Err(format!(
            "the site is given twice, as DIR ({}) and --site ({}): give one",
            dir.display(),
            site.display()
        ));
    }
    let file = find_file(cwd)?;
    let mut sources = Vec::new();
    for key in KEYS {
        let source = if key.name == "site" && a.dir.is_some() {
            a.site = a.dir.clone();
            Source::Flag
        } else if let Some(s) = given(m, key.name) {
            s
        } else if let Some((name, value)) = key
            .pagefind
            .then(|| var("PAGEFIND_", key.name))
            .and_then(|n| env(&n).map(|v| (n, v)))
        {
            let v = from_var(key, &value).map_err(|e| format!("{name}: {e}"))?;
            set(a, key, &v).map_err(|e| format!("{name}: {e}"))?;
            Source::Env(name)
        } else if let Some((f, v)) = file
            .as_ref()
            .and_then(|f| f.values.get(key.name).map(|v| (f, v)))
            .filter(|(_, v)| !v.is_null())
        {
            set(a, key, v).map_err(|e| format!("{}: \"{}\": {e}", f.name, key.name))?;
            Source::File(f.name.clone())
        } else {
            Source::Default
        };
        sources.push((key.name, source));
    }
    a.dir = a.site.clone();
    if a.dir.is_none() {
        return Err(
            "no site: give its directory (hipporag site DIR, or --site DIR), $HIPPORAG_SITE, or \
             `site` in hipporag.toml, .yml, .yaml or .json"
                .into(),
        );
    }
    Ok(Resolved {
        sources,
        file: file.map(|f| f.name),
    })
}

/// The value of option `key` of `a`, for `--verbose`.
pub(crate) fn shown_option(a: &SiteArgs, key: &str) -> String {
    let p = |p: &Option<PathBuf>| p.as_ref().map_or("(none)".into(), |p| format!("{p:?}"));
    let s = |s: &Option<String>| s.as_ref().map_or("(none)".into(), |s| format!("{s:?}"));
    match key {
        "site" => p(&a.site),
        "glob" => s(&a.glob),
        "root_selector" => s(&a.root_selector),
        "exclude_selectors" => format!("{:?}", a.exclude_selectors),
        "force_language" => s(&a.force_language),
        "output_subdir" => format!("{:?}", a.output_subdir),
        "output_path" => p(&a.output_path),
        "serve" => a.serve.to_string(),
        "verbose" => a.verbose.to_string(),
        "quiet" => a.quiet.to_string(),
        "silent" => a.silent.to_string(),
        "exclude" => format!("{:?}", a.exclude),
        "include_noindex" => a.include_noindex.to_string(),
        "lang" => format!("{:?}", a.lang),
        "encoder" => match a.encoder {
            EncoderChoice::Hashed => "hashed".into(),
            EncoderChoice::Minilm => "minilm".into(),
        },
        "model_weights" => match a.model_weights {
            ModelWeights::Int8 => "int8".into(),
            ModelWeights::F32 => "f32".into(),
        },
        "full_index" => a.full_index.to_string(),
        "fragment_text_chars" => a.fragment_text_chars.to_string(),
        "no_static_embeddings" => a.no_static_embeddings.to_string(),
        "model" => p(&a.model),
        "synonymy_threshold" => a.synonymy_threshold.to_string(),
        "pkg" => p(&a.pkg),
        "ui" => p(&a.ui),
        "json" => a.json.to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    /// The `hipporag site` command alone, to parse arguments as `main` does.
    #[derive(clap::Parser)]
    struct Cmd {
        #[command(flatten)]
        site: SiteArgs,
    }

    /// `args` parsed and resolved in `cwd` with the variables `vars` (clap reads the process's
    /// own, so these tests set no `HIPPORAG_*` variable: the integration tests do, in a child).
    fn resolved(
        args: &[&str],
        vars: &[(&str, &str)],
        cwd: &Path,
    ) -> Result<(SiteArgs, Resolved), String> {
        let m = Cmd::command()
            .try_get_matches_from(std::iter::once("site").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        let mut a = Cmd::from_arg_matches(&m).map_err(|e| e.to_string())?.site;
        let vars: BTreeMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let r = resolve(&mut a, &m, &|n| vars.get(n).cloned(), cwd)?;
        Ok((a, r))
    }

    /// Every key of [`KEYS`] is settable ([`set`] knows it) and shown; every clap id it names
    /// exists.
    #[test]
    fn every_key_is_an_option() {
        let m = Cmd::command().get_matches_from(["site", "x"]);
        let mut a = Cmd::from_arg_matches(&m).unwrap().site;
        for key in KEYS {
            assert!(
                Cmd::command()
                    .get_arguments()
                    .any(|arg| arg.get_id() == key.name),
                "{}",
                key.name
            );
            let v = match key.kind {
                Kind::Bool => Value::Bool(true),
                Kind::List => serde_json::json!(["x"]),
                Kind::F32 | Kind::Usize => serde_json::json!(1),
                Kind::Choice(c) => Value::String(c[1].into()),
                Kind::Str | Kind::Path => Value::String("x".into()),
            };
            set(&mut a, key, &v).unwrap();
            assert!(!shown_option(&a, key.name).is_empty());
        }
    }

    #[test]
    fn the_first_config_file_is_read_and_two_are_an_error() {
        let d = tempfile::tempdir().unwrap();
        assert!(find_file(d.path()).unwrap().is_none());
        std::fs::write(d.path().join("pagefind.yml"), "site: public\n").unwrap();
        let f = find_file(d.path()).unwrap().unwrap();
        assert!(f.pagefind && f.name == "pagefind.yml");
        std::fs::write(d.path().join("hipporag.json"), r#"{"site": "out"}"#).unwrap();
        let f = find_file(d.path()).unwrap().unwrap();
        assert_eq!((f.name.as_str(), f.pagefind), ("hipporag.json", false));
        std::fs::write(d.path().join("hipporag.toml"), "site = 'x'\n").unwrap();
        let e = find_file(d.path()).unwrap_err();
        assert!(e.contains("hipporag.toml and hipporag.json"), "{e}");
        std::fs::write(d.path().join("empty.yml"), "# nothing\n").unwrap();
        assert!(
            read_file(&d.path().join("empty.yml"), false)
                .unwrap()
                .values
                .is_empty()
        );
    }

    #[test]
    fn unknown_and_unsupported_keys_name_themselves_and_their_file() {
        let d = tempfile::tempdir().unwrap();
        let err = |name: &str, text: &str| {
            let p = d.path().join(name);
            std::fs::write(&p, text).unwrap();
            let e = read_file(&p, name.starts_with("pagefind")).unwrap_err();
            std::fs::remove_file(p).unwrap();
            e
        };
        assert_eq!(
            err("hipporag.yml", "foo: 1\n"),
            "hipporag.yml: unknown key \"foo\""
        );
        assert!(
            err("hipporag.toml", "rootSelector = 'main'\n")
                .contains("unknown key \"rootSelector\" (did you mean \"root_selector\"?)")
        );
        let e = err("pagefind.yml", "write_playground: true\n");
        assert!(
            e.starts_with(
                "pagefind.yml: \"write_playground\" is Pagefind's and hipporag does not support it"
            ),
            "{e}"
        );
        assert!(err("pagefind.json", r#"{"encoder": "minilm"}"#).contains("it is hipporag's own"));
        assert!(err("hipporag.json", r#"{"include_characters": "<>"}"#).contains("Pagefind's"));
        // The values Pagefind's unsupported options take that ask for nothing hipporag lacks.
        let p = d.path().join("pagefind.yml");
        std::fs::write(&p, "keep_index_url: true\nwrite_playground: false\n").unwrap();
        read_file(&p, true).unwrap();
    }

    /// Flags over `HIPPORAG_*` (clap's) over `PAGEFIND_*` over the file over the defaults.
    #[test]
    fn precedence_is_pagefinds() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("hipporag.toml"),
            "site = 'from-file'\nglob = '**/*.html'\nlang = 'de'\nexclude_selectors = ['.a', '.b']\n",
        )
        .unwrap();
        let (a, r) = resolved(&[], &[], d.path()).unwrap();
        assert_eq!(a.dir.as_deref(), Some(Path::new("from-file")));
        assert_eq!(a.lang, "de");
        assert_eq!(a.exclude_selectors, [".a", ".b"]);
        assert_eq!(r.file.as_deref(), Some("hipporag.toml"));
        let vars = [("PAGEFIND_GLOB", "*.htm"), ("PAGEFIND_SITE", "from-env")];
        let (a, r) = resolved(&[], &vars, d.path()).unwrap();
        assert_eq!(a.glob.as_deref(), Some("*.htm"));
        assert_eq!(a.dir.as_deref(), Some(Path::new("from-env")));
        assert!(
            r.sources
                .contains(&("glob", Source::Env("PAGEFIND_GLOB".into())))
        );
        assert!(
            r.sources
                .contains(&("lang", Source::File("hipporag.toml".into())))
        );
        assert!(r.sources.contains(&("full_index", Source::Default)));
        let (a, r) = resolved(
            &["dir", "--glob", "x/*.html", "--lang", "fr"],
            &vars,
            d.path(),
        )
        .unwrap();
        assert_eq!(
            (a.dir.as_deref(), a.glob.as_deref(), a.lang.as_str()),
            (Some(Path::new("dir")), Some("x/*.html"), "fr")
        );
        assert!(r.sources.contains(&("glob", Source::Flag)));
        // --site is DIR.
        let (a, _) = resolved(&["--site", "s"], &[], d.path()).unwrap();
        assert_eq!(a.dir.as_deref(), Some(Path::new("s")));
        assert!(resolved(&["a", "--site", "b"], &[], d.path()).is_err());
    }

    #[test]
    fn unsupported_flags_and_variables_name_themselves() {
        let d = tempfile::tempdir().unwrap();
        let e = resolved(&["x", "--write-playground"], &[], d.path()).unwrap_err();
        assert!(
            e.contains("--write-playground is Pagefind's and hipporag does not support it"),
            "{e}"
        );
        resolved(&["x", "--keep-index-url"], &[], d.path()).unwrap();
        let e = resolved(&["x"], &[("PAGEFIND_INCLUDE_CHARACTERS", "$")], d.path()).unwrap_err();
        assert!(
            e.starts_with("PAGEFIND_INCLUDE_CHARACTERS: \"include_characters\""),
            "{e}"
        );
        let e = resolved(&["x"], &[("PAGEFIND_SERVE", "maybe")], d.path()).unwrap_err();
        assert!(
            e.starts_with("PAGEFIND_SERVE: expected true or false"),
            "{e}"
        );
        let e = resolved(&[], &[], d.path()).unwrap_err();
        assert!(e.starts_with("no site"), "{e}");
        std::fs::write(
            d.path().join("hipporag.yml"),
            "site: s\nfull_index: yes please\n",
        )
        .unwrap();
        let e = resolved(&[], &[], d.path()).unwrap_err();
        assert_eq!(
            e,
            "hipporag.yml: \"full_index\": expected true or false, got \"yes please\""
        );
    }
}
