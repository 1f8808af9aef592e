// hipporag.js — the page-facing wrapper around the wasm Retriever.
//
//   import { HippoRAG } from "./pkg/hipporag.js";
//   const rag = await HippoRAG.load({ index: "index.hipporag", encode, onProgress });
//   const result = await rag.search("Which Stanford professor works on the neuroscience of Alzheimer's?");
//
// `encode(texts: string[]) => Promise<Float32Array>` is the JS-called encoder: it must return
// texts.length × dim values (row-major) from the encoder the index was built with (its header
// names it: `rag.info.encoder`). For indexes built with the built-in `hashed-ngram-v1` encoder
// no `encode` is needed. `extractEntities(question) => Promise<string[]>` may replace the
// built-in no-LLM query-entity extractor (e.g. an LLM NER call). In HippoRAG 2 mode
// (`search(q, {mode: "hipporag2"})`) only the question is encoded, and an optional
// `filterFacts(question, facts) => Promise<facts>` (e.g. an LLM "recognition memory" step)
// may drop linked facts before the graph search.
import init, { Retriever, hashedNgramEncode } from "./hipporag_wasm.js";

let wasmReady = null;

/** Initialises the wasm module once. `wasm`: URL, Response, bytes or WebAssembly.Module (optional). */
export function initWasm(wasm) {
  if (!wasmReady) wasmReady = init(wasm === undefined ? undefined : { module_or_path: wasm });
  return wasmReady;
}

/** Fetches `url` as bytes, calling onProgress({loaded, total}) as chunks arrive. */
export async function fetchBytes(url, onProgress) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${res.statusText}`);
  const total = Number(res.headers.get("content-length")) || 0;
  if (!res.body || !onProgress) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress({ loaded, total });
  }
  const out = new Uint8Array(loaded);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** The built-in encoder for `hashed-ngram-v1` indexes, else null. */
export function builtinEncoder(info) {
  if (info.encoder.id !== "hashed-ngram-v1") return null;
  const dim = info.encoder.dim;
  return async (texts) => hashedNgramEncode(texts, dim);
}

export class HippoRAG {
  /**
   * @param {object} o
   * @param {string|URL|Uint8Array|ArrayBuffer} o.index  index URL or bytes
   * @param {(texts: string[]) => Promise<Float32Array>} [o.encode]  the JS-called encoder
   * @param {(question: string) => Promise<string[]>} [o.extractEntities]  query NER (default: built-in)
   * @param {*} [o.wasm]  wasm URL/bytes/Module (default: next to hipporag_wasm.js)
   * @param {(p: {loaded: number, total: number}) => void} [o.onProgress]  index download progress
   */
  static async load({ index, encode, extractEntities, filterFacts, wasm, onProgress } = {}) {
    await initWasm(wasm);
    let bytes;
    if (index instanceof Uint8Array) bytes = index;
    else if (index instanceof ArrayBuffer) bytes = new Uint8Array(index);
    else bytes = await fetchBytes(index, onProgress);
    const retriever = Retriever.fromBytes(bytes);
    return new HippoRAG(retriever, { encode, extractEntities, filterFacts });
  }

  constructor(retriever, { encode, extractEntities, filterFacts } = {}) {
    this.retriever = retriever;
    this.info = retriever.info;
    this.encode = encode ?? builtinEncoder(this.info);
    if (!this.encode) {
      throw new Error(
        `this index was built with the encoder "${this.info.encoder.id}" (dim ${this.info.encoder.dim}); pass an encode() function for it`,
      );
    }
    this.extractEntities = extractEntities ?? null;
    this.filterFacts = filterFacts ?? null;
  }

  /**
   * Ranks passages for `question`.
   * @param {string} question
   * `useEncoder: false` ranks without calling `encode()`: no query embedding, so only `bm25`
   * and `hybrid` (its BM25, static word-embedding and graph shares; the built-in extractor's
   * entities seed the graph) can answer, as a site's index in pieces does.
   * A site whose model-backed encoder is still loading shows these results first.
   * @param {{topK?: number, mode?: "hipporag1"|"hipporag2"|"dense"|"bm25"|"hybrid", entities?: string[], linkingTopK?: number, phraseWeight?: number, damping?: number, useEncoder?: boolean}} [opts]
   * @returns {Promise<import("./hipporag_wasm.js").RetrieveResult & {entities: string[], timings: object}>}
   */
  async search(question, { topK = 5, mode, entities, linkingTopK = 5, phraseWeight, damping, useEncoder = true } = {}) {
    const ppr = damping !== undefined ? { damping } : {};
    const t0 = performance.now();
    if (!useEncoder) {
      if (mode !== "bm25" && mode !== "hybrid")
        throw new Error(`search: useEncoder: false needs mode "bm25" or "hybrid" (got ${mode ?? "the default"})`);
      const ents = mode === "hybrid" ? (entities ?? this.retriever.extractEntities(question)) : [];
      const result = this.retriever.retrieve({
        question,
        topK,
        mode,
        entities: ents,
        embeddings: new Float32Array(0),
        exactSeeds: true,
        phraseWeight,
        ...ppr,
      });
      result.entities = ents;
      result.timings = { entitiesMs: 0, encodeMs: 0, retrieveMs: performance.now() - t0 };
      return result;
    }
    // Entities seed phrases in hipporag1 and hybrid mode (not when hybrid gives phrases no weight).
    const needsEntities = mode !== "hipporag2" && mode !== "dense" && mode !== "bm25" && !(mode === "hybrid" && phraseWeight === 0);
    const ents = !needsEntities
      ? []
      : (entities ?? (this.extractEntities ? await this.extractEntities(question) : this.retriever.extractEntities(question)));
    const dim = this.info.encoder.dim;
    const texts = [question, ...ents];
    const t1 = performance.now();
    const emb = await this.encode(texts);
    const t2 = performance.now();
    if (!(emb instanceof Float32Array) || emb.length !== texts.length * dim) {
      throw new Error(
        `encode() returned ${emb?.length} values for ${texts.length} texts; the index's encoder "${this.info.encoder.id}" needs ${texts.length} × ${dim} in a Float32Array`,
      );
    }
    const queryEmbedding = emb.subarray(0, dim);
    let factIds;
    if (mode === "hipporag2" && this.filterFacts) {
      const kept = await this.filterFacts(question, this.retriever.linkFacts(queryEmbedding, linkingTopK));
      factIds = Uint32Array.from(kept, (f) => f.factId);
    }
    const result = this.retriever.retrieve({
      question,
      entities: ents,
      embeddings: emb.subarray(dim),
      queryEmbedding,
      topK,
      linkingTopK,
      ...(mode ? { mode } : {}),
      ...(factIds ? { factIds } : {}),
      ...(phraseWeight !== undefined ? { phraseWeight } : {}),
      ...ppr,
    });
    const t3 = performance.now();
    result.entities = ents;
    result.timings = { entitiesMs: t1 - t0, encodeMs: t2 - t1, retrieveMs: t3 - t2 };
    return result;
  }
}

export { Retriever, hashedNgramEncode };
