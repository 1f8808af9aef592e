//! The built-in, no-LLM query-entity extractor.
//!
//! HippoRAG extracts query entities with an LLM NER prompt; the real questions we evaluate on have
//! no such output, and a browser has no LLM. This extractor stands in for that step:
//!
//! 1. **Phrase matches**: the question is normalised ([`normalize_phrase`]) and scanned left to
//!    right for the longest token span (up to [`MAX_SPAN`] tokens) that is a phrase node of the
//!    index; a match consumes its tokens. Single-token matches must not be stopwords.
//! 2. **Names and numbers** ([`crate::names`], [`NameStyle::Query`]): runs of capitalised words
//!    and numbers with connectors such as `of`, `the`, `de` inside ("Journal of Psychotherapy
//!    Integration", "Walk the Line", "1960"); a sentence-initial stopword ("Who", "The") does not
//!    start one. These catch entities that are not nodes verbatim, which seed
//!    linking then maps to the nearest node by embedding.
//!
//! The result is the union in order of first appearance, without duplicates (compared
//! normalised). When it is empty the retriever falls back to dense retrieval (see
//! [`crate::retriever`]).

use crate::index::Index;
use crate::names::{NameStyle, is_capitalised, name_end};
use crate::normalize::normalize_phrase;

/// Longest phrase span considered, in tokens.
pub const MAX_SPAN: usize = 12;

const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "after",
    "all",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "before",
    "being",
    "between",
    "born",
    "both",
    "but",
    "by",
    "called",
    "can",
    "city",
    "company",
    "could",
    "country",
    "did",
    "died",
    "do",
    "does",
    "during",
    "each",
    "first",
    "for",
    "from",
    "had",
    "has",
    "have",
    "he",
    "her",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "known",
    "largest",
    "last",
    "located",
    "made",
    "many",
    "member",
    "much",
    "name",
    "new",
    "number",
    "of",
    "on",
    "one",
    "or",
    "other",
    "part",
    "people",
    "performer",
    "person",
    "place",
    "s",
    "same",
    "she",
    "so",
    "some",
    "state",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "time",
    "to",
    "was",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "work",
    "works",
    "would",
    "year",
    "years",
    "you",
    "your",
];

fn is_stopword(t: &str) -> bool {
    STOPWORDS.binary_search(&t).is_ok()
}

/// A word of the question: its original text and its normalised tokens.
struct Word<'a> {
    text: &'a str,
    capital: bool,
    number: bool,
}

fn words(question: &str) -> Vec<Word<'_>> {
    question
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' || c == '.'))
        .map(|w| w.trim_matches(|c: char| c == '\'' || c == '’' || c == '-' || c == '.'))
        .filter(|w| !w.is_empty())
        .map(|w| Word {
            text: w,
            capital: is_capitalised(w),
            number: w.chars().next().is_some_and(|c| c.is_ascii_digit()),
        })
        .collect()
}

/// Extracts query entities from `question` against the phrase nodes of `index`.
///
/// Returns entity strings: normalised phrase strings for phrase matches, original text for
/// capitalised spans. Deterministic; empty when nothing qualifies.
pub fn extract_query_entities(question: &str, index: &Index) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut push = |entity: String, out: &mut Vec<String>| {
        let key = normalize_phrase(&entity);
        if !key.is_empty() && !seen.contains(&key) {
            seen.push(key);
            out.push(entity);
        }
    };

    // 1. Longest phrase matches over normalised tokens.
    let norm = normalize_phrase(question);
    let toks: Vec<&str> = norm.split(' ').filter(|t| !t.is_empty()).collect();
    let mut i = 0;
    while i < toks.len() {
        let mut matched = 0;
        for len in (1..=MAX_SPAN.min(toks.len() - i)).rev() {
            let cand = toks[i..i + len].join(" ");
            if len == 1 && (is_stopword(&cand) || cand.chars().count() < 2) {
                continue;
            }
            if index.phrase_id(&cand).is_some() {
                push(cand, &mut out);
                matched = len;
                break;
            }
        }
        i += matched.max(1);
    }

    // 2. Names (the rules of [`crate::names`], as the indexer's rule extractor applies them)
    //    and numbers.
    let ws = words(question);
    let texts: Vec<&str> = ws.iter().map(|w| w.text).collect();
    let mut k = 0;
    while k < ws.len() {
        let starts = (ws[k].capital || ws[k].number)
            && !(k == 0 && is_stopword(&normalize_phrase(ws[k].text)));
        if !starts {
            k += 1;
            continue;
        }
        let end = name_end(&texts, k, NameStyle::Query, |_| true) + 1; // exclusive
        let text = texts[k..end].join(" ");
        if !(end - k == 1 && is_stopword(&normalize_phrase(&text))) {
            push(text, &mut out);
        }
        k = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(
            STOPWORDS.windows(2).all(|w| w[0] < w[1]),
            "keep STOPWORDS sorted and unique"
        );
    }
}
