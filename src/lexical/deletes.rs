//! The neighbours of a misspelt word, and the deletes dictionary that finds them in the index
//! in pieces.
//!
//! A misspelt query word `t` is matched to its **neighbours** ([`is_neighbour`]): the
//! dictionary's alphabetic words `u` that begin with `t`'s first character and either
//!
//! * are one edit away (optimal string alignment distance 1: a deletion, an insertion, a
//!   substitution or a swap of neighbours, `strsim::osa_distance`), or
//! * are a proper beginning of `t` of at least [`MIN_ENTRY_CHARS`] characters. A stemmer
//!   strips only the suffixes it knows, so an edit in a word's suffix leaves it whole
//!   ("terminaet", "permuttaions") while the dictionary holds the right word's stem ("termin",
//!   "permut"): the stem is then a beginning of the misspelt word, and more than one edit
//!   away from it.
//!
//! Typists rarely get the first letter wrong, and a search box that matched it too would read
//! the whole dictionary.
//!
//! The single file scans the words beginning with that character. The index in pieces cannot:
//! its sorted term pieces hold a key range a query fetches, and one letter's range is a
//! twentieth of the dictionary. So it looks up [`KEY_CHARS`]-character keys instead, as
//! symmetric-delete spelling correction does (SymSpell, Garbe 2012: a word is found under the
//! strings left by deleting one of its characters):
//!
//! * the **query keys** of `t` ([`query_keys`]): its first [`KEY_CHARS`] characters, and the
//!   first [`KEY_CHARS`] left after deleting its second or its third character;
//! * the **deletes dictionary** lists each word `u` under its **entry keys** ([`entry_keys`]):
//!   the first [`KEY_CHARS`] characters left after deleting its second or its third.
//!
//! Every neighbour of `t` either begins with a query key (an edit after the third character, an
//! extra character typed among the first three, the third and fourth swapped, or a beginning of
//! `t`) or is listed under one (a character among the first three dropped or mistyped, or the
//! second and third swapped); the unit test checks this against the scan. So both find the same neighbours, and a
//! misspelt word costs the pieces of three short key ranges and of three deletes-dictionary
//! keys, and then the term pieces of the neighbours found.

use crate::text::MIN_ENTRY_CHARS;

/// Characters of a query key and of an entry key.
pub const KEY_CHARS: usize = 3;

/// The character that begins a deletes-dictionary key in the term pieces' key space
/// ([`crate::pieces::TermPiece::deletes`]): below every character of a BM25 term or a static
/// word, so the entries sort before every word and fill term pieces of their own, as a field
/// number begins every key of one field in a term dictionary shared by several (tantivy's
/// `Term`).
pub const DELETES_KEY_PREFIX: char = '\u{1}';

/// `s` without its character `k` (counted in characters), cut to [`KEY_CHARS`] characters.
fn key_without(s: &str, k: usize) -> String {
    s.chars()
        .enumerate()
        .filter(|&(i, _)| i != k)
        .map(|(_, c)| c)
        .take(KEY_CHARS)
        .collect()
}

/// The first [`KEY_CHARS`] characters of `s`.
pub fn head(s: &str) -> &str {
    s.char_indices().nth(KEY_CHARS).map_or(s, |(i, _)| &s[..i])
}

/// The keys a misspelt word `t` looks up, as key-range prefixes and as deletes-dictionary keys
/// (module docs): sorted and distinct.
pub fn query_keys(t: &str) -> Vec<String> {
    let mut keys = vec![head(t).to_string(), key_without(t, 1), key_without(t, 2)];
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// Whether the deletes dictionary lists `u`: alphabetic, at least [`MIN_ENTRY_CHARS`]
/// characters.
pub fn is_entry(u: &str) -> bool {
    u.chars().count() >= MIN_ENTRY_CHARS && u.chars().all(char::is_alphabetic)
}

/// The keys the deletes dictionary lists `u` under (module docs), sorted and distinct; none
/// when it is no entry ([`is_entry`]).
pub fn entry_keys(u: &str) -> Vec<String> {
    if !is_entry(u) {
        return Vec::new();
    }
    let mut keys = vec![key_without(u, 1), key_without(u, 2)];
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The key of the deletes-dictionary entries under `key` in the term pieces' key space.
pub fn deletes_key(key: &str) -> String {
    format!("{DELETES_KEY_PREFIX}{key}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::is_neighbour;

    /// Every neighbour of `t` in `words`, found as the index in pieces finds them: the words
    /// beginning with a query key, and those listed under one.
    fn by_keys(t: &str, words: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for k in query_keys(t) {
            for u in words {
                let listed = entry_keys(u).contains(&k);
                if (u.starts_with(k.as_str()) || listed) && is_neighbour(t, u) {
                    out.push(u.to_string());
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn the_keys_find_every_neighbour_the_scan_finds() {
        let word = "pickle";
        // Every one-edit variant of "pickle" that keeps its first letter, as a dictionary.
        let letters: Vec<char> = "abcdefghijklmnopqrstuvwxyz".chars().collect();
        let chars: Vec<char> = word.chars().collect();
        let mut variants: Vec<String> = Vec::new();
        for i in 1..=chars.len() {
            for &c in &letters {
                let mut v = chars.clone();
                v.insert(i, c);
                variants.push(v.into_iter().collect());
            }
        }
        for i in 1..chars.len() {
            let mut v = chars.clone();
            v.remove(i);
            variants.push(v.iter().collect());
            for &c in &letters {
                let mut v = chars.clone();
                v[i] = c;
                variants.push(v.into_iter().collect());
            }
            if i + 1 < chars.len() {
                let mut v = chars.clone();
                v.swap(i, i + 1);
                variants.push(v.into_iter().collect());
            }
        }
        variants.push("pickle".into());
        variants.push("xpickle".into());
        variants.push("ipckle".into());
        // Beginnings of four characters or more, as a stemmer leaves them ("pick"), and one
        // too short ("pic").
        variants.push("pick".into());
        variants.push("pic".into());
        let words: Vec<&str> = variants.iter().map(String::as_str).collect();
        // Each variant misspelt for the others, and "pickle" for all of them.
        for t in words.iter().filter(|t| t.chars().count() >= 5) {
            let scan: Vec<String> = {
                let mut v: Vec<String> = words
                    .iter()
                    .filter(|u| is_neighbour(t, u))
                    .map(|u| u.to_string())
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            assert_eq!(by_keys(t, &words), scan, "neighbours of {t}");
        }
        assert!(by_keys("pickle", &words).len() > 100);
        // The first letter is kept: "ipckle" and "xpickle" are no neighbours of "pickle".
        assert!(!by_keys("pickle", &words).contains(&"xpickle".to_string()));
        assert!(!is_neighbour("pickle", "ipckle"));
        assert!(by_keys("picklse", &words).contains(&"pick".to_string()));
        assert!(!by_keys("picklse", &words).contains(&"pic".to_string()));
    }

    #[test]
    fn keys_count_characters_not_bytes() {
        assert_eq!(query_keys("ёлочка"), ["ёло", "ёлч", "ёоч"]);
        assert_eq!(entry_keys("ёлочка"), ["ёлч", "ёоч"]);
        assert!(entry_keys("py3k").is_empty());
        assert!(is_neighbour("ёлочка", "ёлочки"));
    }
}
