//! The index's lexicon ([`hipporag_wasm::text::lexicon_terms`]): the words of
//! [`LEXICON_UNITS`] units that a dictionary segmenter finds in the Thai, Lao, Khmer and Burmese
//! runs of a corpus' titles and texts. ICU4X's dictionary word segmenter (Unicode's
//! implementation of ICU's dictionary-based break iterator, the one `Intl.Segmenter` and
//! Pagefind 1.6 use) cuts each passage that has such a run; a word is a stretch between two of
//! its breaks that are unit boundaries of one run. Built only with the `lexicon` feature (the
//! native build); without it the lexicon is empty, and those scripts are read in units and pairs
//! only, as before it (docs/languages.md).

use std::collections::HashSet;

use hipporag_wasm::index::Passage;
use hipporag_wasm::text::{LEXICON_UNITS, lexicon_runs, unit_term};

/// The lexicon of `passages` (titles and texts): every word of [`LEXICON_UNITS`] units of a
/// Thai, Lao, Khmer or Burmese run that ICU4X's dictionary segmenter cuts, as its term
/// ([`unit_term`]). Deterministic: a set of the words found, whatever the passages' order.
/// Empty without the `lexicon` feature.
#[cfg(feature = "lexicon")]
pub fn lexicon(passages: &[Passage]) -> HashSet<String> {
    use icu_segmenter::WordSegmenter;
    use icu_segmenter::options::WordBreakInvariantOptions;
    let segmenter = WordSegmenter::new_dictionary(WordBreakInvariantOptions::default());
    let mut out = HashSet::new();
    for p in passages {
        for text in [&p.title, &p.text] {
            let runs = lexicon_runs(text);
            if runs.is_empty() {
                continue;
            }
            let breaks: HashSet<usize> = segmenter.segment_str(text).collect();
            for run in runs {
                let at: Vec<usize> = (0..run.len())
                    .filter(|&k| breaks.contains(&run[k]))
                    .collect();
                for w in at.windows(2) {
                    if LEXICON_UNITS.contains(&(w[1] - w[0])) {
                        out.insert(unit_term(&text[run[w[0]]..run[w[1]]]));
                    }
                }
            }
        }
    }
    out
}

/// The lexicon of words another segmenter found (the browser's `Intl.Segmenter`, for the
/// in-browser indexer): each of `words` that is one run of [`LEXICON_UNITS`] Thai, Lao, Khmer
/// or Burmese units, as its term ([`unit_term`]); the others (spaced words, punctuation, other
/// scripts, shorter or longer words) are left out.
pub fn lexicon_of_words<S: AsRef<str>>(words: &[S]) -> HashSet<String> {
    words
        .iter()
        .map(AsRef::as_ref)
        .filter(|w| {
            let runs = lexicon_runs(w);
            runs.len() == 1
                && runs[0][0] == 0
                && runs[0].last() == Some(&w.len())
                && LEXICON_UNITS.contains(&(runs[0].len() - 1))
        })
        .map(unit_term)
        .collect()
}

/// Without the `lexicon` feature: empty.
#[cfg(not(feature = "lexicon"))]
pub fn lexicon(_passages: &[Passage]) -> HashSet<String> {
    HashSet::new()
}

#[cfg(all(test, feature = "lexicon"))]
mod tests {
    use super::*;

    fn passage(text: &str) -> Passage {
        Passage::new("", text)
    }

    #[test]
    fn icu_cuts_thai_into_its_words_and_leaves_other_scripts_alone() {
        // "Thailand's capital is Bangkok", in Thai, with an English and a Japanese sentence.
        let l = lexicon(&[passage(
            "เมืองหลวงของประเทศ คือกรุงเทพ Bangkok is the capital. 東京は日本の首都です。",
        )]);
        for w in ["เมือง", "หลวง", "ประเทศ", "กรุงเทพ"]
        {
            assert!(l.contains(w), "{w} missing from {l:?}");
        }
        // Two-unit words are their pair's term already ("ไทย" is ไ + ท + ย, three).
        assert!(
            l.iter().all(|w| !w.is_ascii() && !w.contains('東')),
            "{l:?}"
        );
    }
}

#[cfg(test)]
mod words_tests {
    use super::*;

    #[test]
    fn words_from_elsewhere_keep_whole_runs_of_three_to_eight_units() {
        let words = [
            "ประเทศ",
            "คือ",
            "Bangkok",
            "ประเทศไทยกรุงเทพ",
            "東京都",
            " ประเทศ",
            "ประเทศ",
        ];
        let l = lexicon_of_words(&words);
        assert_eq!(l, HashSet::from(["ประเทศ".to_string()]));
    }
}
