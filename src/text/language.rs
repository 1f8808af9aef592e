//! The languages an index can be read in ([`Language`]): each one's code and the BCP 47 tags
//! that name it, how [`terms`](super::terms) reads its words (a Snowball stemmer, units and
//! pairs, or plain words), and which build of the crate holds its stemmer ([`StemmerBuild`]).
//! Source of each analysis: docs/languages.md.

use std::borrow::Cow;

use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};

use super::script::{
    is_arabic, is_armenian, is_cyrillic, is_devanagari, is_greek, is_hebrew, is_tamil,
};

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
///
/// Whatever the language, the runs of Han, kana, Hangul, Thai, Lao, Khmer and Burmese are cut
/// into units and pairs ([`word_spans`](super::word_spans)), and Cyrillic words are stemmed by
/// Russian's stemmer in every index but a Serbian or generic one: an index of one language
/// reads a passage in one of those as an index of that language would.
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
    /// Vietnamese (`vi`): each syllable (Vietnamese writes a space between the syllables of a
    /// word: "Việt Nam", "học sinh") a term, lowercased, unstemmed and with its tone marks (in
    /// NFC), and each two syllables with only spaces between them a term too, their marks
    /// folded, as the languages read in units are read in units and pairs (docs/tuning.md,
    /// "Vietnamese syllables and pairs"); Cyrillic words as Russian's.
    Vietnamese,
}

/// Which Snowball stemmer stems a language's words.
#[derive(Clone, Copy)]
pub(super) enum Snowball {
    /// One of `rust-stemmers`' eighteen.
    Classic(Algorithm),
    /// One of the thirteen algorithms Snowball has and `rust-stemmers` lacks, by its language:
    /// `pagefind_stem`'s, compiled in with the `snowball3` feature only.
    Newer(#[cfg_attr(not(feature = "snowball3"), allow(dead_code))] Language),
}

/// How [`terms`](super::terms) reads the words of a [`Language`].
#[derive(Clone, Copy)]
pub(super) enum Reading {
    /// Every word stemmed by the language's stemmer.
    Stemmed(Snowball),
    /// Words of the language's script stemmed by its stemmer, Latin ones by English's.
    OwnScript(Snowball, fn(char) -> bool),
    /// The language's script read in units and pairs, as every index reads it
    /// ([`word_spans`](super::word_spans)); Latin words by English's stemmer.
    Pairs,
    /// Unstemmed words.
    Plain,
    /// Unstemmed words with their marks, and each two adjacent words with only spaces between
    /// them, marks folded.
    WordPairs,
}

impl Language {
    /// Every supported language, in the order of their stored tags.
    pub const ALL: [Language; 40] = [
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
        Language::Vietnamese,
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
            Language::Vietnamese => "vi",
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

    /// How [`terms`](super::terms) reads this language's words.
    pub(super) fn reading(self) -> Reading {
        use Algorithm as A;
        use Snowball as S;
        match self {
            Language::English => Reading::Stemmed(S::Classic(A::English)),
            Language::Russian => Reading::OwnScript(S::Classic(A::Russian), is_cyrillic),
            Language::Chinese => Reading::Pairs,
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
            Language::Japanese => Reading::Pairs,
            Language::Korean => Reading::Pairs,
            Language::Thai => Reading::Pairs,
            Language::Lao => Reading::Pairs,
            Language::Khmer => Reading::Pairs,
            Language::Burmese => Reading::Pairs,
            Language::Other => Reading::Plain,
            Language::Vietnamese => Reading::WordPairs,
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

    /// Whether an index in this language stems Cyrillic words by Russian's stemmer: every
    /// language but Serbian, whose own stemmer reads Cyrillic, and [`Language::Other`], which
    /// stems nothing ([`terms`](super::terms)).
    pub fn stems_cyrillic_as_russian(self) -> bool {
        !matches!(self, Language::Serbian | Language::Other)
    }

    /// Whether an index in `index` reads this language's words as an index of this language
    /// does ([`terms`](super::terms)): the languages read in units and pairs are read so in
    /// every index, and Russian in every index that
    /// [stems Cyrillic as Russian](Language::stems_cyrillic_as_russian). A passage's Latin
    /// words are read with the index's stemmer all the same.
    pub fn words_read_as_own_in(self, index: Language) -> bool {
        self == index
            || self.reads_pairs()
            || (self == Language::Russian && index.stems_cyrillic_as_russian())
    }

    /// Whether [`terms`](super::terms) cuts runs of the language's script into units and pairs (Chinese,
    /// Japanese, Korean, Thai, Lao, Khmer, Burmese): such a text gives about two terms per character
    /// where a spaced language gives one per word, so a question touches more distinct terms.
    pub fn reads_pairs(self) -> bool {
        matches!(self.reading(), Reading::Pairs)
    }

    /// The least build of the crate that holds the language's stemmer: a site with pages in
    /// it is served the search module of that build, or of a larger one.
    pub fn stemmer_build(self) -> StemmerBuild {
        let snowball = match self.reading() {
            Reading::Stemmed(s) | Reading::OwnScript(s, _) => s,
            Reading::Pairs | Reading::Plain | Reading::WordPairs => return StemmerBuild::Small,
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
pub(super) enum LanguageStemmer {
    Classic(Stemmer),
    #[cfg(feature = "snowball3")]
    Newer(pagefind_stem::Stemmer),
}

impl LanguageStemmer {
    /// Whether [`terms`](super::terms) folds a word's Latin accents before this stemmer reads it (the
    /// shipped order of `rust-stemmers`' languages, Pagefind's), rather than folding the stem:
    /// the newer algorithms' suffixes hold accents (Polish "-ów", Lithuanian "-ų", Catalan
    /// "-ó"), which folding first would hide from them.
    pub(super) fn folds_first(&self) -> bool {
        match self {
            LanguageStemmer::Classic(_) => true,
            #[cfg(feature = "snowball3")]
            LanguageStemmer::Newer(_) => false,
        }
    }

    pub(super) fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
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
pub(super) fn stemmer(snowball: Snowball) -> Option<LanguageStemmer> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A BCP 47 tag picks its language by its primary subtag; a well-formed tag without an
    /// analysis of its own is read with the generic one, and a malformed one names none.
    #[test]
    fn tags_pick_their_language() {
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
        assert_eq!(Language::ALL[39], Language::Vietnamese);
        // English, Russian, the scripts without spaces and Vietnamese need no Snowball-only
        // stemmer.
        let small: Vec<&str> = Language::ALL
            .into_iter()
            .filter(|l| l.stemmer_build() == StemmerBuild::Small)
            .map(Language::code)
            .collect();
        assert_eq!(
            small,
            [
                "en", "ru", "zh", "ja", "th", "lo", "km", "my", "und", "ko", "vi"
            ]
        );
    }
}
