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
//!   Porter 2 for English; Russian's for Cyrillic words in a Russian index);
//! * in a Chinese index, a run of Han characters (UAX #29 makes each one a word): every
//!   character and every overlapping pair, as Lucene's `CJKBigramFilter` with its unigrams
//!   kept. Bigrams stand in for words without a segmentation dictionary, which the browser
//!   would have to download; the single characters keep one-character words and names
//!   findable.
//!
//! Stopwords are not removed here: the indexer leaves them out of the dictionary
//! ([`crate::lexical::Bm25Data::build`]), so a query stopword finds no posting list and the
//! browser needs no stopword list. The choice of identifiers-plus-parts and of stemming was made
//! on the CoNaLa `dev` split of Python's docs (docs/tuning.md, "Hybrid ranking").

use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

/// The language of an index's text: it picks the stemmer, how words are cut and which
/// stopwords the indexer leaves out. Recorded in the index ([`crate::index::BuildInfo`]), so
/// the query side analyses a question as the passages were analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English: Snowball's English (Porter 2) stemmer on every word.
    #[default]
    English,
    /// Russian: Snowball's Russian stemmer on Cyrillic words, the English one on the others.
    Russian,
    /// Chinese: every run of Han characters gives its characters and their overlapping pairs
    /// (Lucene's CJK bigrams, with the single characters kept: no dictionary on either side);
    /// other words as in English.
    Chinese,
}

impl Language {
    /// Every supported language, in the order of their stored tags.
    pub const ALL: [Language; 3] = [Language::English, Language::Russian, Language::Chinese];

    /// The language's position in [`Language::ALL`].
    pub const fn ordinal(self) -> usize {
        self as usize
    }

    /// The ISO 639-1 code: `en`, `ru`, `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
            Language::Chinese => "zh",
        }
    }

    /// The language of a BCP 47 tag (`<html lang>`, `--lang`): its primary subtag, any case
    /// (`zh-Hans-CN` → Chinese, `ru-RU` → Russian, `EN` → English). `None` for a language
    /// without support.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = primary_subtag(tag);
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }
}

/// The primary subtag of a BCP 47 tag, lowercased: `de-CH` → `de`, `zh_Hans` → `zh`, `""` →
/// `""`.
pub fn primary_subtag(tag: &str) -> String {
    let primary = tag.trim().split(['-', '_']).next().unwrap_or("");
    primary.to_ascii_lowercase()
}

/// True for a Han (CJK unified ideograph) character, or a Japanese kana: scripts written
/// without spaces between words, which [`terms`] cuts into characters and pairs, and which
/// [`crate::graph`] matches against the phrase nodes character by character.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B–F, Compatibility Supplement
}

/// True for a Cyrillic letter.
fn is_cyrillic(c: char) -> bool {
    matches!(c as u32, 0x0400..=0x052F)
}

/// True for the separators inside an identifier.
fn is_identifier_separator(c: char) -> bool {
    c == '.' || c == '_'
}

/// The BM25 terms of `text` in `language`, in text order (repeats kept; see the module docs).
/// No term holds a control character (Unicode `Cc`): one beginning with U+0001 would take the
/// deletes dictionary's key space ([`crate::lexical::DELETES_KEY_PREFIX`]).
///
/// ```
/// use hipporag_wasm::text::{terms, Language};
/// assert_eq!(
///     terms("Sorting lists with os.path.join()", Language::English),
///     ["sort", "list", "with", "os.path.join", "os", "path", "join"]
/// );
/// assert_eq!(terms("Москвы и Москве", Language::Russian), ["москв", "и", "москв"]);
/// assert_eq!(terms("北京大学", Language::Chinese), ["北", "北京", "京", "京大", "大", "大学", "学"]);
/// ```
pub fn terms(text: &str, language: Language) -> Vec<String> {
    let english = Stemmer::create(Algorithm::English);
    let own = match language {
        Language::Russian => Some(Stemmer::create(Algorithm::Russian)),
        Language::English | Language::Chinese => None,
    };
    let stem = |w: &str| -> String {
        match &own {
            Some(s) if w.chars().any(is_cyrillic) => s.stem(w).into_owned(),
            _ => english.stem(w).into_owned(),
        }
    };
    let mut out = Vec::new();
    // The run of Han characters being read (Chinese), as UAX #29 gives each its own word.
    let mut run: Vec<(usize, char)> = Vec::new();
    for (offset, word) in text.unicode_word_indices() {
        if language == Language::Chinese {
            let mut cs = word.chars();
            if let (Some(c), None) = (cs.next(), cs.next()) {
                if is_cjk(c) {
                    if run.last().is_some_and(|&(end, _)| end != offset) {
                        cjk_terms(&run, &mut out);
                        run.clear();
                    }
                    run.push((offset + word.len(), c));
                    continue;
                }
            }
            cjk_terms(&run, &mut out);
            run.clear();
        }
        let word = without_controls(word.to_lowercase());
        let parts: Vec<&str> = word
            .split(is_identifier_separator)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() > 1 || (parts.len() == 1 && word.len() > parts[0].len()) {
            out.push(word.clone());
            out.extend(parts.iter().map(|p| stem(p)));
        } else if let Some(p) = parts.first() {
            out.push(stem(p));
        }
    }
    cjk_terms(&run, &mut out);
    out
}

/// `word` without its control characters (Unicode `Cc`). UAX #29 keeps one at the start of a
/// word when combining marks follow it (`"\u{1}\u{365}"`), and a term beginning with U+0001
/// would take the deletes dictionary's key space ([`crate::lexical::DELETES_KEY_PREFIX`]).
fn without_controls(mut word: String) -> String {
    if word.contains(char::is_control) {
        word.retain(|c| !c.is_control());
    }
    word
}

/// The key under which the inflected forms of a normalised phrase
/// ([`crate::text::normalize_phrase`]) meet: each Cyrillic token stemmed by Snowball's
/// Russian stemmer ("персонализированного алгоритма" and "персонализированный алгоритм" →
/// "персонализирова алгоритм"). `None` for a language whose phrase nodes are their normalised
/// text (English; Chinese, which does not inflect).
/// The indexer merges phrases with one key into one node, and the query side looks a span's
/// key up ([`crate::index::Index::phrase_id_inflected`]).
pub fn phrase_stem_key(normalized: &str, language: Language) -> Option<String> {
    if language != Language::Russian {
        return None;
    }
    let stemmer = Stemmer::create(Algorithm::Russian);
    let stems: Vec<String> = normalized
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t.chars().any(is_cyrillic) {
                stemmer.stem(&compose_cyrillic(t)).into_owned()
            } else {
                t.to_string()
            }
        })
        .collect();
    Some(stems.join(" "))
}

/// Recomposes the Cyrillic letters that NFKD splits (normalised phrases hold "и" + U+0306
/// for "й", "е" + U+0308 for "ё", and Belarusian "ў", Ukrainian "ї"), as Snowball's Russian
/// stemmer reads composed letters ("новый" ends in "ый").
fn compose_cyrillic(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for c in t.chars() {
        let composed = match (out.chars().last(), c) {
            (Some('и'), '\u{306}') => Some('й'),
            (Some('е'), '\u{308}') => Some('ё'),
            (Some('у'), '\u{306}') => Some('ў'),
            (Some('і'), '\u{308}') => Some('ї'),
            _ => None,
        };
        match composed {
            Some(k) => {
                out.pop();
                out.push(k);
            }
            None => out.push(c),
        }
    }
    out
}

/// The terms of one run of adjacent Han characters: each character, then the pair it starts.
fn cjk_terms(run: &[(usize, char)], out: &mut Vec<String>) {
    for (k, &(_, c)) in run.iter().enumerate() {
        out.push(c.to_string());
        if let Some(&(_, d)) = run.get(k + 1) {
            out.push([c, d].iter().collect());
        }
    }
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

    /// 19 random bytes of a site's page held `"H\u{1}\u{6df}\u{365}"`: UAX #29 makes
    /// `"\u{1}\u{6df}\u{365}"` a word (its marks are alphabetic), whose term then began with
    /// the deletes dictionary's prefix. No control character reaches a term.
    #[test]
    fn no_term_or_static_word_holds_a_control_character() {
        let controls = (0..0x20).chain(0x7f..0xa0).filter_map(char::from_u32);
        for c in controls {
            for text in [
                format!("{c}\u{6df}\u{365}"),
                format!("H{c}\u{365}x"),
                format!("a.{c}\u{301}b_{c}\u{365}"),
            ] {
                for language in Language::ALL {
                    let t = terms(&text, language);
                    assert!(t.iter().all(|t| !t.contains(char::is_control)), "{t:?}");
                }
            }
        }
        assert_eq!(
            terms("H\u{1}\u{6df}\u{365}", Language::English),
            ["h", "\u{6df}\u{365}"]
        );
    }
}
