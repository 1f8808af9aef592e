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
//!   eighteen, Porter 2 for English, Russian's for Cyrillic words in a Russian index; for the
//!   thirteen languages it lacks, Snowball 3.0's by `pagefind_stem`);
//! * each of those with the accents of its Latin letters folded ([`fold_latin_accents`]:
//!   "café" and "cafe" are one term), before `rust-stemmers`' stemmers, in Pagefind's order,
//!   and after the newer ones, whose suffixes hold accents;
//! * in a Chinese index, a run of Han characters (UAX #29 makes each one a word): every
//!   character and every overlapping pair, as Lucene's `CJKBigramFilter` with its unigrams
//!   kept. Bigrams stand in for words without a segmentation dictionary, which the browser
//!   would have to download; the single characters keep one-character words and names
//!   findable.
//!
//! Stopwords are not removed here: the indexer leaves them out of the dictionary
//! ([`crate::lexical::Bm25Data::build`]), so a query stopword finds no posting list and the
//! browser needs no stopword list. The choice of identifiers-plus-parts and of stemming was made
//! on the CoNaLa `dev` split of Python's docs (docs/tuning.md, "Hybrid ranking").

use std::borrow::Cow;

use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

use super::fold_latin_accents;

/// The language of an index's text: it picks the stemmer, how words are cut and which
/// stopwords the indexer leaves out. Recorded in the index ([`crate::index::BuildInfo`]), so
/// the query side analyses a question as the passages were analysed. New languages are added
/// at the end: the index stores a language by its position in [`Language::ALL`].
///
/// Four kinds of analysis (module docs):
/// * stemmed: Snowball's stemmer of the language (`rust-stemmers`, or `pagefind_stem` for the
///   thirteen from [`Language::Armenian`] on); for a language with a script of its own
///   (Russian, Arabic, Greek, Tamil, Armenian, Hindi, Nepali, Yiddish) on the words of that
///   script, with the English one on Latin words;
/// * Chinese: Han characters and their pairs;
/// * the languages written without spaces between words (Japanese, Thai, Lao, Khmer, Burmese),
///   and Korean, whose words carry their particles: each run of their script cut into units
///   (grapheme clusters) and their pairs, a Katakana or Hangul word of three characters or
///   more whole too; Latin words as in English;
/// * [`Language::Other`], any other language: UAX #29 words, lowercased, no stemmer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English: Snowball's English (Porter 2) stemmer on every word.
    #[default]
    English,
    /// Russian: Snowball's Russian stemmer on Cyrillic words, the English one on the others.
    Russian,
    /// Chinese: every run of Han characters gives its characters and their overlapping pairs
    /// (Lucene's CJK bigrams, with the single characters kept: no dictionary on either side);
    /// other words as in English.
    Chinese,
    /// Arabic: Snowball's Arabic stemmer on Arabic words (it drops tatweel and harakat and
    /// unifies the alef and hamza forms), the English one on Latin words.
    Arabic,
    /// Danish: Snowball's Danish stemmer on every word.
    Danish,
    /// Dutch: Snowball's Dutch stemmer on every word.
    Dutch,
    /// Finnish: Snowball's Finnish stemmer on every word.
    Finnish,
    /// French: Snowball's French stemmer on every word.
    French,
    /// German: Snowball's German stemmer on every word (it folds umlauts and ß).
    German,
    /// Greek: Snowball's Greek stemmer on Greek words, the English one on Latin words.
    Greek,
    /// Hungarian: Snowball's Hungarian stemmer on every word.
    Hungarian,
    /// Italian: Snowball's Italian stemmer on every word.
    Italian,
    /// Norwegian (`no`, `nb`, `nn`): Snowball's Norwegian stemmer on every word.
    Norwegian,
    /// Portuguese: Snowball's Portuguese stemmer on every word.
    Portuguese,
    /// Romanian: Snowball's Romanian stemmer on every word.
    Romanian,
    /// Spanish: Snowball's Spanish stemmer on every word.
    Spanish,
    /// Swedish: Snowball's Swedish stemmer on every word.
    Swedish,
    /// Tamil: Snowball's Tamil stemmer on Tamil words, the English one on Latin words.
    Tamil,
    /// Turkish: Snowball's Turkish stemmer on every word.
    Turkish,
    /// Japanese: runs of kana and Han cut into characters and their pairs; a Katakana word of
    /// three characters or more is a term whole too.
    Japanese,
    /// Thai: runs of Thai cut into grapheme clusters and their pairs.
    Thai,
    /// Lao: as Thai.
    Lao,
    /// Khmer: as Thai.
    Khmer,
    /// Burmese (`my`): as Thai.
    Burmese,
    /// Any other language: UAX #29 words, lowercased, unstemmed. A build that reads pages
    /// with it says so (`hipporag site`'s report and warnings).
    Other,
    /// Armenian (`hy`): Snowball's Armenian stemmer on Armenian words, the English one on
    /// Latin words.
    Armenian,
    /// Basque (`eu`): Snowball's Basque stemmer on every word.
    Basque,
    /// Catalan (`ca`): Snowball's Catalan stemmer on every word.
    Catalan,
    /// Esperanto (`eo`): Snowball's Esperanto stemmer on every word.
    Esperanto,
    /// Estonian (`et`): Snowball's Estonian stemmer on every word.
    Estonian,
    /// Hindi (`hi`): Snowball's Hindi stemmer (a light suffix stripper, Ramanathan & Rao
    /// 2003) on Devanagari words, the English one on Latin words.
    Hindi,
    /// Indonesian (`id`): Snowball's Indonesian stemmer on every word.
    Indonesian,
    /// Irish (`ga`): Snowball's Irish stemmer on every word.
    Irish,
    /// Lithuanian (`lt`): Snowball's Lithuanian stemmer on every word.
    Lithuanian,
    /// Nepali (`ne`): Snowball's Nepali stemmer on Devanagari words, the English one on Latin
    /// words.
    Nepali,
    /// Polish (`pl`): Snowball's Polish stemmer on every word.
    Polish,
    /// Serbian (`sr`): Snowball's Serbian stemmer on every word; it reads Cyrillic and Latin
    /// alike, so a page in one script is found by a question in the other.
    Serbian,
    /// Yiddish (`yi`): Snowball's Yiddish stemmer on words in Hebrew script, the English one on
    /// Latin words.
    Yiddish,
    /// Korean (`ko`): each word of Hangul (an eojeol: a stem with its particles and endings)
    /// cut into its syllables and their pairs, as Lucene's `CJKBigramFilter` reads Hangul, and
    /// whole too when it has three syllables or more; Latin words as in English.
    Korean,
}

/// Which Snowball stemmer stems a language's words.
#[derive(Clone, Copy)]
enum Snowball {
    /// One of `rust-stemmers`' eighteen.
    Classic(Algorithm),
    /// One of the thirteen algorithms Snowball has and `rust-stemmers` lacks, by its language:
    /// `pagefind_stem`'s, compiled in with the `snowball3` feature only.
    Newer(#[cfg_attr(not(feature = "snowball3"), allow(dead_code))] Language),
}

/// How [`terms`] reads the words of a [`Language`].
#[derive(Clone, Copy)]
enum Reading {
    /// Every word stemmed by the language's stemmer.
    Stemmed(Snowball),
    /// Words of the language's script stemmed by its stemmer, Latin ones by English's.
    OwnScript(Snowball, fn(char) -> bool),
    /// Runs of single units of the script (`unit`) cut into units and pairs; Latin words by
    /// English's stemmer.
    Pairs(fn(&str) -> bool),
    /// Unstemmed words.
    Plain,
}

impl Language {
    /// Every supported language, in the order of their stored tags.
    pub const ALL: [Language; 39] = [
        Language::English,
        Language::Russian,
        Language::Chinese,
        Language::Arabic,
        Language::Danish,
        Language::Dutch,
        Language::Finnish,
        Language::French,
        Language::German,
        Language::Greek,
        Language::Hungarian,
        Language::Italian,
        Language::Norwegian,
        Language::Portuguese,
        Language::Romanian,
        Language::Spanish,
        Language::Swedish,
        Language::Tamil,
        Language::Turkish,
        Language::Japanese,
        Language::Thai,
        Language::Lao,
        Language::Khmer,
        Language::Burmese,
        Language::Other,
        Language::Armenian,
        Language::Basque,
        Language::Catalan,
        Language::Esperanto,
        Language::Estonian,
        Language::Hindi,
        Language::Indonesian,
        Language::Irish,
        Language::Lithuanian,
        Language::Nepali,
        Language::Polish,
        Language::Serbian,
        Language::Yiddish,
        Language::Korean,
    ];

    /// The language's position in [`Language::ALL`].
    pub const fn ordinal(self) -> usize {
        self as usize
    }

    /// The ISO 639-1 code (`en`, `ru`, `zh`, `de`, `ja`, …); `und` (BCP 47's "undetermined")
    /// for [`Language::Other`].
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
            Language::Chinese => "zh",
            Language::Arabic => "ar",
            Language::Danish => "da",
            Language::Dutch => "nl",
            Language::Finnish => "fi",
            Language::French => "fr",
            Language::German => "de",
            Language::Greek => "el",
            Language::Hungarian => "hu",
            Language::Italian => "it",
            Language::Norwegian => "no",
            Language::Portuguese => "pt",
            Language::Romanian => "ro",
            Language::Spanish => "es",
            Language::Swedish => "sv",
            Language::Tamil => "ta",
            Language::Turkish => "tr",
            Language::Japanese => "ja",
            Language::Thai => "th",
            Language::Lao => "lo",
            Language::Khmer => "km",
            Language::Burmese => "my",
            Language::Other => "und",
            Language::Armenian => "hy",
            Language::Basque => "eu",
            Language::Catalan => "ca",
            Language::Esperanto => "eo",
            Language::Estonian => "et",
            Language::Hindi => "hi",
            Language::Indonesian => "id",
            Language::Irish => "ga",
            Language::Lithuanian => "lt",
            Language::Nepali => "ne",
            Language::Polish => "pl",
            Language::Serbian => "sr",
            Language::Yiddish => "yi",
            Language::Korean => "ko",
        }
    }

    /// The language of a BCP 47 tag (`<html lang>`, `--lang`): its primary subtag, any case
    /// (`zh-Hans-CN` → Chinese, `ru-RU` → Russian, `EN` → English, `nb` → Norwegian). `None`
    /// for a language without an analysis of its own (`pl`, `und`, `""`): the caller picks
    /// [`Language::Other`] or a default.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = primary_subtag(tag);
        let primary = match primary.as_str() {
            "nb" | "nn" => "no",
            "und" => return None,
            p => p,
        };
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The analysis a page or corpus tagged `tag` is read with: the tag's own language, or
    /// [`Language::Other`] for a well-formed tag without one (`pl`, `sr-Latn`, `und`). `None`
    /// when the primary subtag is not an ISO 639 code of 2 or 3 ASCII letters (`""`, `en!`,
    /// `auto`): no language was named.
    pub fn read_tag(tag: &str) -> Option<Language> {
        let primary = primary_subtag(tag);
        let well_formed =
            (2..=3).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_alphabetic());
        Language::from_tag(tag).or(well_formed.then_some(Language::Other))
    }

    /// How [`terms`] reads this language's words.
    fn reading(self) -> Reading {
        use Algorithm as A;
        use Snowball as S;
        match self {
            Language::English => Reading::Stemmed(S::Classic(A::English)),
            Language::Russian => Reading::OwnScript(S::Classic(A::Russian), is_cyrillic),
            Language::Chinese => Reading::Pairs(is_han_unit),
            Language::Arabic => Reading::OwnScript(S::Classic(A::Arabic), is_arabic),
            Language::Danish => Reading::Stemmed(S::Classic(A::Danish)),
            Language::Dutch => Reading::Stemmed(S::Classic(A::Dutch)),
            Language::Finnish => Reading::Stemmed(S::Classic(A::Finnish)),
            Language::French => Reading::Stemmed(S::Classic(A::French)),
            Language::German => Reading::Stemmed(S::Classic(A::German)),
            Language::Greek => Reading::OwnScript(S::Classic(A::Greek), is_greek),
            Language::Hungarian => Reading::Stemmed(S::Classic(A::Hungarian)),
            Language::Italian => Reading::Stemmed(S::Classic(A::Italian)),
            Language::Norwegian => Reading::Stemmed(S::Classic(A::Norwegian)),
            Language::Portuguese => Reading::Stemmed(S::Classic(A::Portuguese)),
            Language::Romanian => Reading::Stemmed(S::Classic(A::Romanian)),
            Language::Spanish => Reading::Stemmed(S::Classic(A::Spanish)),
            Language::Swedish => Reading::Stemmed(S::Classic(A::Swedish)),
            Language::Tamil => Reading::OwnScript(S::Classic(A::Tamil), is_tamil),
            Language::Turkish => Reading::Stemmed(S::Classic(A::Turkish)),
            Language::Japanese => Reading::Pairs(is_japanese_unit),
            Language::Korean => Reading::Pairs(is_korean_unit),
            Language::Thai => {
                Reading::Pairs(|w| w.chars().all(|c| matches!(c, '\u{0E00}'..='\u{0E7F}')))
            }
            Language::Lao => {
                Reading::Pairs(|w| w.chars().all(|c| matches!(c, '\u{0E80}'..='\u{0EFF}')))
            }
            Language::Khmer => Reading::Pairs(|w| {
                w.chars()
                    .all(|c| matches!(c, '\u{1780}'..='\u{17FF}' | '\u{19E0}'..='\u{19FF}'))
            }),
            Language::Burmese => Reading::Pairs(|w| {
                w.chars().all(|c| matches!(c, '\u{1000}'..='\u{109F}' | '\u{AA60}'..='\u{AA7F}' | '\u{A9E0}'..='\u{A9FF}'))
            }),
            Language::Other => Reading::Plain,
            Language::Armenian => Reading::OwnScript(S::Newer(self), is_armenian),
            Language::Hindi | Language::Nepali => Reading::OwnScript(S::Newer(self), is_devanagari),
            Language::Yiddish => Reading::OwnScript(S::Newer(self), is_hebrew),
            Language::Basque
            | Language::Catalan
            | Language::Esperanto
            | Language::Estonian
            | Language::Indonesian
            | Language::Irish
            | Language::Lithuanian
            | Language::Polish
            | Language::Serbian => Reading::Stemmed(S::Newer(self)),
        }
    }

    /// Whether this build of the crate holds the language's stemmer ([`StemmerBuild::HERE`]
    /// reads every language whose [`Language::stemmer_build`] it includes). The small search
    /// module of an English, Russian or CJK site holds English's and Russian's only, and a
    /// reader of an index in another stemmed language must refuse it rather than read its
    /// questions otherwise than its passages were read.
    pub fn analysed_here(self) -> bool {
        self.stemmer_build() <= StemmerBuild::HERE
    }

    /// Whether [`terms`] cuts runs of the language's script into units and pairs (Chinese,
    /// Japanese, Korean, Thai, Lao, Khmer, Burmese): such a text gives about two terms per character
    /// where a spaced language gives one per word, so a question touches more distinct terms.
    pub fn reads_pairs(self) -> bool {
        matches!(self.reading(), Reading::Pairs(_))
    }

    /// The least build of the crate that holds the language's stemmer: a site with pages in
    /// it is served the search module of that build, or of a larger one.
    pub fn stemmer_build(self) -> StemmerBuild {
        let snowball = match self.reading() {
            Reading::Stemmed(s) | Reading::OwnScript(s, _) => s,
            Reading::Pairs(_) | Reading::Plain => return StemmerBuild::Small,
        };
        match snowball {
            Snowball::Classic(Algorithm::English | Algorithm::Russian) => StemmerBuild::Small,
            Snowball::Classic(_) => StemmerBuild::Snowball,
            Snowball::Newer(_) => StemmerBuild::Snowball3,
        }
    }
}

/// The builds of the crate by the stemmers they hold, smallest first: each holds the ones
/// before it. A site's search module is the build its languages need
/// ([`Language::stemmer_build`]); `./build.sh build` writes one module of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StemmerBuild {
    /// English's and Russian's stemmers only (no feature).
    Small,
    /// And the other sixteen of `rust-stemmers` (the `snowball` feature).
    Snowball,
    /// And Snowball 3.0's thirteen that `rust-stemmers` lacks (`pagefind_stem`; the
    /// `snowball3` feature).
    Snowball3,
}

impl StemmerBuild {
    /// This build's.
    pub const HERE: StemmerBuild = if cfg!(feature = "snowball3") {
        StemmerBuild::Snowball3
    } else if cfg!(feature = "snowball") {
        StemmerBuild::Snowball
    } else {
        StemmerBuild::Small
    };
}

/// A Snowball stemmer of either crate ([`Snowball`]).
enum LanguageStemmer {
    Classic(Stemmer),
    #[cfg(feature = "snowball3")]
    Newer(pagefind_stem::Stemmer),
}

impl LanguageStemmer {
    /// Whether [`terms`] folds a word's Latin accents before this stemmer reads it (the
    /// shipped order of `rust-stemmers`' languages, Pagefind's), rather than folding the stem:
    /// the newer algorithms' suffixes hold accents (Polish "-ów", Lithuanian "-ų", Catalan
    /// "-ó"), which folding first would hide from them.
    fn folds_first(&self) -> bool {
        match self {
            LanguageStemmer::Classic(_) => true,
            #[cfg(feature = "snowball3")]
            LanguageStemmer::Newer(_) => false,
        }
    }

    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        match self {
            LanguageStemmer::Classic(s) => s.stem(word),
            #[cfg(feature = "snowball3")]
            LanguageStemmer::Newer(s) => s.stem(word),
        }
    }
}

/// The stemmer `snowball` names. Without the `snowball` feature only English and Russian are
/// named, with constant arguments, so that the linker leaves the other algorithms out of a
/// search module; without `snowball3`, none of `pagefind_stem`'s is compiled in
/// ([`Language::analysed_here`] says which languages a build reads; the others get none).
fn stemmer(snowball: Snowball) -> Option<LanguageStemmer> {
    match snowball {
        #[cfg(feature = "snowball")]
        Snowball::Classic(a) => Some(LanguageStemmer::Classic(Stemmer::create(a))),
        #[cfg(not(feature = "snowball"))]
        Snowball::Classic(Algorithm::English) => Some(LanguageStemmer::Classic(Stemmer::create(
            Algorithm::English,
        ))),
        #[cfg(not(feature = "snowball"))]
        Snowball::Classic(Algorithm::Russian) => Some(LanguageStemmer::Classic(Stemmer::create(
            Algorithm::Russian,
        ))),
        #[cfg(not(feature = "snowball"))]
        Snowball::Classic(_) => None,
        #[cfg(feature = "snowball3")]
        Snowball::Newer(language) => newer_algorithm(language)
            .map(|a| LanguageStemmer::Newer(pagefind_stem::Stemmer::create(a))),
        #[cfg(not(feature = "snowball3"))]
        Snowball::Newer(_) => None,
    }
}

/// `pagefind_stem`'s algorithm for a language whose reading is [`Snowball::Newer`]; `None`
/// for any other.
#[cfg(feature = "snowball3")]
fn newer_algorithm(language: Language) -> Option<pagefind_stem::Algorithm> {
    use pagefind_stem::Algorithm as P;
    Some(match language {
        Language::Armenian => P::Armenian,
        Language::Basque => P::Basque,
        Language::Catalan => P::Catalan,
        Language::Esperanto => P::Esperanto,
        Language::Estonian => P::Estonian,
        Language::Hindi => P::Hindi,
        Language::Indonesian => P::Indonesian,
        Language::Irish => P::Irish,
        Language::Lithuanian => P::Lithuanian,
        Language::Nepali => P::Nepali,
        Language::Polish => P::Polish,
        Language::Serbian => P::Serbian,
        Language::Yiddish => P::Yiddish,
        _ => return None,
    })
}

/// The primary subtag of a BCP 47 tag, lowercased: `de-CH` → `de`, `zh_Hans` → `zh`, `""` →
/// `""`.
pub fn primary_subtag(tag: &str) -> String {
    let primary = tag.trim().split(['-', '_']).next().unwrap_or("");
    primary.to_ascii_lowercase()
}

/// True for a Han (CJK unified ideograph) character, or a Japanese kana: scripts written
/// without spaces between words, which [`terms`] cuts into characters and pairs, and which
/// [`crate::graph`] matches against the phrase nodes character by character.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B–F, Compatibility Supplement
}

/// A Chinese unit: one Han character (UAX #29 makes each its own word).
fn is_han_unit(w: &str) -> bool {
    let mut cs = w.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if is_cjk(c))
}

/// A Japanese unit: a word of kana and Han only (UAX #29 gives one per Han character or
/// Hiragana, one per run of Katakana), halfwidth Katakana included.
fn is_japanese_unit(w: &str) -> bool {
    w.chars()
        .all(|c| is_cjk(c) || matches!(c, '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}'))
}

/// A Korean unit: a word of Hangul only (UAX #29 keeps an eojeol whole): syllables, and the
/// conjoining jamo of decomposed text.
fn is_korean_unit(w: &str) -> bool {
    w.chars().all(|c| {
        matches!(c as u32, 0xAC00..=0xD7A3 | 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xD7B0..=0xD7FF)
    })
}

/// True for an Arabic letter or mark (Arabic, its supplements and presentation forms).
fn is_arabic(c: char) -> bool {
    matches!(c as u32, 0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF)
}

/// True for a Greek letter (Greek and Coptic, Greek Extended).
fn is_greek(c: char) -> bool {
    matches!(c as u32, 0x0370..=0x03FF | 0x1F00..=0x1FFF)
}

/// True for a Tamil letter or mark.
fn is_tamil(c: char) -> bool {
    matches!(c as u32, 0x0B80..=0x0BFF)
}

/// True for an Armenian letter (Armenian, and the Armenian ligatures of Alphabetic
/// Presentation Forms).
fn is_armenian(c: char) -> bool {
    matches!(c as u32, 0x0530..=0x058F | 0xFB13..=0xFB17)
}

/// True for a Devanagari letter or mark (Devanagari, Devanagari Extended).
fn is_devanagari(c: char) -> bool {
    matches!(c as u32, 0x0900..=0x097F | 0xA8E0..=0xA8FF)
}

/// True for a Hebrew letter or mark (Hebrew, and the Hebrew presentation forms).
fn is_hebrew(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x05FF | 0xFB1D..=0xFB4F)
}

/// True for a Cyrillic letter.
fn is_cyrillic(c: char) -> bool {
    matches!(c as u32, 0x0400..=0x052F)
}

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
        Reading::Pairs(_) | Reading::Plain => (None, None),
    };
    // Latin words of a language with a script of its own are read as English.
    let english = match reading {
        Reading::OwnScript(..) | Reading::Pairs(_) => {
            stemmer(Snowball::Classic(Algorithm::English))
        }
        Reading::Stemmed(_) | Reading::Plain => None,
    };
    // Accents folded, so that two spellings that differ only in them meet in one term: before
    // rust-stemmers' stemmers (Pagefind's order), after the newer ones, whose suffixes hold
    // accents (Polish "kotów" → "kot").
    let stem = |w: &str| -> String {
        let by = match own_script {
            Some(script) if !w.chars().any(script) => english.as_ref(),
            _ => own.as_ref().or(english.as_ref()),
        };
        match by {
            Some(s) if s.folds_first() => s.stem(&fold_latin_accents(w)).into_owned(),
            Some(s) => fold_latin_accents(&s.stem(w)).into_owned(),
            None => fold_latin_accents(w).into_owned(),
        }
    };
    let unit = match reading {
        Reading::Pairs(unit) => Some(unit),
        _ => None,
    };
    let mut out = Vec::new();
    // The run of units being read (end offset, unit, the whole word that begins with it), as
    // UAX #29 gives each its own word.
    let mut run: Vec<Unit> = Vec::new();
    for (offset, word) in text.unicode_word_indices() {
        if let Some(unit) = unit {
            if unit(word) {
                if run.last().is_some_and(|u| u.end != offset) {
                    unit_terms(&run, &mut out);
                    run.clear();
                }
                push_units(&mut run, offset, word, language);
                continue;
            }
            unit_terms(&run, &mut out);
            run.clear();
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
            out.push(stem(p));
        }
    }
    unit_terms(&run, &mut out);
    out
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

/// The terms of one run of adjacent units (Han characters, kana, Thai grapheme clusters):
/// each unit, then the pair it starts; lowercased (fullwidth Latin inside a run stays as it
/// is), without control characters.
fn unit_terms(run: &[Unit], out: &mut Vec<String>) {
    for (k, u) in run.iter().enumerate() {
        if let Some(whole) = u.whole {
            out.push(without_controls(whole.to_lowercase()));
        }
        out.push(without_controls(u.text.to_lowercase()));
        if let Some(v) = run.get(k + 1) {
            out.push(without_controls(
                format!("{}{}", u.text, v.text).to_lowercase(),
            ));
        }
    }
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

/// One unit of a run read in units and pairs ([`terms`]).
struct Unit<'a> {
    /// Its end, a byte offset into the text.
    end: usize,
    /// The unit.
    text: &'a str,
    /// The word of three units or more that begins with it, a term of its own.
    whole: Option<&'a str>,
}

/// Katakana and Hangul words shorter than this many characters are read only in units and
/// pairs.
const WHOLE_WORD_UNITS: usize = 3;

/// Appends the units of `word` (a UAX #29 word at byte `offset`) to `run`. A Japanese or
/// Korean word of several characters (UAX #29 keeps a run of Katakana whole, "コンピューター",
/// and a Korean eojeol, "서울에서") is cut into its characters, so that a loanword spelt another
/// way ("コンピュータ"), a word inside a compound or a Korean stem with other particles
/// ("서울은") still shares units and pairs with it, and is kept whole too when it has at least
/// [`WHOLE_WORD_UNITS`] characters (docs/tuning.md, "Katakana words in characters and
/// pairs"). Every other unit is one unit.
fn push_units<'a>(run: &mut Vec<Unit<'a>>, offset: usize, word: &'a str, language: Language) {
    if !matches!(language, Language::Japanese | Language::Korean) {
        run.push(Unit {
            end: offset + word.len(),
            text: word,
            whole: None,
        });
        return;
    }
    let characters = characters_with_marks(word);
    let whole = (characters.len() >= WHOLE_WORD_UNITS).then_some(word);
    for (k, &(at, text)) in characters.iter().enumerate() {
        run.push(Unit {
            end: offset + at + text.len(),
            text,
            whole: if k == 0 { whole } else { None },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(terms("Łódź", Language::Other), ["łodz"]);
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

    /// A language without an analysis of its own is read with the generic one: words
    /// lowercased, unstemmed.
    #[test]
    fn other_languages_are_read_plainly() {
        assert_eq!(
            terms("Programovací jazyky", Language::Other),
            ["programovaci", "jazyky"]
        );
        assert_eq!(Language::read_tag("cs-CZ"), Some(Language::Other));
        assert_eq!(Language::read_tag("pl-PL"), Some(Language::Polish));
        assert_eq!(Language::read_tag("und"), Some(Language::Other));
        assert_eq!(Language::read_tag("nb"), Some(Language::Norwegian));
        assert_eq!(Language::read_tag("de-CH"), Some(Language::German));
        assert_eq!(Language::read_tag(""), None);
        assert_eq!(Language::read_tag("e1"), None);
        assert_eq!(Language::read_tag("auto"), None);
        assert_eq!(Language::from_tag("cs"), None);
    }

    /// Every language's code reads back as it, and the stored order never changes: an index
    /// stores its language by position.
    #[test]
    fn codes_and_positions_are_stable() {
        for (k, l) in Language::ALL.into_iter().enumerate() {
            assert_eq!(l.ordinal(), k);
            assert_eq!(Language::read_tag(l.code()), Some(l));
        }
        assert_eq!(
            Language::ALL[..3],
            [Language::English, Language::Russian, Language::Chinese]
        );
        // English, Russian and the scripts without spaces need no Snowball-only stemmer.
        let small: Vec<&str> = Language::ALL
            .into_iter()
            .filter(|l| l.stemmer_build() == StemmerBuild::Small)
            .map(Language::code)
            .collect();
        assert_eq!(
            small,
            ["en", "ru", "zh", "ja", "th", "lo", "km", "my", "und", "ko"]
        );
    }
}
