//! The BM25 index of a corpus' passages ([`hipporag_wasm::lexical::Bm25Data`]), as
//! [`crate::graph::TripleGraph::finish`] stores it.
//!
//! Each passage's terms are [`hipporag_wasm::text::terms`] of its title, counted
//! [`TITLE_WEIGHT`] times, then of its text; terms that are stems of the language's stopwords
//! (NLTK's list, the `stop-words` crate) are left out, so queries need no stopword list. A
//! title's or text's Thai, Lao, Khmer and Burmese runs add their lexicon words
//! ([`crate::lexicon`], [`lexicon_terms`]), which the passage's length does not count.
//!
//! **Line weights** (Pagefind's `data-pagefind-weight`, which `hipporag site` reads into its
//! passages' `line_weights`; [`build_weighted`]): a line of weight `w`
//! counts each of its terms (and lexicon words) [`line_repetitions`]`(w)` = round(w²) times,
//! Pagefind's quadratic scale (2 → 4 times, 3 → 9, 10 → 100). BM25's term frequencies are
//! whole counts, so they cannot hold Pagefind's fractional weights: a line of weight 0.5
//! (0.25 of a word) or less than about 0.7 counts no term, as a line of weight 0 does. A word
//! left out so is left out of BM25 only: it stays in the passage's text (its excerpt), its
//! phrases and its embedding.
//! Chosen on the CoNaLa `dev` split of Python's docs (docs/tuning.md, "Hybrid ranking").
//!
//! **Heading weights** (Pagefind's automatic weights: `h1` 7, `h2` 6, … `h6` 2, unless an
//! element's `data-pagefind-weight` says otherwise; [`Weights::title`]): a site passage's
//! title is its heading path, `Page › Section › Subsection`, and each of its headings counts
//! its terms [`line_repetitions`] of its weight times (`h1` 49, `h2` 36, `h3` 25, …). A title
//! of one heading counts [`single_heading_repetitions`] times (an `h1` 3), and a title
//! without heading weights [`TITLE_WEIGHT`] times whole. Measured on the CoNaLa
//! `dev` split of Python's docs, the musique_train site and XQuAD German as a site
//! (docs/tuning.md, "Heading weights").

use std::collections::HashSet;

use hipporag_wasm::index::Passage;
use hipporag_wasm::lexical::{Bm25Builder, Bm25Data, Bm25Params};
use hipporag_wasm::text::{Language, lexicon_terms, terms};

/// How many times a passage's title terms count in its term frequencies (a page title or
/// heading path says what the passage is about).
pub const TITLE_WEIGHT: usize = 3;

/// `language`'s stopwords (NLTK's list, the `stop-words` crate, and for Russian its question
/// words; none for Japanese, Korean, Thai, Lao, Khmer, Burmese, Vietnamese and `und`, nor for the languages NLTK
/// has no list for: Armenian, Esperanto, Estonian, Hindi, Irish, Lithuanian, Polish, Serbian
/// and Yiddish), lowercased: left out of the BM25 terms (as stems) and of the static embeddings'
/// vocabulary, and stored in a Russian or Chinese index for the query side
/// ([`hipporag_wasm::index::BuildInfo::query_stopwords`]).
pub fn stopwords(language: Language) -> HashSet<String> {
    let extra: &[&str] = match language {
        Language::Russian => RUSSIAN_QUESTION_WORDS,
        _ => &[],
    };
    // Japanese, Korean and the Southeast Asian scripts are cut into units and pairs: a list of words
    // would take single characters out of the dictionary; NLTK has no list for them, or for
    // Vietnamese (whose syllables' pairs are its words) or `und`.
    let list = match language {
        Language::Japanese
        | Language::Thai
        | Language::Lao
        | Language::Khmer
        | Language::Burmese
        | Language::Korean
        | Language::Vietnamese
        | Language::Other => None,
        l => stop_words::lookup(l.code()),
    };
    list.unwrap_or_default()
        .iter()
        .chain(extra)
        .map(|w| w.to_lowercase())
        .collect()
}

/// Russian question words (and a question's imperatives and "против") missing from NLTK's Russian list (which has "что", "кто", "как",
/// "где", "когда"), in their common forms: without them a question's first word ("Сколько …",
/// "Какая …") would be taken for a name.
const RUSSIAN_QUESTION_WORDS: &[&str] = &[
    "сколько",
    "какой",
    "какая",
    "какое",
    "какие",
    "какого",
    "какому",
    "каким",
    "каком",
    "какую",
    "каких",
    "какими",
    "почему",
    "зачем",
    "откуда",
    "куда",
    "чей",
    "чья",
    "чьё",
    "чьи",
    "который",
    "которая",
    "которое",
    "которые",
    "которого",
    "которой",
    "котором",
    "которым",
    "которую",
    "которых",
    "назовите",
    "перечислите",
    "опишите",
    "против",
    "помимо",
    "каково",
    "какова",
    "каковы",
];

/// The stems of `language`'s stopwords.
pub fn stopword_terms(language: Language) -> HashSet<String> {
    stopwords(language)
        .iter()
        .flat_map(|w| terms(w, language))
        .collect()
}

/// How many times a line of weight `w` counts its terms (module docs): round(w²); 0 for a
/// weight below about 0.7, for 0 and for one that is no number.
pub fn line_repetitions(w: f32) -> usize {
    // (`as` saturates: NaN → 0.)
    (w * w).round() as usize
}

/// How many times a title of one heading of weight `w` counts its terms: [`TITLE_WEIGHT`]
/// scaled by Pagefind's quadratic scale relative to an `h1`'s 7, round(3 · (w / 7)²): an `h1`
/// counts 3 times, as every title did before heading weights, an `h2` 2, a heading of
/// weight 10 six, of weight 0 none. A page of one section (every page of a single-hop
/// corpus as a site) keeps its passage's share of title terms; counting its `h1` 49 times
/// instead moved one to twelve questions of 1,190 on every language's site, and counting it
/// 3 times raised Python's docs' CoNaLa `dev` R@10 0.677 → 0.703 (docs/tuning.md, "Heading
/// weights", the last table).
pub fn single_heading_repetitions(w: f32) -> usize {
    // (`as` saturates: NaN → 0.)
    (TITLE_WEIGHT as f32 * (w / H1_WEIGHT) * (w / H1_WEIGHT)).round() as usize
}

/// Pagefind's automatic weight of an `h1` (its weighting docs: `h1` 7 … `h6` 2).
const H1_WEIGHT: f32 = 7.0;

/// The lines of `text` that count, each with its [`line_repetitions`] (`weights[k]` the
/// weight of line `k`, 1 past the end).
fn weighted_lines<'a>(text: &'a str, weights: &'a [f32]) -> impl Iterator<Item = (&'a str, usize)> {
    text.lines()
        .enumerate()
        .map(|(k, line)| {
            (
                line,
                line_repetitions(weights.get(k).copied().unwrap_or(1.0)),
            )
        })
        .filter(|&(_, n)| n > 0)
}

/// The weights of one passage's terms for BM25 (module docs): its text's lines' and its
/// title's headings'. Empty slices (the default) weigh every line 1 and the whole title
/// [`TITLE_WEIGHT`] times.
#[derive(Debug, Clone, Copy, Default)]
pub struct Weights<'a> {
    /// Each line of the passage's text's weight (`data-pagefind-weight`), 1 past the end.
    pub lines: &'a [f32],
    /// Each heading of its title's weight, the title split at ` › ` (Pagefind's heading
    /// weights); when their counts differ, the whole title counts [`TITLE_WEIGHT`] times.
    pub title: &'a [f32],
}

impl<'a> Weights<'a> {
    /// The runs of `title` that count, each with its repetitions: each heading of a path of
    /// two or more with [`line_repetitions`] of its weight; a title of one heading
    /// [`single_heading_repetitions`] of its weight; else the whole title [`TITLE_WEIGHT`]
    /// times.
    fn title_runs(&self, title: &'a str) -> Vec<(&'a str, usize)> {
        let headings: Vec<&str> = title.split(" › ").collect();
        if self.title.is_empty() || headings.len() != self.title.len() {
            return vec![(title, TITLE_WEIGHT)];
        }
        if let [w] = self.title {
            let n = single_heading_repetitions(*w);
            return if n > 0 { vec![(title, n)] } else { Vec::new() };
        }
        headings
            .into_iter()
            .zip(self.title)
            .map(|(h, &w)| (h, line_repetitions(w)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// The indexed terms of one passage (see the module docs) but its lexicon words.
pub fn passage_terms(p: &Passage, language: Language, stop: &HashSet<String>) -> Vec<String> {
    weighted_passage_terms(p, Weights::default(), language, stop)
}

/// [`passage_terms`] with its `weights` (module docs; empty: every line weighs 1, the title
/// [`TITLE_WEIGHT`], and the text is read whole, as [`passage_terms`] reads it).
pub fn weighted_passage_terms(
    p: &Passage,
    weights: Weights<'_>,
    language: Language,
    stop: &HashSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (run, n) in weights.title_runs(&p.title) {
        let run_terms: Vec<String> = terms(run, language)
            .into_iter()
            .filter(|t| !stop.contains(t))
            .collect();
        for _ in 0..n {
            out.extend(run_terms.iter().cloned());
        }
    }
    if weights.lines.is_empty() {
        out.extend(
            terms(&p.text, language)
                .into_iter()
                .filter(|t| !stop.contains(t)),
        );
        return out;
    }
    for (line, n) in weighted_lines(&p.text, weights.lines) {
        let line_terms: Vec<String> = terms(line, language)
            .into_iter()
            .filter(|t| !stop.contains(t))
            .collect();
        for _ in 0..n {
            out.extend(line_terms.iter().cloned());
        }
    }
    out
}

/// The lexicon words of one passage ([`lexicon_terms`] of its title, counted [`TITLE_WEIGHT`]
/// times, then of its text), given the corpus' `lexicon` ([`crate::lexicon::lexicon`]).
pub fn passage_lexicon_terms(p: &Passage, lexicon: &HashSet<String>) -> Vec<String> {
    weighted_passage_lexicon_terms(p, Weights::default(), lexicon)
}

/// [`passage_lexicon_terms`] with its `weights`, as [`weighted_passage_terms`].
fn weighted_passage_lexicon_terms(
    p: &Passage,
    weights: Weights<'_>,
    lexicon: &HashSet<String>,
) -> Vec<String> {
    if lexicon.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (run, n) in weights.title_runs(&p.title) {
        let words = lexicon_terms(run, |w| lexicon.contains(w));
        for _ in 0..n {
            out.extend(words.iter().cloned());
        }
    }
    if weights.lines.is_empty() {
        out.extend(lexicon_terms(&p.text, |w| lexicon.contains(w)));
        return out;
    }
    for (line, n) in weighted_lines(&p.text, weights.lines) {
        let words = lexicon_terms(line, |w| lexicon.contains(w));
        for _ in 0..n {
            out.extend(words.iter().cloned());
        }
    }
    out
}

/// Passages whose terms [`build`] analyses at once (in parallel) before adding them.
pub const BUILD_CHUNK: usize = 4096;

/// Builds the BM25 index of `passages` (deterministic; the passages' terms in parallel, a
/// chunk of [`BUILD_CHUNK`] at a time, so that only one chunk's term lists are held), with
/// their lexicon ([`crate::lexicon::lexicon`]).
pub fn build(passages: &[Passage], language: Language, params: Bm25Params) -> Bm25Data {
    build_with_lexicon(
        passages,
        language,
        params,
        &crate::lexicon::lexicon(passages),
    )
}

/// [`build`] with a given `lexicon` (an empty one reads Thai, Lao, Khmer and Burmese in units
/// and pairs only). A passage's length, for BM25's normalisation, counts its
/// [`passage_terms`] and not its lexicon words, which read the same units a second time: in an
/// index of several languages, the lexicon changes no score of a passage without such runs
/// (docs/languages.md).
pub fn build_with_lexicon(
    passages: &[Passage],
    language: Language,
    params: Bm25Params,
    lexicon: &HashSet<String>,
) -> Bm25Data {
    build_weighted(passages, (&[], &[]), language, params, lexicon)
}

/// [`build_with_lexicon`] with each passage's text's line weights and title's heading
/// weights (module docs, "Line weights", "Heading weights"): `line_weights[i]` and
/// `title_weights[i]` for passage `i`; a passage with none (or past the end) weighs every
/// line 1 and its title [`TITLE_WEIGHT`], and without any weight the index is
/// [`build_with_lexicon`]'s, byte for byte. A passage's length counts its weighted terms.
pub fn build_weighted(
    passages: &[Passage],
    (line_weights, title_weights): (&[Vec<f32>], &[Vec<f32>]),
    language: Language,
    params: Bm25Params,
    lexicon: &HashSet<String>,
) -> Bm25Data {
    let stop = stopword_terms(language);
    let mut builder = Bm25Builder::default();
    for start in (0..passages.len()).step_by(BUILD_CHUNK) {
        let n = BUILD_CHUNK.min(passages.len() - start);
        for (doc, length) in crate::parallel::map_range(n, |j| {
            let p = &passages[start + j];
            let weights = Weights {
                lines: line_weights.get(start + j).map_or(&[], Vec::as_slice),
                title: title_weights.get(start + j).map_or(&[], Vec::as_slice),
            };
            let mut t = weighted_passage_terms(p, weights, language, &stop);
            let length = t.len();
            t.extend(weighted_passage_lexicon_terms(p, weights, lexicon));
            (t, length)
        }) {
            builder.add_with_length(&doc, length);
        }
    }
    let mut data = builder.finish(language, params);
    data.stopwords = stop.into_iter().collect();
    data.stopwords.sort_unstable();
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_count_thrice_and_stopwords_go() {
        let p = Passage {
            title: "The pickle module".into(),
            text: "It serializes the objects.".into(),
            url: None,
        };
        let stop = stopword_terms(Language::English);
        assert_eq!(
            passage_terms(&p, Language::English, &stop),
            [
                "pickl", "modul", "pickl", "modul", "pickl", "modul", "serial", "object"
            ]
        );
    }

    /// Python 3.11's library/json.html: two passages of the same text, one with the line of
    /// `json.dump`'s description in a `data-pagefind-weight="3"` element, rank in that order
    /// for its words; a line of weight 0 (or 0.5) matches nothing in BM25; and without weights,
    /// the index is the unweighted one.
    #[test]
    fn weighted_lines_rank_higher_and_weight_zero_leaves_words_out() {
        let text = "Serialize obj as a JSON formatted stream to fp (a .write()-supporting file-like object) using this conversion table.\n\
                    Deserialize fp (a .read()-supporting text file or binary file containing a JSON document) to a Python object using this conversion table.";
        let passage = |title: &str| Passage {
            title: title.into(),
            text: text.into(),
            url: None,
        };
        let passages = vec![
            passage("json › Basic Usage"),
            passage("json › Basic Usage"),
            Passage {
                title: "pickle › Module Interface".into(),
                text: "To serialize an object hierarchy, you simply call the dumps() function."
                    .into(),
                url: None,
            },
        ];
        let lexicon = HashSet::new();
        let params = Bm25Params::default();
        let index = |weights: &[Vec<f32>]| {
            hipporag_wasm::lexical::Bm25::from_data(
                build_weighted(
                    &passages,
                    (weights, &[]),
                    Language::English,
                    params,
                    &lexicon,
                ),
                passages.len(),
            )
            .unwrap()
        };
        let scores = |bm25: &hipporag_wasm::lexical::Bm25, q: &str| {
            bm25.scores(&terms(q, Language::English), passages.len())
        };
        let plain = index(&[]);
        let s = scores(&plain, "serialize a formatted stream");
        assert_eq!(s[0], s[1]);
        // The first passage's first line weighs 3 (9 times its terms).
        let weighted = index(&[vec![3.0, 1.0], vec![]]);
        let s = scores(&weighted, "serialize a formatted stream");
        assert!(s[0] > s[1] && s[1] > 0.0, "{s:?}");
        // Weight 0 and 0.5 (0.25, no whole count) leave the second line's words out.
        for w in [0.0, 0.5] {
            let zero = index(&[vec![1.0, w]]);
            let s = scores(&zero, "deserialize document");
            assert_eq!(s[0], 0.0, "weight {w}: {s:?}");
            assert!(s[1] > 0.0);
            assert!(scores(&zero, "serialize stream")[0] > 0.0);
        }
        assert_eq!(line_repetitions(2.0), 4);
        assert_eq!(line_repetitions(0.5), 0);
        assert_eq!(line_repetitions(1.0), 1);
        // Weights of 1 only: the unweighted index, byte for byte.
        let ones = build_weighted(
            &passages,
            (&[vec![1.0, 1.0], vec![], vec![1.0]], &[]),
            Language::English,
            params,
            &lexicon,
        );
        assert_eq!(
            ones,
            build_with_lexicon(&passages, Language::English, params, &lexicon)
        );
    }

    /// Heading weights: each heading of a path of two or more counts round(w²) times (`h1` 7 →
    /// 49, `h2` 6 → 36), so a query word in a page's `h1` outweighs one in a section's `h3`; a
    /// title of one heading counts round(3 · (w / 7)²) times; a title whose headings do not
    /// match its weights counts [`TITLE_WEIGHT`] times whole; no weights give the plain index.
    #[test]
    fn headings_count_by_their_weight() {
        let passage = |title: &str| Passage {
            title: title.into(),
            text: "Encoders and decoders for the format.".into(),
            url: None,
        };
        let stop = stopword_terms(Language::English);
        let count = |p: &Passage, title: &[f32], term: &str| {
            let w = Weights { lines: &[], title };
            weighted_passage_terms(p, w, Language::English, &stop)
                .iter()
                .filter(|t| t.as_str() == term)
                .count()
        };
        let p = passage("json › Basic Usage › Streams");
        assert_eq!(count(&p, &[7.0, 6.0, 5.0], "json"), 49);
        assert_eq!(count(&p, &[7.0, 6.0, 5.0], "usag"), 36);
        assert_eq!(count(&p, &[7.0, 6.0, 5.0], "stream"), 25);
        assert_eq!(count(&p, &[7.0, 0.0, 5.0], "usag"), 0);
        // Three headings, two weights: the whole title, TITLE_WEIGHT times.
        assert_eq!(count(&p, &[7.0, 6.0], "json"), TITLE_WEIGHT);
        assert_eq!(count(&p, &[], "stream"), TITLE_WEIGHT);
        // One heading: TITLE_WEIGHT at an h1's 7, on the quadratic scale around it.
        let page = passage("Streams");
        assert_eq!(count(&page, &[7.0], "stream"), TITLE_WEIGHT);
        assert_eq!(count(&page, &[6.0], "stream"), 2);
        assert_eq!(count(&page, &[10.0], "stream"), 6);
        assert_eq!(count(&page, &[0.0], "stream"), 0);

        let passages = vec![passage("json › Streams"), passage("pickle › json")];
        let lexicon = HashSet::new();
        let params = Bm25Params::default();
        let weighted = build_weighted(
            &passages,
            (&[], &[vec![7.0, 5.0], vec![7.0, 5.0]]),
            Language::English,
            params,
            &lexicon,
        );
        let bm25 = hipporag_wasm::lexical::Bm25::from_data(weighted, 2).unwrap();
        let s = bm25.scores(&terms("json", Language::English), 2);
        assert!(s[0] > s[1], "the page's h1 over a subsection's h3: {s:?}");
        assert_eq!(
            build_weighted(&passages, (&[], &[]), Language::English, params, &lexicon),
            build_with_lexicon(&passages, Language::English, params, &lexicon)
        );
    }

    /// Chunk by chunk, with the term lists analysed in parallel, gives the index of all the
    /// term lists at once.
    #[test]
    fn built_in_chunks_as_at_once() {
        let words = [
            "gear", "spindle", "engine", "Lovelace", "turns", "module", "the",
        ];
        let passages: Vec<Passage> = (0..BUILD_CHUNK * 2 + 17)
            .map(|i| Passage {
                title: format!("Page {}", i % 97),
                text: (0..i % 13 + 1)
                    .map(|k| words[(i * 7 + k * 3) % words.len()])
                    .collect::<Vec<_>>()
                    .join(" "),
                url: None,
            })
            .collect();
        let stop = stopword_terms(Language::English);
        let all: Vec<Vec<String>> = passages
            .iter()
            .map(|p| passage_terms(p, Language::English, &stop))
            .collect();
        let params = Bm25Params::default();
        let mut chunked = build(&passages, Language::English, params);
        assert_eq!(chunked.doc_len.len(), passages.len());
        // The stopword terms left out, sorted, for the query side.
        let mut left_out: Vec<String> = stop.into_iter().collect();
        left_out.sort_unstable();
        assert!(left_out.contains(&"the".to_string()));
        assert_eq!(std::mem::take(&mut chunked.stopwords), left_out);
        assert_eq!(chunked, Bm25Data::build(&all, Language::English, params));
    }

    /// BM25's R@1 and R@5 over `passages` read in `language` with `lexicon`, for XQuAD-style
    /// `questions` (each with its one gold paragraph), each question read as the page reads
    /// it (its terms and lexicon candidates): the gold's passage first, or among the five
    /// best-scored.
    fn recall_at_1_5(
        passages: &[Passage],
        language: Language,
        lexicon: &HashSet<String>,
        questions: &[serde_json::Value],
    ) -> (f64, f64) {
        let bm25 = hipporag_wasm::lexical::Bm25::from_data(
            build_with_lexicon(passages, language, Bm25Params::default(), lexicon),
            passages.len(),
        )
        .unwrap();
        let (mut at1, mut at5) = (0, 0);
        for q in questions {
            let gold = q["paragraphs"][0]["paragraph_text"].as_str().unwrap();
            let question = q["question"].as_str().unwrap();
            let mut query = terms(question, language);
            query.extend(hipporag_wasm::text::lexicon_candidates(question));
            let scores = bm25.scores(&query, passages.len());
            let mut best: Vec<usize> = (0..passages.len()).collect();
            best.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
            at1 += usize::from(passages[best[0]].text == gold);
            at5 += usize::from(best[..5].iter().any(|&j| passages[j].text == gold));
        }
        let n = questions.len() as f64;
        (at1 as f64 / n, at5 as f64 / n)
    }

    fn shared_data() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data")
    }

    fn xquad_th() -> (Vec<Passage>, Vec<serde_json::Value>) {
        let data = shared_data();
        let th =
            crate::corpus::read_corpus(&data.join("multilingual/xquad_th_corpus.json")).unwrap();
        let questions: Vec<serde_json::Value> = serde_json::from_str(
            &std::fs::read_to_string(data.join("multilingual/xquad_th.json")).unwrap(),
        )
        .unwrap();
        (th, questions)
    }

    /// The lexicon (ICU4X's dictionary words beside units and pairs) finds XQuAD th's
    /// paragraphs first more often than units and pairs alone, and among the first five no less
    /// often (the figures: docs/languages.md).
    #[cfg(feature = "lexicon")]
    #[test]
    fn the_lexicon_finds_thai_paragraphs_units_and_pairs_miss() {
        let (th, questions) = xquad_th();
        let lexicon = crate::lexicon::lexicon(&th);
        let with = recall_at_1_5(&th, Language::Thai, &lexicon, &questions);
        let without = recall_at_1_5(&th, Language::Thai, &HashSet::new(), &questions);
        assert!(
            with.0 > without.0 + 0.005 && with.1 >= without.1,
            "R@1, R@5 with the lexicon {with:?}, without {without:?}"
        );
    }

    /// musique_train's 1,890 English passages, then `more`: one index of two languages.
    fn musique_then(more: &[Passage]) -> Vec<Passage> {
        let mut mixed = crate::corpus::read_corpus(
            &shared_data().join("musique_train/musique_train_corpus.json"),
        )
        .unwrap();
        mixed.extend(more.iter().cloned());
        mixed
    }

    /// The lexicon adds terms and nothing else: in an index of musique_train's English
    /// passages and XQuAD th's Thai ones, every passage's length and every posting of the
    /// index without it are the same, so no passage without a Thai run scores otherwise.
    #[cfg(feature = "lexicon")]
    #[test]
    fn the_lexicon_changes_no_length_and_no_other_posting() {
        let (th, _) = xquad_th();
        let mixed = musique_then(&th);
        let lexicon = crate::lexicon::lexicon(&mixed);
        assert!(lexicon.len() > 1000, "{} lexicon words", lexicon.len());
        let params = Bm25Params::default();
        let with = build_with_lexicon(&mixed, Language::English, params, &lexicon);
        let without = build_with_lexicon(&mixed, Language::English, params, &HashSet::new());
        assert_eq!(with.doc_len, without.doc_len);
        assert_eq!(with.terms.len(), without.terms.len() + lexicon.len());
        let postings = |d: &Bm25Data, t: usize| {
            let (a, b) = (d.ptr[t] as usize, d.ptr[t + 1] as usize);
            (d.gaps[a..b].to_vec(), d.tf[a..b].to_vec())
        };
        for (t, term) in without.terms.iter().enumerate() {
            let u = with.terms.binary_search(term).unwrap();
            assert_eq!(postings(&with, u), postings(&without, t), "{term}");
        }
    }

    /// A Thai passage in an English index is read as a Thai index reads it (units and pairs,
    /// `hipporag_wasm::text::word_spans`): XQuAD th's questions find their paragraphs among
    /// musique_train's 1,890 English passages almost as well as in the Thai index of the 240
    /// alone. Read as single grapheme clusters, without pairs, they found 0.893 (`hipporag eval`,
    /// bm25, before 2026-12-04).
    #[test]
    fn thai_passages_in_an_english_index_are_read_as_in_a_thai_one() {
        let (th, questions) = xquad_th();
        let mixed = musique_then(&th);
        // R@5 of an index of `passages` in `language`, with their own lexicon.
        let r5 = |passages: &[Passage], language| {
            let lexicon = crate::lexicon::lexicon(passages);
            recall_at_1_5(passages, language, &lexicon, &questions).1
        };
        let own = r5(&th, Language::Thai);
        let in_english = r5(&mixed, Language::English);
        assert!(own > 0.95, "the Thai index: {own}");
        assert!(
            in_english > own - 0.03,
            "in an English index {in_english}, in the Thai one {own}"
        );
    }

    /// Names written with a letter Unicode does not decompose (a stroke, a dotless i) are found
    /// by a question typed without it, as accented names are: musique_train's passages in an
    /// English index, each question's passage ranked first by BM25.
    #[test]
    fn names_with_stroke_letters_are_found_typed_plainly() {
        let passages = musique_then(&[]);
        let bm25 = hipporag_wasm::lexical::Bm25::from_data(
            build(&passages, Language::English, Bm25Params::default()),
            passages.len(),
        )
        .unwrap();
        for (question, title) in [
            ("Gmina Belchatow in Lodz Voivodeship", "Gmina Bełchatów"),
            ("Yasemin Dalkilic", "Yasemin Dalkılıç"),
            ("chess olympiad in Tromso", "41st Chess Olympiad"),
            ("Miroslaw Chmara", "Mirosław Chmara"),
        ] {
            let scores = bm25.scores(&terms(question, Language::English), passages.len());
            let best = (0..passages.len())
                .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
                .unwrap();
            assert_eq!(passages[best].title, title, "{question:?}");
        }
    }
}
