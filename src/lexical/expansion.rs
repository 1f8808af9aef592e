//! Query-term expansion for a search box: the word being typed matches the dictionary terms it
//! begins (a prefix query), and a word the dictionary lacks matches the terms one edit away (a
//! fuzzy query), as Lucene's `PrefixQuery` and `FuzzyQuery` do and Pagefind does for the word
//! being typed.
//!
//! * **The word being typed.** When the question ends in a letter or digit (the reader has not
//!   typed the space or punctuation that ends a word), its last word's BM25 term `s` of at least
//!   [`MIN_PREFIX_CHARS`] characters is expanded to `s` itself (weight 1) and to the
//!   [`MAX_EXPANSIONS`] most frequent terms beginning with `s` (by document frequency, then
//!   term order), each weighted `PREFIX_WEIGHT · |s| / |t|`: a shorter completion is likelier,
//!   and a whole word still ranks first. When the dictionary lacks `s` itself (no word ends
//!   there, so the reader is still typing), completion `t` is weighted `√(df(t) / df(t₁))`,
//!   `t₁` the most frequent completion: the likelier word the reader is typing counts more,
//!   and none is damped as a rival of a whole word. When no term begins with `s` and the word
//!   is long enough to be misspelt, it is matched as a misspelt word instead (below).
//! * **A word the dictionary lacks.** A word of at least [`MIN_FUZZY_CHARS`] letters whose term
//!   is not in the dictionary, neither it nor its term a stopword, and not inside a literal
//!   ([`literal_spans`]: between backticks or quotes, the reader's own variable or file name,
//!   which no page spells), is expanded to the [`MAX_EXPANSIONS`] most frequent of its
//!   neighbours ([`crate::text::is_neighbour`]: alphabetic terms that begin with its first
//!   character, within one edit by optimal string alignment distance or a beginning of it that a
//!   stemmer would have left; and, where the index has static words, the terms of the words
//!   one edit from it as written, [`word_neighbour_terms`]), each weighted [`FUZZY_WEIGHT`].
//!   The index in pieces finds them through a few short key ranges and its deletes dictionary
//!   ([`crate::lexical`]).
//!
//! An expanded word adds to a passage's BM25 score its best alternative there,
//! `max_t w_t · bm25_t(p)` ([`crate::lexical::Bm25::expanded_scores`]), so completions of one word
//! never add up. The single file and the index in pieces expand alike: both list the
//! dictionary's terms in order ([`TermDictionary`]). The weights were chosen on the CoNaLa `dev`
//! split of Python's docs with `query_variants.py`'s half-typed and misspelt questions
//! (docs/tuning.md, "Prefix and fuzzy matching").

use crate::embeddings::StaticVocabulary;
use crate::text::literal_spans;
use crate::text::{Language, is_cjk, lexicon_candidates, terms};
use crate::text::{MAX_EXPANSIONS, MIN_FUZZY_CHARS, MIN_PREFIX_CHARS, is_neighbour};
use unicode_segmentation::UnicodeSegmentation;

/// A completion's weight before its length ratio (`PREFIX_WEIGHT · |s| / |t|`).
pub const PREFIX_WEIGHT: f64 = 0.5;
/// A fuzzy candidate's weight: a misspelt word has no exact match to rank first.
pub const FUZZY_WEIGHT: f64 = 1.0;

/// A sorted BM25 dictionary, as the single file holds it whole and the index in pieces holds
/// it in key ranges.
pub trait TermDictionary {
    /// Whether `term` has a posting list.
    fn has_term(&self, term: &str) -> bool;
    /// Whether the indexer left `term` out of the dictionary as a stopword
    /// ([`crate::lexical::Bm25Data::stopwords`]): a word with such a term is no misspelt word.
    /// By default, none is.
    fn is_stopword(&self, _term: &str) -> bool {
        false
    }
    /// Calls `f(term, document frequency)` for every term beginning with `prefix`, in term
    /// order.
    fn terms_with_prefix(&self, prefix: &str, f: &mut dyn FnMut(&str, u32));
    /// The document frequency of `term`: passages whose BM25 terms hold it (0 when absent).
    fn document_frequency(&self, term: &str) -> u32 {
        let mut df = 0;
        self.terms_with_prefix(term, &mut |t, d| {
            if t == term {
                df = d;
            }
        });
        df
    }
    /// Whether a term other than `term` begins with it: the word being typed has a completion.
    fn has_completion(&self, term: &str) -> bool {
        let mut any = false;
        self.terms_with_prefix(term, &mut |t, _| any |= t != term);
        any
    }
    /// Whether the dictionary is known to lack `term`: by default, whether it has no posting
    /// list for it. A dictionary read in parts (the index in pieces) knows it only once the
    /// part that would hold `term` is read.
    fn lacks(&self, term: &str) -> bool {
        !self.has_term(term)
    }
    /// Whether no term is known to begin with `term` (besides itself): by default, whether it
    /// has no completion ([`TermDictionary::has_completion`]); known, for a dictionary read in
    /// parts, once the parts of its key range are read.
    fn lacks_completion(&self, term: &str) -> bool {
        !self.has_completion(term)
    }
    /// Calls `f(term, document frequency)` for every neighbour of the misspelt term `term`
    /// ([`crate::text::is_neighbour`]), in term order. By default, from the terms beginning
    /// with its first character.
    fn neighbours(&self, term: &str, f: &mut dyn FnMut(&str, u32)) {
        let Some((first, _)) = term.char_indices().nth(1) else {
            return;
        };
        self.terms_with_prefix(&term[..first], &mut |t, df| {
            if is_neighbour(term, t) {
                f(t, df);
            }
        });
    }
}

/// A question's BM25 query: the terms scored as BM25 scores them, and the expanded words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryTerms {
    /// Terms summed as [`crate::lexical::Bm25::scores`] sums them (a repeat counts once).
    pub exact: Vec<String>,
    /// Each expanded word's alternatives with their weights (in `(0, 1]`), in term order.
    pub expanded: Vec<Vec<(String, f64)>>,
}

/// One word of the question that may be expanded.
struct Candidate {
    /// The word, lowercased.
    word: String,
    /// Its BM25 term.
    term: String,
    /// The question ends inside it.
    typed: bool,
    /// Long enough and alphabetic: matched within one edit when the dictionary lacks it.
    fuzzy: bool,
}

impl Candidate {
    /// Whether the word is matched to its neighbours ([`misspelt_words`]): long enough, its
    /// term no stopword the indexer left out ([`TermDictionary::is_stopword`]) and known to be
    /// missing from `dict` ([`TermDictionary::lacks`]); the word being
    /// typed only when no term is known to begin with its term either
    /// ([`TermDictionary::lacks_completion`]).
    fn is_misspelt(&self, dict: &dyn TermDictionary) -> bool {
        self.fuzzy
            && !dict.is_stopword(&self.term)
            && dict.lacks(&self.term)
            && (!self.typed || dict.lacks_completion(&self.term))
    }
}

/// The words of `question` that may be expanded (see the module docs); `stop` tells a stopword
/// (normalised, lowercase).
fn candidates(question: &str, language: Language, stop: &dyn Fn(&str) -> bool) -> Vec<Candidate> {
    let ends_in_word = question.chars().last().is_some_and(char::is_alphanumeric);
    let words: Vec<(usize, &str)> = question.unicode_word_indices().collect();
    let literals = literal_spans(question);
    let mut out = Vec::new();
    for (k, &(at, word)) in words.iter().enumerate() {
        if word.chars().any(is_cjk) {
            continue;
        }
        let typed = ends_in_word && k + 1 == words.len() && at + word.len() == question.len();
        let lower = word.to_lowercase();
        let alphabetic = lower.chars().all(char::is_alphabetic);
        // A literal is the reader's own text (a variable, a file name): no misspelt docs word.
        let literal = literals.iter().any(|r| r.contains(&at));
        let fuzzy =
            alphabetic && !literal && lower.chars().count() >= MIN_FUZZY_CHARS && !stop(&lower);
        // An identifier's last part is the part being typed (`os.pa` → `pa`).
        let Some(term) = terms(word, language).pop() else {
            continue;
        };
        let typed = typed && term.chars().count() >= MIN_PREFIX_CHARS;
        // A word whose term is a stopword ("having" → "have") is no misspelling: the
        // dictionary leaves stopwords out.
        let fuzzy = fuzzy && !stop(&term);
        if typed || fuzzy {
            out.push(Candidate {
                word: lower,
                term,
                typed,
                fuzzy,
            });
        }
    }
    out
}

/// The term of the word being typed (see the module docs): the last word's, when `question`
/// ends inside it and it has at least [`MIN_PREFIX_CHARS`] characters; `None` otherwise.
pub fn typed_term(question: &str, language: Language) -> Option<String> {
    // Every word a stopword: no word is a fuzzy candidate, only the typed one is listed.
    candidates(question, language, &|_| true)
        .into_iter()
        .find(|c| c.typed)
        .map(|c| c.term)
}

/// A word of the question that [`query_terms`] matches to its neighbours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misspelt {
    /// The word, lowercased (a static word, [`crate::embeddings::static_words`]).
    pub word: String,
    /// Its BM25 term.
    pub term: String,
}

/// The words of `question`, in order, that [`query_terms`] matches to their neighbours: long
/// alphabetic words outside literals ([`literal_spans`]), neither they nor their terms
/// stopwords (`stop`), whose term `dict` is known to lack ([`TermDictionary::lacks`]). The word
/// being typed is one of them only when no term is known to begin with its term either
/// ([`TermDictionary::lacks_completion`]): a reader who typed "importlfb" has no completion to
/// be offered, so the word is taken as written whole and misspelt, as it would be with a space
/// after it. The static query vector stands them for their neighbours too
/// ([`crate::embeddings::query_vector`]).
pub fn misspelt_words(
    question: &str,
    language: Language,
    dict: &dyn TermDictionary,
    stop: &dyn Fn(&str) -> bool,
) -> Vec<Misspelt> {
    candidates(question, language, stop)
        .into_iter()
        .filter(|c| c.is_misspelt(dict))
        .map(|c| Misspelt {
            word: c.word,
            term: c.term,
        })
        .collect()
}

/// The BM25 terms of the static words one edit from the misspelt `word`
/// ([`StaticVocabulary::neighbours`]), in word order, once each. The index in pieces loads
/// their term pieces ([`crate::pieces::Pieces::missing`]).
pub fn word_neighbour_terms(
    word: &str,
    language: Language,
    words: &dyn StaticVocabulary,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    words.neighbours(word, &mut |w, _, _| {
        if let Some(t) = terms(w, language).pop()
            && !out.contains(&t)
        {
            out.push(t);
        }
    });
    out
}

/// The `MAX_EXPANSIONS` most frequent of `found` (term, df, weight), then in term order.
fn most_frequent(mut found: Vec<(String, u32, f64)>) -> Vec<(String, f64)> {
    found.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    found.truncate(MAX_EXPANSIONS);
    let mut out: Vec<(String, f64)> = found.into_iter().map(|(t, _, w)| (t, w)).collect();
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The BM25 query of `question` in `language` over `dict` (see the module docs): its
/// [`terms`] and its lexicon candidates ([`lexicon_candidates`]: those `dict` lacks score
/// nothing), with the word being typed and the long words the dictionary lacks expanded.
/// `stop` tells a stopword (normalised, lowercase), which is never matched within one edit.
/// With the index's static words (`words`, [`StaticVocabulary`]: words as written, not stems),
/// a misspelt word's neighbours also include the BM25 term of each word of the vocabulary one
/// edit from it as typed: a stemmer rewrites a word's end ("directory" → "directori",
/// "separators" → "separ"), so a misspelling there ("directoyr", "sgparators") is more than
/// one edit from the stem.
pub fn query_terms(
    question: &str,
    language: Language,
    dict: &dyn TermDictionary,
    words: Option<&dyn StaticVocabulary>,
    stop: &dyn Fn(&str) -> bool,
) -> QueryTerms {
    let mut exact = terms(question, language);
    exact.extend(lexicon_candidates(question));
    let mut expanded = Vec::new();
    for c in candidates(question, language, stop) {
        let misspelt = c.is_misspelt(dict);
        if c.typed && !misspelt {
            let s = c.term.as_str();
            let len = s.chars().count() as f64;
            let mut found = Vec::new();
            dict.terms_with_prefix(s, &mut |t, df| {
                if t != s {
                    let w = PREFIX_WEIGHT * len / t.chars().count() as f64;
                    found.push((t.to_string(), df, w));
                }
            });
            if !dict.has_term(s) {
                // No word ends here: the completions are all the reader may be typing.
                let most = found.iter().map(|f| f.1).max().unwrap_or(1);
                for f in &mut found {
                    f.2 = (f64::from(f.1) / f64::from(most)).sqrt();
                }
            }
            let mut alternatives = most_frequent(found);
            if dict.has_term(s) {
                let at = alternatives.partition_point(|(t, _)| t.as_str() < s);
                alternatives.insert(at, (s.to_string(), 1.0));
            }
            // The typed term is scored as one of its alternatives, not summed besides them.
            if let Some(last) = exact.iter().rposition(|t| *t == c.term) {
                exact.remove(last);
            }
            if !alternatives.is_empty() {
                expanded.push(alternatives);
            }
        } else if misspelt {
            let mut found = Vec::new();
            dict.neighbours(&c.term, &mut |t, df| {
                found.push((t.to_string(), df, FUZZY_WEIGHT));
            });
            for t in words.map_or_else(Vec::new, |v| word_neighbour_terms(&c.word, language, v)) {
                if !found.iter().any(|f| f.0 == t) && dict.has_term(&t) {
                    let df = dict.document_frequency(&t);
                    found.push((t, df, FUZZY_WEIGHT));
                }
            }
            let alternatives = most_frequent(found);
            if !alternatives.is_empty() {
                expanded.push(alternatives);
            }
        }
    }
    QueryTerms { exact, expanded }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dictionary of (term, df), sorted.
    struct Dict(Vec<(&'static str, u32)>);

    impl TermDictionary for Dict {
        fn has_term(&self, term: &str) -> bool {
            self.0.iter().any(|(t, _)| *t == term)
        }
        fn terms_with_prefix(&self, prefix: &str, f: &mut dyn FnMut(&str, u32)) {
            for (t, df) in &self.0 {
                if t.starts_with(prefix) {
                    f(t, *df);
                }
            }
        }
    }

    fn dict() -> Dict {
        Dict(vec![
            ("dict", 40),
            ("dictionari", 30),
            ("pickl", 12),
            ("sort", 50),
            ("sorted", 20),
            ("zanzibar", 2),
        ])
    }

    fn no_stop(_: &str) -> bool {
        false
    }

    #[test]
    fn the_word_being_typed_matches_its_completions_and_itself_first() {
        let q = query_terms("sort a dict", Language::English, &dict(), None, &no_stop);
        assert_eq!(q.exact, ["sort", "a"]);
        assert_eq!(
            q.expanded,
            [vec![
                ("dict".to_string(), 1.0),
                ("dictionari".to_string(), PREFIX_WEIGHT * 4.0 / 10.0)
            ]]
        );
        // A space ends the word: nothing is expanded.
        let q = query_terms("sort a dict ", Language::English, &dict(), None, &no_stop);
        assert_eq!(q.exact, ["sort", "a", "dict"]);
        assert!(q.expanded.is_empty());
        // "Zanzi" finds "Zanzibar", which it begins.
        let q = query_terms("Zanzi", Language::English, &dict(), None, &no_stop);
        assert_eq!(q.expanded, [vec![("zanzibar".to_string(), 1.0)]]);
    }

    #[test]
    fn a_word_no_term_ends_weighs_its_completions_by_frequency() {
        // "sor" is no term: "sort" (df 50) and "sorted" (df 20) are what the reader may be
        // typing, the more frequent weighing more.
        let q = query_terms("how to sor", Language::English, &dict(), None, &no_stop);
        assert_eq!(
            q.expanded,
            [vec![
                ("sort".to_string(), 1.0),
                ("sorted".to_string(), (20.0f64 / 50.0).sqrt())
            ]]
        );
    }

    #[test]
    fn a_misspelt_long_word_matches_terms_one_edit_away() {
        // A substitution, and a swap among the first three characters ("pcikle" → "pcikl",
        // one edit from "pickl"), are found; a changed first letter is not.
        let q = query_terms("pickel module.", Language::English, &dict(), None, &no_stop);
        assert_eq!(q.expanded, [vec![("pickl".to_string(), FUZZY_WEIGHT)]]);
        let q = query_terms("pcikle module.", Language::English, &dict(), None, &no_stop);
        assert_eq!(q.expanded, [vec![("pickl".to_string(), FUZZY_WEIGHT)]]);
        let q = query_terms("ipckle module.", Language::English, &dict(), None, &no_stop);
        assert!(q.expanded.is_empty());
        // A stopword and a short word are never matched within one edit.
        let q = query_terms("pickel?", Language::English, &dict(), None, &|w| {
            w == "pickel"
        });
        assert!(q.expanded.is_empty());
        let q = query_terms("pickle?", Language::English, &dict(), None, &|w| {
            w == "pick"
        });
        assert!(q.expanded.is_empty(), "a word the dictionary has: {q:?}");
        let q = query_terms("sortd.", Language::English, &dict(), None, &no_stop);
        assert_eq!(
            q.expanded,
            [vec![
                ("sort".to_string(), FUZZY_WEIGHT),
                ("sorted".to_string(), FUZZY_WEIGHT)
            ]]
        );
    }

    #[test]
    fn a_word_inside_a_literal_is_never_misspelt() {
        for q in [
            "load `pickel` module.",
            "load 'pickel' module.",
            "load \"pickel\" module.",
        ] {
            let q = query_terms(q, Language::English, &dict(), None, &no_stop);
            assert!(q.expanded.is_empty(), "{q:?}");
        }
        // An apostrophe inside a word opens no literal.
        let q = query_terms(
            "don't pickel it.",
            Language::English,
            &dict(),
            None,
            &no_stop,
        );
        assert_eq!(q.expanded, [vec![("pickl".to_string(), FUZZY_WEIGHT)]]);
    }

    #[test]
    fn a_misspelt_suffix_matches_the_stem_the_word_begins_with() {
        // The stemmer knows no suffix "nig", so "sortnig" stays whole, three edits from
        // "sort"; "sort" is its beginning, and "sorted" is neither.
        let q = query_terms(
            "sortnig a list.",
            Language::English,
            &dict(),
            None,
            &no_stop,
        );
        assert_eq!(q.expanded, [vec![("sort".to_string(), FUZZY_WEIGHT)]]);
    }

    /// Static words as written, with the dictionary's stems beside them.
    struct Words(Vec<&'static str>);

    impl StaticVocabulary for Words {
        fn dim(&self) -> usize {
            8
        }
        fn passages(&self) -> usize {
            100
        }
        fn word(&self, word: &str) -> Option<(&[u8], u32)> {
            self.0.contains(&word).then_some((&[0u8][..], 1))
        }
        fn words_with_prefix<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a [u8], u32)) {
            for w in &self.0 {
                if w.starts_with(prefix) {
                    f(w, &[0u8], 1);
                }
            }
        }
    }

    #[test]
    fn a_misspelt_end_matches_the_stem_of_the_word_one_edit_away() {
        // "directory" is stemmed "directori": "directoyr" is two edits from the stem but one
        // from the word as written, which the static vocabulary holds. Without it only
        // "director" is found (a beginning of the misspelt word).
        let d = Dict(vec![("director", 3), ("directori", 9), ("separ", 5)]);
        let words = Words(vec!["director", "directory", "separate", "separators"]);
        let q = query_terms("find the directoyr.", Language::English, &d, None, &no_stop);
        assert_eq!(q.expanded, [vec![("director".to_string(), FUZZY_WEIGHT)]]);
        let with = |question: &str| {
            query_terms(question, Language::English, &d, Some(&words), &no_stop).expanded
        };
        assert_eq!(
            with("find the directoyr."),
            [vec![
                ("director".to_string(), FUZZY_WEIGHT),
                ("directori".to_string(), FUZZY_WEIGHT)
            ]]
        );
        let q = query_terms(
            "thousands sgparators.",
            Language::English,
            &d,
            None,
            &no_stop,
        );
        assert!(q.expanded.is_empty(), "{q:?}");
        // From the first letter on, as the dictionary's own neighbours: "sgparators".
        assert_eq!(
            with("thousands sgparators."),
            [vec![("separ".to_string(), FUZZY_WEIGHT)]]
        );
        assert_eq!(
            word_neighbour_terms("sgparators", Language::English, &words),
            ["separ"]
        );
    }

    /// A dictionary read in parts: what it is known to lack, and what no term is known to
    /// begin with.
    struct Partly {
        lacks: fn(&str) -> bool,
        uncompleted: fn(&str) -> bool,
    }

    impl TermDictionary for Partly {
        fn has_term(&self, _: &str) -> bool {
            false
        }
        fn is_stopword(&self, t: &str) -> bool {
            t == "abov"
        }
        fn terms_with_prefix(&self, _: &str, _: &mut dyn FnMut(&str, u32)) {}
        fn lacks(&self, t: &str) -> bool {
            (self.lacks)(t)
        }
        fn lacks_completion(&self, t: &str) -> bool {
            (self.uncompleted)(t)
        }
    }

    #[test]
    fn misspelt_words_are_the_long_words_the_dictionary_lacks() {
        // The dictionary has "modul" and lacks "pickel"; "dic" is being typed.
        let dict = Partly {
            lacks: |t| t != "modul",
            uncompleted: |_| false,
        };
        // "above" is a stopword the indexer left out ("abov"), not a misspelt word, though
        // the question's own stopword list lacks it.
        let m = misspelt_words(
            "Pickel above module dic",
            Language::English,
            &dict,
            &no_stop,
        );
        assert_eq!(
            m,
            [Misspelt {
                word: "pickel".into(),
                term: "pickel".into()
            }]
        );
        // Unknown whether the dictionary has the word: none yet.
        let unknown = Partly {
            lacks: |_| false,
            uncompleted: |_| false,
        };
        assert!(misspelt_words("pickel module.", Language::English, &unknown, &no_stop).is_empty());
        // The word being typed is misspelt only once no term is known to begin with it.
        let typed = |uncompleted: fn(&str) -> bool| {
            let dict = Partly {
                lacks: |t| t != "modul",
                uncompleted,
            };
            misspelt_words("module pickel", Language::English, &dict, &no_stop)
        };
        assert!(typed(|_| false).is_empty());
        assert_eq!(typed(|t| t == "pickel")[0].term, "pickel");
    }

    #[test]
    fn a_typed_word_nothing_begins_is_matched_within_one_edit() {
        // "pickel" is typed (no space after it), and no term begins with it: its neighbour
        // "pickl" is what the reader meant, as it would be after a space.
        let typed = query_terms("load a pickel", Language::English, &dict(), None, &no_stop);
        let ended = query_terms("load a pickel.", Language::English, &dict(), None, &no_stop);
        assert_eq!(typed.expanded, [vec![("pickl".to_string(), FUZZY_WEIGHT)]]);
        assert_eq!(typed.expanded, ended.expanded);
        // A typed word that some term begins is completed, not corrected: "dictio" →
        // "dictionari" alone, not its neighbour "dict".
        let q = query_terms("sort a dictio", Language::English, &dict(), None, &no_stop);
        assert_eq!(q.expanded, [vec![("dictionari".to_string(), 1.0)]]);
    }
}
