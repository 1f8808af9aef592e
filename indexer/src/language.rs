//! The language of a corpus, when the user does not name it (`hipporag index --lang auto`).
//!
//! Each passage's language is identified by `whatlang` (trigram profiles, 69 languages) from
//! its title and text; the corpus takes the language most passages have. Only the languages
//! the analysis supports ([`Language`]) can be chosen; a corpus mostly in another language is
//! reported as such, so the caller can say so instead of analysing it as English.

use hipporag_wasm::index::Passage;
use hipporag_wasm::text::Language;

/// What [`detect`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// The most frequent supported language among the passages, or English when no passage
    /// was identified as a supported one.
    pub language: Language,
    /// Passages identified per supported language, in [`Language::ALL`] order.
    pub passages: [usize; Language::ALL.len()],
    /// Passages identified as a language without support (`whatlang`'s ISO 639-3 code and
    /// count), most frequent first.
    pub unsupported: Vec<(&'static str, usize)>,
}

/// The share of a corpus' passages from which [`Detection::unanalysed`] names a language:
/// below it, whatlang's misreadings of short passages (Russian ones as Bulgarian) would be
/// named too.
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
            .filter(|&(_, n)| n as f64 >= UNANALYSED_SHARE * total as f64)
            .collect()
    }
}

fn supported(lang: whatlang::Lang) -> Option<Language> {
    match lang {
        whatlang::Lang::Eng => Some(Language::English),
        whatlang::Lang::Rus => Some(Language::Russian),
        whatlang::Lang::Cmn => Some(Language::Chinese),
        _ => None,
    }
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
    Detection {
        language: Language::ALL[best],
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

    /// XQuAD's German and JSQuAD's Japanese passages: each corpus named as a language without
    /// an analysis of its own, with most of its passages.
    #[test]
    fn languages_without_analysis_are_named() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/multilingual");
        for (file, code) in [
            ("xquad_de_corpus.json", "deu"),
            ("jsquad_valid_corpus.json", "jpn"),
        ] {
            let passages = crate::corpus::read_corpus(&dir.join(file)).unwrap();
            let d = detect(&passages);
            let named = d.unanalysed(passages.len());
            assert_eq!(named.first().map(|&(c, _)| c), Some(code), "{file}: {d:?}");
            assert!(named[0].1 * 10 >= passages.len() * 9, "{file}: {named:?}");
        }
    }
}
