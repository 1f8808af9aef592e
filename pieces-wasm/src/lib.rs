//! `hipporag-pieces-wasm`: the wasm module a `hipporag site` page loads to search its index in
//! pieces ([`hipporag_wasm::pieces`]), as Pagefind's small search crate sits beside its indexer.
//! It links the retriever core without the core's own wasm API, so the page downloads only the
//! piece planner and decoders, the query-entity extractor and the hybrid and BM25 ranking.
//!
//! The JS side (`www/site/hipporag-pieces.js`) fetches the pieces that `Pieces.missing()` names,
//! gunzips each (`DecompressionStream`, which checks gzip's CRC-32), and hands it to
//! `Pieces.add()` until nothing is missing; errors are JS `Error`s with a `kind`
//! (`format.invalid`, …).

#[cfg(target_arch = "wasm32")]
mod bindings {
    use hipporag_wasm::Error;
    use hipporag_wasm::error::to_js_error;
    use hipporag_wasm::pieces::{PieceId, PieceKind};
    use hipporag_wasm::search::{Mode, RetrieveOptions, parse_option};
    use wasm_bindgen::prelude::*;

    /// A piece as one number for JS: its kind in the low two bits, its number above.
    fn id(p: PieceId) -> u32 {
        (p.number as u32) << 2 | p.kind as u32
    }

    /// The piece of [`id`]'s number.
    fn piece(id: u32) -> PieceId {
        let kind = [
            PieceKind::Term,
            PieceKind::Cluster,
            PieceKind::Phrase,
            PieceKind::Fragment,
        ];
        PieceId {
            kind: kind[(id & 3) as usize],
            number: (id >> 2) as usize,
        }
    }

    /// The index in pieces: the meta piece and the pieces loaded so far.
    #[wasm_bindgen]
    pub struct Pieces {
        index: hipporag_wasm::Pieces,
    }

    #[wasm_bindgen]
    impl Pieces {
        /// Loads the meta piece (gunzipped bytes).
        #[wasm_bindgen(js_name = fromMeta)]
        pub fn from_meta(bytes: &[u8]) -> Result<Pieces, JsValue> {
            Ok(Self {
                index: hipporag_wasm::Pieces::from_meta(bytes).map_err(to_js_error)?,
            })
        }

        /// The page of each passage (dense page ids).
        #[wasm_bindgen(getter)]
        pub fn pages(&self) -> Vec<u32> {
            self.index.meta().pages.clone()
        }

        /// The PPR damping factor the phrase pieces' vectors were computed at (HippoRAG's 0.5).
        #[wasm_bindgen(getter)]
        pub fn damping(&self) -> f64 {
            self.index.meta().damping
        }

        /// The pieces `question` needs that are not loaded, as ids for [`Pieces::name`] and
        /// [`Pieces::add`]; empty once it can be ranked. Ask again after adding them.
        pub fn missing(&self, question: &str) -> Vec<u32> {
            let need = self.index.missing(question);
            need.into_iter().map(id).collect()
        }

        /// The file name of piece `id`.
        pub fn name(&self, id: u32) -> Option<String> {
            self.index.name(piece(id))
        }

        /// Adds piece `id` (gunzipped bytes).
        pub fn add(&mut self, id: u32, bytes: &[u8]) -> Result<(), JsValue> {
            self.index.add(piece(id), bytes).map_err(to_js_error)
        }

        /// Ranks passages (`mode` `hybrid` or `bm25`) into `ids` and `scores`, best first, as
        /// many as they hold at most, as the single file's `retrieve` gives them; returns how
        /// many it wrote. An option left `undefined` takes `RetrieveOptions::default()`'s value
        /// (`staticWeight` 1, `phraseWeight` decided per query); `mode` defaults to `hybrid`,
        /// and the damping factor is the phrase pieces' own.
        ///
        /// `allowedPages` (a `Uint32Array` of page ids, as [`Pieces::pages`] numbers them, or
        /// `undefined`) ranks among the passages of those pages only: a filter narrows first,
        /// then the ranking orders what is left and fills `ids` from it
        /// ([`hipporag_wasm::Pieces::search_within`]); `undefined` ranks every passage, bit
        /// for bit as without the parameter. Errors: a JS `Error` of kind `request`
        /// naming a page id that is not a page of the index, or as `search` otherwise.
        // The JS-visible signature: one parameter per option, each `undefined` for its default.
        #[allow(clippy::too_many_arguments)]
        pub fn search(
            &self,
            question: &str,
            mode: Option<String>,
            static_weight: Option<f64>,
            phrase_weight: Option<f64>,
            ids: &mut [u32],
            scores: &mut [f64],
            allowed_pages: Option<Vec<u32>>,
        ) -> Result<usize, JsValue> {
            let defaults = RetrieveOptions::default();
            let opts = RetrieveOptions {
                mode: match mode {
                    Some(m) => parse_option::<Mode>("mode", &m)
                        .map_err(|e| to_js_error(Error::InvalidRequest(e)))?,
                    None => Mode::Hybrid,
                },
                static_weight: static_weight.unwrap_or(defaults.static_weight),
                phrase_weight,
                top_k: ids.len().min(scores.len()),
                damping: self.index.meta().damping,
                ..defaults
            };
            let ranked = self
                .index
                .search_within(question, &opts, allowed_pages.as_deref())
                .map_err(to_js_error)?;
            for (k, (j, s)) in ranked.iter().enumerate() {
                ids[k] = *j as u32;
                scores[k] = *s;
            }
            Ok(ranked.len())
        }

        /// `question`'s BM25 upper bound over this index (searched or preloaded first): the
        /// score of a passage whose term frequencies saturate every query term, ≥ 0
        /// ([`hipporag_wasm::Pieces::bm25_upper_bound`]). A best BM25 score over it puts
        /// sites whose BM25 scales differ on one scale (`mergeIndex`). Errors: a JS `Error` of
        /// kind `request` when a piece the question needs is not loaded.
        #[wasm_bindgen(js_name = bm25UpperBound)]
        pub fn bm25_upper_bound(&self, question: &str) -> Result<f64, JsValue> {
            self.index.bm25_upper_bound(question).map_err(to_js_error)
        }

        /// A result's excerpt for `question` (searched first): the window of `text` with the
        /// most query words, as segments alternating unmarked and marked text (plain text).
        pub fn excerpt(&self, text: &str, question: &str) -> Vec<String> {
            self.index.excerpt(text, question)
        }

        /// The file name of the fragment piece holding passage `j`.
        #[wasm_bindgen(js_name = fragmentName)]
        pub fn fragment_name(&self, j: u32) -> Option<String> {
            self.index.fragment_name(j as usize)
        }
    }
}
