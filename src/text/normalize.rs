//! Phrase normalisation: the key under which entity strings become graph nodes.
//!
//! HippoRAG 1 (`processing_phrases` in the reference code) lowercases and replaces every character
//! outside `[A-Za-z0-9 ]` with a space. That deletes every non-Latin name: "東京", "Москва" and
//! "Αθήνα" all become the empty string, and "Südhof" becomes "s dhof". We keep the idea (case and
//! punctuation do not make a different entity) but make it Unicode-aware:
//!
//! 1. NFKD decomposition, then combining marks that follow a Latin letter are dropped, so
//!    "Südhof" → "sudhof" and "Café" → "cafe" (accent folding, as search engines do for Latin
//!    scripts), and a Latin letter with a stroke, a bar or no dot becomes its letter ("Łódź" →
//!    "lodz", `STROKE_FOLDS`). Marks on other scripts (Devanagari vowel signs, Hebrew points, …)
//!    are kept: they are letters there, not decoration.
//! 2. Unicode lowercase (`char::to_lowercase`).
//! 3. Every character that is not alphanumeric in Unicode (`char::is_alphanumeric`, which covers
//!    CJK, Cyrillic, Greek, Arabic, …) or a kept combining mark becomes a separator.
//! 4. Runs of separators collapse to one space; leading and trailing space is trimmed.
//!
//! The same function normalises indexed phrases and query entities, so the exact-match query
//! extractor ([`crate::graph`]) and the phrase table agree.
//!
//! NFKD comes from the `unicode-normalization` crate natively and from the browser's own
//! `String.prototype.normalize("NFKD")` (ICU) in wasm: the crate's decomposition tables would
//! be most of the module every page downloads, for a few dozen short strings per query. Decompositions of assigned characters are frozen by Unicode's normalization stability
//! policy, so both give the same result; `tests/wasm.rs` checks them on Latin, Greek, Cyrillic,
//! Devanagari, CJK, ligature and full-width strings.

use std::borrow::Cow;

use unicode_normalization::char::is_combining_mark;

/// NFKD (compatibility decomposition) of `s`.
#[cfg(not(target_arch = "wasm32"))]
fn nfkd(s: &str) -> impl Iterator<Item = char> + '_ {
    use unicode_normalization::UnicodeNormalization;
    s.nfkd()
}

/// NFKD (compatibility decomposition) of `s`, by the JS engine (ICU).
#[cfg(target_arch = "wasm32")]
fn nfkd(s: &str) -> impl Iterator<Item = char> {
    let decomposed: String = js_sys::JsString::from(s).normalize("NFKD").into();
    decomposed.chars().collect::<Vec<_>>().into_iter()
}

/// NFC (canonical composition) of `s`: one form for a letter and its marks however a page
/// or a question encodes them ("ệ" as one character or as "e" and two marks), for the terms
/// that keep their marks (Vietnamese syllables, [`crate::text::terms`]). ASCII is returned as
/// it is.
pub fn nfc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    Cow::Owned(nfc_owned(s))
}

#[cfg(not(target_arch = "wasm32"))]
fn nfc_owned(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    s.nfc().collect()
}

/// By the JS engine (ICU), as [`nfkd`]: the same result by Unicode's stability policy.
#[cfg(target_arch = "wasm32")]
fn nfc_owned(s: &str) -> String {
    js_sys::JsString::from(s).normalize("NFC").into()
}

/// True for characters whose combining marks are folded away (Latin, incl. Extended A/B, IPA
/// and Latin Extended Additional).
fn is_latin_base(c: char) -> bool {
    let u = c as u32;
    c.is_ascii_alphabetic() || (0x00C0..=0x024F).contains(&u) || (0x1E00..=0x1EFF).contains(&u)
}

/// Latin letters whose diacritic is a stroke, a bar or a missing dot, with the letter they
/// fold to. Unicode gives them no decomposition, so NFKD leaves them whole where it takes the
/// accents off their neighbours: "łódź" would fold to "łodz", and a reader typing "Lodz", "Da
/// Nang" or "isik" would not find "Łódź", "Đà Nẵng" or "ışık", though "Sao Paulo" finds "São
/// Paulo". The letters of the living orthographies among those Lucene's `ASCIIFoldingFilter`
/// folds to one letter: Turkish and Azerbaijani ı (so that "Işık", lowercased "işık" by
/// Unicode's rule, and "ışık" meet), Polish and Sorbian ł, Vietnamese and South Slavic đ,
/// Danish, Norwegian and Faroese ø, Maltese ħ, Sámi ŧ and ǥ, and ƀ. Ligatures and letters of
/// their own (æ, œ, ß, þ) stay, as NFKD leaves them.
const STROKE_FOLDS: [(char, char); 15] = [
    ('ı', 'i'),
    ('ł', 'l'),
    ('Ł', 'L'),
    ('đ', 'd'),
    ('Đ', 'D'),
    ('ø', 'o'),
    ('Ø', 'O'),
    ('ħ', 'h'),
    ('Ħ', 'H'),
    ('ŧ', 't'),
    ('Ŧ', 'T'),
    ('ǥ', 'g'),
    ('Ǥ', 'G'),
    ('ƀ', 'b'),
    ('Ƀ', 'B'),
];

/// `c` folded by [`STROKE_FOLDS`], or `c` (at once for ASCII, most of every text).
fn fold_stroke(c: char) -> char {
    if c.is_ascii() {
        return c;
    }
    STROKE_FOLDS
        .iter()
        .find(|&&(from, _)| from == c)
        .map_or(c, |&(_, to)| to)
}

/// Normalises a phrase (entity string, triple subject or object, query entity) to its node key.
///
/// Returns the empty string when the input holds no letter or digit at all; callers treat an
/// empty key as "no phrase" and count it as malformed.
///
/// ```
/// use hipporag_wasm::text::normalize_phrase;
/// assert_eq!(normalize_phrase("  Thomas C. Südhof "), "thomas c sudhof");
/// assert_eq!(normalize_phrase("Москва"), "москва");
/// assert_eq!(normalize_phrase("東京都"), "東京都");
/// assert_eq!(normalize_phrase("--"), "");
/// ```
pub fn normalize_phrase(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_base_latin = false;
    let mut pending_space = false;
    for c in nfkd(s).map(fold_stroke) {
        if is_combining_mark(c) {
            if last_base_latin {
                continue;
            }
            if !out.is_empty() && !pending_space {
                out.push(c);
            }
            continue;
        }
        last_base_latin = is_latin_base(c);
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// `term` with the accents of its Latin letters folded away, every other character as it was:
/// a precomposed Latin letter becomes its NFKD decomposition without the combining marks
/// ("é" → "e", "ǆ" → "dz"), and a combining mark after a Latin letter is dropped (text in NFD).
/// A letter with a stroke, a bar or no dot folds to its letter too (`STROKE_FOLDS`: "ł" →
/// "l", "đ" → "d", "ı" → "i"); ligatures and letters of their own stay ("æ", "ß"), and so do
/// Greek, Cyrillic, Arabic, Indic and CJK characters with their marks, which are letters
/// there. Borrowed when nothing changes (every ASCII term).
///
/// The same folding as [`normalize_phrase`]'s, for one BM25 term: [`crate::text::terms`] folds
/// each stem, so "cafe" finds "café" and "Sao Paulo" finds "São Paulo". Pagefind folds every
/// word's diacritics too (`normalize_diacritics` in its indexer, NFD without combining marks,
/// in every script), and leaves the letters of `STROKE_FOLDS` as they are.
///
/// ```
/// use hipporag_wasm::text::fold_latin_accents;
/// assert_eq!(fold_latin_accents("résumé"), "resume");
/// assert_eq!(fold_latin_accents("e\u{301}te\u{301}"), "ete");
/// assert_eq!(fold_latin_accents("łódź"), "lodz");
/// assert_eq!(fold_latin_accents("й"), "й");
/// ```
pub fn fold_latin_accents(term: &str) -> Cow<'_, str> {
    let folds = |c: char| (!c.is_ascii() && is_latin_base(c)) || is_combining_mark(c);
    if !term.chars().any(folds) {
        return Cow::Borrowed(term);
    }
    let mut out = String::with_capacity(term.len());
    let mut after_latin = false;
    for c in term.chars() {
        if is_combining_mark(c) {
            if !after_latin {
                out.push(c);
            }
            continue;
        }
        after_latin = is_latin_base(c);
        if after_latin && !c.is_ascii() {
            let mut buf = [0u8; 4];
            out.extend(
                nfkd(c.encode_utf8(&mut buf))
                    .filter(|&d| !is_combining_mark(d))
                    .map(fold_stroke),
            );
        } else {
            out.push(c);
        }
    }
    if out == term {
        Cow::Borrowed(term)
    } else {
        Cow::Owned(out)
    }
}

/// Splits normalised text into its space-separated tokens.
pub fn tokens(normalized: &str) -> impl Iterator<Item = &str> {
    normalized.split(' ').filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_normalization::UnicodeNormalization;

    #[test]
    fn latin_folding_and_case() {
        assert_eq!(normalize_phrase("Café  au-Lait!"), "cafe au lait");
        assert_eq!(normalize_phrase("ÆON Ñandú"), "æon nandu");
        assert_eq!(
            normalize_phrase("2,384 at the 2010 census"),
            "2 384 at the 2010 census"
        );
    }

    #[test]
    fn non_latin_scripts_survive() {
        // Greek keeps its accents (marks after a non-Latin base are letters of the word).
        assert_eq!(normalize_phrase("Αθήνα").nfc().collect::<String>(), "αθήνα");
        // Hindi keeps its vowel signs (combining marks after a non-Latin base).
        let hindi = normalize_phrase("हिन्दी");
        assert!(!hindi.is_empty());
        assert_eq!(hindi.nfc().collect::<String>(), "हिन्दी");
        assert_eq!(normalize_phrase("Москва, Россия"), "москва россия");
    }

    #[test]
    fn nothing_alphanumeric_is_empty() {
        assert_eq!(normalize_phrase(""), "");
        assert_eq!(normalize_phrase(" -- ... "), "");
    }
}
