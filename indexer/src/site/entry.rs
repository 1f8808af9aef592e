//! `hipporag-entry.json`: what a site's page reads first (the meta piece of the index in
//! pieces, the single file, the search options, the encoder), as one typed value written by
//! `hipporag site` and `hipporag pieces` alike and read by `hipporag-site.js`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use hipporag_wasm::embeddings::EncoderInfo;
use hipporag_wasm::index::Counts;
use hipporag_wasm::search::Mode;

use super::SiteLanguage;

/// The file's name inside the output directory.
pub const ENTRY_FILE: &str = "hipporag-entry.json";

/// The content of [`ENTRY_FILE`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteEntry {
    /// The default language's meta piece (`index/{hash}.bin`), when the site has pieces.
    pub pieces: Option<String>,
    /// The default language's single file, when written.
    pub index: Option<String>,
    /// The default language's filter pieces by filter key (its
    /// [`SiteLanguage::filters`]); absent when it has none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub filters: BTreeMap<String, String>,
    /// The default language's sort pieces by sort key (its [`SiteLanguage::sorts`]); absent
    /// when it has none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sorts: BTreeMap<String, String>,
    /// The search options the page's `search()` sends (only what differs from
    /// `RetrieveOptions::default()`).
    pub search: SearchDefaults,
    /// One index per language, the default first (empty from `hipporag pieces`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<SiteLanguage>,
    /// The index's encoder (the query encoder a graph mode needs).
    pub encoder: EncoderInfo,
    /// The index's counts.
    pub counts: Counts,
    /// The `hipporag` version that wrote it.
    pub generator: String,
}

/// The site's search options: the mode; every weight is `RetrieveOptions::default()`'s (the
/// graph's share decided per query, [`hipporag_wasm::search::graph_weight`]), so the page sends
/// none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchDefaults {
    /// The default mode: `hybrid`.
    pub mode: Mode,
}

impl Default for SearchDefaults {
    fn default() -> Self {
        Self { mode: Mode::Hybrid }
    }
}

impl SiteEntry {
    /// The JSON a site serves (pretty-printed, with a final newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("serialisable") + "\n"
    }
}
