//! What marks a name in text: the rules shared by the indexer's rule extractor (phrases of
//! passages) and the query-entity extractor ([`crate::graph`]), so both sides agree on what a
//! name is and a question names the same phrase nodes the passages produced.
//!
//! English and other Latin-script languages mark names by capitalisation: a name is a maximal
//! run of capitalised words ("Thomas C. Südhof", "3M"), which may hold lowercase connectors
//! between capitalised words ("University of Copenhagen", "Ludwig van Beethoven", "Bank of the
//! West") and may end with a short number ("Apollo 11", "Section 8"). A leading article is not
//! part of a name ("The Wrights" → "Wrights"). These are the rules of HippoRAG's NER prompt's
//! examples written as code; they are not a model of any language without capitalisation.
//!
//! A question's name may be looser than a passage's ([`NameStyle::Query`]): any number
//! continues it and `the`, `and` join anywhere, so titles of works survive whole ("Walk the
//! Line", "The Girl Who Kicked the Hornets' Nest", "Judiciary Act of 1869"). A query entity is
//! linked to the nearest phrase node by embedding, so a longer span still finds its node,
//! while in a passage the same looseness would make run-on phrase nodes of sentence fragments
//! (docs/tuning.md, "Measurements behind the code").

use std::ops::Range;

/// Starts with an uppercase letter, or is an all-caps/number mix such as "3M" or "F1".
pub fn is_capitalised(w: &str) -> bool {
    let mut cs = w.chars();
    match cs.next() {
        Some(c) if c.is_uppercase() => true,
        Some(c) if c.is_ascii_digit() => {
            w.chars().any(char::is_uppercase) && !w.chars().any(char::is_lowercase)
        }
        _ => false,
    }
}

/// A lowercase word that may join two capitalised words of one name, given the word before it
/// (`the` only after `of` or `for`: "Bank of the West").
pub fn is_name_connector(w: &str, prev: &str) -> bool {
    match w {
        "of" | "de" | "du" | "da" | "del" | "della" | "di" | "von" | "van" | "der" | "den"
        | "la" | "le" | "y" | "bin" | "al" | "for" | "&" => true,
        "the" => prev == "of" || prev == "for",
        _ => false,
    }
}

/// An article, which a name does not start with.
pub fn is_article(w: &str) -> bool {
    matches!(w, "The" | "A" | "An" | "the" | "a" | "an")
}

/// One to three digits: a number that can end a name ("Clause 4").
pub fn is_short_number(w: &str) -> bool {
    (1..=3).contains(&w.len()) && w.chars().all(|c| c.is_ascii_digit())
}

/// The share of `question`'s words, after its first, that are **title-case** words outside
/// code and quotes, and names by `is_name` (the caller's test of the word): in [0, 1], 0 for a
/// question of one word.
///
/// A word is a run of letters and digits of 2+ characters; a title-case word is a capital
/// followed by lowercase letters only ("Collegian", "Django"; not "JSON", "MyModel", "iPhone").
/// Words inside a literal ([`literal_spans`]: a docs question's `mydict`, `'filename.exe'`)
/// count in the total, never as names. The first word is left out because a sentence starts
/// with a capital whatever it is.
///
/// It tells a question about named things (HippoRAG's multi-hop questions: "When was the
/// institute that owned The Collegian founded?") from one about concepts ("sort a dict by its
/// values"); [`crate::search::name_factor`] uses it. Scripts without case (Chinese) give 0.
pub fn name_share(question: &str, is_name: &dyn Fn(&str) -> bool) -> f64 {
    let literals = literal_spans(question);
    let in_literal = |at: usize| literals.iter().any(|r| r.contains(&at));
    let mut words: Vec<(&str, bool)> = Vec::new();
    let mut from: Option<usize> = None;
    let mut flush = |from: &mut Option<usize>, to: usize| {
        if let Some(a) = from.take() {
            let w = &question[a..to];
            if w.chars().count() >= 2 {
                words.push((w, in_literal(a)));
            }
        }
    };
    for (i, c) in question.char_indices() {
        if c.is_alphanumeric() {
            from.get_or_insert(i);
        } else {
            flush(&mut from, i);
        }
    }
    flush(&mut from, question.len());
    let rest = words.get(1..).unwrap_or(&[]);
    let names = rest
        .iter()
        .filter(|(w, literal)| {
            let mut cs = w.chars();
            !literal
                && cs.next().is_some_and(char::is_uppercase)
                && cs.all(char::is_lowercase)
                && is_name(w)
        })
        .count();
    names as f64 / rest.len().max(1) as f64
}

/// The literals of `question`, as byte ranges of their text without the delimiters: the text
/// between backticks, or between a quote (`'`, `"`) that opens at a word's start (no letter or
/// digit before it) and the same quote that closes at a word's end (none after it). A
/// docs question's `mydict` or `'filename.exe'`; an apostrophe inside a word ("don't") opens
/// none. An unclosed literal runs to the end.
pub fn literal_spans(question: &str) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = question.char_indices().collect();
    let alnum_at = |j: Option<usize>| {
        j.and_then(|j| chars.get(j))
            .is_some_and(|(_, c)| c.is_alphanumeric())
    };
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    for (i, &(at, c)) in chars.iter().enumerate() {
        match open {
            Some(('`', from)) if c == '`' => {
                out.push(from..at);
                open = None;
            }
            Some((o, from)) if c == o && o != '`' && !alnum_at(Some(i + 1)) => {
                out.push(from..at);
                open = None;
            }
            None if c == '`' || ((c == '\'' || c == '"') && !alnum_at(i.checked_sub(1))) => {
                open = Some((c, at + c.len_utf8()));
            }
            _ => {}
        }
    }
    if let Some((_, from)) = open {
        out.push(from..question.len());
    }
    out
}

/// Which text a name is read from (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameStyle {
    /// A passage's text: the rule extractor's phrase nodes.
    Phrase,
    /// A question: query entities, linked to phrase nodes by embedding.
    Query,
}

/// Lowercase words that join a question's name anywhere ([`NameStyle::Query`]).
const QUERY_CONNECTORS: &[&str] = &[
    "of", "the", "de", "and", "for", "von", "van", "da", "del", "la", "le", "du", "&",
];

/// The last word of the name that starts at `words[start]`. [`NameStyle::Phrase`]: the name
/// extends over capitalised words and connectors between them, and ends at a short number that
/// follows a capitalised word. [`NameStyle::Query`]: numbers continue it too, and `the`, `and`
/// join anywhere. `joins(j)` says whether `words[j]` may continue the name at all (what lies
/// between it and `words[j − 1]`, whether it is already taken); the extension stops at the
/// first word that may not. Trailing connectors are never part of the name.
pub fn name_end(
    words: &[&str],
    start: usize,
    style: NameStyle,
    joins: impl Fn(usize) -> bool,
) -> usize {
    let mut end = start;
    let mut j = start + 1;
    while j < words.len() && joins(j) {
        let (prev, cur) = (words[j - 1], words[j]);
        let number = cur.starts_with(|c: char| c.is_ascii_digit());
        if is_capitalised(cur) || (style == NameStyle::Query && number) {
            end = j;
            j += 1;
        } else if style == NameStyle::Query {
            if !QUERY_CONNECTORS.contains(&cur) {
                break;
            }
            j += 1;
        } else if is_short_number(cur) && is_capitalised(prev) {
            // "Section 8", "Apollo 11", "Boeing 747": a number ends the name.
            end = j;
            break;
        } else if is_name_connector(cur, prev) {
            j += 1;
        } else {
            break;
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str, start: usize) -> String {
        styled(text, start, NameStyle::Phrase)
    }

    fn styled(text: &str, start: usize, style: NameStyle) -> String {
        let words: Vec<&str> = text.split(' ').collect();
        words[start..=name_end(&words, start, style, |_| true)].join(" ")
    }

    #[test]
    fn literal_spans_are_code_and_quoted_text() {
        let spans = |q: &str| -> Vec<String> {
            literal_spans(q)
                .into_iter()
                .map(|r| q[r].to_string())
                .collect()
        };
        assert_eq!(
            spans("filter `MyModel` by 'name' or \"a b\""),
            ["MyModel", "name", "a b"]
        );
        assert!(spans("don't read the user's file").is_empty());
        assert_eq!(spans("open 'it's here' now"), ["it's here"]);
        assert_eq!(spans("unclosed `code"), ["code"]);
    }

    #[test]
    fn name_share_counts_title_case_words_outside_literals() {
        let name_share = |q: &str| name_share(q, &|_| true);
        // A MuSiQue question: "The", "Collegian" of 8 words after the first.
        let q = "When was the institute that owned The Collegian founded?";
        assert!((name_share(q) - 2.0 / 8.0).abs() < 1e-12);
        // CoNaLa questions: literals, acronyms and CamelCase are no names.
        assert_eq!(name_share("get max key in dictionary `MyCount`"), 0.0);
        assert_eq!(
            name_share("calculate the md5 checksum of a file named  'Filename.exe'"),
            0.0
        );
        assert_eq!(name_share("decode JSON from an HTTP response"), 0.0);
        // An apostrophe inside a word opens no quote: "Green" after it still counts.
        let q = "Who is the spouse of Lincoln's son Green?";
        assert!(
            (name_share(q) - 2.0 / 7.0).abs() < 1e-12,
            "{}",
            name_share(q)
        );
        assert_eq!(name_share("Django"), 0.0);
        assert_eq!(name_share("北京大学在哪里"), 0.0);
        // The caller's test: "Python" is no name on Python's own docs.
        let q = "How to get the last part of a path in Python?";
        assert_eq!(super::name_share(q, &|w| w != "Python"), 0.0);
        assert!(name_share(q) > 0.0);
    }

    #[test]
    fn names_from_real_sentences() {
        // MuSiQue passages and questions, and the paper's running example.
        assert_eq!(
            name(
                "published by the Society for the Exploration of Psychotherapy Integration",
                3
            ),
            "Society for the Exploration of Psychotherapy Integration"
        );
        assert_eq!(name("Thomas Südhof works at Stanford", 0), "Thomas Südhof");
        assert_eq!(name("the Apollo 11 mission", 1), "Apollo 11");
        assert_eq!(
            name("Ludwig van Beethoven was born", 0),
            "Ludwig van Beethoven"
        );
        // A connector needs a capitalised word after it.
        assert_eq!(name("University of chicago", 0), "University");
        assert_eq!(name("Bank of the West", 0), "Bank of the West");
        assert_eq!(name("Tom and Jerry", 0), "Tom");
    }

    #[test]
    fn questions_keep_titles_of_works_whole() {
        // musique_train questions.
        let q = |t: &str, start| styled(t, start, NameStyle::Query);
        assert_eq!(q("in Walk the Line", 1), "Walk the Line");
        assert_eq!(
            q("passed the Judiciary Act of 1869", 2),
            "Judiciary Act of 1869"
        );
        assert_eq!(
            q(
                "the author of Alexander and the Terrible Horrible No Good Very Bad Day attend",
                3
            ),
            "Alexander and the Terrible Horrible No Good Very Bad Day"
        );
        // The same words in a passage give shorter phrase nodes.
        assert_eq!(name("in Walk the Line", 1), "Walk");
        assert_eq!(name("passed the Judiciary Act of 1869", 2), "Judiciary Act");
    }

    #[test]
    fn capitalisation_and_numbers() {
        assert!(is_capitalised("Südhof") && is_capitalised("3M") && is_capitalised("F1"));
        assert!(!is_capitalised("1960") && !is_capitalised("iPhone") && !is_capitalised(""));
        assert!(is_short_number("747") && !is_short_number("1960"));
        assert!(is_article("The") && !is_article("Then"));
        assert!(is_name_connector("the", "of") && !is_name_connector("the", "and"));
    }
}
