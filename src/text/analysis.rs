//! Text analysis: the terms BM25 indexes and searches. One function serves the indexer and the
//! query side, so both make the same terms.
//!
//! [`terms`] takes the words of a text by Unicode's word boundaries (UAX #29, the
//! `unicode-segmentation` crate: `os.path.join`, `snake_case` and `don't` are one word each),
//! lowercases them, and emits for each word:
//! * an identifier (a word holding `.` or `_`): the whole, then every part between the
//!   separators, stemmed (`os.path.join` → `os.path.join`, `os`,
//!   `path`, `join`), so a query can name either;
//! * any other word: its stem by the Snowball stemmer of the [`Language`] (`rust-stemmers`'
//!   eighteen, Porter 2 for English; for the thirteen languages it lacks, Snowball 3.0's by
//!   `pagefind_stem`), and a Cyrillic word's by Russian's in an index of any language but
//!   Serbian (whose stemmer reads its Cyrillic) and the generic one, which stems nothing;
//! * each of those with the accents of its Latin letters folded ([`fold_latin_accents`]:
//!   "café" and "cafe" are one term), before `rust-stemmers`' stemmers, in Pagefind's order,
//!   and after the newer ones, whose suffixes hold accents;
//! * a run of the scripts written without spaces between words (Han, kana, Hangul, Thai, Lao,
//!   Khmer, Burmese; UAX #29 makes each Han character, kana or grapheme cluster a word):
//!   every unit and every overlapping pair, as Lucene's `CJKBigramFilter` with its unigrams
//!   kept, and a Katakana word or Korean eojeol of three characters or more whole too. Bigrams
//!   stand in for words without a segmentation dictionary, which the browser would have to
//!   download; the single units keep one-character words and names findable. Every index
//!   reads these scripts so, whatever its language: a Japanese or Thai passage in an English
//!   index gets the terms it would get in a Japanese or Thai one.
//!
//! Stopwords are not removed here: the indexer leaves them out of the dictionary
//! ([`crate::lexical::Bm25Data::build`]), so a query stopword finds no posting list and the
//! browser needs no stopword list. The choice of identifiers-plus-parts and of stemming was made
//! on the CoNaLa `dev` split of Python's docs (docs/tuning.md, "Hybrid ranking").

use rust_stemmers::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

use super::language::{Language, Reading, Snowball, stemmer};
use super::script::{is_any_unit, is_cyrillic, is_japanese_unit, is_korean_unit};
use super::{fold_latin_accents, nfc};

/// True for the separators inside an identifier.
fn is_identifier_separator(c: char) -> bool {
    c == '.' || c == '_'
}

/// The BM25 terms of `text` in `language`, in text order (repeats kept; see the module docs).
/// No term holds a control character (Unicode `Cc`): one beginning with U+0001 would take the
/// deletes dictionary's key space ([`crate::lexical::DELETES_KEY_PREFIX`]).
///
/// ```
/// use hipporag_wasm::text::{terms, Language};
/// assert_eq!(
///     terms("Sorting lists with os.path.join()", Language::English),
///     ["sort", "list", "with", "os.path.join", "os", "path", "join"]
/// );
/// assert_eq!(terms("Москвы и Москве", Language::Russian), ["москв", "и", "москв"]);
/// assert_eq!(terms("北京大学", Language::Chinese), ["北", "北京", "京", "京大", "大", "大学", "学"]);
/// ```
pub fn terms(text: &str, language: Language) -> Vec<String> {
    let reading = language.reading();
    let (own, own_script) = match reading {
        Reading::Stemmed(a) => (stemmer(a), None),
        Reading::OwnScript(a, script) => (stemmer(a), Some(script)),
        Reading::Pairs | Reading::Plain | Reading::WordPairs => (None, None),
    };
    // Latin words of a language with a script of its own are read as English.
    let english = match reading {
        Reading::OwnScript(..) | Reading::Pairs => stemmer(Snowball::Classic(Algorithm::English)),
        Reading::Stemmed(_) | Reading::Plain | Reading::WordPairs => None,
    };
    // Accents folded, so that two spellings that differ only in them meet in one term: before
    // rust-stemmers' stemmers (Pagefind's order), after the newer ones, whose suffixes hold
    // accents (Polish "kotów" → "kot").
    // Cyrillic words of an index in another script are read as a Russian index reads them
    // (Serbian's stemmer reads its own Cyrillic; the generic reading stems nothing).
    let cyrillic = language != Language::Russian && language.stems_cyrillic_as_russian();
    let russian = |w: &str| {
        (cyrillic && w.chars().any(is_cyrillic))
            .then(|| stemmer(Snowball::Classic(Algorithm::Russian)))
            .flatten()
    };
    let stem = |w: &str| -> String {
        let by_russian = russian(w);
        let by = match own_script {
            _ if by_russian.is_some() => by_russian.as_ref(),
            Some(script) if !w.chars().any(script) => english.as_ref(),
            _ => own.as_ref().or(english.as_ref()),
        };
        match by {
            Some(s) if s.folds_first() => s.stem(&fold_latin_accents(w)).into_owned(),
            Some(s) => fold_latin_accents(&s.stem(w)).into_owned(),
            None => fold_latin_accents(w).into_owned(),
        }
    };
    let spans = word_spans(text);
    let word_pairs = matches!(reading, Reading::WordPairs);
    // The last plain word's end and term, while a pair may start there (WordPairs).
    let mut pair_start: Option<(usize, String)> = None;
    let mut out = Vec::new();
    for (k, span) in spans.iter().enumerate() {
        let word = &text[span.start..span.end];
        let last_word = pair_start.take();
        if let WordKind::Unit {
            pairs_with_next,
            whole_end,
        } = span.kind
        {
            // The whole word that begins here, the unit, then the pair it starts.
            if let Some(end) = whole_end {
                out.push(unit_term(&text[span.start..end]));
            }
            out.push(unit_term(word));
            if pairs_with_next {
                out.push(unit_term(&text[span.start..spans[k + 1].end]));
            }
            continue;
        }
        let word = without_controls(word.to_lowercase());
        let parts: Vec<&str> = word
            .split(is_identifier_separator)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() > 1 || (parts.len() == 1 && word.len() > parts[0].len()) {
            out.push(fold_latin_accents(&word).into_owned());
            out.extend(parts.iter().map(|p| stem(p)));
        } else if let Some(p) = parts.first() {
            // (A Cyrillic word is stemmed as Russian in this index too, and pairs with nothing.)
            if !word_pairs || p.chars().any(is_cyrillic) {
                out.push(stem(p));
                continue;
            }
            // A syllable keeps its marks (its tone: "ba", "bà", "bá" and "bả" are four words),
            // in one normal form; a pair folds them, so that a question typed without them
            // finds its words by their pairs.
            let term = nfc(p).into_owned();
            out.push(term.clone());
            if let Some((end, first)) = last_word
                && is_pair_gap(&text[end..span.start])
            {
                out.push(fold_latin_accents(&format!("{first} {term}")).into_owned());
            }
            pair_start = Some((span.end, term));
        }
    }
    out
}

/// Whether two words with `gap` between them make a pair of [`Reading::WordPairs`]: the gap
/// is spaces (or tabs, or no-break spaces) only, no line break or punctuation.
fn is_pair_gap(gap: &str) -> bool {
    !gap.is_empty()
        && gap
            .chars()
            .all(|c| c.is_whitespace() && c != '\n' && c != '\r')
}

/// One word of a text as [`terms`] reads it, with its place in the text (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordSpan {
    /// Its first byte.
    pub start: usize,
    /// The byte after its last.
    pub end: usize,
    /// How [`terms`] reads it.
    pub kind: WordKind,
}

/// How [`terms`] reads a [`WordSpan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordKind {
    /// A word by Unicode's word boundaries (UAX #29): its stem, or an identifier whole and in
    /// its parts.
    Word,
    /// One unit of a run that a language read in units and pairs cuts (a Han character, a
    /// kana, a Hangul syllable, a Thai, Lao, Khmer or Burmese grapheme cluster): the unit's
    /// term ([`unit_term`]), and the pair's when `pairs_with_next` (the next span is the next
    /// unit of the same run). When the unit begins a word of [`WHOLE_WORD_UNITS`] units or more
    /// that UAX #29 keeps whole (a Katakana word, a Korean eojeol), that word is a term too,
    /// and it ends at byte `whole_end`.
    Unit {
        /// Whether the next span is the next unit of the same run.
        pairs_with_next: bool,
        /// The end of the whole word that begins with this unit, if it is a term.
        whole_end: Option<usize>,
    },
}

/// The words of `text`, in text order, as [`terms`] reads them in any language: UAX #29's
/// words, and each unit of a run of the scripts written without spaces between words (Han,
/// kana, Hangul, Thai, Lao, Khmer, Burmese) on its own, so that a Japanese or Thai passage in
/// an English index is read as a Japanese or Thai index reads it (docs/languages.md). A
/// search result's excerpt marks these ([`crate::search::excerpt`]).
///
/// ```
/// use hipporag_wasm::text::{word_spans, WordKind};
/// let spans = word_spans("Python 言語");
/// assert_eq!(spans.iter().map(|s| (s.start, s.end)).collect::<Vec<_>>(), [(0, 6), (7, 10), (10, 13)]);
/// assert_eq!(spans[0].kind, WordKind::Word);
/// assert_eq!(spans[1].kind, WordKind::Unit { pairs_with_next: true, whole_end: None });
/// ```
pub fn word_spans(text: &str) -> Vec<WordSpan> {
    let mut out: Vec<WordSpan> = Vec::new();
    for (offset, word) in text.unicode_word_indices() {
        if !is_any_unit(word) {
            out.push(WordSpan {
                start: offset,
                end: offset + word.len(),
                kind: WordKind::Word,
            });
            continue;
        }
        // UAX #29 gives each unit, or each Katakana word or eojeol, its own word: a run goes on
        // where the last unit ends.
        if let Some(WordSpan {
            end,
            kind: WordKind::Unit {
                pairs_with_next, ..
            },
            ..
        }) = out.last_mut()
        {
            *pairs_with_next = *end == offset;
        }
        push_units(&mut out, offset, word);
    }
    out
}

/// The term of a unit, of a pair of units or of a whole word of units: lowercased (fullwidth
/// Latin inside a run stays as it is), without control characters.
pub fn unit_term(text: &str) -> String {
    without_controls(text.to_lowercase())
}

/// `word` without its control characters (Unicode `Cc`). UAX #29 keeps one at the start of a
/// word when combining marks follow it (`"\u{1}\u{365}"`), and a term beginning with U+0001
/// would take the deletes dictionary's key space ([`crate::lexical::DELETES_KEY_PREFIX`]).
fn without_controls(mut word: String) -> String {
    if word.contains(char::is_control) {
        word.retain(|c| !c.is_control());
    }
    word
}

/// The key under which the inflected forms of a normalised phrase
/// ([`crate::text::normalize_phrase`]) meet: each Cyrillic token stemmed by Snowball's
/// Russian stemmer ("персонализированного алгоритма" and "персонализированный алгоритм" →
/// "персонализирова алгоритм"). `None` for a language whose phrase nodes are their normalised
/// text (English; Chinese, which does not inflect).
/// The indexer merges phrases with one key into one node, and the query side looks a span's
/// key up ([`crate::index::Index::phrase_id_inflected`]).
pub fn phrase_stem_key(normalized: &str, language: Language) -> Option<String> {
    if language != Language::Russian {
        return None;
    }
    let stemmer = Stemmer::create(Algorithm::Russian);
    let stems: Vec<String> = normalized
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t.chars().any(is_cyrillic) {
                stemmer.stem(&compose_cyrillic(t)).into_owned()
            } else {
                t.to_string()
            }
        })
        .collect();
    Some(stems.join(" "))
}

/// Recomposes the Cyrillic letters that NFKD splits (normalised phrases hold "и" + U+0306
/// for "й", "е" + U+0308 for "ё", and Belarusian "ў", Ukrainian "ї"), as Snowball's Russian
/// stemmer reads composed letters ("новый" ends in "ый").
fn compose_cyrillic(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for c in t.chars() {
        let composed = match (out.chars().last(), c) {
            (Some('и'), '\u{306}') => Some('й'),
            (Some('е'), '\u{308}') => Some('ё'),
            (Some('у'), '\u{306}') => Some('ў'),
            (Some('і'), '\u{308}') => Some('ї'),
            _ => None,
        };
        match composed {
            Some(k) => {
                out.pop();
                out.push(k);
            }
            None => out.push(c),
        }
    }
    out
}

/// The characters of a Japanese or Korean word with their byte offsets, each with the
/// combining marks that follow it (the kana voicing marks U+3099 and U+309A, variation
/// selectors, and the vowel and final jamo of a decomposed Hangul syllable): its grapheme
/// clusters, without the grapheme tables, which a search module would otherwise carry for this
/// alone.
fn characters_with_marks(word: &str) -> Vec<(usize, &str)> {
    let mut out: Vec<(usize, &str)> = Vec::new();
    for (at, c) in word.char_indices() {
        let end = at + c.len_utf8();
        let combining = matches!(c, '\u{3099}' | '\u{309A}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' | '\u{1160}'..='\u{11FF}' | '\u{D7B0}'..='\u{D7FF}');
        match out.last_mut() {
            Some((start, unit)) if combining => *unit = &word[*start..end],
            _ => out.push((at, &word[at..end])),
        }
    }
    out
}

/// Katakana and Hangul words shorter than this many characters are read only in units and
/// pairs.
pub const WHOLE_WORD_UNITS: usize = 3;

/// Appends the units of `word` (a UAX #29 word at byte `offset`) to `out`. A Japanese or
/// Korean word of several characters (UAX #29 keeps a run of Katakana whole, "コンピューター",
/// and a Korean eojeol, "서울에서") is cut into its characters, so that a loanword spelt another
/// way ("コンピュータ"), a word inside a compound or a Korean stem with other particles
/// ("서울은") still shares units and pairs with it, and is kept whole too when it has at least
/// [`WHOLE_WORD_UNITS`] characters (docs/tuning.md, "Katakana words in characters and
/// pairs"). Every other unit is one unit.
fn push_units(out: &mut Vec<WordSpan>, offset: usize, word: &str) {
    if !(is_japanese_unit(word) || is_korean_unit(word)) {
        out.push(WordSpan {
            start: offset,
            end: offset + word.len(),
            kind: WordKind::Unit {
                pairs_with_next: false,
                whole_end: None,
            },
        });
        return;
    }
    let characters = characters_with_marks(word);
    let whole_end = (characters.len() >= WHOLE_WORD_UNITS).then_some(offset + word.len());
    for (k, &(at, text)) in characters.iter().enumerate() {
        out.push(WordSpan {
            start: offset + at,
            end: offset + at + text.len(),
            kind: WordKind::Unit {
                pairs_with_next: k + 1 < characters.len(),
                whole_end: if k == 0 { whole_end } else { None },
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::StemmerBuild;

    #[test]
    fn words_stems_and_identifiers() {
        let t = terms(
            "How do I convert a string to lowercase with str.lower()? Use __init__ and f-strings.",
            Language::English,
        );
        assert_eq!(
            t,
            [
                "how",
                "do",
                "i",
                "convert",
                "a",
                "string",
                "to",
                "lowercas",
                "with",
                "str.lower",
                "str",
                "lower",
                "use",
                "__init__",
                "init",
                "and",
                "f",
                "string"
            ]
        );
        // Accents and case: the same term either way.
        assert_eq!(
            terms("Café", Language::English),
            terms("café", Language::English)
        );
        assert!(terms("  -- ... ", Language::English).is_empty());
    }

    /// A word typed without its accents finds the word with them, in every language with Latin
    /// letters; other scripts keep their marks.
    #[test]
    fn latin_accents_are_folded_before_the_stemmer() {
        for (language, accented, plain) in [
            (Language::English, "café résumé naïve", "cafe resume naive"),
            (Language::French, "économie élèves", "economie eleves"),
            (Language::Spanish, "canción árboles", "cancion arboles"),
            (Language::Portuguese, "São Paulo", "Sao Paulo"),
            (Language::Turkish, "şehir", "sehir"),
            (Language::Other, "Việt Nam", "Viet Nam"),
            (Language::Russian, "Café", "cafe"),
            (Language::English, "cafe\u{301}", "cafe"),
        ] {
            assert_eq!(
                terms(accented, language),
                terms(plain, language),
                "{language:?} {accented}"
            );
        }
        // Letters with a stroke or without their dot, which Unicode does not decompose, fold too.
        assert_eq!(terms("Łódź", Language::Other), ["lodz"]);
        assert_eq!(terms("Işık ışık isik", Language::Other), ["isik"; 3]);
        // Marks that are letters stay: Cyrillic й, Devanagari vowel signs, Greek tonos.
        assert_eq!(terms("йод", Language::Russian), ["йод"]);
        assert_ne!(terms("हिंदी", Language::Other), terms("हद", Language::Other));
        assert_eq!(terms("δρόμος", Language::Other), ["δρόμος"]);
        // Greek's stemmer drops its accents itself.
        assert_eq!(
            terms("δρόμος", Language::Greek),
            terms("δρομος", Language::Greek)
        );
    }

    /// Vietnamese: each syllable a term with its marks, in one normal form; each two syllables
    /// with only spaces between them a pair, folded, so that a question typed without marks
    /// finds the words by their pairs. No pair across punctuation or a line break.
    #[test]
    fn vietnamese_syllables_and_their_pairs() {
        let vi = Language::Vietnamese;
        assert_eq!(
            terms("Học sinh Việt Nam", vi),
            [
                "học",
                "sinh",
                "hoc sinh",
                "việt",
                "sinh viet",
                "nam",
                "viet nam"
            ]
        );
        // Tones keep syllables apart; the decomposed spelling meets the composed one.
        assert_ne!(terms("bà", vi), terms("ba", vi));
        assert_eq!(terms("Vie\u{323}\u{302}t", vi), terms("Việt", vi));
        // Typed without marks: the syllables differ, the pair is the same.
        assert_eq!(terms("viet nam", vi)[2], terms("Việt Nam", vi)[2]);
        // No pair over a comma or a line break.
        assert_eq!(terms("Hà Nội, Huế", vi), ["hà", "nội", "ha noi", "huế"]);
        assert_eq!(terms("Hà\nNội", vi), ["hà", "nội"]);
        // English words in a Vietnamese page: unstemmed, paired as well; Russian ones stemmed
        // as in every index that stems Cyrillic, unpaired.
        assert_eq!(terms("Super Bowl", vi), ["super", "bowl", "super bowl"]);
        assert_eq!(
            terms("Москва Москвы", vi),
            terms("Москва Москвы", Language::English)
        );
        assert_eq!(Language::from_tag("vi-VN"), Some(vi));
        assert_eq!(vi.stemmer_build(), StemmerBuild::Small);
    }

    /// 19 random bytes of a site's page held `"H\u{1}\u{6df}\u{365}"`: UAX #29 makes
    /// `"\u{1}\u{6df}\u{365}"` a word (its marks are alphabetic), whose term then began with
    /// the deletes dictionary's prefix. No control character reaches a term.
    #[test]
    fn no_term_or_static_word_holds_a_control_character() {
        let controls = (0..0x20).chain(0x7f..0xa0).filter_map(char::from_u32);
        for c in controls {
            for text in [
                format!("{c}\u{6df}\u{365}"),
                format!("H{c}\u{365}x"),
                format!("a.{c}\u{301}b_{c}\u{365}"),
            ] {
                for language in Language::ALL {
                    let t = terms(&text, language);
                    assert!(t.iter().all(|t| !t.contains(char::is_control)), "{t:?}");
                }
            }
        }
        assert_eq!(
            terms("H\u{1}\u{6df}\u{365}", Language::English),
            ["h", "\u{6df}\u{365}"]
        );
    }

    /// Each stemmed language by its own Snowball stemmer; a language with a script of its own
    /// reads Latin words as English.
    #[test]
    fn each_language_is_stemmed_by_its_own_stemmer() {
        assert_eq!(
            terms("Häuser und Bäume", Language::German),
            ["haus", "und", "baum"]
        );
        assert_eq!(
            terms("chantaient chanter", Language::French),
            terms("chante chantez", Language::French)
        );
        // Arabic: the definite article and harakat go; a Latin word is read as English.
        let ar = terms("الكتابُ libraries", Language::Arabic);
        assert_eq!(ar[0], terms("كتاب", Language::Arabic)[0]);
        assert_eq!(ar[1], "librari");
        // A word in German is not stemmed as English.
        assert_eq!(terms("running", Language::German), ["running"]);
    }

    /// The thirteen languages Snowball has a stemmer for and `rust-stemmers` lacks are stemmed
    /// by Snowball 3.0's (`pagefind_stem`), and their stems' accents are folded after it.
    #[test]
    fn snowballs_newer_stemmers_read_their_languages() {
        // Polish: "-ów" and "-ami" are suffixes; the accents of the stem are folded after.
        assert_eq!(terms("kotów kotami", Language::Polish), ["kot", "kot"]);
        assert_eq!(
            terms("książki książkami", Language::Polish),
            ["ksiazk", "ksiazk"]
        );
        // Hindi: a Devanagari noun's inflections meet; a Latin word is read as English.
        assert_eq!(
            terms("लड़कों लड़के libraries", Language::Hindi),
            ["लड़क", "लड़क", "librari"]
        );
        // Serbian: Cyrillic and Latin spellings of one word meet.
        assert_eq!(
            terms("књигама knjige", Language::Serbian),
            ["knjig", "knjig"]
        );
        assert_eq!(
            terms("membaca dibaca", Language::Indonesian),
            ["baca", "baca"]
        );
        assert_eq!(
            terms("knygos knygomis", Language::Lithuanian),
            ["knyg", "knyg"]
        );
        for l in Language::ALL {
            let newer =
                (Language::Armenian.ordinal()..=Language::Yiddish.ordinal()).contains(&l.ordinal());
            assert_eq!(l.stemmer_build() == StemmerBuild::Snowball3, newer, "{l:?}");
            if newer {
                assert_eq!(Language::from_tag(l.code()), Some(l));
            }
        }
    }

    /// Thai, Lao, Khmer, Burmese and Japanese have no spaces between words: each run of their
    /// script gives its units (UAX #29's grapheme clusters; Japanese characters) and their pairs.
    #[test]
    fn scripts_without_spaces_give_units_and_pairs() {
        // "ภาษาไทย": UAX #29 keeps a consonant with its vowel and tone marks.
        let th = terms("ภาษาไทย", Language::Thai);
        assert_eq!(th.first().map(String::as_str), Some("ภ"));
        assert!(th.contains(&"ไท".to_string()), "{th:?}");
        assert!(th.iter().all(|t| t.chars().count() <= 4), "{th:?}");
        assert_eq!(
            terms("東京タワーへ", Language::Japanese).join(" "),
            "東 東京 京 京タ タワー タ タワ ワ ワー ー ーへ へ"
        );
        // A Katakana word of two characters is its pair; a loanword spelt two ways still
        // shares its pairs.
        assert_eq!(terms("ビル", Language::Japanese), ["ビ", "ビル", "ル"]);
        let a = terms("コンピューター", Language::Japanese);
        let b = terms("コンピュータ", Language::Japanese);
        assert_eq!(b[0], "コンピュータ");
        assert!(b[1..].iter().all(|t| a.contains(t)), "{a:?} {b:?}");
        // Korean: an eojeol's syllables and pairs, and the eojeol whole from three syllables;
        // the stem of "서울에서" and "서울은" meets in "서울".
        assert_eq!(
            terms("서울에서 서울은", Language::Korean).join(" "),
            "서울에서 서 서울 울 울에 에 에서 서 서울은 서 서울 울 울은 은"
        );
        // A voicing mark written apart stays with its kana.
        assert_eq!(
            terms("カ\u{3099}ム", Language::Japanese),
            ["カ\u{3099}", "カ\u{3099}ム", "ム"]
        );
        // Latin words in a Japanese page are read as English; a space ends a run.
        assert_eq!(
            terms("Python 言語", Language::Japanese),
            ["python", "言", "言語", "語"]
        );
        // Chinese as before: single Han characters and their pairs.
        assert_eq!(
            terms("北京 大学", Language::Chinese),
            ["北", "北京", "京", "大", "大学", "学"]
        );
    }

    /// An index of any language reads a passage in a script without spaces as that script's
    /// own index does: the same units, pairs and whole words, so a Thai, Japanese, Chinese or
    /// Korean passage in an English, German, Russian, Chinese or `und` index keeps its terms.
    #[test]
    fn every_index_reads_scripts_without_spaces_in_units_and_pairs() {
        for (text, own) in [
            ("ภาษาไทย", Language::Thai),
            ("東京タワーへ", Language::Japanese),
            ("北京大学", Language::Chinese),
            ("서울에서 서울은", Language::Korean),
            ("ພາສາລາວ", Language::Lao),
            ("ភាសាខ្មែរ", Language::Khmer),
            ("မြန်မာဘာသာ", Language::Burmese),
        ] {
            let expected = terms(text, own);
            assert!(
                expected.len() > text.split(' ').count(),
                "{own:?}: {expected:?}"
            );
            for index in [
                Language::English,
                Language::German,
                Language::Russian,
                Language::Chinese,
                Language::Japanese,
                Language::Other,
            ] {
                assert_eq!(
                    terms(text, index),
                    expected,
                    "{own:?} text in a {index:?} index"
                );
            }
        }
        // The words around them keep the index's analysis.
        assert_eq!(
            terms("Häuser in 東京", Language::German),
            ["haus", "in", "東", "東京", "京"]
        );
    }

    /// Cyrillic words are read as a Russian index reads them in an index of any language but
    /// Serbian, whose stemmer reads Cyrillic itself, and the generic one, which stems nothing.
    #[test]
    fn every_index_stems_cyrillic_as_russian() {
        let text = "Москвы и Москве";
        let russian = terms(text, Language::Russian);
        assert_eq!(russian, ["москв", "и", "москв"]);
        for index in [
            Language::English,
            Language::German,
            Language::Greek,
            Language::Chinese,
            Language::Thai,
            Language::Polish,
        ] {
            assert_eq!(terms(text, index), russian, "a {index:?} index");
        }
        assert_eq!(terms(text, Language::Other), ["москвы", "и", "москве"]);
        assert_eq!(terms("књигама", Language::Serbian), ["knjig"]);
        // The Latin words beside them keep the index's stemmer.
        assert_eq!(terms("Häuser Москвы", Language::German), ["haus", "москв"]);
    }

    /// A language without an analysis of its own is read with the generic one: words
    /// lowercased, unstemmed.
    #[test]
    fn other_languages_are_read_plainly() {
        assert_eq!(
            terms("Programovací jazyky", Language::Other),
            ["programovaci", "jazyky"]
        );
    }
}
