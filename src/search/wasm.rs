//! The WebAssembly API (wasm32 only), generated into `pkg/` by `build.sh` with wasm-bindgen.
//!
//! ```ts
//! const r = Retriever.fromBytes(new Uint8Array(await (await fetch("index.hipporag")).arrayBuffer()));
//! const res = r.retrieve({ entities, embeddings /* Float32Array n×dim */, queryEmbedding, topK: 5 });
//! const edges = r.subgraph(Uint32Array.from(res.topPhrases, (p) => p.phraseId));
//! ```
//!
//! Every error is thrown as a JS `Error` whose `message` is the Rust [`crate::Error`] text and
//! whose `kind` is [`crate::Error::kind`] (`"format.checksum"`, `"dimension"`, …; `"request"`
//! for a malformed request object), so callers match kinds, not messages.

use js_sys::{Array, Float32Array, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::embeddings::{Encoder, HashedNgramEncoder};
use crate::error::{js_error, to_js_error};
use crate::search::{QueryInput, RetrieveOptions, Retriever};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A retrieval request. `embeddings` holds one row per entity (row-major, entities.length × dim). */
export interface RetrieveRequest {
  /** The question's text: the bm25 and hybrid modes analyse it into BM25 terms. */
  question?: string;
  entities: string[];
  embeddings: Float32Array;
  /** The whole query's embedding (dim values): dense mode and the no-entity fallback. */
  queryEmbedding?: Float32Array;
  topK?: number;
  mode?: "hipporag1" | "hipporag2" | "dense" | "bm25" | "hybrid";
  /** HippoRAG 2: fact ids kept by a recognition-memory filter, chosen from `linkFacts`. */
  factIds?: Uint32Array | number[];
  /** HippoRAG 1: rows rescored per entity after the binary-code prefilter (default 0 = exact scan). */
  linkingCandidates?: number;
  /** HippoRAG 2: facts linked and seed phrases kept (default 5). */
  linkingTopK?: number;
  /** HippoRAG 2: passage-node reset weight (default 0.05). */
  passageNodeWeight?: number;
  /** Hybrid: the graph share's weight, in [0, 1] (default: decided per query from the graph's agreement with the passage share, fusion::graph_weight; the rest is the passage share's). */
  phraseWeight?: number;
  /** Hybrid, neural encoders only: the dense passage scores' share (default 8). */
  denseWeight?: number;
  /** Hybrid, indexes with static word embeddings: their weight beside BM25's 1 in the fusion by page (default 1; 0 = BM25 alone). */
  staticWeight?: number;
  /** Hybrid: seed only the entities that are phrase nodes, as a site's index in pieces does (default false: each entity's nearest phrase node when `embeddings` are given). */
  exactSeeds?: boolean;
  damping?: number;
  tolerance?: number;
  maxIterations?: number;
  /** PPR algorithm: "auto" (push for hipporag1 and hybrid's explanation, the exact solver for hipporag2), "exact" or "push". */
  ppr?: "auto" | "exact" | "push";
  /** Forward-push residual bound (default 1e-7). */
  pushEpsilon?: number;
  topPhrases?: number;
  contributions?: number;
}
/** A seed: `linkedFrom` is the query entity (hipporag1) or the linked fact "(s, r, o)" (hipporag2). */
export interface Seed { linkedFrom: string; phraseId: number; phrase: string; cosine: number; specificity: number; weight: number; }
export interface LinkedFact { factId: number; subject: string; relation: string; object: string; cosine: number; score: number; }
export interface PhraseScore { phraseId: number; phrase: string; ppr: number; }
export interface Contribution { phraseId: number; phrase: string; count: number; ppr: number; score: number; }
export interface RankedPassage {
  rank: number; id: number; title: string; text: string; url?: string; score: number;
  contributions: Contribution[];
}
export interface RetrieveResult {
  mode: "hipporag1" | "hipporag2" | "dense" | "bm25" | "hybrid";
  fallback?: string;
  facts: LinkedFact[];
  seeds: Seed[];
  topPhrases: PhraseScore[];
  passages: RankedPassage[];
  /** PPR work: Gauss–Seidel sweeps (exact) or forward pushes (push); 0 for dense ranking. */
  pprSteps: number;
  /** The damping factor of the ranking's personalized PageRank (the request's); 0 for bm25 and dense. */
  damping: number;
}
/** A triple of the index: subject and object are phrase ids. */
export interface Fact { subject: number; relation: string; object: number; }
/** An undirected phrase-graph edge, source < target: a triple edge (weight = triple count, with
 *  the facts joining the pair) or a synonymy edge (weight = cosine, no facts). */
export interface SubgraphEdge {
  source: number; target: number; weight: number; kind: "triple" | "synonymy"; facts: Fact[];
}
export interface IndexInfo {
  encoder: { id: string; dim: number; normalized: boolean };
  counts: { phrases: number; passages: number; edges: number; tripleEdges: number; synonymyEdges: number; facts: number };
  build: { synonymyThreshold: number; synonymyK: number; quantization: "F32" | "Int8"; generator: string };
}
"#;

/// The JS `Error` for a malformed request (`kind: "request"`).
fn request_error(message: String) -> JsValue {
    js_error(&message, "request")
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(false))
        .map_err(|e| js_error(&e.to_string(), "internal"))
}

fn field(obj: &JsValue, name: &str) -> Result<Option<JsValue>, JsValue> {
    let v = Reflect::get(obj, &JsValue::from_str(name))
        .map_err(|_| request_error(format!("request.{name}: cannot be read")))?;
    Ok(if v.is_undefined() || v.is_null() {
        None
    } else {
        Some(v)
    })
}

fn f32_field(obj: &JsValue, name: &str) -> Result<Option<Vec<f32>>, JsValue> {
    match field(obj, name)? {
        None => Ok(None),
        Some(v) if v.is_instance_of::<Float32Array>() => Ok(Some(Float32Array::from(v).to_vec())),
        Some(v) if Array::is_array(&v) => Array::from(&v)
            .iter()
            .map(|x| {
                x.as_f64()
                    .map(|f| f as f32)
                    .ok_or_else(|| request_error(format!("request.{name}: expected numbers")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(request_error(format!(
            "request.{name}: expected a Float32Array"
        ))),
    }
}

fn u32_field(obj: &JsValue, name: &str) -> Result<Option<Vec<u32>>, JsValue> {
    let bad = || {
        request_error(format!(
            "request.{name}: expected a Uint32Array or an array of non-negative integers"
        ))
    };
    match field(obj, name)? {
        None => Ok(None),
        Some(v) if v.is_instance_of::<js_sys::Uint32Array>() => {
            Ok(Some(js_sys::Uint32Array::from(v).to_vec()))
        }
        Some(v) if Array::is_array(&v) => Array::from(&v)
            .iter()
            .map(|x| match x.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f <= f64::from(u32::MAX) => Ok(f as u32),
                _ => Err(bad()),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(bad()),
    }
}

/// A loaded HippoRAG index answering queries in the browser.
#[wasm_bindgen(js_name = Retriever)]
pub struct WasmRetriever {
    inner: Retriever,
}

#[wasm_bindgen(js_class = Retriever)]
impl WasmRetriever {
    /// Validates and loads index bytes (the file written by `hipporag index`).
    /// Throws on bad magic, unknown version, truncation, checksum mismatch or invalid structure.
    ///
    /// The bytes are copied into wasm memory once (by the bindings) and kept there: the int8
    /// embeddings are read in place, never copied again ([`Retriever::from_vec`]).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: Vec<u8>) -> Result<WasmRetriever, JsValue> {
        Retriever::from_vec(bytes)
            .map(|inner| WasmRetriever { inner })
            .map_err(to_js_error)
    }

    /// The index header: encoder (id, dim, normalized), counts and build parameters.
    #[wasm_bindgen(getter, unchecked_return_type = "IndexInfo")]
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.index().header)
    }

    /// A result's excerpt for `question`: the window of `text` with the most query words,
    /// as segments alternating unmarked and marked text (plain text; `excerpt.rs`).
    pub fn excerpt(&self, text: &str, question: &str) -> Vec<String> {
        self.inner.excerpt(text, question)
    }

    /// Query entities found by the built-in no-LLM extractor (phrase matches + capitalised spans).
    #[wasm_bindgen(js_name = extractEntities)]
    pub fn extract_entities(&self, question: &str) -> Vec<String> {
        self.inner.extract_entities(question)
    }

    /// HippoRAG 2's query-to-triple linking: the `k` facts closest to `queryEmbedding`
    /// (`dim` values), for a recognition-memory filter; pass the kept ids back as
    /// `retrieve({..., mode: "hipporag2", factIds})`. Throws without fact embeddings in the index.
    #[wasm_bindgen(js_name = linkFacts, unchecked_return_type = "LinkedFact[]")]
    pub fn link_facts(&self, query_embedding: &[f32], k: usize) -> Result<JsValue, JsValue> {
        let facts = self
            .inner
            .link_facts(query_embedding, k)
            .map_err(to_js_error)?;
        to_js(&facts)
    }

    /// Ranks passages. See `RetrieveRequest` / `RetrieveResult`.
    #[wasm_bindgen(unchecked_return_type = "RetrieveResult")]
    pub fn retrieve(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RetrieveRequest")] request: JsValue,
    ) -> Result<JsValue, JsValue> {
        if !request.is_object() {
            return Err(request_error("retrieve: expected a request object".into()));
        }
        let entities: Vec<String> = match field(&request, "entities")? {
            None => Vec::new(),
            Some(v) => serde_wasm_bindgen::from_value(v)
                .map_err(|e| request_error(format!("request.entities: {e}")))?,
        };
        let embeddings = f32_field(&request, "embeddings")?.unwrap_or_default();
        let query_embedding = f32_field(&request, "queryEmbedding")?;
        // Every option at once, by serde: absent fields keep their defaults, unknown ones
        // (the query fields above) are ignored.
        let opts: RetrieveOptions = serde_wasm_bindgen::from_value(request.clone())
            .map_err(|e| request_error(format!("request: {e}")))?;
        let fact_ids = u32_field(&request, "factIds")?;
        let question: Option<String> = match field(&request, "question")? {
            None => None,
            Some(v) => Some(
                v.as_string()
                    .ok_or_else(|| request_error("request.question: expected a string".into()))?,
            ),
        };
        let q = QueryInput {
            question: question.as_deref(),
            entities: &entities,
            embeddings: &embeddings,
            query_embedding: query_embedding.as_deref(),
            fact_ids: fact_ids.as_deref(),
        };
        let res = self.inner.retrieve(&q, &opts).map_err(to_js_error)?;
        to_js(&res)
    }

    /// The phrase-graph edges whose two ends are both in `phraseIds` (e.g. the seeds and top
    /// phrases of a result), sorted by `(source, target)`: the activated subgraph to draw.
    /// Throws when an id is not a phrase of the index. See `SubgraphEdge`.
    #[wasm_bindgen(unchecked_return_type = "SubgraphEdge[]")]
    pub fn subgraph(
        &self,
        #[wasm_bindgen(js_name = phraseIds)] phrase_ids: &[u32],
    ) -> Result<JsValue, JsValue> {
        crate::graph::subgraph(self.inner.index(), phrase_ids)
            .map_err(to_js_error)
            .and_then(|edges| to_js(&edges))
    }
}

/// The built-in hashed n-gram encoder (`hashed-ngram-v1`), for indexes built without a model:
/// returns `texts.length × dim` values, row-major, identical to the native indexer's.
#[wasm_bindgen(js_name = hashedNgramEncode)]
pub fn hashed_ngram_encode(texts: Vec<String>, dim: usize) -> Result<Float32Array, JsValue> {
    if dim == 0 {
        return Err(request_error(
            "hashedNgramEncode: dim must be positive".into(),
        ));
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let v = HashedNgramEncoder::new(dim)
        .encode(&refs)
        .map_err(to_js_error)?;
    Ok(Float32Array::from(v.as_slice()))
}
