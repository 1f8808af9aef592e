// Types of hipporag.js, the page-facing wrapper around the wasm Retriever. It sits next to
// wasm-bindgen's hipporag_wasm.d.ts in the package (pkg/), whose types it uses: Retriever,
// IndexInfo, RetrieveResult, LinkedFact and the rest are declared there (src/wasm.rs).
//
//   import { HippoRAG } from "./pkg/hipporag.js";
//   const rag = await HippoRAG.load({ index: "index.hipporag", encode, onProgress });
//   const result = await rag.search("Which Stanford professor works on the neuroscience of Alzheimer's?");

import type { InitInput, InitOutput, IndexInfo, LinkedFact, RetrieveResult, Retriever } from "./hipporag_wasm.js";

export { Retriever, hashedNgramEncode } from "./hipporag_wasm.js";
export type {
  Contribution,
  Fact,
  IndexInfo,
  LinkedFact,
  PhraseScore,
  RankedPassage,
  RetrieveRequest,
  RetrieveResult,
  Seed,
  SubgraphEdge,
} from "./hipporag_wasm.js";

/** The retrieval method: HippoRAG (query entities → seed phrases), HippoRAG 2 (linked facts), or the dense baseline. */
export type SearchMode = "hipporag1" | "hipporag2" | "dense" | "bm25" | "hybrid";

/**
 * The JS-called query encoder: `texts.length × dim` values, row-major, from the encoder the
 * index was built with (`rag.info.encoder`).
 */
export type Encode = (texts: string[]) => Promise<Float32Array>;
/** Replaces the built-in no-LLM query-entity extractor (e.g. an LLM NER call). */
export type ExtractEntities = (question: string) => Promise<string[]>;
/** HippoRAG 2's recognition-memory step: keeps some of the linked facts before the graph search. */
export type FilterFacts = (question: string, facts: LinkedFact[]) => Promise<LinkedFact[]>;

/** Download progress, in bytes; `total` is 0 when the server sent no Content-Length. */
export interface Progress {
  loaded: number;
  total: number;
}

/** The wasm module: a URL, a Response, bytes or a compiled WebAssembly.Module. */
export type WasmSource = InitInput | Promise<InitInput>;

/** Initialises the wasm module once (later calls return the first call's promise). */
export function initWasm(wasm?: WasmSource): Promise<InitOutput>;

/** Fetches `url` as bytes, calling `onProgress` as chunks arrive; rejects on an HTTP error status. */
export function fetchBytes(url: RequestInfo | URL, onProgress?: (p: Progress) => void): Promise<Uint8Array>;

/** The built-in encoder for `hashed-ngram-v1` indexes, else null. */
export function builtinEncoder(info: IndexInfo): Encode | null;

export interface HippoRAGOptions {
  /** Required unless the index was built with `hashed-ngram-v1`. */
  encode?: Encode;
  extractEntities?: ExtractEntities;
  filterFacts?: FilterFacts;
}

export interface LoadOptions extends HippoRAGOptions {
  /** The index: a URL to fetch, or its bytes. */
  index: string | URL | Uint8Array | ArrayBuffer;
  /** The wasm module (default: hipporag_wasm_bg.wasm next to hipporag_wasm.js). */
  wasm?: WasmSource;
  /** Index download progress (only when `index` is a URL). */
  onProgress?: (p: Progress) => void;
}

export interface SearchOptions {
  /** Passages returned (default 5). */
  topK?: number;
  /** Default: the retriever's default, "hipporag1". */
  mode?: SearchMode;
  /** Query entities to use instead of extracting them (HippoRAG mode). */
  entities?: string[];
  /** HippoRAG 2: facts linked and seed phrases kept (default 5). */
  linkingTopK?: number;
  /** Hybrid mode: the graph share's weight, in [0, 1] (default: decided per query from the graph's agreement with the passage share, fusion::graph_weight). */
  phraseWeight?: number;
}

/** Milliseconds spent in each step of a search. */
export interface SearchTimings {
  entitiesMs: number;
  encodeMs: number;
  retrieveMs: number;
}

export interface SearchResult extends RetrieveResult {
  /** The query entities used (empty in HippoRAG 2 and dense modes). */
  entities: string[];
  timings: SearchTimings;
}

export class HippoRAG {
  /** Initialises the wasm module, fetches (or takes) the index and loads it. */
  static load(options: LoadOptions): Promise<HippoRAG>;
  /** Throws when the index's encoder is not built in and no `encode` is given. */
  constructor(retriever: Retriever, options?: HippoRAGOptions);
  retriever: Retriever;
  /** The index header: encoder (id, dim, normalized), counts and build parameters. */
  info: IndexInfo;
  encode: Encode;
  extractEntities: ExtractEntities | null;
  filterFacts: FilterFacts | null;
  /** Ranks passages for `question`. */
  search(question: string, options?: SearchOptions): Promise<SearchResult>;
}
