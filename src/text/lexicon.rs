//! The words of Thai, Lao, Khmer and Burmese runs that a segmentation dictionary finds: the
//! index's **lexicon**. These scripts separate no words by spaces; [`super::terms`] reads them in
//! units (grapheme clusters) and pairs, and the lexicon adds their longer words.
//!
//! The build cuts each passage with a dictionary segmenter (ICU4X's, in the indexer,
//! `hipporag_indexer::lexicon`) and keeps every word of [`LEXICON_UNITS`] units; then a
//! passage's lexicon terms are each window of that many units of its runs that is a lexicon
//! word, wherever it occurs ([`lexicon_windows`]). A question's are every such window
//! ([`lexicon_candidates`]): the index's dictionary holds a term of three units or more of these
//! scripts only if it is a lexicon word, so the windows it lacks find nothing, and the page needs
//! neither the segmenter nor its dictionary (docs/languages.md, "Every language and its
//! analysis": the site's lexicon).

use std::ops::RangeInclusive;

use super::analysis::{WordKind, unit_term, word_spans};
use super::script::{is_lexicon_char, is_lexicon_unit};

/// How many units a lexicon word has: two-unit words are already their pair's term, and
/// longer windows are rarely one word.
pub const LEXICON_UNITS: RangeInclusive<usize> = 3..=8;

/// The runs of consecutive Thai, Lao, Khmer or Burmese units of `text` (at least two units),
/// each as the byte offsets of its unit boundaries: `run[0]` its start, `run[k]` the end of its
/// `k`th unit.
///
/// ```
/// use hipporag_wasm::text::lexicon_runs;
/// // "ภาษาไทย", one run of seven units (grapheme clusters), after "Thai ".
/// let runs = lexicon_runs("Thai ภาษาไทย!");
/// assert_eq!(runs.len(), 1);
/// assert_eq!(runs[0][0], 5);
/// assert_eq!(*runs[0].last().unwrap(), 5 + "ภาษาไทย".len());
/// ```
pub fn lexicon_runs(text: &str) -> Vec<Vec<usize>> {
    let mut runs = Vec::new();
    // Most passages have none of these scripts: a scan of their characters spares them UAX #29.
    if !text.chars().any(is_lexicon_char) {
        return runs;
    }
    let mut run: Vec<usize> = Vec::new();
    for span in word_spans(text) {
        let unit = matches!(span.kind, WordKind::Unit { .. })
            && is_lexicon_unit(&text[span.start..span.end]);
        if unit && run.last() == Some(&span.start) {
            run.push(span.end);
            continue;
        }
        if run.len() > 2 {
            runs.push(std::mem::take(&mut run));
        }
        run.clear();
        if unit {
            run.extend([span.start, span.end]);
        }
    }
    if run.len() > 2 {
        runs.push(run);
    }
    runs
}

/// Calls `f(window)` for each window of [`LEXICON_UNITS`] units of each run of `text`
/// ([`lexicon_runs`]), in text order, shorter windows first at each start.
pub fn lexicon_windows(text: &str, mut f: impl FnMut(&str)) {
    for run in lexicon_runs(text) {
        for i in 0..run.len() {
            for n in LEXICON_UNITS {
                let Some(&end) = run.get(i + n) else { break };
                f(&text[run[i]..end]);
            }
        }
    }
}

/// A question's lexicon candidates: the term ([`unit_term`]) of every window of `text`
/// ([`lexicon_windows`]), in text order, repeats kept. Those the index's dictionary lacks are
/// not lexicon words and score nothing.
pub fn lexicon_candidates(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    lexicon_windows(text, |w| out.push(unit_term(w)));
    out
}

/// A passage's lexicon terms: the windows of `text` ([`lexicon_windows`]) that `is_word` holds
/// for, as terms ([`unit_term`]), in text order, repeats kept (each occurrence counts towards
/// the term frequency).
pub fn lexicon_terms(text: &str, is_word: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    lexicon_windows(text, |w| {
        let t = unit_term(w);
        if is_word(&t) {
            out.push(t);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_stay_inside_one_run_of_one_family_of_scripts() {
        // Two Thai runs split by a space, and a Han run, which has no lexicon.
        let text = "ประเทศไทย กรุงเทพ 東京都庁";
        let runs = lexicon_runs(text);
        assert_eq!(runs.len(), 2);
        let c = lexicon_candidates(text);
        assert!(c.contains(&"ประเทศ".to_string()), "{c:?}");
        assert!(c.contains(&"กรุงเทพ".to_string()), "{c:?}");
        assert!(
            c.iter().all(|w| !w.contains(' ') && !w.contains('東')),
            "{c:?}"
        );
        // Every window has three to eight units.
        for w in &c {
            let n = lexicon_runs(w)[0].len() - 1;
            assert!(LEXICON_UNITS.contains(&n), "{w}: {n}");
        }
        let words = ["ประเทศ", "กรุงเทพ"];
        assert_eq!(
            lexicon_terms(&format!("{text} ประเทศ"), |t| words
                .contains(&t)),
            ["ประเทศ", "กรุงเทพ", "ประเทศ"]
        );
    }

    /// `www/src/lexicon.js` picks the passages and words it hands the in-browser indexer by a
    /// character class of its own (JS cannot call this crate before the wasm module loads): it
    /// must hold exactly the characters [`is_lexicon_char`] does, or the
    /// tab's index reads a script the native one does not (or leaves one out).
    #[test]
    fn the_pages_lexicon_scripts_are_the_indexers() {
        let js = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/www/src/lexicon.js"));
        let class = js
            .split_once("const SCRIPTS = /[")
            .and_then(|(_, rest)| rest.split_once("]/u;"))
            .expect("www/src/lexicon.js: `const SCRIPTS = /[…]/u;`")
            .0;
        // `\uXXXX` and `\uXXXX-\uXXXX`, one after another.
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        let mut open = false;
        for escape in class.split("\\u").skip(1) {
            let hex = escape.trim_end_matches('-');
            let c = u32::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("`\\u{escape}`"));
            match ranges.last_mut() {
                Some(last) if open => last.1 = c,
                _ => ranges.push((c, c)),
            }
            open = escape.ends_with('-');
        }
        assert!(!ranges.is_empty(), "{class}");
        let differ: Vec<u32> = (0..=0x10FFFF_u32)
            .filter_map(char::from_u32)
            .filter(|&c| {
                is_lexicon_char(c)
                    != ranges
                        .iter()
                        .any(|&(lo, hi)| (lo..=hi).contains(&(c as u32)))
            })
            .map(|c| c as u32)
            .collect();
        assert!(
            differ.is_empty(),
            "lexicon.js and is_lexicon_char differ at {differ:x?}"
        );
    }
}
