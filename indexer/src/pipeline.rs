//! The whole build of an index from passages alone, as `hipporag index --corpus C` runs it
//! without an OpenIE file and as the in-browser indexer (`indexer-wasm/`) runs it: the
//! language ([`crate::language`], unless given), the rule extractor ([`crate::openie::rules`]),
//! then [`GraphBuilder::build`]. One function for both, so the browser's bytes equal the
//! binary's.

use crate::graph::{BuildOptions, BuildReport, GraphBuilder};
use crate::openie::rules::{RuleOptions, RulesReport, extract_corpus_reporting};
use crate::progress::Progress;
use crate::{Error, Result};
use hipporag_wasm::analysis::Language;
use hipporag_wasm::encoder::Encoder;
use hipporag_wasm::index::{IndexData, Passage};

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

/// Builds the index of `passages` with the rule extractor and `encoder`.
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
    let rules = RuleOptions {
        language,
        ..Default::default()
    };
    let (docs, report) = extract_corpus_reporting(&passages, &rules, progress);
    let opts = BuildOptions {
        language,
        ..opts.clone()
    };
    let (data, build) = GraphBuilder::from_openie(passages, &docs)
        .and_then(|g| g.build(encoder, &opts, progress))?;
    Ok((
        data,
        PassagesReport {
            language,
            rules: report,
            build,
        },
    ))
}
