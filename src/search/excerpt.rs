//! Query-centred excerpts: the window of a passage that holds the most of the query's terms,
//! with those words marked, as a search result shows it (Pagefind's excerpt with `<mark>`).
//!
//! A word of the passage ([`word_spans`]) is marked when one of its BM25 [`terms`] is one of
//! the question's, one a misspelt word of it was matched to, or begins with the term of the word
//! being typed ([`crate::lexical::typed_term`]), and the BM25 dictionary has it: stopwords,
//! which it lacks, are never marked. In a language read in units and pairs, a unit is marked
//! when a pair or a whole word it is part of is one of the question's terms; alone, only a Han
//! character is (a Chinese or Japanese word can be one character, while a lone kana, Hangul
//! syllable or Thai grapheme cluster is a particle or a piece of a word, and would mark every
//! particle the question shares with the page). Marked units that touch are one mark.
//!
//! The window is [`EXCERPT_WORDS`] words long (Pagefind's default excerpt length), a unit
//! counting half a word: the earliest run of that length that holds the most distinct query
//! terms, then moved to have as many words before its first marked word as after its last
//! (still within the text, and still [`EXCERPT_WORDS`] long where the text is).

use std::collections::BTreeSet;

use super::ranking::bm25_query;
use super::reader::IndexReader;
use crate::lexical::typed_term;
use crate::text::{Language, WordKind, WordSpan, is_han, terms, unit_term, word_spans};

/// Words in an excerpt (Pagefind's default `excerptLength`, 30); a unit of a language read in
/// units and pairs counts half a word, so a Japanese excerpt holds 60 characters.
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
    let is_wanted = |t: &str| indexed(t) && wanted.contains(t);
    let words = word_spans(&text);
    if words.is_empty() {
        return vec![text];
    }
    // Each word's query term (None: unmarked).
    let mut hits: Vec<Option<String>> = vec![None; words.len()];
    for (k, w) in words.iter().enumerate() {
        let word = &text[w.start..w.end];
        let WordKind::Unit {
            pairs_with_next,
            whole_end,
        } = w.kind
        else {
            hits[k] = terms(word, language).into_iter().find(|t| {
                indexed(t)
                    && (wanted.contains(t) || typed.as_deref().is_some_and(|p| t.starts_with(p)))
            });
            continue;
        };
        if let Some(end) = whole_end {
            let t = unit_term(&text[w.start..end]);
            if is_wanted(&t) {
                for (hit, _) in hits[k..]
                    .iter_mut()
                    .zip(&words[k..])
                    .take_while(|x| x.1.end <= end)
                {
                    hit.get_or_insert_with(|| t.clone());
                }
            }
        }
        if pairs_with_next {
            let t = unit_term(&text[w.start..words[k + 1].end]);
            if is_wanted(&t) {
                hits[k + 1].get_or_insert_with(|| t.clone());
                hits[k].get_or_insert(t);
            }
        }
        let t = unit_term(word);
        if word.chars().all(is_han) && is_wanted(&t) {
            hits[k].get_or_insert(t);
        }
    }
    let (best, end) = window(&words, &hits);
    let from = if best == 0 { 0 } else { words[best].start };
    let to = if end == words.len() {
        text.len()
    } else {
        words[end - 1].end
    };
    let mut out = vec![String::new()];
    if from > 0 {
        out[0].push('…');
    }
    let mut at = from;
    for (w, hit) in words[best..end].iter().zip(&hits[best..end]) {
        if hit.is_none() {
            continue;
        }
        if w.start == at && out.len() > 1 && out.last().is_some_and(String::is_empty) {
            // It touches the mark before it (units of one word): one mark.
            out.pop();
            out.last_mut()
                .expect("a mark")
                .push_str(&text[w.start..w.end]);
        } else {
            out.last_mut()
                .expect("a segment")
                .push_str(&text[at..w.start]);
            out.push(text[w.start..w.end].to_string());
        }
        out.push(String::new());
        at = w.end;
    }
    out.last_mut().expect("a segment").push_str(&text[at..to]);
    if to < text.len() {
        out.last_mut().expect("a segment").push('…');
    }
    out
}

/// The excerpt's window over `words` (`hits`: each word's query term, if marked), as the range
/// `(start, end)` of word indices (module docs): [`EXCERPT_WORDS`] words, a unit counting half
/// of one, the earliest with the most distinct query terms, then centred on its marked words.
fn window(words: &[WordSpan], hits: &[Option<String>]) -> (usize, usize) {
    // The window: EXCERPT_WORDS words, a unit counting half of one, with the most distinct query
    // terms. `window_end(start)` is the end (exclusive) of the window that begins at `start`.
    let width = |k: usize| match words[k].kind {
        WordKind::Word => 2,
        WordKind::Unit { .. } => 1,
    };
    let window_end = |start: usize| {
        let mut used = 0;
        let mut end = start;
        while end < words.len() && used + width(end) <= 2 * EXCERPT_WORDS {
            used += width(end);
            end += 1;
        }
        end
    };
    // The earliest window with the most distinct query terms; `last` is the first start whose
    // window reaches the end of the text.
    let (mut best, mut best_count, mut last) = (0, 0, 0);
    for start in 0..words.len() {
        let end = window_end(start);
        let distinct: BTreeSet<&str> = hits[start..end]
            .iter()
            .filter_map(|h| h.as_deref())
            .collect();
        if distinct.len() > best_count {
            (best, best_count) = (start, distinct.len());
        }
        if end == words.len() {
            last = start;
            break;
        }
    }
    // Centred on its marked words: as many words of context before the first as after the
    // last, the window kept full where the text ends.
    let end = window_end(best);
    if let (Some(first), Some(mark_end)) = (
        (best..end).find(|&k| hits[k].is_some()),
        (best..end).rev().find(|&k| hits[k].is_some()),
    ) {
        let marked: usize = (first..=mark_end).map(width).sum();
        let before = (2 * EXCERPT_WORDS - marked) / 2;
        let mut start = first;
        while start > 0 && (start - 1..first).map(width).sum::<usize>() <= before {
            start -= 1;
        }
        best = start.min(last);
    }
    (best, window_end(best))
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

    /// The marked segments of `text`'s excerpt for `question`, every term indexed.
    fn marks(text: &str, question: &str, language: Language) -> Vec<String> {
        let cut = segments(text, question, language, &|_| true, &[]);
        cut.into_iter().skip(1).step_by(2).collect()
    }

    /// A unit is marked in a pair or a whole word the question has, or alone when it is a Han
    /// character; the particles and syllables the question shares with the page are not, and
    /// units that touch are one mark.
    #[test]
    fn units_are_marked_in_the_pairs_and_words_the_question_has() {
        // Japanese: "を食べ" through the pairs "を食" and "食べ"; "は", shared, is a particle.
        assert_eq!(
            marks("犬は肉を食べる。", "猫は何を食べますか", Language::Japanese),
            ["を食べ"]
        );
        // A Katakana word whole, and a Han character alone; "ー" alone is not marked.
        assert_eq!(
            marks(
                "タワーの高さ。メートル",
                "東京タワー 高い",
                Language::Japanese
            ),
            ["タワー", "高"]
        );
        // Korean: the eojeol's pairs; "의", shared, is a particle.
        assert_eq!(
            marks("부산의 인구는 많다", "서울의 인구는?", Language::Korean),
            ["인구는"]
        );
        // Thai: "ไทย" where the page has it; the clusters "ย" and "า" alone are not marked.
        assert_eq!(
            marks("ยาว", "ภาษาไทย", Language::Thai),
            Vec::<String>::new()
        );
        assert_eq!(
            marks("คนไทยพูดภาษาไทย", "ภาษาไทย", Language::Thai),
            ["ไทย", "ภาษาไทย"]
        );
        // Chinese: Han characters alone as before, and a word's characters as one mark.
        assert_eq!(
            marks("北京大学在北京。", "北京的大学", Language::Chinese),
            ["北京大学", "北京"]
        );
        // A Latin word beside a run is a word of its own.
        assert_eq!(
            marks("Python言語です", "Pythonの言語", Language::Japanese),
            ["Python言語"]
        );
    }

    /// A unit counts half a word: a Japanese excerpt holds 2 × EXCERPT_WORDS characters.
    #[test]
    fn a_units_window_is_twice_as_many_units() {
        let filler = "あ".repeat(200);
        let text = format!("{filler}東京タワー{filler}");
        let cut = segments(&text, "東京タワー", Language::Japanese, &|_| true, &[]);
        let joined = cut.concat();
        assert!(joined.starts_with('…') && joined.ends_with('…'), "{joined}");
        assert_eq!(joined.chars().count(), 2 * EXCERPT_WORDS + 2, "{joined}");
        assert_eq!(cut[1], "東京タワー");
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
        // Centred: as many words before "pickle" as after "objects".
        let words: Vec<&str> = joined.split_whitespace().collect();
        let pickle = words.iter().position(|&w| w == "pickle").unwrap();
        let objects = words.iter().position(|&w| w == "objects").unwrap();
        assert_eq!(pickle, words.len() - 1 - objects, "{joined}");
        // Near the end of the text, the window stays full.
        let text = format!("{filler}the pickle module");
        let joined = segments(&text, "module", Language::English, &indexed, &[]).concat();
        assert_eq!(joined.split_whitespace().count(), EXCERPT_WORDS, "{joined}");
        assert!(joined.ends_with("module"), "{joined}");
        // Markup in the text stays text: the segments are the text's own characters.
        let hostile = "<img src=x onerror=alert(1)> pickle";
        assert_eq!(
            segments(hostile, "pickle", Language::English, &indexed, &[]),
            ["<img src=x onerror=alert(1)> ", "pickle", ""]
        );
    }
}
