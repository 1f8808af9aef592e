//! The language of a corpus, when the user does not name it (`hipporag index --lang auto`).
//!
//! Each passage's language is identified by `whatlang` (trigram profiles, 69 languages) from
//! its title and text; the corpus takes the language most passages have. Only the languages
//! the analysis supports ([`Language`]) can be chosen; a corpus mostly in another language is
//! reported as such, so the caller can say so instead of analysing it as English, and so is a
//! large minority in another analysed language, which one index reads with the majority's.

use hipporag_wasm::index::Passage;
use hipporag_wasm::text::Language;

/// What [`detect`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// The most frequent supported language among the passages; [`Language::Other`] when a
    /// language without an analysis of its own has more passages; English when no passage
    /// was identified.
    pub language: Language,
    /// Passages identified per supported language, in [`Language::ALL`] order.
    pub passages: [usize; Language::ALL.len()],
    /// Passages identified as a language without support (`whatlang`'s ISO 639-3 code and
    /// count), most frequent first.
    pub unsupported: Vec<(&'static str, usize)>,
}

/// One language [`Detection::warnings`] names: read with an analysis not its own.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LanguageWarning {
    /// The language: [`Language::code`] when it has an analysis of its own, else whatlang's
    /// ISO 639-3 code.
    pub code: &'static str,
    /// Its passages.
    pub passages: usize,
    /// Whether it has an analysis of its own, which an index of its passages alone (`--lang`,
    /// or a site's index for its `<html lang>`) would read them with.
    pub has_analysis: bool,
    /// The warning, one English sentence without advice: "160 of 400 passages are in `fr`,
    /// read with the `de` analysis (an index has one)"; for a language whose words the index
    /// reads as its own ([`Language::words_read_as_own_in`]: those read in units and pairs,
    /// and Russian), that its words are and its phrases are not.
    pub message: String,
}

/// The share of a corpus' passages from which [`Detection::unanalysed`] and
/// [`Detection::read_with_another_analysis`] name a language: below it, whatlang's misreadings
/// of short passages (Russian ones as Bulgarian) would be named too.
pub const UNANALYSED_SHARE: f64 = 0.2;

impl Detection {
    /// The languages without an analysis of their own (whatlang's ISO 639-3 code and passage
    /// count) that hold at least [`UNANALYSED_SHARE`] of the corpus' `total` passages, most
    /// passages first. The corpus reads them with [`Detection::language`]'s analysis, which a
    /// build must say rather than do in silence.
    pub fn unanalysed(&self, total: usize) -> Vec<(&'static str, usize)> {
        self.unsupported
            .iter()
            .copied()
            .filter(|&(_, n)| is_named(n, total))
            .collect()
    }

    /// The languages with an analysis of their own, other than [`Detection::language`], that
    /// hold at least [`UNANALYSED_SHARE`] of the corpus' `total` passages (with their passage
    /// counts, most passages first). One single-file index has one analysis, so a corpus split
    /// between German and Japanese reads its Japanese passages as German: a build must say so,
    /// and point to an index per language (`--lang`) or to `hipporag site`, which keeps one
    /// index per `<html lang>`.
    pub fn read_with_another_analysis(&self, total: usize) -> Vec<(Language, usize)> {
        let mut out: Vec<(Language, usize)> = Language::ALL
            .iter()
            .zip(self.passages)
            .filter(|&(&l, n)| l != self.language && is_named(n, total))
            .map(|(&l, n)| (l, n))
            .collect();
        out.sort_by_key(|&(l, n)| (std::cmp::Reverse(n), l.ordinal()));
        out
    }

    /// Every language identified, with its passage count: the supported ones by their
    /// [`Language::code`] in [`Language::ALL`] order, then the others by whatlang's ISO 639-3
    /// code, most passages first. Languages without passages are left out.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        Language::ALL
            .iter()
            .zip(self.passages)
            .filter(|&(_, n)| n > 0)
            .map(|(l, n)| (l.code(), n))
            .chain(self.unsupported.iter().copied())
            .collect()
    }

    /// What a build of these `total` passages must say rather than do in silence, one warning
    /// per language: each of [`Detection::unanalysed`] (read with [`Detection::language`]'s
    /// analysis, having none of its own) and of [`Detection::read_with_another_analysis`] (read
    /// with the majority's, as an index has one analysis). The same words for `hipporag index`
    /// and the in-browser indexer; each adds what its user can do about it.
    pub fn warnings(&self, total: usize) -> Vec<LanguageWarning> {
        let read_as = self.language.code();
        let unanalysed = self
            .unanalysed(total)
            .into_iter()
            .map(|(code, n)| LanguageWarning {
                code,
                passages: n,
                has_analysis: false,
                message: format!(
                    "{n} of {total} passages are in `{code}` (ISO 639-3, whatlang), which has no analysis of its own: they are read with the `{read_as}` analysis"
                ),
            });
        let another = self
            .read_with_another_analysis(total)
            .into_iter()
            .map(|(other, n)| LanguageWarning {
                code: other.code(),
                passages: n,
                has_analysis: true,
                message: if other.words_read_as_own_in(self.language) {
                    // Every index cuts a script without spaces into units and pairs, and most
                    // stem Cyrillic as Russian.
                    format!(
                        "{n} of {total} passages are in `{}`: their words are read as in a `{0}` index, their phrases with the `{read_as}` analysis (an index has one)",
                        other.code()
                    )
                } else {
                    format!(
                        "{n} of {total} passages are in `{}`, read with the `{read_as}` analysis (an index has one)",
                        other.code()
                    )
                },
            });
        unanalysed.chain(another).collect()
    }
}

/// Whether `n` of a corpus' `total` passages are enough to name their language
/// ([`UNANALYSED_SHARE`]).
fn is_named(n: usize, total: usize) -> bool {
    n as f64 >= UNANALYSED_SHARE * total as f64
}

/// The analysis of a language whatlang names, when there is one of its own.
fn supported(lang: whatlang::Lang) -> Option<Language> {
    use whatlang::Lang as W;
    Some(match lang {
        W::Eng => Language::English,
        W::Rus => Language::Russian,
        W::Cmn => Language::Chinese,
        W::Ara => Language::Arabic,
        W::Dan => Language::Danish,
        W::Nld => Language::Dutch,
        W::Fin => Language::Finnish,
        W::Fra => Language::French,
        W::Deu => Language::German,
        W::Ell => Language::Greek,
        W::Hun => Language::Hungarian,
        W::Ita => Language::Italian,
        W::Nob => Language::Norwegian,
        W::Por => Language::Portuguese,
        W::Ron => Language::Romanian,
        W::Spa => Language::Spanish,
        W::Swe => Language::Swedish,
        W::Tam => Language::Tamil,
        W::Tur => Language::Turkish,
        W::Jpn => Language::Japanese,
        W::Tha => Language::Thai,
        W::Khm => Language::Khmer,
        W::Mya => Language::Burmese,
        W::Hye => Language::Armenian,
        W::Cat => Language::Catalan,
        W::Epo => Language::Esperanto,
        W::Est => Language::Estonian,
        W::Hin => Language::Hindi,
        W::Ind => Language::Indonesian,
        W::Lit => Language::Lithuanian,
        W::Nep => Language::Nepali,
        W::Pol => Language::Polish,
        W::Srp => Language::Serbian,
        W::Yid => Language::Yiddish,
        W::Kor => Language::Korean,
        W::Vie => Language::Vietnamese,
        _ => return None,
    })
}

/// The corpus' language by a majority of its passages (ties go to the earlier language of
/// [`Language::ALL`]). Passages whatlang cannot identify do not vote.
pub fn detect(passages: &[Passage]) -> Detection {
    let mut counts = [0usize; Language::ALL.len()];
    let mut other: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for p in passages {
        let Some(lang) = whatlang::detect_lang(&format!("{}\n{}", p.title, p.text)) else {
            continue;
        };
        match supported(lang) {
            Some(l) => counts[l.ordinal()] += 1,
            None => *other.entry(lang.code()).or_default() += 1,
        }
    }
    let best = (0..counts.len())
        .max_by_key(|&k| (counts[k], std::cmp::Reverse(k)))
        .unwrap_or(0);
    let mut unsupported: Vec<(&'static str, usize)> = other.into_iter().collect();
    unsupported.sort_by_key(|&(code, n)| (std::cmp::Reverse(n), code));
    // A corpus mostly in a language without an analysis of its own is read with the generic
    // one, not with the largest minority's.
    let language = match unsupported.first() {
        Some(&(_, n)) if n > counts[best] => Language::Other,
        _ => Language::ALL[best],
    };
    Detection {
        language,
        passages: counts,
        unsupported,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explainers_are_identified() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/multilingual");
        for (file, want) in [
            ("hipporag_explainer_en.txt", Language::English),
            ("hipporag_explainer_ru.txt", Language::Russian),
            ("hipporag_explainer_zh.txt", Language::Chinese),
        ] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            let passages: Vec<Passage> = text
                .split("\n\n")
                .filter(|t| t.trim().len() > 40)
                .map(|t| Passage::new("", t))
                .collect();
            let d = detect(&passages);
            assert_eq!(d.language, want, "{file}: {d:?}");
            assert_eq!(d.unanalysed(passages.len()), [], "{file}: {d:?}");
        }
    }

    /// XQuAD's German, Arabic and Thai and JSQuAD's Japanese passages: each corpus read with
    /// its own analysis, with most of its passages identified as it, and nothing left unnamed.
    #[test]
    fn each_language_gets_its_own_analysis() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/multilingual");
        for (file, want) in [
            ("xquad_de_corpus.json", Language::German),
            ("xquad_ar_corpus.json", Language::Arabic),
            ("xquad_th_corpus.json", Language::Thai),
            ("jsquad_valid_corpus.json", Language::Japanese),
        ] {
            let passages = crate::corpus::read_corpus(&dir.join(file)).unwrap();
            let d = detect(&passages);
            assert_eq!(d.language, want, "{file}: {d:?}");
            assert!(
                d.passages[want.ordinal()] * 10 >= passages.len() * 9,
                "{file}: {d:?}"
            );
            assert_eq!(d.unanalysed(passages.len()), [], "{file}: {d:?}");
            assert_eq!(
                d.read_with_another_analysis(passages.len()),
                [],
                "{file}: {d:?}"
            );
        }
    }

    /// XQuAD's 240 German passages with JSQuAD's first 160 Japanese ones: one index reads the
    /// corpus as German, and the Japanese passages are named as read with German's analysis.
    #[test]
    fn a_second_analysed_language_is_named() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/multilingual");
        let mut passages = crate::corpus::read_corpus(&dir.join("xquad_de_corpus.json")).unwrap();
        let ja = crate::corpus::read_corpus(&dir.join("jsquad_valid_corpus.json")).unwrap();
        passages.extend(ja.into_iter().take(160));
        let d = detect(&passages);
        assert_eq!(d.language, Language::German, "{d:?}");
        let named = d.read_with_another_analysis(passages.len());
        assert_eq!(named.len(), 1, "{named:?}");
        assert_eq!(named[0].0, Language::Japanese);
        assert!((150..=160).contains(&named[0].1), "{named:?}");
        assert_eq!(d.unanalysed(passages.len()), [], "{d:?}");
        let warnings = d.warnings(passages.len());
        assert_eq!(
            warnings,
            [LanguageWarning {
                code: "ja",
                passages: named[0].1,
                has_analysis: true,
                message: format!(
                    "{} of 400 passages are in `ja`: their words are read as in a `ja` index, their phrases with the `de` analysis (an index has one)",
                    named[0].1
                ),
            }]
        );
        let counts = d.counts();
        let de = d.passages[Language::German.ordinal()];
        assert_eq!(counts[..2], [("de", de), ("ja", named[0].1)], "{counts:?}");
    }
}
