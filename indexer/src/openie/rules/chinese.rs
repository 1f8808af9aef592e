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
//! explainer in `multilingual/`) segmented as written gives fragments ("檢索和問", "中的關"),
//! so jieba reads each sentence's Simplified form ([`words`]) and the phrases keep the
//! original characters.
//! Latin words inside Chinese text ("HippoRAG", "PageRank") are found by the English rules.
//! Without the `jieba` feature (the wasm indexer), Chinese text gives only those.

#[cfg(feature = "jieba")]
use hipporag_wasm::text::Language;

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
        || !word.chars().any(hipporag_wasm::text::is_cjk)
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

/// The words of `sentence` in order, with byte ranges in `sentence` (jieba reports
/// characters).
///
/// jieba segments the sentence's Simplified form (`zhconv`, OpenCC's and MediaWiki's tables)
/// when it has as many characters as the sentence, which is nearly always: the words' ranges
/// then carry over character for character, so phrases keep the text's own script (a
/// Traditional question reaches them). Otherwise jieba segments the sentence as written.
#[cfg(feature = "jieba")]
pub(super) fn words(sentence: &str) -> Vec<Word> {
    let bytes: Vec<usize> = sentence
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(sentence.len()))
        .collect();
    let simplified = zhconv::zhconv(sentence, zhconv::Variant::ZhHans);
    let segmented = if simplified.chars().count() == bytes.len() - 1 {
        simplified.as_str()
    } else {
        sentence
    };
    jieba()
        .tag(segmented, true)
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

/// `line` without the pinyin readings that text copied from a page with `<ruby>` carries
/// after its characters ("關(guān)鍵" → "關鍵"): a parenthesised syllable of lowercase Latin
/// letters, with a tone-marked vowel, right after a Han character. Left in, they cut words in
/// two ("中的關" and "鍵" from "文檔中的關(guān)鍵信息"). Other parentheses are kept.
pub(super) fn without_readings(line: &str) -> std::borrow::Cow<'_, str> {
    const TONED: &str = "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ";
    let is_reading = |s: &str| {
        let n = s.chars().count();
        (1..=7).contains(&n)
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c == 'ü' || TONED.contains(c))
            && s.chars().any(|c| TONED.contains(c))
    };
    let mut out = String::new();
    let mut last = 0;
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        if (c == '(' || c == '（') && prev.is_some_and(hipporag_wasm::text::is_cjk) {
            let body = i + c.len_utf8();
            if let Some(len) = line[body..].find([')', '）']) {
                if is_reading(&line[body..body + len]) {
                    out.push_str(&line[last..i]);
                    let close = line[body + len..].chars().next().map_or(1, char::len_utf8);
                    last = body + len + close;
                }
            }
        }
        if i >= last {
            prev = Some(c);
        }
    }
    if last == 0 {
        return std::borrow::Cow::Borrowed(line);
    }
    out.push_str(&line[last..]);
    std::borrow::Cow::Owned(out)
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

#[cfg(test)]
mod reading_tests {
    use super::without_readings;

    #[test]
    fn pinyin_readings_go_other_parentheses_stay() {
        // From multilingual/hipporag_explainer_zh.txt.
        assert_eq!(
            without_readings("將文檔中的關(guān)鍵信息(如命名實(shí)體和關(guān)系)"),
            "將文檔中的關鍵信息(如命名實體和關系)"
        );
        assert_eq!(
            without_readings("多跳問答(Multi-Hop QA)任務"),
            "多跳問答(Multi-Hop QA)任務"
        );
        assert_eq!(without_readings("f(x) and g(ā)"), "f(x) and g(ā)");
    }
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

    #[test]
    fn traditional_text_is_segmented_as_simplified_and_keeps_its_characters() {
        // The first sentence above in Traditional characters: the same words, as written.
        let t = texts("俄亥俄州立大學的研究人員提出了一種新的檢索框架");
        assert_eq!(t, ["俄亥俄", "州立大學", "研究人員", "檢索框架"]);
        // The explainer's text (multilingual/hipporag_explainer_zh.txt, without the pinyin it
        // carries after some characters), where segmenting it as written gave "檢索和問".
        let t = texts("單步多跳是一種在信息檢索和問答系統中用於解決復雜查詢的技術");
        assert_eq!(t, ["信息檢索", "系統", "技術"]);
    }
}
