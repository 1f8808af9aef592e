//! `hipporag-search`: the wasm module a `hipporag site` page loads to search its index in pieces
//! ([`hipporag_wasm::pieces`]), as Pagefind's small search crate sits beside its indexer. It
//! links the retriever core without the core's own wasm API, so the page downloads only the
//! piece decoders, the query-entity extractor and the hybrid / BM25 ranking.
//!
//! The JS side (`www/site/hipporag-pieces.js`) fetches the pieces this module names, gunzips
//! each (`DecompressionStream`, which checks gzip's CRC-32), and hands it back; errors are JS
//! `Error`s with a `kind` (`format.invalid`, …).

#[cfg(target_arch = "wasm32")]
mod bindings {
    use hipporag_wasm::Error;
    use hipporag_wasm::error::to_js_error;
    use hipporag_wasm::pieces::{PieceKind, Pieces};
    use hipporag_wasm::search::{Mode, RetrieveOptions, parse_option};
    use wasm_bindgen::prelude::*;

    /// The index in pieces: the meta piece and the pieces loaded so far.
    #[wasm_bindgen]
    pub struct SplitSearch {
        index: Pieces,
    }

    #[wasm_bindgen]
    impl SplitSearch {
        /// Loads the meta piece (gunzipped bytes).
        #[wasm_bindgen(js_name = fromMeta)]
        pub fn from_meta(bytes: &[u8]) -> Result<SplitSearch, JsValue> {
            Ok(Self {
                index: Pieces::from_meta(bytes).map_err(to_js_error)?,
            })
        }

        /// Passages in the index.
        #[wasm_bindgen(getter)]
        pub fn passages(&self) -> u32 {
            self.index.meta().passages
        }

        /// The PPR damping factor the phrase pieces' vectors were computed at (HippoRAG's 0.5).
        #[wasm_bindgen(getter)]
        pub fn damping(&self) -> f64 {
            self.index.meta().damping
        }

        /// The term pieces `question` needs that are not loaded, ascending.
        #[wasm_bindgen(js_name = missingTermPieces)]
        pub fn missing_term_pieces(&self, question: &str) -> Vec<u32> {
            let v = self.index.missing_term_pieces(question);
            v.into_iter().map(|i| i as u32).collect()
        }

        /// The file name of term piece `i`.
        #[wasm_bindgen(js_name = termPieceName)]
        pub fn term_piece_name(&self, i: u32) -> Option<String> {
            self.index.piece_name(PieceKind::Term, i as usize)
        }

        /// Adds term piece `i` (gunzipped bytes).
        #[wasm_bindgen(js_name = addTermPiece)]
        pub fn add_term_piece(&mut self, i: u32, bytes: &[u8]) -> Result<(), JsValue> {
            self.index
                .add_term_piece(i as usize, bytes)
                .map_err(to_js_error)
        }

        /// The phrase pieces `question`'s candidate phrases fall in that are not loaded,
        /// ascending (fetched with its term pieces).
        #[wasm_bindgen(js_name = missingPhrasePieces)]
        pub fn missing_phrase_pieces(&self, question: &str) -> Vec<u32> {
            let v = self.index.missing_phrase_pieces(question);
            v.into_iter().map(|i| i as u32).collect()
        }

        /// The file name of phrase piece `i`.
        #[wasm_bindgen(js_name = phrasePieceName)]
        pub fn phrase_piece_name(&self, i: u32) -> Option<String> {
            self.index.piece_name(PieceKind::Phrase, i as usize)
        }

        /// Adds phrase piece `i` (gunzipped bytes).
        #[wasm_bindgen(js_name = addPhrasePiece)]
        pub fn add_phrase_piece(&mut self, i: u32, bytes: &[u8]) -> Result<(), JsValue> {
            self.index
                .add_phrase_piece(i as usize, bytes)
                .map_err(to_js_error)
        }

        /// The cluster pieces (indices) holding the IVF clusters `question` probes that are not
        /// loaded, ascending (its term pieces must be loaded).
        #[wasm_bindgen(js_name = missingClusterPieces)]
        pub fn missing_cluster_pieces(&self, question: &str) -> Result<Vec<u32>, JsValue> {
            let v = self
                .index
                .missing_cluster_pieces(question)
                .map_err(to_js_error)?;
            Ok(v.into_iter().map(|c| c as u32).collect())
        }

        /// The file name of cluster piece `c` (an index from `missingClusterPieces`).
        #[wasm_bindgen(js_name = clusterPieceName)]
        pub fn cluster_piece_name(&self, c: u32) -> Option<String> {
            self.index.piece_name(PieceKind::Cluster, c as usize)
        }

        /// Adds cluster piece `c` (gunzipped bytes): every IVF cluster it holds.
        #[wasm_bindgen(js_name = addClusterPiece)]
        pub fn add_cluster_piece(&mut self, c: u32, bytes: &[u8]) -> Result<(), JsValue> {
            self.index
                .add_cluster_piece(c as usize, bytes)
                .map_err(to_js_error)
        }

        /// Ranks passages (`mode` `hybrid` or `bm25`): `[passage, score, passage, score, …]`,
        /// best first, `topK` pairs at most, as the single file's `retrieve` gives them. An
        /// option left `undefined` takes `RetrieveOptions::default()`'s value (`mode`
        /// `hybrid`, `staticWeight` 1, `phraseWeight` decided per query), and the damping is
        /// the phrase pieces' own.
        pub fn search(
            &self,
            question: &str,
            mode: Option<String>,
            static_weight: Option<f64>,
            phrase_weight: Option<f64>,
            top_k: u32,
        ) -> Result<Vec<f64>, JsValue> {
            let defaults = RetrieveOptions::default();
            let opts = RetrieveOptions {
                mode: match mode {
                    Some(m) => parse_option::<Mode>("mode", &m)
                        .map_err(|e| to_js_error(Error::InvalidRequest(e)))?,
                    None => Mode::Hybrid,
                },
                static_weight: static_weight.unwrap_or(defaults.static_weight),
                phrase_weight,
                top_k: top_k as usize,
                damping: self.index.meta().damping,
                ..defaults
            };
            let ranked = self.index.search(question, &opts).map_err(to_js_error)?;
            Ok(ranked
                .into_iter()
                .flat_map(|(j, s)| [j as f64, s])
                .collect())
        }

        /// A result's excerpt for `question` (searched first): the window of `text` with the
        /// most query words, as segments alternating unmarked and marked text (plain text).
        pub fn excerpt(&self, text: &str, question: &str) -> Vec<String> {
            self.index.excerpt(text, question)
        }

        /// The page of passage `j` (dense page ids, `undefined` past the last passage).
        #[wasm_bindgen(js_name = pageOf)]
        pub fn page_of(&self, j: u32) -> Option<u32> {
            self.index.meta().pages.get(j as usize).copied()
        }

        /// The file name of the fragment piece holding passage `j`.
        #[wasm_bindgen(js_name = fragmentName)]
        pub fn fragment_name(&self, j: u32) -> Option<String> {
            let f = self.index.fragment_of(j as usize)?;
            self.index.piece_name(PieceKind::Fragment, f)
        }
    }
}
