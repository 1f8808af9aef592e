//! The built-in, no-LLM query-entity extractor.
//!
//! HippoRAG extracts query entities with an LLM NER prompt; the real questions we evaluate on have
//! no such output, and a browser has no LLM. This extractor stands in for that step:
//!
//! 1. **Phrase matches**: the question is normalised ([`normalize_phrase`]) and scanned left to
//!    right for the longest token span (up to [`MAX_SPAN`] tokens) that is a phrase node of the
//!    index; a match consumes its tokens. Single-token matches must not be stopwords. Text
//!    in a script written without spaces (Chinese, Japanese kana) is matched character by
//!    character instead of token by token, so the question reaches the phrase nodes the
//!    indexer's segmenter made without a dictionary in the browser: longest match against the
//!    index's own phrases (at least two characters).
//! 2. **Names and numbers** ([`crate::text`], [`NameStyle::Query`]): runs of capitalised words
//!    and numbers with connectors such as `of`, `the`, `de` inside ("Journal of Psychotherapy
//!    Integration", "Walk the Line", "1960"); a sentence-initial stopword ("Who", "The") does not
//!    start one. These catch entities that are not nodes verbatim, which seed
//!    linking then maps to the nearest node by embedding.
//!
//! The result is the union in order of first appearance, without duplicates (compared
//! normalised, and in Russian by their inflection key: a name the second step finds in another
//! case than the node the first step matched is the same entity). When it is empty the
//! retriever falls back to dense retrieval (see [`crate::search`]).

use crate::index::{Index, MIN_INFLECTED_CHARS};
use crate::text::normalize_phrase;
use crate::text::{Language, is_cjk, phrase_stem_key};
use crate::text::{NameStyle, is_capitalised, name_end};

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

/// The words of `question` that names and numbers are made of: runs of letters, digits and the
/// joiners `'’-.`. A CJK character ([`is_cjk`]) ends a word: Chinese is written without spaces,
/// so "20世纪70年代…" gives the numbers "20" and "70", not one word the length of the question.
fn words(question: &str) -> Vec<Word<'_>> {
    question
        .split(|c: char| {
            is_cjk(c) || !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' || c == '.')
        })
        .map(|w| w.trim_matches(|c: char| c == '\'' || c == '’' || c == '-' || c == '.'))
        .filter(|w| !w.is_empty())
        .map(|w| Word {
            text: w,
            capital: is_capitalised(w),
            number: w.chars().next().is_some_and(|c| c.is_ascii_digit()),
        })
        .collect()
}

/// The units phrase matches are made of, in a normalised question: every CJK character
/// ([`is_cjk`]) on its own, and every other run of letters and digits; each with whether a
/// space comes before it. Text without CJK gives its space-separated tokens.
fn units(norm: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    for tok in norm.split(' ').filter(|t| !t.is_empty()) {
        let mut space = true;
        let mut start = 0;
        for (i, c) in tok.char_indices() {
            if is_cjk(c) {
                if start < i {
                    out.push((&tok[start..i], space));
                    space = false;
                }
                out.push((&tok[i..i + c.len_utf8()], space));
                space = false;
                start = i + c.len_utf8();
            }
        }
        if start < tok.len() {
            out.push((&tok[start..], space));
        }
    }
    out
}

/// What the query-entity extractor asks of an index's phrase nodes: the single file
/// ([`Index`]) and the index in pieces ([`crate::pieces::Pieces`], from the phrase pieces it
/// has loaded) answer alike, so both find the same entities.
pub trait PhraseLookup {
    /// The language the index's phrases and questions are read in.
    fn language(&self) -> Language;
    /// Whether `t` (normalised) is one of the index's own query stopwords
    /// ([`crate::index::BuildInfo::query_stopwords`]; the built-in English ones are checked
    /// apart).
    fn is_query_stopword(&self, t: &str) -> bool;
    /// The phrase node `normalized` is, or in Russian a node that is another inflected form of
    /// it ([`Index::phrase_id_inflected`]).
    fn phrase(&self, normalized: &str) -> Option<PhraseNode>;
}

/// Whether `t` (normalised, lowercase) is a stopword of the question for `index`: one of the
/// built-in English ones or the index's own ([`PhraseLookup::is_query_stopword`]).
pub fn is_stopword_of(index: &dyn PhraseLookup, t: &str) -> bool {
    is_stopword(t) || index.is_query_stopword(t)
}

/// A phrase node as [`PhraseLookup::phrase`] finds it.
#[derive(Debug, Clone, PartialEq)]
pub struct PhraseNode {
    /// Its id (phrase nodes are numbered in their sorted order).
    pub id: u32,
    /// Its text (normalised).
    pub text: String,
    /// Its node specificity `1/|Pᵢ|` (1 for a phrase in no passage), as
    /// [`crate::index::Index::specificity`] holds it.
    pub specificity: f32,
}

impl PhraseLookup for Index {
    fn language(&self) -> Language {
        self.header.build.language
    }

    fn is_query_stopword(&self, t: &str) -> bool {
        let stored = &self.header.build.query_stopwords;
        stored.binary_search_by(|w| w.as_str().cmp(t)).is_ok()
    }

    fn phrase(&self, normalized: &str) -> Option<PhraseNode> {
        self.phrase_id_inflected(normalized).map(|id| PhraseNode {
            id,
            text: self.phrases[id as usize].clone(),
            specificity: self.specificity[id as usize],
        })
    }
}

/// The candidate phrases of step 1 (module docs): every span of at most [`MAX_SPAN`] units of
/// the normalised question that [`extract_query_entities`] may look up, whatever the index
/// holds, in order of start then decreasing length. `stop` tells a stopword.
fn candidate_spans(norm: &str, stop: &dyn Fn(&str) -> bool) -> Vec<(usize, usize, String)> {
    let units = units(norm);
    let mut out = Vec::new();
    for i in 0..units.len() {
        for len in (1..=MAX_SPAN.min(units.len() - i)).rev() {
            let mut cand = String::new();
            for (k, &(u, space)) in units[i..i + len].iter().enumerate() {
                if space && k > 0 {
                    cand.push(' ');
                }
                cand.push_str(u);
            }
            let word = len == 1 || !cand.contains(' ');
            if word && (stop(&cand) || cand.chars().count() < 2) {
                continue;
            }
            out.push((i, len, cand));
        }
    }
    out
}

/// Every normalised string [`extract_query_entities`] and the hybrid ranking's seed lookup
/// ([`crate::graph::entity_seeds`]) may pass to [`PhraseLookup::phrase`] for `question`,
/// whatever the index holds: step 1's candidate spans and step 2's names, normalised. Sorted
/// and distinct. The index in pieces fetches the phrase pieces of these keys (and of their
/// inflection keys, [`crate::text::phrase_stem_key`]) before it extracts.
pub fn phrase_lookups(question: &str, is_query_stopword: &dyn Fn(&str) -> bool) -> Vec<String> {
    let stop = |t: &str| is_stopword(t) || is_query_stopword(t);
    let norm = normalize_phrase(question);
    let mut out: Vec<String> = candidate_spans(&norm, &stop)
        .into_iter()
        .map(|c| c.2)
        .collect();
    // English's names are a superset of every language's (Russian only drops a first word).
    out.extend(
        names(question, Language::English, &stop)
            .iter()
            .map(|n| normalize_phrase(n)),
    );
    out.retain(|k| !k.is_empty());
    out.sort_unstable();
    out.dedup();
    out
}

/// Step 2 of the module docs: the names and numbers of `question`, in order.
fn names(question: &str, language: Language, stop: &dyn Fn(&str) -> bool) -> Vec<String> {
    let ws = words(question);
    let texts: Vec<&str> = ws.iter().map(|w| w.text).collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < ws.len() {
        let starts =
            (ws[k].capital || ws[k].number) && !(k == 0 && stop(&normalize_phrase(ws[k].text)));
        if !starts {
            k += 1;
            continue;
        }
        let end = name_end(&texts, k, NameStyle::Query, |_| true) + 1; // exclusive
        let text = texts[k..end].join(" ");
        // Russian capitalises a question's first word whatever it is ("Эволюция …",
        // "Подтверждения …"): alone, it is a name only if step 1 found it as a node.
        let first_word = k == 0 && end == 1 && language == Language::Russian;
        let stopword = end - k == 1 && stop(&normalize_phrase(&text));
        if !(first_word || stopword) {
            out.push(text);
        }
        k = end;
    }
    out
}

/// Extracts query entities from `question` against the phrase nodes of `index`.
///
/// Returns entity strings: normalised phrase strings for phrase matches, original text for
/// capitalised spans. Deterministic; empty when nothing qualifies. In a Russian index a span
/// also matches a node that is another inflected form of it
/// ([`Index::phrase_id_inflected`]); stopwords are the index's own for Russian and Chinese
/// ([`crate::index::BuildInfo::query_stopwords`]) besides the built-in English ones.
pub fn extract_query_entities(question: &str, index: &dyn PhraseLookup) -> Vec<String> {
    let language = index.language();
    let stop = |t: &str| is_stopword(t) || index.is_query_stopword(t);
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    // Entities are told apart by their normalised text, and in Russian by their inflection key
    // ([`phrase_stem_key`]): "Атлантику" (a name) is "атлантике" (a node) in another case.
    let mut push = |entity: String, out: &mut Vec<String>| {
        let norm = normalize_phrase(&entity);
        let key = phrase_stem_key(&norm, language).unwrap_or(norm);
        if !key.is_empty() && !seen.contains(&key) {
            seen.push(key);
            out.push(entity);
        }
    };

    // 1. Longest phrase matches over the normalised question's units: at each start the
    //    longest candidate that is a node; a match consumes its units.
    let norm = normalize_phrase(question);
    let mut next = 0;
    for (i, len, cand) in candidate_spans(&norm, &stop) {
        if i < next {
            continue;
        }
        if let Some(node) = index.phrase(&cand) {
            push(node.text, &mut out);
            next = i + len;
        }
    }

    // 2. Names (the rules of [`crate::text`], as the indexer's rule extractor applies them)
    //    and numbers.
    for name in names(question, language, &stop) {
        push(name, &mut out);
    }
    out
}

/// Every key a phrase lookup of `normalized` reads: itself and, when it may match another
/// inflected form ([`crate::index::Index::phrase_id_inflected`]: Russian, at least
/// [`MIN_INFLECTED_CHARS`] characters), its inflection key.
pub fn lookup_keys(normalized: &str, language: Language) -> Vec<String> {
    let mut out = vec![normalized.to_string()];
    if normalized.chars().count() >= MIN_INFLECTED_CHARS
        && let Some(k) = phrase_stem_key(normalized, language)
    {
        out.push(k);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_is_matched_character_by_character() {
        // The Chinese explainer's question: one token after normalisation.
        let norm = normalize_phrase("个性化PageRank算法在HippoRAG中起什么作用?");
        let u: Vec<&str> = units(&norm).into_iter().map(|(u, _)| u).collect();
        assert_eq!(
            u,
            [
                "个", "性", "化", "pagerank", "算", "法", "在", "hipporag", "中", "起", "什", "么",
                "作", "用"
            ]
        );
        // Text without CJK: its tokens, each after a space but the first.
        assert_eq!(
            units("walk the line"),
            [("walk", true), ("the", true), ("line", true)]
        );
    }

    #[test]
    fn cjk_characters_end_name_and_number_words() {
        let ws = words("20世纪70年代上演的那出剧目叫什么名字？ PageRank算法");
        let texts: Vec<&str> = ws.iter().map(|w| w.text).collect();
        assert_eq!(texts, ["20", "70", "PageRank"]);
        assert!(ws[0].number && ws[2].capital);
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(
            STOPWORDS.windows(2).all(|w| w[0] < w[1]),
            "keep STOPWORDS sorted and unique"
        );
    }
}
