//! Progress callbacks for the long stages of a build (OpenIE, encoding, synonymy edges), one
//! trait for all of them. The CLI draws them with indicatif; the in-browser indexer posts them
//! to the page.

/// Receives the progress of one stage at a time. `Sync` with the `parallel` feature (rayon's
/// workers report from their threads); without it (the wasm indexer) a JS callback can be one.
#[cfg(feature = "parallel")]
pub trait Progress: Sync {
    /// A stage with `total` units starts (`stage` names it: `"OpenIE"`, `"encoding phrases"`, …).
    fn start(&self, _stage: &str, _total: u64) {}
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// A short status of the running stage (the LLM client: tokens used, failures so far).
    fn detail(&self, _text: &str) {}
    /// The current stage is finished.
    fn finish(&self) {}
}

/// Receives the progress of one stage at a time (see the `parallel` build's docs).
#[cfg(not(feature = "parallel"))]
pub trait Progress {
    /// A stage with `total` units starts (`stage` names it: `"OpenIE"`, `"encoding phrases"`, …).
    fn start(&self, _stage: &str, _total: u64) {}
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// A short status of the running stage (the LLM client: tokens used, failures so far).
    fn detail(&self, _text: &str) {}
    /// The current stage is finished.
    fn finish(&self) {}
}

/// No progress output.
impl Progress for () {}
