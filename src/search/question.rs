//! The part of a question that is searched: a question pasted whole (a paragraph, a long
//! Japanese question of 90 characters) would otherwise ask for a term piece and a phrase piece
//! per word, and a first search would fetch hundreds of kilobytes. Both the single file and the
//! index in pieces search the same part, so they rank alike.

use crate::text::{Language, is_lexicon_char, terms, word_spans};

/// The most BM25 terms ([`terms`]) a question is searched with ([`counted_terms`]): about 56
/// words of a spaced language, about 28 characters of Chinese or Japanese (a unit and a pair
/// each).
/// Chosen on JSQuAD as a site (all 4,442 questions, docs/benchmarks.md, "JSQuAD's tail"): its
/// first search's pieces stay under 166 KB gzipped on every question (304 KB before; with the
/// search module and the JS, under 300 KB), and its page hit@1 / R@5 do not fall.
pub const MAX_QUESTION_TERMS: usize = 56;

/// How many of `text`'s [`terms`] count toward [`MAX_QUESTION_TERMS`]: each term, except
/// those of Thai, Lao, Khmer and Burmese ([`is_lexicon_char`]). Those alphabets of a few dozen
/// letters give a term per grapheme cluster and per pair, over a hundred for a Thai question
/// of one sentence, yet their keys fall into a few term pieces (XQuAD Thai's first search is
/// under 220 KB on every question), and cutting them cost Thai's site 7 points of hit@1
/// (docs/benchmarks.md, "JSQuAD's tail"). A Han, kana or Hangul term, or a word's, is most
/// often in a piece of its own.
pub fn counted_terms(text: &str, language: Language) -> usize {
    terms(text, language)
        .iter()
        .filter(|t| !t.chars().next().is_some_and(is_lexicon_char))
        .count()
}

/// The part of `question` that is searched in `language`: all of it when its
/// [`counted_terms`] number [`MAX_QUESTION_TERMS`] or fewer; else its longest beginning that ends after a whole
/// word (with what separates it from the next, so that its last word is never read as the
/// word being typed, [`crate::lexical`]) and has at most that many terms. A first word with
/// more terms than that (an identifier of many parts) is kept whole. Every search of the
/// `bm25` and `hybrid` modes, its query entities and the pieces it loads read this part.
pub fn searched_part(question: &str, language: Language) -> &str {
    if counted_terms(question, language) <= MAX_QUESTION_TERMS {
        return question;
    }
    let spans = word_spans(question);
    // The beginning that ends before span k + 1 (after span k and its separator).
    let upto = |k: usize| spans.get(k + 1).map_or(question.len(), |s| s.start);
    // The last k whose beginning has at most MAX_QUESTION_TERMS terms (term counts grow with
    // the beginning's length), the first span at least.
    let (mut lo, mut hi) = (0, spans.len().saturating_sub(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if counted_terms(&question[..upto(mid)], language) <= MAX_QUESTION_TERMS {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    &question[..upto(lo)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short question is searched whole; a long one up to its 56th term, after a whole word.
    #[test]
    fn a_long_question_is_searched_up_to_its_64th_term() {
        let short = "How do I read a JSON file into a dict?";
        assert_eq!(searched_part(short, Language::English), short);
        let words: Vec<String> = (0..100).map(|k| format!("word{k}")).collect();
        let long = words.join(" ");
        let part = searched_part(&long, Language::English);
        assert_eq!(terms(part, Language::English).len(), MAX_QUESTION_TERMS);
        assert!(
            part.ends_with(&format!("word{} ", MAX_QUESTION_TERMS - 1)),
            "{part:?}"
        );
        // Japanese: a unit and a pair per character, so about 28 characters.
        let ja = "18歳以上の日本国民で、党の綱領と規約を認め、なおかつ規定の入党費を納めた人が党員となることができる。戦前のコミンテルン時代は一国一共産党の原則により台湾や朝鮮も活動範囲としたこともある政党は？";
        let part = searched_part(ja, Language::Japanese);
        let n = terms(part, Language::Japanese).len();
        assert!(
            n <= MAX_QUESTION_TERMS && n > MAX_QUESTION_TERMS - 3,
            "{n} terms: {part:?}"
        );
        assert!(
            ja.starts_with(part) && (20..40).contains(&part.chars().count()),
            "{part:?}"
        );
    }
}
