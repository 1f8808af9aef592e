//! The default UI's strings, one file per language: `www/site/hipporag-ui-strings.json` (an
//! object of codes, each an object of strings) becomes `hipporag-ui-strings/<code>.json`, so
//! that a page loads only its own language's strings (`hipporag-ui.js`, `uiLanguage` in
//! `hipporag-helpers.js`) and an English page none.

use std::path::Path;

use crate::{Error, Result};

/// The file of [`super::UI_FILES`] that [`split`] cuts, and the directory its parts go to.
pub const UI_STRINGS_FILE: &str = "hipporag-ui-strings.json";
/// The directory of `_hipporag/` holding one `<code>.json` per language.
pub const UI_STRINGS_DIR: &str = "hipporag-ui-strings";

/// `(code, compact JSON of its strings)` for each language of `bytes` (the contents of
/// [`UI_STRINGS_FILE`]), sorted by code, each object's keys sorted (the same bytes for the same
/// strings). A code is a primary language subtag of two or
/// three lowercase letters, or one with a script subtag (`zh-Hant`): it names a file.
///
/// # Errors
/// [`Error::Json`] naming `path` when `bytes` is not a JSON object of objects of strings, or a
/// code is not such a tag.
pub fn split(path: &Path, bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>> {
    let fail = |message: String| Error::Json {
        path: path.to_path_buf(),
        message,
    };
    let all: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(bytes).map_err(|e| fail(e.to_string()))?;
    all.into_iter()
        .map(|(code, strings)| {
            if !is_code(&code) {
                return Err(fail(format!(
                    "\"{code}\": expected a language code such as \"de\" or \"zh-Hant\""
                )));
            }
            let ok = strings
                .as_object()
                .is_some_and(|o| o.values().all(serde_json::Value::is_string));
            if !ok {
                return Err(fail(format!("\"{code}\": expected an object of strings")));
            }
            let json = serde_json::to_vec(&strings).map_err(|e| fail(e.to_string()))?;
            Ok((code, json))
        })
        .collect()
}

/// `xx`, `xxx` or either with a script subtag (`-Xxxx`).
fn is_code(code: &str) -> bool {
    let (lang, script) = code.split_once('-').unwrap_or((code, ""));
    let lang_ok = (2..=3).contains(&lang.len()) && lang.bytes().all(|b| b.is_ascii_lowercase());
    let script_ok = script.is_empty()
        || (script.len() == 4
            && script.as_bytes()[0].is_ascii_uppercase()
            && script.bytes().skip(1).all(|b| b.is_ascii_lowercase()));
    lang_ok && script_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_becomes_its_own_file_and_a_bad_code_names_itself() {
        let p = Path::new("www/site/hipporag-ui-strings.json");
        let parts = split(
            p,
            r#"{"de": {"search": "Suche"}, "zh-Hant": {"dir": "ltr", "search": "搜尋"}}"#
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(
            parts,
            vec![
                ("de".to_string(), br#"{"search":"Suche"}"#.to_vec()),
                (
                    "zh-Hant".to_string(),
                    r#"{"dir":"ltr","search":"搜尋"}"#.as_bytes().to_vec()
                ),
            ]
        );
        for (bad, says) in [
            (r#"{"../x": {}}"#, "\"../x\": expected a language code"),
            (
                r#"{"de": {"search": 1}}"#,
                "\"de\": expected an object of strings",
            ),
            (r#"["de"]"#, "expected a map"),
        ] {
            let err = split(p, bad.as_bytes()).unwrap_err().to_string();
            assert!(
                err.starts_with("www/site/hipporag-ui-strings.json: ") && err.contains(says),
                "{err}"
            );
        }
    }

    #[test]
    fn the_repository_strings_split_into_every_language() {
        let p = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../www/site/hipporag-ui-strings.json"
        ));
        let parts = split(p, &std::fs::read(p).unwrap()).unwrap();
        let codes: Vec<&str> = parts.iter().map(|(c, _)| c.as_str()).collect();
        for code in ["de", "ar", "ja", "zh", "zh-Hant", "uk"] {
            assert!(codes.contains(&code), "{code} in {codes:?}");
        }
        let ar: serde_json::Value =
            serde_json::from_slice(&parts[codes.iter().position(|c| *c == "ar").unwrap()].1)
                .unwrap();
        assert_eq!(ar["dir"], "rtl");
    }
}
