//! Text analysis: the terms BM25 indexes and searches. One function serves the indexer and the
//! query side, so both make the same terms.
//!
//! [`terms`] takes the words of a text by Unicode's word boundaries (UAX #29, the
//! `unicode-segmentation` crate: `os.path.join`, `snake_case` and `don't` are one word each),
//! lowercases them, and emits for each word:
//! * an identifier (a word holding `.` or `_`): the whole, then every part between the
//!   separators, stemmed (`os.path.join` → `os.path.join`, `os`,
//!   `path`, `join`), so a query can name either;
//! * any other word: its stem by the Snowball stemmer of the [`Language`] (`rust-stemmers`;
//!   Porter 2 for English).
//!
//! Stopwords are not removed here: the indexer leaves them out of the dictionary
//! ([`crate::bm25::Bm25Data::build`]), so a query stopword finds no posting list and the
//! browser needs no stopword list. The choice of identifiers-plus-parts and of stemming was made
//! on the CoNaLa `dev` split of Python's docs (README, "Hybrid ranking").

use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

/// The language of an index's text, which picks its stemmer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English: Snowball's English (Porter 2) stemmer.
    #[default]
    English,
}

impl Language {
    fn stemmer(self) -> Stemmer {
        match self {
            Language::English => Stemmer::create(Algorithm::English),
        }
    }
}

/// True for the separators inside an identifier.
fn is_identifier_separator(c: char) -> bool {
    c == '.' || c == '_'
}

/// The BM25 terms of `text` in `language`, in text order (repeats kept; see the module docs).
///
/// ```
/// use hipporag_wasm::analysis::{terms, Language};
/// assert_eq!(
///     terms("Sorting lists with os.path.join()", Language::English),
///     ["sort", "list", "with", "os.path.join", "os", "path", "join"]
/// );
/// ```
pub fn terms(text: &str, language: Language) -> Vec<String> {
    let stemmer = language.stemmer();
    let mut out = Vec::new();
    for word in text.unicode_words() {
        let word = word.to_lowercase();
        let parts: Vec<&str> = word
            .split(is_identifier_separator)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() > 1 || (parts.len() == 1 && word.len() > parts[0].len()) {
            out.push(word.clone());
            out.extend(parts.iter().map(|p| stemmer.stem(p).into_owned()));
        } else if let Some(p) = parts.first() {
            out.push(stemmer.stem(p).into_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_stems_and_identifiers() {
        let t = terms(
            "How do I convert a string to lowercase with str.lower()? Use __init__ and f-strings.",
            Language::English,
        );
        assert_eq!(
            t,
            [
                "how",
                "do",
                "i",
                "convert",
                "a",
                "string",
                "to",
                "lowercas",
                "with",
                "str.lower",
                "str",
                "lower",
                "use",
                "__init__",
                "init",
                "and",
                "f",
                "string"
            ]
        );
        // Accents and case: the same term either way.
        assert_eq!(
            terms("Café", Language::English),
            terms("café", Language::English)
        );
        assert!(terms("  -- ... ", Language::English).is_empty());
    }
}
