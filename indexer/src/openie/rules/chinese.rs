//! What marks a phrase in Chinese text, for the rule extractor.
//!
//! Chinese has no spaces between words and no capital letters, so neither of the rules that
//! find English phrases applies. Words come from jieba's segmentation (the `jieba-rs` crate,
//! its default dictionary and HMM for unknown words), and what a word is comes from jieba's
//! part-of-speech tags (the ICTCLAS tag set of its dictionary):
//! * **names**: person `nr` (and `nrt`, `nrfg`), place `ns`, organisation `nt`, other proper
//!   noun `nz`, and abbreviations `j` ("北大");
//! * **nouns**: `n`, verbal and adjectival nouns `vn`, `an`.
//!
//! Adjacent words of one kind make one phrase ("图" + "数据库" → "图数据库"), keeping the last
//! few words (the head); words of one character are too ambiguous to be phrases on their own,
//! and NLTK's Chinese stopwords ("部分", "一些", …) are not phrases either.
//!
//! jieba's dictionary is in Simplified characters. Traditional text (the Chinese HippoRAG
//! explainer in `multilingual/`) is segmented far worse: many of its "words" are fragments
//! ("檢索和問", "中的關"), where Simplified text gives words ("检索", "问答").
//! Latin words inside Chinese text ("HippoRAG", "PageRank") are found by the English rules.
//! Without the `jieba` feature (the wasm indexer), Chinese text gives only those.

#[cfg(feature = "jieba")]
use hipporag_wasm::analysis::Language;

/// What a word of a Chinese sentence is, for phrases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(feature = "jieba"), allow(dead_code))] // only jieba's words are named
pub(super) enum Class {
    /// A proper name (person, place, organisation, other, abbreviation).
    Name,
    /// A common noun.
    Noun,
    /// Anything else: verbs, particles, numbers, punctuation, Latin words.
    Other,
}

/// A word of a sentence: its byte range and its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Word {
    pub start: usize,
    pub end: usize,
    pub class: Class,
}

/// The class of a jieba word with part-of-speech `tag`.
#[cfg(feature = "jieba")]
fn class(word: &str, tag: &str) -> Class {
    if word.chars().count() < 2
        || !word.chars().any(hipporag_wasm::analysis::is_cjk)
        || super::is_stopword(Language::Chinese, word)
    {
        return Class::Other;
    }
    match tag {
        "nr" | "nrt" | "nrfg" | "ns" | "nt" | "nz" | "j" => Class::Name,
        "n" | "vn" | "an" => Class::Noun,
        _ => Class::Other,
    }
}

/// jieba with its default dictionary, loaded once (about a quarter of a second).
#[cfg(feature = "jieba")]
fn jieba() -> &'static jieba_rs::Jieba {
    static JIEBA: std::sync::OnceLock<jieba_rs::Jieba> = std::sync::OnceLock::new();
    JIEBA.get_or_init(jieba_rs::Jieba::new)
}

/// The words of `sentence` in order, with byte ranges (jieba reports characters).
#[cfg(feature = "jieba")]
pub(super) fn words(sentence: &str) -> Vec<Word> {
    let bytes: Vec<usize> = sentence
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(sentence.len()))
        .collect();
    jieba()
        .tag(sentence, true)
        .into_iter()
        .scan(0usize, |chars, t| {
            let (a, n) = (*chars, t.word.chars().count());
            *chars += n;
            Some(Word {
                start: bytes[a],
                end: bytes[a + n],
                class: class(t.word, t.tag),
            })
        })
        .collect()
}

/// Without jieba: no Chinese words (the English rules still find Latin ones).
#[cfg(not(feature = "jieba"))]
pub(super) fn words(_sentence: &str) -> Vec<Word> {
    Vec::new()
}

/// The phrases of a sentence's words as byte ranges: maximal runs of adjacent names, and
/// (with `nouns`) of adjacent nouns, each cut to its last `max_words` words.
pub(super) fn phrases(words: &[Word], nouns: bool, max_words: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let c = words[k].class;
        if c == Class::Other || (c == Class::Noun && !nouns) {
            k += 1;
            continue;
        }
        let mut m = k + 1;
        while m < words.len() && words[m].class == c && words[m].start == words[m - 1].end {
            m += 1;
        }
        let a = m.saturating_sub(max_words.max(1)).max(k);
        out.push((words[a].start, words[m - 1].end));
        k = m;
    }
    out
}

#[cfg(all(test, feature = "jieba"))]
mod tests {
    use super::*;

    fn texts(sentence: &str) -> Vec<&str> {
        phrases(&words(sentence), true, 3)
            .into_iter()
            .map(|(a, b)| &sentence[a..b])
            .collect()
    }

    #[test]
    fn names_and_nouns_from_real_sentences() {
        // From the Chinese HippoRAG explainer (multilingual/hipporag_explainer_zh.txt).
        // jieba cuts the university into a place name and a noun; particles and verbs go.
        let t = texts("俄亥俄州立大学的研究人员提出了一种新的检索框架");
        assert_eq!(t, ["俄亥俄", "州立大学", "研究人员", "检索框架"]);
        // From XQuAD zh (multilingual/xquad_zh_corpus.json).
        let t = texts("美国国家橄榄球联盟的冠军");
        assert!(!t.is_empty() && !t.contains(&"的"), "{t:?}");
    }
}
