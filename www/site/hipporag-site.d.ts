// Types of hipporag-site.js, the JS API of a site indexed by `hipporag site DIR` (served from
// /_hipporag/), shaped like Pagefind's. Self-contained: a site's _hipporag/ holds no other
// declaration file.
//
//   const hipporag: typeof import("./hipporag-site.js") = await import("/_hipporag/hipporag-site.js");
//   const s = await hipporag.search("how do I save a dict to a file as JSON?");
//   const first = await s.results[0].data();

/**
 * The retrieval method: `hybrid` (the site's default: BM25 fused by page with static
 * word-embedding scores, and with the query embedding on a semantic-tier site, mixed with the
 * personalized PageRank of the query's phrase nodes, the graph's share decided per query),
 * HippoRAG (query entities → seed phrases), HippoRAG 2 (linked facts), or the BM25 and dense
 * baselines.
 */
export type SearchMode = "hybrid" | "hipporag1" | "hipporag2" | "bm25" | "dense";

export interface InitOptions {
  /** Prefix of result URLs when the site is not served at the root of its origin (default "/"). */
  baseUrl?: string;
  /**
   * Which of the site's per-language indexes to search, as a BCP 47 tag (`zh-CN`, `ru`): by
   * default the page's `<html lang>`. A language the site has no index for searches the
   * site's default (its most common language).
   */
  language?: string;
}

export interface SearchOptions {
  /** Pages returned (default 8), drawn from the top `topK × 8` passages. */
  topK?: number;
  /**
   * Default: the site's (`hybrid`). A lean site answers `hybrid` and `bm25` from its index in
   * pieces; `hipporag1`, `hipporag2` and `dense` load the single-file index, which only a site
   * built with `hipporag site --full-index` (or `--encoder minilm`) has; otherwise the search
   * rejects with an Error saying so.
   */
  mode?: SearchMode;
}

/** A phrase a result drew its score from: `count` occurrences × PPR probability `ppr` = `score`. */
export interface Contribution {
  phraseId: number;
  phrase: string;
  count: number;
  ppr: number;
  score: number;
}

/** A query entity linked to a phrase node (HippoRAG), or a fact's phrase (HippoRAG 2). */
export interface Seed {
  /** The query entity (HippoRAG), or the linked fact "(subject, relation, object)" (HippoRAG 2). */
  linkedFrom: string;
  phraseId: number;
  phrase: string;
  cosine: number;
  /** Node specificity 1/|Pᵢ|. */
  specificity: number;
  /** The personalized PageRank reset weight. */
  weight: number;
}

/** A triple linked to the question (HippoRAG 2). */
export interface LinkedFact {
  factId: number;
  subject: string;
  relation: string;
  object: string;
  cosine: number;
  score: number;
}

export interface PhraseScore {
  phraseId: number;
  phrase: string;
  ppr: number;
}

/** Why these results: query entities → seed phrases (or linked facts) → top PPR phrases. */
export interface Explanation {
  entities: string[];
  seeds: Seed[];
  facts: LinkedFact[];
  topPhrases: PhraseScore[];
}

/**
 * Why a search failed, on the Error it rejects with (`error.kind`): `piece.missing` (HTTP error:
 * the site was rebuilt since the page loaded its index; reload), `piece.fetch` (network),
 * `format.invalid` (a piece damaged, e.g. failing gzip's CRC-32, or not of this version),
 * `request`.
 */
export type SearchErrorKind = "piece.missing" | "piece.fetch" | "format.invalid" | "request" | string;

export interface ResultData {
  /** The page and the passage's anchor (`baseUrl` + `page.html#anchor`), or null for a passage without a URL. */
  url: string | null;
  title: string;
  /**
   * HTML: the window of the passage (30 words) with the most query words, those in `<mark>`,
   * every other character escaped (as Pagefind's `excerpt`).
   */
  excerpt: string;
  /** The same excerpt as plain-text segments, alternating unmarked and marked, starting unmarked. */
  excerptSegments: string[];
  /**
   * The passage text, whole (`hipporag site --fragment-text-chars N` cuts a site's to its first
   * N characters at a word, then "…", at fewer bytes per result and an excerpt from that
   * opening only).
   */
  content: string;
  /** The phrases a graph mode's score came from; empty for a search of the index in pieces. */
  contributions: Contribution[];
}

export interface Result {
  /** The passage id. */
  id: number;
  score: number;
  data(): Promise<ResultData>;
}

export interface Search {
  query: string;
  mode: SearchMode;
  /** Why the search fell back to the dense ranking, or null. */
  fallback: string | null;
  /**
   * The personalized PageRank damping factor the ranking used (HippoRAG's 0.5; 0 when the
   * graph was left out).
   */
  damping: number;
  explanation: Explanation;
  /** Milliseconds per step, measured in the page. */
  timings: { entitiesMs: number; encodeMs: number; retrieveMs: number };
  /** One per page, best first. */
  results: Result[];
  /**
   * `lean`: ranked without a model in the page (every search of a site built with the default
   * encoder). `semantic`: the query's all-MiniLM-L6-v2 embedding took part (`hipporag site
   * --encoder minilm`, once its model has loaded).
   */
  tier: "lean" | "semantic";
  /**
   * A semantic-tier site whose model is not loaded yet answers with the lean results and
   * starts the download: this resolves to the same search refined by the model, or to null
   * when the model cannot be loaded. null otherwise.
   */
  refined: Promise<Search | null> | null;
}

/**
 * Loads hipporag-entry.json, the query encoder, the wasm module and the index (once; `search`
 * calls it). Resolves to the loaded retriever (hipporag.js's HippoRAG), an object a page need
 * not look into.
 */
export function init(options?: InitOptions): Promise<void>;

/** Ranks the site's pages for `query`; a page appears once, as its best-scoring passage. */
export function search(query: string, options?: SearchOptions): Promise<Search>;

/** `search()` after `ms` (default 300) of quiet; resolves to null when a later call superseded this one. */
export function debouncedSearch(query: string, options?: SearchOptions, ms?: number): Promise<Search | null>;
