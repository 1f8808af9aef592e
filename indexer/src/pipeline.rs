//! The whole build of an index from passages alone, as `hipporag index --corpus C` runs it
//! without an OpenIE file and as the in-browser indexer (`indexer-wasm/`) runs it: the
//! language ([`crate::language`], unless given), the rule extractor ([`crate::openie::rules`]),
//! then [`GraphBuilder::build`]. One function for both, so the browser's bytes equal the
//! binary's. Its two halves, [`extract_passages`] and [`index_openie`], are also public: the
//! browser keeps each file's extraction and rebuilds from the kept documents.

use crate::graph::{BuildOptions, BuildReport, GraphBuilder};
use crate::openie::OpenIeDoc;
use crate::openie::rules::{RuleOptions, RulesReport, extract_corpus_reporting};
use crate::progress::Progress;
use crate::{Error, Result};
use hipporag_wasm::embeddings::Encoder;
use hipporag_wasm::index::{IndexData, Passage};
use hipporag_wasm::text::Language;

/// What [`index_passages`] did, for a log or a progress display.
#[derive(Debug, Clone)]
pub struct PassagesReport {
    /// The language the passages were read in (given, or detected).
    pub language: Language,
    /// The rule extractor's counts.
    pub rules: RulesReport,
    /// The graph build's counts and encoding times.
    pub build: BuildReport,
}

/// Builds the index of `passages` with the rule extractor and `encoder`:
/// [`extract_passages`] over all of them, then [`index_openie`].
///
/// `language`: `None` detects it ([`crate::language::detect`]); it is then set in both the
/// rule options and `opts` (whose own `language` is ignored). Progress: stage `"OpenIE"`
/// (one unit per passage), then the graph build's stages.
///
/// # Errors
/// [`Error::InvalidRequest`] for no passages; the encoder's errors.
pub fn index_passages(
    passages: Vec<Passage>,
    language: Option<Language>,
    encoder: &dyn Encoder,
    opts: &BuildOptions,
    progress: &dyn Progress,
) -> Result<(IndexData, PassagesReport)> {
    if passages.is_empty() {
        return Err(Error::InvalidRequest("no passages to index".into()));
    }
    let language = language.unwrap_or_else(|| crate::language::detect(&passages).language);
    let (docs, rules) = extract_passages(&passages, language, progress);
    let (data, build) = index_openie(passages, &docs, language, encoder, opts, progress)?;
    Ok((
        data,
        PassagesReport {
            language,
            rules,
            build,
        },
    ))
}

/// The rule extractor's OpenIE documents for `passages` (one each, in order), read in
/// `language`, with the corpus statistics of these passages alone
/// ([`crate::openie::rules::RuleExtractor::for_corpus`]). The in-browser indexer runs it per
/// file and keeps the result, so adding a file extracts that file only; for one file it is
/// exactly what [`index_passages`] extracts. Progress: stage `"OpenIE"`, one unit per passage.
pub fn extract_passages(
    passages: &[Passage],
    language: Language,
    progress: &dyn Progress,
) -> (Vec<OpenIeDoc>, RulesReport) {
    let rules = RuleOptions {
        language,
        ..Default::default()
    };
    extract_corpus_reporting(passages, &rules, progress)
}

/// The index of `passages` from their OpenIE documents `docs` (one per passage, in order):
/// [`GraphBuilder::from_openie`], then [`GraphBuilder::build`] with `opts` read in `language`
/// (`opts.language` is ignored). The same bytes as `hipporag index --corpus C --openie F` for
/// the same documents and options.
///
/// # Errors
/// [`Error::InvalidRequest`] for no passages; [`GraphBuilder::from_openie`]'s error when
/// `docs` and `passages` differ in length; the encoder's errors.
pub fn index_openie(
    passages: Vec<Passage>,
    docs: &[OpenIeDoc],
    language: Language,
    encoder: &dyn Encoder,
    opts: &BuildOptions,
    progress: &dyn Progress,
) -> Result<(IndexData, BuildReport)> {
    if passages.is_empty() {
        return Err(Error::InvalidRequest("no passages to index".into()));
    }
    let opts = BuildOptions {
        language,
        ..opts.clone()
    };
    GraphBuilder::from_openie(passages, docs).and_then(|g| g.build(encoder, &opts, progress))
}
