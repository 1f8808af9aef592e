//! Query-centred excerpts: the window of a passage that holds the most of the query's terms,
//! with those words marked, as a search result shows it (Pagefind's excerpt with `<mark>`).
//!
//! A word of the passage is marked when one of its BM25 [`terms`] is one of the question's, one
//! a misspelt word of it was matched to, or begins with the term of the word being typed
//! ([`crate::lexical::typed_term`]), and the BM25 dictionary has it: stopwords, which it
//! lacks, are never marked. The window is [`EXCERPT_WORDS`] words long (Pagefind's default excerpt length) and
//! starts at the first word of the run of that many that holds the most distinct query terms,
//! the earliest on a tie.

use std::collections::BTreeSet;

use super::ranking::bm25_query;
use super::reader::IndexReader;
use crate::lexical::typed_term;
use crate::text::{Language, terms};
use unicode_segmentation::UnicodeSegmentation;

/// Words in an excerpt (Pagefind's default `excerptLength`, 30).
pub const EXCERPT_WORDS: usize = 30;

/// The excerpt of `text` for `question` over `index`, as segments that alternate between
/// unmarked and marked text, starting with unmarked (possibly empty): `["see ", "json", "
/// for …"]`. Whitespace runs are folded to one space; a cut end has `…`. The segments are plain
/// text (the caller escapes them, or makes text nodes of them). Only terms the BM25 dictionary
/// has are marked (every term, in an index without BM25), and a misspelt word's neighbours are
/// marked as the question's own terms ("charaters" marks "characters"). The index in pieces
/// marks from the term pieces its search loaded.
pub fn excerpt(index: &dyn IndexReader, text: &str, question: &str) -> Vec<String> {
    let dict = index.dictionary();
    let indexed = |t: &str| dict.is_none_or(|d| d.has_term(t));
    let expanded = bm25_query(index, question).map_or_else(Vec::new, |q| q.expanded);
    segments(text, question, index.language(), &indexed, &expanded)
}

/// [`excerpt`]'s segments, with `indexed` telling the terms to mark and `expanded` the
/// question's expanded words.
fn segments(
    text: &str,
    question: &str,
    language: Language,
    indexed: &dyn Fn(&str) -> bool,
    expanded: &[Vec<(String, f64)>],
) -> Vec<String> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let wanted: BTreeSet<String> = terms(question, language)
        .into_iter()
        .chain(expanded.iter().flatten().map(|(t, _)| t.clone()))
        .filter(|t| indexed(t))
        .collect();
    let typed = typed_term(question, language);
    // Each word: its byte range and the query term it matches (None: unmarked).
    let words: Vec<(usize, usize, Option<String>)> = text
        .unicode_word_indices()
        .map(|(at, w)| {
            let hit = terms(w, language).into_iter().find(|t| {
                indexed(t)
                    && (wanted.contains(t) || typed.as_deref().is_some_and(|p| t.starts_with(p)))
            });
            (at, at + w.len(), hit)
        })
        .collect();
    if words.is_empty() {
        return vec![text];
    }
    // The window of EXCERPT_WORDS words with the most distinct query terms.
    let n = EXCERPT_WORDS.min(words.len());
    let (mut best, mut best_count) = (0, 0);
    for start in 0..=words.len() - n {
        let distinct: BTreeSet<&str> = words[start..start + n]
            .iter()
            .filter_map(|w| w.2.as_deref())
            .collect();
        if distinct.len() > best_count {
            (best, best_count) = (start, distinct.len());
        }
    }
    let window = &words[best..best + n];
    let from = if best == 0 { 0 } else { window[0].0 };
    let to = if best + n == words.len() {
        text.len()
    } else {
        window[n - 1].1
    };
    let mut out = vec![String::new()];
    if from > 0 {
        out[0].push('…');
    }
    let mut at = from;
    for &(a, b, ref hit) in window {
        if hit.is_some() {
            out.last_mut().expect("a segment").push_str(&text[at..a]);
            out.push(text[a..b].to_string());
            out.push(String::new());
            at = b;
        }
    }
    out.last_mut().expect("a segment").push_str(&text[at..to]);
    if to < text.len() {
        out.last_mut().expect("a segment").push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every term but these stopwords.
    fn indexed(t: &str) -> bool {
        !matches!(t, "a" | "the" | "to" | "in")
    }

    #[test]
    fn marks_the_query_terms_stems_and_the_typed_prefix() {
        let text =
            "The json module   encodes objects. Encoding a dict to JSON is done with json.dumps.";
        assert_eq!(
            segments(
                text,
                "encode dict in json",
                Language::English,
                &indexed,
                &[]
            ),
            [
                "The ",
                "json",
                " module ",
                "encodes",
                " objects. ",
                "Encoding",
                " a ",
                "dict",
                " to ",
                "JSON",
                " is done with ",
                "json.dumps",
                "."
            ]
        );
        // "dic" being typed marks "dict"; "dic " (a finished word) does not.
        let marked = segments(text, "dic", Language::English, &indexed, &[]);
        assert_eq!(
            marked.iter().skip(1).step_by(2).collect::<Vec<_>>(),
            ["dict"]
        );
        assert_eq!(
            segments(text, "dic ", Language::English, &indexed, &[]).len(),
            1
        );
        // A misspelt word marks the terms it was matched to ("encdoe" → "encod").
        let expanded = [vec![("encod".to_string(), 1.0)]];
        let marked = segments(text, "encdoe dict", Language::English, &indexed, &expanded);
        assert_eq!(
            marked.iter().skip(1).step_by(2).collect::<Vec<_>>(),
            ["encodes", "Encoding", "dict"]
        );
    }

    #[test]
    fn the_window_is_where_the_query_terms_are() {
        let filler = "word ".repeat(100);
        let text = format!("{filler}the pickle module serialises objects {filler}");
        let cut = segments(&text, "pickle objects", Language::English, &indexed, &[]);
        let joined = cut.concat();
        assert!(joined.starts_with('…') && joined.ends_with('…'), "{joined}");
        assert_eq!(joined.split_whitespace().count(), EXCERPT_WORDS, "{joined}");
        assert_eq!(
            cut.iter().skip(1).step_by(2).collect::<Vec<_>>(),
            ["pickle", "objects"]
        );
        // Markup in the text stays text: the segments are the text's own characters.
        let hostile = "<img src=x onerror=alert(1)> pickle";
        assert_eq!(
            segments(hostile, "pickle", Language::English, &indexed, &[]),
            ["<img src=x onerror=alert(1)> ", "pickle", ""]
        );
    }
}
