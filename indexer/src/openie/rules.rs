//! The no-LLM OpenIE extractor: phrases and same-sentence relation edges found by rules.
//!
//! HippoRAG's offline indexing asks an LLM for named entities and then for triples conditioned on
//! them (§3.1). Users who index their own documentation site or try the tool on a laptop often
//! have no LLM at hand; this extractor runs offline on any text and produces the same
//! [`OpenIeDoc`]s, so graph building does not change. It is the default of `hipporag index`
//! when no OpenIE file is given.
//!
//! ## Phrases (the `extracted_entities`)
//!
//! Text is split into sentences by Unicode sentence boundaries (UAX #29, `unicode-segmentation`;
//! line breaks always end a sentence; a boundary after an initial such as "C." or after a
//! common abbreviation such as "Dr." is undone), and sentences into words by UAX #29 word
//! boundaries. In each sentence, in this order (a word belongs to at most one phrase):
//!
//! 1. **Code identifiers**: back-quoted spans (`` `hipporag index` ``) and words shaped like code —
//!    `snake_case`, `camelCase`, `path::to::item`, `file.ext` / `a.b.c`, `fn()`, `--flag`,
//!    `dir/file.rs`. These matter on documentation sites.
//! 2. **Dates**: `December 22, 1955`, `3 July 2001`, `January 1960`, `June 21`.
//! 3. **Capitalised spans**: maximal runs of capitalised words, allowing the name connectors
//!    `of`, `the` (after `of`), `de`, `von`, `van`, … between them and an initial's period
//!    (`Thomas C. Südhof`, `University of Copenhagen`), and a short number at the end
//!    (`Section 8`, `Apollo 11`). A leading article is dropped (`The Wrights` → `Wrights`, as
//!    in titles). A single capitalised word is kept only if it is not a function word (NLTK's
//!    English stopword list) and, when corpus statistics are available
//!    ([`RuleExtractor::for_corpus`]), the corpus does not write it in lower case at least as
//!    often as capitalised inside sentences ("Currently, …", "a Professor in …" and a heading
//!    line "Introduction" go; "Stanford" stays).
//! 4. **Numbers** of at least three characters (`1963`, `1.355`, `20th`); shorter ones are too
//!    ambiguous to be useful nodes.
//! 5. **Compound noun phrases** ([`RuleOptions::noun_phrases`], on by default): runs of two to
//!    [`RuleOptions::max_phrase_words`] lowercase content words between function words,
//!    likely verbs and adverbs, and punctuation (RAKE-style candidates, Rose et al. 2010),
//!    keeping the last words (the head): "country music duo", "synaptic transmission". A
//!    single common noun ("process", "country") is too generic to be a useful node: with
//!    single words too, MuSiQue ranked worse than with no noun phrases at all (docs/tuning.md,
//!    "Measurements behind the code").
//!
//! The passage **title** (a trailing parenthetical such as "(duo)" and a leading article
//! removed) and each **heading** of the optional heading path are phrases too.
//!
//! ## Triples (the `extracted_triples`)
//!
//! The title is the passage's topic, as in most LLM triples (whose subject is usually the
//! article's entity, pronouns resolved to it). For every phrase `p` of the passage:
//! `(topic, r, p)`; for every two consecutive phrases `a`, `b` of one sentence: `(a, r, b)`.
//! The relation `r` is the text between the two phrases when it is at most
//! [`RuleOptions::max_relation_words`] words (`published by`), after a leading pronoun when the
//! topic is implicit (`He is a professor at` → `is a professor at`), else `related to`.
//! Each unordered pair of phrases gives at most one triple per passage, so a pair's edge weight
//! counts the passages that relate it. Headings chain as `(title, "has section", h₁)`,
//! `(hᵢ, "has section", hᵢ₊₁)`. Without a title the first phrase is the topic.
//!
//! Both edge kinds matter: MuSiQue ranks worse without the sentence pairs
//! ([`RuleOptions::sentence_pairs`]) and much worse without the topic edges
//! ([`RuleOptions::topic_star`]) (docs/tuning.md, "Measurements behind the code").
//!
//! Everything is deterministic: the same passage and options give the same document.

use std::collections::{HashMap, HashSet};

use unicode_segmentation::UnicodeSegmentation;

use super::{OpenIeDoc, Triple};
use crate::corpus::Passage;
use hipporag_wasm::text::Language;
use hipporag_wasm::text::normalize_phrase;
use hipporag_wasm::text::{NameStyle, is_article, is_capitalised, name_end};

mod chinese;
mod russian;

/// Relation used when the text between two phrases is empty or too long to be a predicate.
pub const GENERIC_RELATION: &str = "related to";
/// Relation between a page title and its headings, and between nested headings.
pub const SECTION_RELATION: &str = "has section";

/// Options of the rule extractor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleOptions {
    /// Also extract lowercase noun phrases (step 5); default on.
    pub noun_phrases: bool,
    /// Shortest lowercase noun phrase, in words (default 2: a single common noun such as
    /// "process" or "country" is too generic to be a useful node; compounds such as "country
    /// music duo" are specific).
    pub min_phrase_words: usize,
    /// Longest lowercase noun phrase, in words (default 3; longer runs keep their last words).
    pub max_phrase_words: usize,
    /// Longest relation taken from the text between two phrases, in words (default 6).
    pub max_relation_words: usize,
    /// Relate consecutive phrases of a sentence (default on).
    pub sentence_pairs: bool,
    /// Relate the topic to every phrase (default on).
    pub topic_star: bool,
    /// Documentation headings (`hipporag site`; default off): see [`docs_heading_phrases`].
    /// The topic is the page title's first part (`json — JSON encoder and decoder` → `json`),
    /// not the passage title (a site passage's title is its whole heading path); each heading
    /// gives the phrases of [`docs_heading_phrases`] instead of itself whole.
    pub docs_headings: bool,
    /// The text's language (default English): the stopword list of steps 3 and 5, and the
    /// rules of [`RuleExtractor`]'s module docs per script (Russian noun phrases, Chinese
    /// words by jieba).
    pub language: Language,
}

impl Default for RuleOptions {
    fn default() -> Self {
        Self {
            noun_phrases: true,
            min_phrase_words: 2,
            max_phrase_words: 3,
            max_relation_words: 6,
            sentence_pairs: true,
            topic_star: true,
            docs_headings: false,
            language: Language::English,
        }
    }
}

/// What [`extract_corpus`] produced, for the build log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesReport {
    /// Passages read.
    pub docs: usize,
    /// Distinct phrases per passage, summed over passages.
    pub entities: usize,
    /// Triples, summed over passages.
    pub triples: usize,
    /// Passages without any triple (no phrase besides the topic).
    pub docs_without_triples: usize,
}

impl RulesReport {
    /// Counts one extracted document (its phrases and triples).
    pub fn add(&mut self, d: &OpenIeDoc) {
        self.entities += d.extracted_entities.len();
        self.triples += d.extracted_triples.len();
        if d.extracted_triples.is_empty() {
            self.docs_without_triples += 1;
        }
    }
}

impl std::fmt::Display for RulesReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} docs, {} phrases, {} triples; {} docs without triples",
            self.docs, self.entities, self.triples, self.docs_without_triples
        )
    }
}

/// The rule-based extractor; see the module documentation for the rules.
#[derive(Debug, Clone, Default)]
pub struct RuleExtractor {
    opts: RuleOptions,
    /// Lowercased words the corpus writes in lower case at least as often as capitalised
    /// inside a sentence (empty without corpus statistics).
    common: HashSet<String>,
    /// Lowercased words the corpus capitalises somewhere after a sentence's first word. In
    /// Russian (where a sentence-initial verb or gerund is as capitalised as a name) a single
    /// capitalised word that starts its sentence is a name only when it is in here.
    capitalised_inside: HashSet<String>,
}

impl RuleExtractor {
    /// An extractor without corpus statistics (sentence-initial words are judged by the
    /// stopword list only).
    pub fn new(opts: RuleOptions) -> Self {
        Self {
            opts,
            common: HashSet::new(),
            capitalised_inside: HashSet::new(),
        }
    }

    /// An extractor that first learns, from `passages`, which words are ordinary lower-case
    /// words (seen in lower case at least as often as capitalised after a sentence's first
    /// word), so that "Currently, …" or a heading line "Introduction" does not become a phrase.
    pub fn for_corpus(passages: &[Passage], opts: RuleOptions) -> Self {
        Self::for_texts(passages.iter().map(|p| p.text.as_str()), opts)
    }

    /// [`RuleExtractor::for_corpus`] from the passages' texts alone (`Passage::text`, without
    /// titles: a title is capitalised as a heading is, which says nothing of the word).
    pub fn for_texts<'a>(texts: impl IntoIterator<Item = &'a str>, opts: RuleOptions) -> Self {
        let mut lower: HashMap<String, u32> = HashMap::new();
        let mut capital: HashMap<String, u32> = HashMap::new();
        for text in texts {
            for sentence in sentences(text) {
                for (k, w) in sentence.1.unicode_words().enumerate() {
                    let Some(first) = w.chars().next() else {
                        continue;
                    };
                    if first.is_lowercase() {
                        *lower.entry(w.to_string()).or_default() += 1;
                    } else if first.is_uppercase() && k > 0 {
                        *capital.entry(w.to_lowercase()).or_default() += 1;
                    }
                }
            }
        }
        let common = lower
            .into_iter()
            .filter(|(w, n)| *n >= capital.get(w).copied().unwrap_or(0))
            .map(|(w, _)| w)
            .collect();
        let capitalised_inside = match opts.language {
            Language::Russian => capital.into_keys().collect(),
            _ => HashSet::new(),
        };
        Self {
            opts,
            common,
            capitalised_inside,
        }
    }

    /// What the extraction of a passage whose title, headings and text are `texts` reads of the
    /// corpus statistics: each word of the texts that starts with a capital, lowercased, that
    /// the statistics hold (the corpus writes it in lower case as often, or, in Russian, it
    /// capitalises it inside a sentence), distinct, sorted and tagged with the set it is in
    /// (`"lower:"`, `"inside:"`). Two passages with the same texts and the same list give the
    /// same document, whatever else the corpus holds: a cache of documents keyed by both stays
    /// valid as the corpus changes (`hipporag site`'s incremental rebuilds).
    pub fn statistics_read(&self, texts: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if self.common.is_empty() && self.capitalised_inside.is_empty() {
            return out;
        }
        for w in texts.iter().flat_map(|t| t.unicode_words()) {
            if !w.chars().next().is_some_and(char::is_uppercase) {
                continue;
            }
            let lower = w.to_lowercase();
            if self.common.contains(&lower) {
                out.push(format!("lower:{lower}"));
            }
            if self.capitalised_inside.contains(&lower) {
                out.push(format!("inside:{lower}"));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The options in use.
    pub fn options(&self) -> &RuleOptions {
        &self.opts
    }

    /// Extracts phrases and triples from one passage.
    ///
    /// `headings` is the passage's heading path on its page, outermost first (`["Install",
    /// "From source"]`); pass `&[]` when there is none. The returned document has `idx: None`
    /// and `passage == title + "\n" + text`. Never fails: a passage without any phrase gives a
    /// document with no triples.
    pub fn extract(&self, passage: &Passage, headings: &[&str]) -> OpenIeDoc {
        self.extract_with_code(passage, headings, &[])
    }

    /// [`RuleExtractor::extract`] for a passage some of whose lines are code (`code_lines`:
    /// indices of `passage.text`'s lines, ascending; `hipporag site` takes them from `<pre>`).
    /// A code line gives only the identifiers of [`code_block_identifiers`], each related to
    /// the topic, instead of the prose rules.
    pub fn extract_with_code(
        &self,
        passage: &Passage,
        headings: &[&str],
        code_lines: &[usize],
    ) -> OpenIeDoc {
        let mut doc = DocBuilder::default();
        let topic = if self.opts.docs_headings {
            let page = passage.title.split(" › ").next().unwrap_or_default();
            docs_heading_phrases(page).into_iter().next()
        } else {
            title_phrase(&passage.title)
        };
        if let Some(t) = &topic {
            doc.add_entity(t);
        }
        // Headings: a chain from the title down, and their own inner phrases.
        let mut parent = topic.clone();
        for h in headings {
            let h = h.trim();
            if normalize_phrase(h).is_empty() {
                continue;
            }
            let nodes = if self.opts.docs_headings {
                docs_heading_phrases(h)
            } else {
                vec![h.to_string()]
            };
            for n in &nodes {
                doc.add_entity(n);
                if let Some(p) = &parent {
                    doc.add_triple(p, SECTION_RELATION, n);
                }
            }
            // Inner phrases hang off the heading's first phrase node, or the parent when the
            // heading gives none (a question).
            let anchor = nodes.first().cloned().or_else(|| parent.clone());
            for span in self.sentence_phrases(h) {
                doc.add_entity(&span.text);
                if let Some(a) = &anchor {
                    doc.add_triple(a, GENERIC_RELATION, &span.text);
                }
            }
            if let Some(first) = nodes.into_iter().next() {
                parent = Some(first);
            }
        }
        let mut topic = topic;
        for (k, line) in passage.text.lines().enumerate() {
            let line = match self.opts.language {
                Language::Chinese => chinese::without_readings(line),
                _ => std::borrow::Cow::Borrowed(line),
            };
            let line = line.as_ref();
            if code_lines.binary_search(&k).is_ok() {
                // A code line: its identifiers, each related to the topic only (neighbouring
                // tokens of code are no relation).
                for ident in code_block_identifiers(line) {
                    doc.add_entity(&ident);
                    match &topic {
                        Some(t) if self.opts.topic_star => {
                            doc.add_triple(t, GENERIC_RELATION, &ident);
                        }
                        Some(_) => {}
                        None => topic = Some(ident),
                    }
                }
                continue;
            }
            for (_, sentence) in sentences(line) {
                self.add_sentence(&mut doc, &mut topic, sentence);
            }
        }
        OpenIeDoc {
            idx: None,
            passage: passage.indexed_text(),
            extracted_entities: doc.entities,
            extracted_triples: doc.triples,
        }
    }

    /// Phrases and triples of one prose sentence (the module docs' rules); the first phrase
    /// becomes the topic when there is none yet.
    fn add_sentence(&self, doc: &mut DocBuilder, topic: &mut Option<String>, sentence: &str) {
        let spans = self.sentence_phrases(sentence);
        if spans.is_empty() {
            return;
        }
        let topic = topic.get_or_insert_with(|| spans[0].text.clone()).as_str();
        let topic_key = normalize_phrase(topic);
        let topic_pos = spans
            .iter()
            .position(|s| normalize_phrase(&s.text) == topic_key);
        let pronoun_start = pronoun_before(sentence, spans[0].start);
        for (i, s) in spans.iter().enumerate() {
            doc.add_entity(&s.text);
            // Consecutive phrases of the sentence.
            if i > 0 && self.opts.sentence_pairs {
                let a = &spans[i - 1];
                let rel = self.relation(&sentence[a.end..s.start]);
                doc.add_triple(&a.text, &rel, &s.text);
            }
            if !self.opts.topic_star {
                continue;
            }
            // The topic, explicit in the sentence or implicit.
            let rel = match topic_pos {
                Some(t) if t < i => self.relation(&sentence[spans[t].end..s.start]),
                None if pronoun_start.is_some() && i == 0 => {
                    self.relation(&sentence[pronoun_start.unwrap_or(0)..s.start])
                }
                _ => GENERIC_RELATION.to_string(),
            };
            doc.add_triple(topic, &rel, &s.text);
        }
    }

    /// A relation from the text between two phrases (Chinese: its words without spaces,
    /// counted in characters, at most 2 per allowed word).
    fn relation(&self, between: &str) -> String {
        let words: Vec<&str> = between.unicode_words().collect();
        if self.opts.language == Language::Chinese {
            let text: String = words.concat();
            let n = text.chars().count();
            return if n == 0 || n > 2 * self.opts.max_relation_words {
                GENERIC_RELATION.to_string()
            } else {
                text
            };
        }
        if words.is_empty() || words.len() > self.opts.max_relation_words {
            GENERIC_RELATION.to_string()
        } else {
            words.join(" ")
        }
    }

    /// The phrases of one sentence, in order of appearance, without duplicates: the passes of
    /// the module docs, in order, each taking only words no earlier pass took.
    fn sentence_phrases(&self, sentence: &str) -> Vec<Span> {
        let language = self.opts.language;
        let mut scan = SentenceScanner::new(sentence, language);
        scan.code_identifiers();
        if language == Language::English {
            scan.dates();
        }
        if language == Language::Chinese {
            scan.chinese_words(self.opts.noun_phrases, self.opts.max_phrase_words);
        }
        if language == Language::Japanese {
            scan.japanese_runs();
        }
        scan.names(&self.common, &self.capitalised_inside);
        scan.numbers();
        // Noun phrases need a language's own rules (English's word classes, Russian's
        // agreement endings): other languages give names, numbers and identifiers only.
        if self.opts.noun_phrases && matches!(language, Language::English | Language::Russian) {
            scan.noun_phrases(self.opts.min_phrase_words, self.opts.max_phrase_words);
        }
        scan.finish()
    }
}

/// One sentence being scanned for phrases: its tokens, which words earlier passes took, and
/// the phrases found so far.
struct SentenceScanner<'a> {
    sentence: &'a str,
    language: Language,
    toks: Vec<Tok<'a>>,
    /// Token indexes of the words (UAX #29 word segments with a letter or digit).
    words: Vec<usize>,
    /// Per token: taken by a phrase already.
    used: Vec<bool>,
    spans: Vec<Span>,
}

impl<'a> SentenceScanner<'a> {
    fn new(sentence: &'a str, language: Language) -> Self {
        let toks = tokens(sentence);
        let words = (0..toks.len())
            .filter(|&i| toks[i].kind == Kind::Word)
            .collect();
        Self {
            sentence,
            language,
            used: vec![false; toks.len()],
            toks,
            words,
            spans: Vec::new(),
        }
    }

    /// Takes tokens `a..b` (exclusive), trimmed of non-words at both ends, as a phrase, unless
    /// a token is taken already or the text normalises to nothing.
    fn take(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (a, b);
        while a < b && self.toks[a].kind != Kind::Word {
            a += 1;
        }
        while b > a && self.toks[b - 1].kind != Kind::Word {
            b -= 1;
        }
        if a >= b || self.used[a..b].iter().any(|&u| u) {
            return;
        }
        let (start, end) = (self.toks[a].start, self.toks[b - 1].end());
        let text = collapse_ws(&self.sentence[start..end]);
        if normalize_phrase(&text).is_empty() {
            return;
        }
        self.used[a..b].iter_mut().for_each(|u| *u = true);
        self.spans.push(Span { start, end, text });
    }

    /// Pass 1: code identifiers, with their exact text (they may cover parts of tokens).
    fn code_identifiers(&mut self) {
        for (start, end) in code_identifiers(self.sentence) {
            let a = self.toks.iter().position(|t| t.end() > start);
            let b = self.toks.iter().rposition(|t| t.start < end);
            if let (Some(a), Some(b)) = (a, b) {
                if a <= b && !self.used[a..=b].iter().any(|&u| u) {
                    self.used[a..=b].iter_mut().for_each(|u| *u = true);
                    self.spans.push(Span {
                        start,
                        end,
                        text: self.sentence[start..end].to_string(),
                    });
                }
            }
        }
    }

    /// Pass 2: dates ("3 July 2001", "December 22, 1955", "January 1960", "June 21").
    fn dates(&mut self) {
        let words = self.words.clone();
        for (wi, &i) in words.iter().enumerate() {
            if self.used[i] || !is_month(self.toks[i].text) {
                continue;
            }
            let toks = &self.toks;
            let mut a = i;
            if wi > 0 {
                let p = words[wi - 1];
                if is_day(toks[p].text) && only_space_between(toks, p, i) && !self.used[p] {
                    a = p;
                }
            }
            let mut b = i + 1;
            let mut wj = wi + 1;
            if a == i && wj < words.len() {
                let n = words[wj];
                if is_day(toks[n].text) && only_space_between(toks, i, n) {
                    b = n + 1;
                    wj += 1;
                }
            }
            if wj < words.len() {
                let n = words[wj];
                let gap: String = toks[b..n].iter().map(|t| t.text).collect();
                if is_year(toks[n].text) && (gap.trim().is_empty() || gap.trim() == ",") {
                    b = n + 1;
                }
            }
            if b > i + 1 || a < i {
                self.take(a, b);
            }
        }
    }

    /// Pass 3: names ([`hipporag_wasm::text`]), without a leading article; a single word only
    /// when it is not a function word and not in `common` (words the corpus writes in lower
    /// case at least as often as capitalised).
    fn names(&mut self, common: &HashSet<String>, capitalised_inside: &HashSet<String>) {
        let word_texts: Vec<&str> = self.words.iter().map(|&i| self.toks[i].text).collect();
        let mut wi = 0;
        while wi < self.words.len() {
            let i = self.words[wi];
            if self.used[i] || !is_capitalised(self.toks[i].text) {
                wi += 1;
                continue;
            }
            // Extend over capitalised words, connectors and initials' periods.
            let end_w = name_end(&word_texts, wi, NameStyle::Phrase, |wj| {
                !self.used[self.words[wj]]
                    && joinable_gap(&self.toks, self.words[wj - 1], self.words[wj])
            });
            let mut a_w = wi;
            // Drop leading articles and, at the start of a sentence, a leading function word.
            while a_w <= end_w && is_article(word_texts[a_w]) {
                a_w += 1;
            }
            if a_w > end_w {
                wi = end_w + 1;
                continue;
            }
            let single = a_w == end_w;
            let lower = word_texts[a_w].to_lowercase();
            let sentence_initial = self.language == Language::Russian
                && a_w == 0
                && !capitalised_inside.contains(&lower);
            let drop = is_stopword(self.language, &lower)
                || (single && (common.contains(&lower) || sentence_initial))
                || (single && lower.chars().count() < 2);
            let b = self.words[end_w] + 1;
            if !drop {
                // An initial's period ("C." inside "Thomas C. Südhof") is kept by the gap rule.
                self.take(self.words[a_w], b);
            } else if !single {
                // "He Thomas …" is rare; "In Stanford University" is not: retry without the word.
                let mut a = a_w + 1;
                while a <= end_w && !is_capitalised(word_texts[a]) {
                    a += 1;
                }
                if a <= end_w {
                    self.take(self.words[a], b);
                }
            }
            wi = end_w + 1;
        }
    }

    /// Chinese: jieba's names and nouns ([`chinese`]), before the English rules take the
    /// Latin words.
    fn chinese_words(&mut self, nouns: bool, max_words: usize) {
        let words = chinese::words(self.sentence);
        for (start, end) in chinese::phrases(&words, nouns, max_words) {
            let a = self.toks.iter().position(|t| t.start == start);
            let b = self.toks.iter().position(|t| t.end() == end);
            if let (Some(a), Some(b)) = (a, b) {
                self.take(a, b + 1);
            }
        }
    }

    /// Pass 3 (Japanese): each run of Han and Katakana of 2 to [`MAX_JAPANESE_RUN`]
    /// characters. Japanese writes content words (names, nouns, loanwords) in Han and
    /// Katakana and its particles and inflections in Hiragana, so a Hiragana character or
    /// punctuation ends a run: "東京タワーは" gives "東京タワー".
    fn japanese_runs(&mut self) {
        let content = |t: &str| {
            t.chars().all(|c| {
                (hipporag_wasm::text::is_cjk(c) && !matches!(c, '\u{3040}'..='\u{309F}'))
                    || matches!(c, '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}')
            })
        };
        let mut i = 0;
        while i < self.toks.len() {
            let a = i;
            let mut chars = 0;
            while i < self.toks.len()
                && self.toks[i].kind == Kind::Word
                && !self.used[i]
                && content(self.toks[i].text)
            {
                chars += self.toks[i].text.chars().count();
                i += 1;
            }
            if (2..=MAX_JAPANESE_RUN).contains(&chars) {
                self.take(a, i);
            }
            if i == a {
                i += 1;
            }
        }
    }

    /// Pass 4: numbers of at least three characters.
    fn numbers(&mut self) {
        for wi in 0..self.words.len() {
            let i = self.words[wi];
            let t = self.toks[i].text;
            if !self.used[i]
                && t.starts_with(|c: char| c.is_ascii_digit())
                && t.chars().count() >= 3
            {
                self.take(i, i + 1);
            }
        }
    }

    /// Pass 5: runs of at least `min_words` lowercase content words, keeping the last
    /// `max_words` (the head).
    fn noun_phrases(&mut self, min_words: usize, max_words: usize) {
        let mut run: Vec<usize> = Vec::new();
        for wi in 0..self.words.len() {
            let i = self.words[wi];
            let t = self.toks[i].text;
            let content = !self.used[i]
                && t.chars().all(|c| c.is_alphabetic() && c.is_lowercase())
                && t.chars().count() >= 3
                && !is_stopword(self.language, t)
                && !match self.language {
                    Language::Russian => russian::breaks_noun_phrase(t),
                    _ => breaks_noun_phrase(t),
                };
            let contiguous =
                wi > 0 && !run.is_empty() && joinable_gap(&self.toks, self.words[wi - 1], i);
            if content && (run.is_empty() || contiguous) {
                run.push(i);
            } else {
                self.flush_noun_phrase(&mut run, min_words, max_words);
                if content {
                    run.push(i);
                }
            }
        }
        self.flush_noun_phrase(&mut run, min_words, max_words);
    }

    fn flush_noun_phrase(&mut self, run: &mut Vec<usize>, min_words: usize, max_words: usize) {
        if self.language == Language::Russian {
            let words: Vec<&str> = run.iter().map(|&i| self.toks[i].text).collect();
            for (a, b) in russian::noun_phrases(&words, min_words, max_words) {
                self.take(run[a], run[b - 1] + 1);
            }
            run.clear();
            return;
        }
        if run.len() >= min_words.max(1) {
            let k = run.len().saturating_sub(max_words);
            self.take(run[k], run[run.len() - 1] + 1);
        }
        run.clear();
    }

    /// The phrases in sentence order, the first of each normalised form kept.
    fn finish(mut self) -> Vec<Span> {
        self.spans.sort_by_key(|s| s.start);
        let mut seen = HashSet::new();
        self.spans
            .retain(|s| seen.insert(normalize_phrase(&s.text)));
        self.spans
    }
}

/// Extracts every passage of a corpus with an extractor that learned the corpus's common words.
///
/// Returns one document per passage (same order, `idx` set) and a [`RulesReport`].
pub fn extract_corpus(passages: &[Passage], opts: &RuleOptions) -> (Vec<OpenIeDoc>, RulesReport) {
    extract_corpus_reporting(passages, opts, &())
}

/// [`extract_corpus`], reporting stage `"OpenIE"` to `progress` (one unit per passage).
pub fn extract_corpus_reporting(
    passages: &[Passage],
    opts: &RuleOptions,
    progress: &dyn crate::progress::Progress,
) -> (Vec<OpenIeDoc>, RulesReport) {
    let ex = RuleExtractor::for_corpus(passages, opts.clone());
    let mut report = RulesReport {
        docs: passages.len(),
        ..Default::default()
    };
    progress.start("OpenIE", passages.len() as u64);
    let docs = passages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut d = ex.extract(p, &[]);
            d.idx = Some(i);
            report.add(&d);
            progress.advance(1);
            d
        })
        .collect();
    progress.finish();
    (docs, report)
}

/// Collects entities and triples without duplicates (compared normalised).
#[derive(Default)]
struct DocBuilder {
    entities: Vec<String>,
    entity_keys: HashSet<String>,
    triples: Vec<Triple>,
    pairs: HashSet<(String, String)>,
}

impl DocBuilder {
    fn add_entity(&mut self, e: &str) {
        let key = normalize_phrase(e);
        if !key.is_empty() && self.entity_keys.insert(key) {
            self.entities.push(e.to_string());
        }
    }

    fn add_triple(&mut self, s: &str, r: &str, o: &str) {
        let (a, b) = (normalize_phrase(s), normalize_phrase(o));
        if a.is_empty() || b.is_empty() || a == b {
            return;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if self.pairs.insert(key) {
            self.triples
                .push([s.to_string(), r.to_string(), o.to_string()]);
        }
    }
}

/// A phrase found in a sentence: byte range in the sentence and its text.
/// The longest run of Han and Katakana taken as one Japanese phrase, in characters: longer
/// runs are lists and compounds of several words.
const MAX_JAPANESE_RUN: usize = 12;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Word,
    Space,
    Punct,
}

#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    start: usize,
    kind: Kind,
}

impl Tok<'_> {
    fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

/// UAX #29 word-boundary segments, classified.
fn tokens(s: &str) -> Vec<Tok<'_>> {
    s.split_word_bound_indices()
        .map(|(start, text)| {
            let kind = if text.chars().any(char::is_alphanumeric) {
                Kind::Word
            } else if text.chars().all(char::is_whitespace) {
                Kind::Space
            } else {
                Kind::Punct
            };
            Tok { text, start, kind }
        })
        .collect()
}

/// Sentences of a text with their byte offsets: UAX #29 sentence boundaries, split again at
/// line breaks, with boundaries after initials and common abbreviations undone.
fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut merge = false;
        for (off, s) in line.split_sentence_bound_indices() {
            let (a, b) = (line_start + off, line_start + off + s.len());
            if merge {
                if let Some(last) = out.last_mut() {
                    last.1 = b;
                }
            } else {
                out.push((a, b));
            }
            merge = ends_with_abbreviation(s.trim_end());
        }
        line_start += line.len();
    }
    out.into_iter()
        .map(|(a, b)| (a, &text[a..b]))
        .filter(|(_, s)| !s.trim().is_empty())
        .collect()
}

/// True when a sentence segment ends in an initial ("C.") or a common abbreviation ("Dr.").
fn ends_with_abbreviation(s: &str) -> bool {
    let Some(body) = s.strip_suffix('.') else {
        return false;
    };
    let last = body
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .next()
        .unwrap_or("");
    let letters: Vec<char> = last.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() == 1 && letters[0].is_uppercase() {
        return true; // "C." or "D.H." style initials
    }
    if last.contains('.') && last.chars().all(|c| c.is_alphabetic() || c == '.') {
        return true; // "U.S." "e.g." "Ph.D."
    }
    const ABBREVIATIONS: &[&str] = &[
        "Co", "Corp", "Dr", "Gen", "Gov", "Inc", "Jr", "Lt", "Ltd", "Mr", "Mrs", "Ms", "No",
        "Prof", "Rev", "Sen", "Sr", "St", "Sgt", "Capt", "Col", "Mt", "vs", "etc", "cf", "al",
        "approx", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov",
        "Dec", "Vol", "pp", "Fig",
    ];
    ABBREVIATIONS.contains(&last)
}

/// Longest documentation heading kept whole as a phrase node, in words; longer ones give only
/// their inner phrases.
pub const MAX_DOCS_HEADING_WORDS: usize = 6;

/// The phrase nodes of a documentation heading (`RuleOptions::docs_headings`), in order:
/// - a leading section number goes (`7.2.2. Saving structured data with json` → `Saving
///   structured data with json`);
/// - Sphinx's `name — description` titles split at the dash into both parts (`json — JSON
///   encoder and decoder` → `json`, `JSON encoder and decoder`), so the module or API name is a
///   node of its own; `PEP 389: Argparse …` splits at the colon the same way;
/// - a question (`How do I …?`, or one starting with how, what, why, when, where, which, who,
///   can, is, are, do, does, should) is no node: its stem would seed every "how do I" query;
/// - a part longer than [`MAX_DOCS_HEADING_WORDS`] words is no node either (whole heading paths
///   and long titles made mega-phrases nothing links to).
///
/// The heading's inner phrases (identifiers, names, noun phrases) are found by the sentence
/// rules whatever this returns.
pub fn docs_heading_phrases(heading: &str) -> Vec<String> {
    const QUESTION_WORDS: &[&str] = &[
        "how", "what", "why", "when", "where", "which", "who", "can", "is", "are", "do", "does",
        "should",
    ];
    let h = heading.trim();
    // A leading section number: "7.2.2. ", "1. ", "A.1 ".
    let h = match h.split_once(' ') {
        Some((first, rest))
            if first.chars().any(|c| c.is_ascii_digit())
                && first
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c.is_ascii_uppercase())
                && first.len() <= 12 =>
        {
            rest.trim_start()
        }
        _ => h,
    };
    h.split([' ', '\u{a0}'])
        .collect::<Vec<_>>()
        .join(" ")
        .replace(": ", " — ")
        .split(" — ")
        .map(|part| collapse_ws(part.trim()))
        .filter(|part| {
            let words: Vec<&str> = part.unicode_words().collect();
            let first = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
            !words.is_empty()
                && words.len() <= MAX_DOCS_HEADING_WORDS
                && !part.ends_with('?')
                && !QUESTION_WORDS.contains(&first.as_str())
                && !normalize_phrase(part).is_empty()
        })
        .collect()
}

/// The topic phrase of a title: trimmed, without a trailing parenthetical or a leading article.
fn title_phrase(title: &str) -> Option<String> {
    let mut t = title.trim();
    if t.ends_with(')') {
        if let Some(k) = t.rfind('(') {
            if k > 0 {
                t = t[..k].trim_end();
            }
        }
    }
    for article in ["The ", "A ", "An "] {
        if let Some(rest) = t.strip_prefix(article) {
            if !rest.trim().is_empty() {
                t = rest.trim_start();
            }
            break;
        }
    }
    let t = collapse_ws(t);
    (!normalize_phrase(&t).is_empty()).then_some(t)
}

/// The byte offset after the first personal or possessive pronoun that precedes byte `limit`
/// (the sentence's first phrase), if any: "Currently, he is …" → after "he".
fn pronoun_before(sentence: &str, limit: usize) -> Option<usize> {
    const PRONOUNS: &[&str] = &["he", "she", "it", "they", "his", "her", "its", "their"];
    sentence
        .split_word_bound_indices()
        .take_while(|(off, _)| *off < limit)
        .find(|(_, w)| PRONOUNS.contains(&w.to_lowercase().as_str()))
        .map(|(off, w)| off + w.len())
}

fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// True for a function word of `language` ([`crate::bm25::stopwords`]: NLTK's list).
fn is_stopword(language: Language, lower: &str) -> bool {
    static SETS: [std::sync::OnceLock<HashSet<String>>; Language::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Language::ALL.len()];
    SETS[language.ordinal()]
        .get_or_init(|| crate::bm25::stopwords(language))
        .contains(lower)
}

/// True when only a single space, a hyphen, an apostrophe, or an initial's period (plus a
/// space) separates words `a` and `b`.
fn joinable_gap(toks: &[Tok<'_>], a: usize, b: usize) -> bool {
    let gap: String = toks[a + 1..b].iter().map(|t| t.text).collect();
    match gap.as_str() {
        " " | "-" | "–" | "'" | "’" => true,
        ". " | "." => {
            toks[a].text.chars().filter(|c| c.is_alphabetic()).count() <= 2
                && toks[a].text.chars().any(char::is_uppercase)
        }
        _ => false,
    }
}

fn only_space_between(toks: &[Tok<'_>], a: usize, b: usize) -> bool {
    toks[a + 1..b].iter().all(|t| t.kind == Kind::Space) && b == a + 2
}

fn is_month(w: &str) -> bool {
    matches!(
        w,
        "January"
            | "February"
            | "March"
            | "April"
            | "May"
            | "June"
            | "July"
            | "August"
            | "September"
            | "October"
            | "November"
            | "December"
    )
}

fn is_day(w: &str) -> bool {
    let w = w
        .strip_suffix("st")
        .or_else(|| w.strip_suffix("nd"))
        .or_else(|| w.strip_suffix("rd"))
        .or_else(|| w.strip_suffix("th"))
        .unwrap_or(w);
    w.len() <= 2 && w.parse::<u8>().is_ok_and(|d| (1..=31).contains(&d))
}

fn is_year(w: &str) -> bool {
    w.len() == 4 && w.chars().all(|c| c.is_ascii_digit())
}

/// Lowercase content words that end a noun phrase: likely participles and adverbs (by
/// suffix), common verbs of encyclopedic prose, and quantifiers and number words.
fn breaks_noun_phrase(w: &str) -> bool {
    const VERBS: &[&str] = &[
        "became", "become", "becomes", "began", "born", "called", "can", "came", "died", "found",
        "gave", "get", "got", "had", "has", "have", "held", "include", "includes", "known", "led",
        "made", "make", "makes", "may", "might", "must", "named", "said", "says", "seen", "shall",
        "took", "used", "uses", "use", "want", "went", "won", "wrote", "written", "also",
        "however", "although", "though", "whose", "within", "without", "among", "along", "across",
        "around", "upon", "since", "would", "could", "should", "many", "much", "several", "one",
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    w.ends_with("ly") || w.ends_with("ed") || w.ends_with("ing") || VERBS.contains(&w)
}

/// Byte ranges of code identifiers in a sentence: back-quoted spans and code-shaped words.
fn code_identifiers(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Back-quoted spans.
    let mut rest = 0;
    while let Some(a) = s[rest..].find('`').map(|k| rest + k) {
        let Some(b) = s[a + 1..].find('`').map(|k| a + 1 + k) else {
            break;
        };
        let inner = &s[a + 1..b];
        if !inner.trim().is_empty() && inner.chars().count() <= 60 {
            let lead = inner.len() - inner.trim_start().len();
            out.push((a + 1 + lead, a + 1 + lead + inner.trim().len()));
        }
        rest = b + 1;
    }
    // Code-shaped words between whitespace.
    let mut pos = 0;
    for chunk in s.split_inclusive(char::is_whitespace) {
        let word = chunk.trim_end();
        let start = pos;
        pos += chunk.len();
        if word.contains('`') {
            continue;
        }
        let lead = word.len()
            - word
                .trim_start_matches(['(', '[', '{', '"', '\'', '“', '‘', '<'])
                .len();
        let mut w = word[lead..].trim_end_matches(['"', '\'', '”', '’', ',', ';', ':', '!', '?']);
        w = w.strip_suffix('.').unwrap_or(w);
        // `name(args)` → `name`; `name()` → `name`.
        match w.find('(') {
            Some(k) if k > 0 && w.ends_with(')') => w = &w[..k],
            Some(_) => continue,
            None => w = w.trim_end_matches([')', ']', '}', '>']),
        }
        w = w.strip_suffix('.').unwrap_or(w);
        if looks_like_code(w) {
            let a = start + lead;
            out.push((a, a + w.len()));
        }
    }
    out.sort_unstable();
    out
}

/// The identifiers of one line of a code block (`hipporag site`: a `<pre>` line), in order,
/// without repeats: what a docs question about the code can name.
///
/// A doctest or shell prompt (`>>> `, `... `, `$ `) is skipped, and so are string literals and
/// `#` comments. Kept: dotted names (`os.path.join`, `json.dumps`; not `self.…`/`cls.…`),
/// names called (`sorted(`, at least three characters, not a keyword), names defined (`def`,
/// `class`), modules imported (`import a, b`, `from a import b`) and keyword arguments
/// (`sort_keys=` inside a call's parentheses). Other words (variables,
/// literals, keywords) are left out: a code block's prose-shaped words are no phrases.
pub fn code_block_identifiers(line: &str) -> Vec<String> {
    const KEYWORDS: &[&str] = &[
        "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
        "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
        "yield", "True", "False", "None",
    ];
    let mut line = line.trim_start();
    for prompt in [">>> ", "... ", "$ "] {
        if let Some(rest) = line.strip_prefix(prompt) {
            line = rest;
            break;
        }
    }
    let cs: Vec<(usize, char)> = line.char_indices().collect();
    let is_start = |c: char| c.is_alphabetic() || c == '_';
    let is_part = |c: char| c.is_alphanumeric() || c == '_';
    let mut out: Vec<String> = Vec::new();
    let keep = |ident: &str, out: &mut Vec<String>| {
        if ident.chars().count() <= 60 && !out.iter().any(|o| o == ident) {
            out.push(ident.to_string());
        }
    };
    // The keyword right before the current name, and whether an import statement is running.
    let mut prev: Option<&str> = None;
    let mut importing = false;
    let mut first_name = true;
    let mut depth = 0usize;
    let mut i = 0;
    while i < cs.len() {
        let (at, c) = cs[i];
        if c == '#' {
            break;
        }
        if c == '\'' || c == '"' {
            // A string literal: skip to the same quote, past escapes.
            i += 1;
            while i < cs.len() && cs[i].1 != c {
                i += if cs[i].1 == '\\' { 2 } else { 1 };
            }
            i += 1;
            prev = None;
            continue;
        }
        if c.is_ascii_digit() {
            // A number (with its fraction or suffix), not a name.
            while i < cs.len() && (is_part(cs[i].1) || cs[i].1 == '.') {
                i += 1;
            }
            prev = None;
            continue;
        }
        if !is_start(c) {
            match c {
                ';' => {
                    importing = false;
                    first_name = true;
                }
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if !c.is_whitespace() && c != ',' && c != '(' {
                prev = None;
            }
            i += 1;
            continue;
        }
        // A name, dotted: part(.part)*.
        let mut j = i;
        loop {
            while j < cs.len() && is_part(cs[j].1) {
                j += 1;
            }
            if j + 1 < cs.len() && cs[j].1 == '.' && is_start(cs[j + 1].1) {
                j += 1;
                continue;
            }
            break;
        }
        let end = cs.get(j).map_or(line.len(), |&(k, _)| k);
        let name = &line[at..end];
        let mut after = cs[j..]
            .iter()
            .map(|&(_, c)| c)
            .filter(|c| !c.is_whitespace());
        let (next, next2) = (after.next(), after.next());
        i = j;
        let statement_start = std::mem::replace(&mut first_name, false);
        if KEYWORDS.contains(&name) {
            if name == "import" || (name == "from" && statement_start) {
                importing = true;
            }
            prev = Some(name);
            continue;
        }
        let first = name.split('.').next().unwrap_or(name);
        let defined = matches!(prev, Some("def" | "class"));
        let imported = importing && prev != Some("as");
        let dotted = name.contains('.') && first != "self" && first != "cls";
        let called = next == Some('(') && name.chars().count() >= 3;
        let keyword_argument = depth > 0 && next == Some('=') && next2 != Some('=');
        if defined || imported || dotted || called || keyword_argument {
            keep(name, &mut out);
        }
        prev = None;
    }
    out
}

fn looks_like_code(w: &str) -> bool {
    if w.chars().count() < 3
        || w.starts_with("http://")
        || w.starts_with("https://")
        || !w.chars().any(char::is_alphabetic)
    {
        return false;
    }
    let ident = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '/' | '-');
    if !w.chars().all(ident) {
        return false;
    }
    if w.starts_with("--") {
        return w.len() > 3;
    }
    if w.contains("::") || (w.contains('_') && !w.starts_with('_') || w.starts_with("__")) {
        return true;
    }
    // camelCase: a lowercase letter directly followed by an uppercase one.
    let cs: Vec<char> = w.chars().collect();
    if cs
        .windows(2)
        .any(|p| p[0].is_lowercase() && p[1].is_uppercase())
        && !w.contains('.')
    {
        return cs.iter().all(|c| c.is_alphanumeric());
    }
    // Dotted names (file.ext, a.b.c) and paths (dir/file.rs): parts of 2+ characters, one of
    // 3+, starting with a letter, ending with a letter — not initials ("U.S") or numbers.
    if w.contains('.') || w.contains('/') {
        if w.contains("..") || w.contains("//") || w.contains(' ') {
            return false;
        }
        let parts: Vec<&str> = w.split(['.', '/']).filter(|p| !p.is_empty()).collect();
        let dotted = w.contains('.');
        return parts.len() >= 2
            && parts.iter().all(|p| p.chars().count() >= 2)
            && parts.iter().any(|p| p.chars().count() >= 3)
            && parts[0].starts_with(|c: char| c.is_alphabetic() || c == '_')
            && parts[parts.len() - 1].chars().any(char::is_alphabetic)
            && (dotted || w.contains(['_', '-']) || w.starts_with('/'));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(title: &str, text: &str) -> Passage {
        Passage::new(title, text)
    }

    fn phrases(doc: &OpenIeDoc) -> Vec<&str> {
        doc.extracted_entities.iter().map(String::as_str).collect()
    }

    #[test]
    fn names_dates_numbers_and_initials() {
        let ex = RuleExtractor::default();
        let d = ex.extract(
            &passage(
                "Journal of Mathematical Physics",
                "The Journal of Mathematical Physics is a peer-reviewed journal published monthly by the American Institute of Physics. The journal was first published bimonthly beginning in January 1960; it became a monthly publication in 1963. The current editor is Jan Philip Solovej from University of Copenhagen. Its 2018 Impact Factor is 1.355",
            ),
            &[],
        );
        let p = phrases(&d);
        for want in [
            "Journal of Mathematical Physics",
            "American Institute of Physics",
            "January 1960",
            "1963",
            "Jan Philip Solovej",
            "University of Copenhagen",
            "1.355",
        ] {
            assert!(p.contains(&want), "{want} missing from {p:?}");
        }
        assert!(!p.contains(&"The journal"), "{p:?}");
        assert!(
            d.extracted_triples.contains(&[
                "Journal of Mathematical Physics".into(),
                "published monthly by the".into(),
                "American Institute of Physics".into()
            ]) || d
                .extracted_triples
                .iter()
                .any(|t| t[0] == "Journal of Mathematical Physics"
                    && t[2] == "American Institute of Physics"),
            "{:?}",
            d.extracted_triples
        );
        let d = ex.extract(
            &passage(
                "Thomas C. Südhof",
                "Introduction\nThomas Christian Sudhof (born December 22, 1955) is a German-American biochemist. He is a professor at Stanford University.",
            ),
            &[],
        );
        let p = phrases(&d);
        assert!(p.contains(&"Thomas C. Südhof"), "{p:?}");
        assert!(p.contains(&"December 22, 1955"), "{p:?}");
        assert!(p.contains(&"Stanford University"), "{p:?}");
        assert!(p.contains(&"German-American"), "{p:?}");
        // The implicit topic: "he is a professor at" → the title.
        assert!(
            d.extracted_triples
                .iter()
                .any(|t| t[0] == "Thomas C. Südhof"
                    && t[1] == "is a professor at"
                    && t[2] == "Stanford University"),
            "{:?}",
            d.extracted_triples
        );
    }

    #[test]
    fn corpus_statistics_drop_sentence_initial_common_words() {
        let corpus = vec![
            passage(
                "A",
                "It is currently open. Work is currently done. The introduction is short.",
            ),
            passage(
                "B",
                "Introduction\nCurrently, Stanford is large. They went to Stanford.",
            ),
        ];
        let plain = RuleExtractor::default().extract(&corpus[1], &[]);
        assert!(phrases(&plain).contains(&"Currently"));
        let ex = RuleExtractor::for_corpus(&corpus, RuleOptions::default());
        let p = ex.extract(&corpus[1], &[]);
        let p = phrases(&p);
        assert!(
            !p.contains(&"Currently") && !p.contains(&"Introduction"),
            "{p:?}"
        );
        assert!(p.contains(&"Stanford"), "{p:?}");
    }

    /// A passage's document changes with the corpus only when what it reads of the corpus
    /// statistics does.
    #[test]
    fn statistics_read_tells_when_a_document_may_change() {
        let a = passage("A", "It is currently open. The introduction is short.");
        let b = passage("B", "Introduction\nCurrently, Stanford is large.");
        let c = passage("C", "Rivers run to the sea. The sea is large.");
        let both = RuleExtractor::for_corpus(&[a.clone(), b.clone()], RuleOptions::default());
        let texts = [b.title.as_str(), b.text.as_str()];
        assert_eq!(
            both.statistics_read(&texts),
            ["lower:currently", "lower:introduction"]
        );
        // Another passage that shares none of B's capitalised words: the same list, the same
        // document.
        let more = RuleExtractor::for_corpus(&[a, b.clone(), c.clone()], RuleOptions::default());
        assert_eq!(more.statistics_read(&texts), both.statistics_read(&texts));
        assert_eq!(more.extract(&b, &[]), both.extract(&b, &[]));
        // Without the passage that writes "currently" in lower case: another list and another
        // document ("Currently" is a phrase again).
        let fewer = RuleExtractor::for_corpus(&[b.clone(), c], RuleOptions::default());
        assert_ne!(fewer.statistics_read(&texts), both.statistics_read(&texts));
        assert_ne!(fewer.extract(&b, &[]), both.extract(&b, &[]));
    }

    /// Lines of the first code block of Python 3.11's library/json.html (python3.11-doc).
    #[test]
    fn code_block_lines_give_identifiers_only() {
        let cases: &[(&str, &[&str])] = &[
            (">>> import json", &["json"]),
            (
                ">>> json.dumps(['foo', {'bar': ('baz', None, 1.0, 2)}])",
                &["json.dumps"],
            ),
            ("'[\"foo\", {\"bar\": [\"baz\", null, 1.0, 2]}]'", &[]),
            (
                ">>> print(json.dumps(\"\\\"foo\\bar\"))",
                &["print", "json.dumps"],
            ),
            (
                ">>> print(json.dumps({\"c\": 0, \"b\": 0, \"a\": 0}, sort_keys=True))",
                &["print", "json.dumps", "sort_keys"],
            ),
            ("{\"a\": 0, \"b\": 0, \"c\": 0}", &[]),
            (">>> from io import StringIO", &["io", "StringIO"]),
            (">>> io = StringIO()", &["StringIO"]),
            (">>> json.dump(['streaming API'], io)", &["json.dump"]),
            (">>> io.getvalue()", &["io.getvalue"]),
            // From library/os.path.html and tutorial/classes.html.
            ("def scope_test():", &["scope_test"]),
            ("        self.data = []  # a list.append(x) comment", &[]),
            ("class MyClass:", &["MyClass"]),
            ("import os, sys as system", &["os", "sys"]),
            (
                "if x == 1 and len(s) > 2: raise ValueError from exc",
                &["len"],
            ),
        ];
        for (line, want) in cases {
            assert_eq!(code_block_identifiers(line), *want, "{line}");
        }
    }

    #[test]
    fn code_lines_are_read_as_code_not_prose() {
        let p = passage(
            "json — JSON encoder and decoder › Basic Usage",
            "Encoding basic Python object hierarchies:\n>>> import json\n>>> print(json.dumps({\"c\": 0}, sort_keys=True))\n{\"Make Sure\": 0}",
        );
        let ex = RuleExtractor::new(RuleOptions {
            docs_headings: true,
            ..Default::default()
        });
        let as_code = ex.extract_with_code(&p, &["Basic Usage"], &[1, 2, 3]);
        let got = phrases(&as_code);
        for want in ["json", "json.dumps", "sort_keys", "print"] {
            assert!(got.contains(&want), "{want} missing from {got:?}");
        }
        // The string literal's capitalised words are no name when the line is code.
        assert!(!got.contains(&"Make Sure"), "{got:?}");
        let as_prose = ex.extract(&p, &["Basic Usage"]);
        assert!(phrases(&as_prose).contains(&"Make Sure"));
        // Every code identifier hangs off the page's topic.
        assert!(
            as_code
                .extracted_triples
                .iter()
                .any(|t| t[0] == "json" && t[2] == "sort_keys")
        );
    }

    #[test]
    fn code_identifiers_and_headings() {
        let ex = RuleExtractor::default();
        let d = ex.extract(
            &passage(
                "CLI reference",
                "Run `hipporag index` with --corpus and --out. It calls read_corpus() then build_index, see src/graph.rs and Retriever::from_bytes or fromBytes in hipporag.js. U.S. spelling, e.g. colour.",
            ),
            &["Commands", "index"],
        );
        let p = phrases(&d);
        for want in [
            "CLI reference",
            "Commands",
            "index",
            "hipporag index",
            "--corpus",
            "--out",
            "read_corpus",
            "build_index",
            "src/graph.rs",
            "Retriever::from_bytes",
            "fromBytes",
            "hipporag.js",
        ] {
            assert!(p.contains(&want), "{want} missing from {p:?}");
        }
        assert!(!p.iter().any(|x| x.starts_with("e.g")), "{p:?}");
        assert!(d.extracted_triples.contains(&[
            "CLI reference".into(),
            SECTION_RELATION.into(),
            "Commands".into()
        ]));
        assert!(d.extracted_triples.contains(&[
            "Commands".into(),
            SECTION_RELATION.into(),
            "index".into()
        ]));
    }

    #[test]
    fn sentences_survive_initials_and_abbreviations() {
        let s: Vec<&str> = sentences("Dr. J. R. Smith met C.M. Ziehrer. Then he left.\nNew line")
            .into_iter()
            .map(|(_, s)| s.trim())
            .collect();
        assert_eq!(
            s,
            vec![
                "Dr. J. R. Smith met C.M. Ziehrer.",
                "Then he left.",
                "New line"
            ]
        );
    }

    #[test]
    fn deterministic_and_never_empty_keys() {
        let ex = RuleExtractor::default();
        let p = passage("", "-- ... !!! 12");
        let d = ex.extract(&p, &[]);
        assert!(d.extracted_triples.is_empty());
        assert_eq!(d.passage, "\n-- ... !!! 12");
        let q = passage("Москва", "Москва — столица России. Tokyo is in Japan.");
        assert_eq!(ex.extract(&q, &[]), ex.extract(&q, &[]));
        for t in ex.extract(&q, &[]).extracted_triples {
            assert!(!normalize_phrase(&t[0]).is_empty() && !normalize_phrase(&t[2]).is_empty());
        }
    }

    /// Headings of Python 3.11's HTML docs (python3.11-doc): library/json.html,
    /// tutorial/inputoutput.html, faq/library.html, whatsnew/3.2.html.
    #[test]
    fn docs_headings_give_names_not_questions_or_numbers() {
        let cases: &[(&str, &[&str])] = &[
            (
                "json — JSON encoder and decoder",
                &["json", "JSON encoder and decoder"],
            ),
            (
                "os.path — Common pathname manipulations",
                &["os.path", "Common pathname manipulations"],
            ),
            (
                "7.2.2. Saving structured data with json",
                &["Saving structured data with json"],
            ),
            ("7. Input and Output", &["Input and Output"]),
            (
                "How do I find a module or application to perform task X?",
                &[],
            ),
            (
                "Where is the math.py (socket.py, regex.py, etc.) source file?",
                &[],
            ),
            ("Is there a curses/termcap package for Python?", &[]),
            (
                "PEP 389: Argparse Command Line Parsing Module",
                &["PEP 389", "Argparse Command Line Parsing Module"],
            ),
            (
                "PEP 391:  Dictionary Based Configuration for Logging",
                &["PEP 391", "Dictionary Based Configuration for Logging"],
            ),
            (
                "What\u{2019}s New In Python 3.2",
                &["What\u{2019}s New In Python 3.2"],
            ),
        ];
        for (h, want) in cases {
            assert_eq!(docs_heading_phrases(h), *want, "{h}");
        }
    }

    /// A passage of library/json.html as `hipporag site` reads it: the topic is the module's
    /// name, not the heading path, and no node spells the whole path.
    #[test]
    fn a_docs_passage_topic_is_the_page_name() {
        let ex = RuleExtractor::new(RuleOptions {
            docs_headings: true,
            ..Default::default()
        });
        let p = Passage::new(
            "json — JSON encoder and decoder › Command Line Interface › Command line options",
            "infile\nThe JSON file to be validated or pretty-printed: python -m json.tool mp_films.json",
        );
        let doc = ex.extract(&p, &["Command Line Interface", "Command line options"]);
        let e = &doc.extracted_entities;
        assert_eq!(e[0], "json", "{e:?}");
        assert!(
            e.iter().all(|x| !x.contains('›') && !x.contains(" — ")),
            "{e:?}"
        );
        assert!(e.contains(&"json.tool".to_string()), "{e:?}");
        assert!(e.contains(&"Command Line Interface".to_string()), "{e:?}");
        assert!(
            doc.extracted_triples
                .iter()
                .any(|t| t == &["json", SECTION_RELATION, "Command Line Interface"]),
            "{:?}",
            doc.extracted_triples
        );
    }
}
