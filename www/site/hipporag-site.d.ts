// Types of hipporag-site.js, the JS API of a site indexed by `hipporag site DIR` (served from
// /_hipporag/), shaped like Pagefind's. Self-contained: a site's _hipporag/ holds no other
// declaration file.
//
//   const hipporag: typeof import("./hipporag-site.js") = await import("/_hipporag/hipporag-site.js");
//   const s = await hipporag.search("how do I save a dict to a file as JSON?");
//   const first = await s.results[0].data();
//   const docs = await hipporag.search(null, { filters: { section: "library" }, sort: { date: "desc" } });

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

/**
 * The primary index's options (`options()`), Pagefind's `PagefindIndexOptions`.
 */
export interface IndexOptions extends InitOptions {
  /**
   * The URL of the site's `_hipporag/` directory, whose entry and index are loaded (default:
   * the directory hipporag-site.js was imported from). Read by the first search or init().
   */
  basePath?: string;
  /**
   * Multiplies this index's scores (default 1): with merged indexes (`mergeIndex()`), one
   * site's results rank higher or lower than another's.
   */
  indexWeight?: number;
  /**
   * Filter values every page of this index has, as if each page were tagged with them:
   * `{site: "Blog"}` or `{site: ["Blog", "News"]}` (Pagefind's `mergeFilter`), so that a
   * filter tells merged indexes apart. Counted by `filters()` and in a search's counts.
   */
  mergeFilter?: Record<string, string | string[]>;
  /** Accepted as Pagefind's, and ignored: an excerpt is 30 words (src/search/excerpt.rs). */
  excerptLength?: number;
}

/** Options of another site's index (`mergeIndex()`), Pagefind's. */
export interface MergeIndexOptions {
  /** Multiplies this index's scores (default 1). */
  indexWeight?: number;
  /** Filter values every page of this index has (see `IndexOptions.mergeFilter`). */
  mergeFilter?: Record<string, string | string[]>;
  /** Which of its per-language indexes to search (default: the page's language, as init()). */
  language?: string;
  /**
   * Prefix of its result URLs (default: the directory holding its `_hipporag/`, with the
   * origin when another origin's: `https://docs.example.com/`).
   */
  baseUrl?: string;
}

/**
 * A filter value, Pagefind's syntax: a string matches the pages tagged with it; an array
 * matches the pages tagged with all of its items; `{any: …}` one or more of the conditions
 * in it, `{all: …}` every one, `{none: …}` none of them (the pages `any` does not match), `{not:
 * …}` the pages `all` does not match; these nest in each other, in arrays and objects. A
 * value that is not a string (a number, a boolean, null) is ignored, as Pagefind ignores it.
 */
export type FilterValue = string | FilterValue[] | { any?: FilterValue; all?: FilterValue; none?: FilterValue; not?: FilterValue };

/**
 * Filters, Pagefind's syntax (`data-pagefind-filter`, `data-hipporag-filter`): each key a
 * filter key and its value a `FilterValue`, all of them required; the keywords `any`, `all`,
 * `none` and `not` at the top level combine objects or arrays of such objects:
 * `{any: [{author: "Pagefind", tag: "Article"}, {author: "CloudCannon"}], not: {year: "2018"}}`.
 * A key or value the index does not have matches no page.
 */
export type Filters = { [key: string]: FilterValue | Filters | Filters[] | undefined };

/** Counts of pages per filter key and value, `{key: {value: count}}` (Pagefind's `PagefindFilterCounts`). */
export type FilterCounts = Record<string, Record<string, number>>;

export interface SearchOptions {
  /**
   * Pages returned (default 8), drawn from the top `topK × 8` passages, when ranked without
   * a sort. A sort or a listing (`search(null)`) is not cut.
   */
  topK?: number;
  /**
   * Default: the site's (`hybrid`). A lean site answers `hybrid` and `bm25` from its index in
   * pieces; `hipporag1`, `hipporag2` and `dense` load the single-file index, which only a site
   * built with `hipporag site --full-index` (or `--encoder minilm`) has; otherwise the search
   * rejects with an Error saying so. Such a mode ranks every passage, then filters (and
   * searches the primary index only, as merged indexes are in pieces).
   */
  mode?: SearchMode;
  /**
   * Only pages matching these filters (Pagefind's `filters`): the ranking scores their
   * passages alone, so `topK` is filled from them. Loads the filter pieces of the keys named,
   * once.
   */
  filters?: Filters;
  /**
   * `{key: "asc" | "desc"}` (`data-pagefind-sort`; the first key only, as Pagefind): every page
   * the ranking scores above 0 (within `filters`), or every page of a listing, in the order of
   * its value for `key` (numbers when every page's value is one, else text), not cut at
   * `topK`; pages without the key are left out. Across merged indexes, pages interleave by
   * their rank within their own index. A key no index has is ignored (with a warning).
   */
  sort?: Record<string, "asc" | "desc">;
}

/** Options of `preload()`. */
export interface PreloadOptions {
  /** Also loads the filter pieces these filters name. */
  filters?: Filters;
  /** Also loads this sort's piece. */
  sort?: Record<string, "asc" | "desc">;
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
  /** `url` as the index stores it, without `baseUrl` (Pagefind's `raw_url`). */
  raw_url: string | null;
  /** The passage's heading path (`json — … › Basic Usage`). */
  title: string;
  /**
   * The page's metadata (Pagefind's `meta`: `data-pagefind-meta`, with `title` from its first
   * `h1` and `image`, `image_alt` from the first image after it). An index without page
   * records (a semantic-tier site, `hipporag pieces`) gives `{title}`, the first part of the
   * heading path.
   */
  meta: Record<string, string>;
  /**
   * The page's filter values (`data-pagefind-filter`), and its index's `mergeFilter` values
   * (Pagefind's `filters`).
   */
  filters: Record<string, string[]>;
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
  /**
   * Words of the page's passages, split at whitespace (Pagefind's `word_count`); of the
   * passage alone for an index without page records.
   */
  word_count: number;
  /**
   * The page's sections with the query's words (Pagefind's `sub_results`) that come with the
   * result's own fragment piece, so that `data()` fetches one piece: first the passages the
   * ranking scored above 0, best first, the result's own passage among them; then the piece's
   * other passages of the page whose excerpt marks a query word, most marked first. Empty for
   * a listing (`search(null)`).
   */
  sub_results: SubResult[];
  /** The phrases a graph mode's score came from; empty for a search of the index in pieces. */
  contributions: Contribution[];
}

/** A passage of a result's page (Pagefind's `PagefindSubResult`). */
export interface SubResult {
  /** Its own heading: the last part of its heading path. */
  title: string;
  /** `baseUrl` + the passage's URL, with its `#anchor`. */
  url: string | null;
  /** HTML, as `ResultData.excerpt`, of this passage. */
  excerpt: string;
  excerptSegments: string[];
  /** The heading's id the URL points at; absent for a passage before the page's first anchor. */
  anchor?: { id: string };
}

export interface Result {
  /** The passage id (of its own index; merged indexes number theirs from 0 too). */
  id: number;
  /**
   * The best passage's score × its index's `indexWeight`; 0 in a listing; sorted results keep
   * the ranking's score.
   */
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
  /** One per page, best first (or in `sort` order, or page order for a listing). */
  results: Result[];
  /**
   * Pages the query matches without `filters`, over every index searched (Pagefind's
   * `unfilteredResultCount`): the pages with a passage the ranking scores above 0. A search
   * without filters, sort or filter pieces loaded asks the ranking for `topK × 8` passages
   * only and counts their pages. A listing matches no term: 0, as Pagefind.
   */
  unfilteredResultCount: number;
  /**
   * For each filter key and value loaded (`filters()`, or named by a search's filters, and
   * `mergeFilter` values), how many of the pages this search matched have it, before the
   * `topK` cut (Pagefind's `filters`); `{}` when none is loaded.
   */
  filters: FilterCounts;
  /**
   * The same counts over the pages the query matches without `filters` (Pagefind's
   * `totalFilters`); zeros for a listing, as Pagefind's.
   */
  totalFilters: FilterCounts;
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

/**
 * Sets the primary index's options (Pagefind's `options()`): `baseUrl`, `indexWeight` and
 * `mergeFilter` take effect at the next search; `basePath` and `language` only before the
 * first search (or init()).
 */
export function options(options: IndexOptions): Promise<void>;

/**
 * Ranks the site's pages for `query`; a page appears once, as its best-scoring passage. A
 * `query` of null or "" lists the pages matching `options.filters` (every page without) in
 * page order, or `options.sort` order, ranked by nothing (Pagefind's `search(null, …)`).
 */
export function search(query: string | null, options?: SearchOptions): Promise<Search>;

/** `search()` after `ms` (default 300) of quiet; resolves to null when a later call superseded this one. */
export function debouncedSearch(query: string | null, options?: SearchOptions, ms?: number): Promise<Search | null>;

/**
 * Every filter key and value of the primary and merged indexes, with how many pages have it,
 * added up (Pagefind's `filters()`); loads every filter piece (once), so later searches give
 * counts too.
 */
export function filters(): Promise<FilterCounts>;

/**
 * The sort keys of the primary and merged indexes (`data-pagefind-sort`), sorted: the keys
 * `SearchOptions.sort` takes. Not in Pagefind's API; fetches nothing.
 */
export function sorts(): Promise<string[]>;

/**
 * Fetches the pieces a search for `query` needs in every index (its words' pieces, and the
 * filter and sort pieces `options` name), ranking nothing (Pagefind's `preload()`).
 */
export function preload(query: string | null, options?: PreloadOptions): Promise<void>;

/**
 * Searches another `hipporag site` build too (Pagefind's `mergeIndex()`): `url` is its
 * `_hipporag/` directory (another origin's needs CORS). Searches and `filters()` then span
 * every index; results merge by score × `indexWeight` (ties: the primary first), each index's
 * scores first × (its match ÷ the best index's)^16, a match being the index's best BM25 score
 * over the query's BM25 upper bound there (in the bm25 mode, each score is its share of that
 * bound). Both sites must be in pieces (lean sites): the primary's search module searches every
 * index.
 */
export function mergeIndex(url: string, options?: MergeIndexOptions): Promise<void>;
