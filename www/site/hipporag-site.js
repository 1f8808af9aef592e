// hipporag-site.js — the JS API of a site indexed by `hipporag site DIR` (served from
// /_hipporag/), shaped like Pagefind's so sites can draw their own UI:
//
//   const hipporag = await import("/_hipporag/hipporag-site.js");
//   await hipporag.init();                       // optional: search() calls it
//   const s = await hipporag.search("how do I save a dict to a file as JSON?");
//   const first = await s.results[0].data();     // {url, title, meta, excerpt, content, sub_results, …}
//   const latest = await hipporag.debouncedSearch(query, {}, 300); // null when superseded
//   const docs = await hipporag.search("json", { filters: { section: "library" }, sort: { date: "desc" } });
//   const counts = await hipporag.filters();     // {section: {library: 40, tutorial: 12}}
//   await hipporag.mergeIndex("https://docs.example.com/_hipporag/", { mergeFilter: { site: "Docs" } });
//
// Everything runs in the page, and the query never leaves the browser. A lean site's index is
// in pieces (hipporag-pieces.js): `init()` fetches the small search module and the meta piece,
// and each search fetches only the pieces its words need, then the fragments of the results
// whose `data()` is asked for. The modes the pieces do not serve (hipporag1, hipporag2, dense)
// load the single-file index when the site has one (`hipporag site --full-index`; a
// semantic-tier site always has). `init({baseUrl})` prefixes result URLs when the site is not
// served at the root of its origin.
//
// Filters, sorts and merged indexes (Pagefind's `data-pagefind-filter`, `-sort`, `mergeIndex`)
// live in hipporag-filters.js, imported the first time a search has filters or a sort, filter
// pieces are loaded (`filters()`) or another index is merged: a plain search loads nothing more.
// A filter narrows first (the wasm ranks only the allowed pages' passages); the ranking then
// orders them.
import { memo } from "./hipporag-pieces.js";

const here = new URL("./", import.meta.url);
/** What this page holds of the site's search, filled by init(). */
const state = {
  /**
   * The primary index's options (init(), options()): `basePath` (its `_hipporag/`, by default
   * this module's directory), `baseUrl` (prefix of result URLs), `language` (asked for, else
   * the page's `<html lang>`), `indexWeight`, `mergeFilter`.
   */
  options: { basePath: here, baseUrl: "/", language: "", indexWeight: 1, mergeFilter: {} },
  /** The last debouncedSearch() call's number. */
  seq: 0,
  /** hipporag-entry.json, its index the page's language's. */
  entry: null,
  /** The URL of the primary index's `_hipporag/` (`basePath` when init() ran). */
  base: null,
  /** Search options from hipporag-entry.json's `search` (the mode; weights are the Rust defaults). */
  defaults: {},
  /** The index in pieces (hipporag-pieces.js), when the site has one. */
  pieces: null,
  /**
   * The semantic tier (`hipporag site --encoder minilm`): the query encoder's model, fetched
   * only after the first results are shown. null for a lean site (`hashed-ngram-v1`, built into
   * hipporag.js). `load()` starts the download once and resolves to the encode function.
   */
  model: null,
  /**
   * The indexes searched: the primary (init()) first, then each mergeIndex()'s. Each is
   * `{entry, base, opts: {baseUrl, indexWeight, mergeFilter}, pieces, src, values, sorts}`:
   * `src` serves its passages and pages (its pieces, or the single file's passages on a site
   * without pieces, set when first needed), `values` its loaded filter pieces
   * (`{key: {value: [page ids]}}`), `sorts` its loaded sort pieces by key.
   */
  indexes: [],
};

const slash = (u) => (u.endsWith("/") ? u : u + "/");
const nonEmpty = (o) => o != null && typeof o === "object" && Object.keys(o).length > 0;

/**
 * Loads hipporag-entry.json and what the first search needs (once): the search module and the
 * meta piece of a site in pieces, else the wasm retriever and the single-file index.
 */
export function init({ baseUrl: b, language } = {}) {
  if (b !== undefined) state.options.baseUrl = slash(b);
  if (language !== undefined) state.options.language = language;
  return start();
}

/**
 * Sets the primary index's options, as Pagefind's `options()`: `baseUrl`, `indexWeight` and
 * `mergeFilter` take effect at the next search; `basePath` and `language` only before the
 * first search (or init()), which loads the index they name.
 */
export async function options(opts = {}) {
  for (const [k, v] of Object.entries(opts)) {
    if (k === "baseUrl") state.options.baseUrl = slash(v);
    else if (k === "basePath") state.options.basePath = new URL(slash(String(v)), globalThis.location?.href ?? here);
    else if (k === "indexWeight" || k === "mergeFilter" || k === "language") state.options[k] = v;
    else if (k !== "excerptLength")
      console.warn(`hipporag: unknown option ${k}: options() takes baseUrl, basePath, indexWeight, mergeFilter, language`);
  }
}

/** A new entry in state.indexes. */
function indexOf(entry, base, opts, pieces) {
  return { entry, base, opts, pieces, src: pieces, values: Object.create(null), sorts: Object.create(null) };
}

/** The page's language: init()'s or options()' `language`, else its `<html lang>`. */
const pageLanguage = () => state.options.language || (globalThis.document?.documentElement?.lang ?? "");

/** hipporag-entry.json of the page's language (once; a failed fetch is tried again). */
const loadEntry = memo(async () => {
  const base = (state.base = state.options.basePath);
  const res = await fetch(new URL("hipporag-entry.json", base));
  if (!res.ok) throw new Error(`hipporag: ${res.url}: HTTP ${res.status}`);
  state.entry = ownLanguage(await res.json(), pageLanguage());
  state.defaults = state.entry.search ?? {};
});

/**
 * The primary index as state.indexes' first (made once, by the first of init() and filters(),
 * which needs only the entry and the filter pieces), after the entry.
 */
function primary() {
  state.indexes[0] ??= indexOf(state.entry, state.base, state.options, null);
  return state.indexes[0];
}

/** init()'s loading, once (a failed one, a missing file or a network error, is tried again). */
const start = memo(async () => {
  await loadEntry();
  const base = state.base;
  if (state.entry.pieces) {
    const metaUrl = new URL(state.entry.pieces, base);
    const wasmUrl = new URL("hipporag_pieces_wasm_bg.wasm", here);
    // Everything init needs starts now, side by side: the search module's wasm and the meta
    // piece download while the two JS modules load (the second is the first's import, which
    // the browser would otherwise find only once the first has arrived).
    const started = { wasm: fetch(wasmUrl), meta: fetch(metaUrl) };
    for (const p of Object.values(started)) p.catch(() => {}); // awaited (and reported) by openPieces
    const [{ openPieces }] = await Promise.all([import("./hipporag-pieces.js"), import("./hipporag_pieces_wasm.js")]);
    state.pieces = await openPieces(metaUrl, wasmUrl, started);
  } else {
    await full();
  }
  const ix = primary();
  ix.pieces = ix.src = state.pieces;
});

/**
 * The entry with its index (pieces and single file, filter and sort pieces) replaced by the
 * one of `tag`'s language when the site has one (`hipporag site` writes one index per
 * `<html lang>`, listed in `languages`), else as it is: the site's default language.
 */
function ownLanguage(entry, tag) {
  let code = String(tag).trim().toLowerCase().split(/[-_]/)[0];
  if (code === "nb" || code === "nn") code = "no"; // Norwegian's analysis is `no`
  // A tag without an analysis of its own is in the generic (`und`) index's `tags`.
  const own = (entry.languages ?? []).find((l) => l.lang === code || (l.tags ?? []).includes(code));
  return own
    ? { ...entry, pieces: own.pieces ?? null, index: own.index ?? null, filters: own.filters ?? {}, sorts: own.sorts ?? {} }
    : entry;
}

/** The single-file index (hipporag-full.js' `full()`, loaded once): a HippoRAG instance. */
const full = () => import("./hipporag-full.js").then((m) => m.full(inner()));

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (t) => t.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * An excerpt's segments (alternating unmarked and marked text, src/search/excerpt.rs) as HTML: the
 * marked ones in `<mark>`, every character of the text escaped.
 */
function excerptHtml(segments) {
  return segments.map((s, i) => (i % 2 ? `<mark>${escapeHtml(s)}</mark>` : escapeHtml(s))).join("");
}

/**
 * Ranks the site's pages for `query`, by default in the `hybrid` mode (BM25 over passages fused
 * by page with static word-embedding scores, mixed with the personalized PageRank of the
 * query's phrase nodes, the graph's share decided per query).
 * A page appears once, as its best-scoring passage (linked to that passage's `#anchor`), as
 * Pagefind lists pages: `topK` pages are drawn from the top `topK × 8` passages.
 * Returns {query, mode, tier, refined, results: [{id, score, data()}], explanation, timings,
 * unfilteredResultCount, filters, totalFilters}.
 *
 * A site in pieces answers `hybrid` (with the entry's defaults) and `bm25` from its pieces;
 * another `mode` loads the single-file index and runs with that mode's own defaults
 * (HippoRAG's damping 0.5), or rejects when the site has none.
 *
 * On a semantic-tier site the first searches answer at once from the lean signals (`tier:
 * "lean"`) and start the model's download; `refined` then resolves to the same search with
 * the query's embedding fused in (`tier: "semantic"`), or to null if the model cannot be
 * loaded (the lean results stand; `console.warn` says why). Once the model is in, searches
 * are semantic straight away and `refined` is null.
 *
 * `filters` (Pagefind's syntax, hipporag-filters.js) narrows the ranking to the matching pages;
 * `sort: {key: "asc" | "desc"}` lists every page the ranking scores above 0 in the order of
 * the pages' sort values, pages without one left out; a `query` of null or "" lists the pages
 * matching `filters` (every page without), in page order or `sort` order. Neither is cut at
 * `topK`. A mode only the single file serves ranks every passage and filters after.
 */
export async function search(query, options = {}) {
  await init();
  const { topK = 8, mode, filters, sort } = options;
  const { defaults, pieces } = state;
  const own = !mode || mode === defaults.mode;
  // Filters, a sort, a listing, merged indexes or filter counts to give: hipporag-filters.js's way.
  const narrow = isListing(query) || nonEmpty(filters) || nonEmpty(sort) || state.indexes.length > 1 || counted(state.indexes[0]);
  if (pieces && (own || mode === "bm25" || isListing(query))) {
    const m = own ? (defaults.mode ?? "hybrid") : mode;
    if (narrow) return (await narrowing()).narrowedSearch(inner(), query, options, m, null);
    const res = await pieces.search(query, { mode: m, topK: topK * 8 });
    const hits = byPage(state.indexes[0], res.ranked, (text) => pieces.excerpt(text, query));
    return shaped(query, hits.slice(0, topK), {
      mode: m,
      timings: { entitiesMs: 0, encodeMs: 0, retrieveMs: res.ms },
      unfiltered: hits.length,
    });
  }
  // The single file: hipporag-full.js, imported only by a site without pieces or such a mode.
  return (await import("./hipporag-full.js")).fullSearch(inner(), query, options, { own, narrow });
}

/**
 * hipporag-filters.js, which searches with filters, sorts and listings and over merged
 * indexes: imported when first needed, so that a plain search loads none of it.
 */
const narrowing = () => import("./hipporag-filters.js");

/** What hipporag-filters.js uses of this module's state and helpers. */
const inner = () => ({
  state,
  here,
  init,
  full,
  search,
  narrowing,
  isListing,
  byPage,
  shaped,
  excerptOf,
  ownLanguage,
  pageLanguage,
  indexOf,
});

/** Whether `query` asks for a listing (null or blank): the pages `filters` match, ranked by nothing. */
const isListing = (query) => query == null || String(query).trim() === "";

/** Whether an index gives filter counts (filter pieces loaded, or a mergeFilter): a search then ranks every passage. */
const counted = (ix) => Object.keys(ix.values).length > 0 || nonEmpty(ix.opts.mergeFilter);

/** A result's excerpt segments for `query` from the single file's retriever (src/search/excerpt.rs). */
function excerptOf(rag, query) {
  return (text) => rag.retriever.excerpt(text, query ?? "");
}

/**
 * Ranked passages (`{id, page, score, p?}`, best first; `p` the passage when the ranking gave
 * it) as one hit per page, best first: `{ix, page, id, score, passages, ex}`, its best passage's
 * id and score (× the index's weight), every ranked passage of the page, and `ex(text)` the
 * excerpt segments of a text for the query.
 */
function byPage(ix, ranked, ex) {
  const hits = new Map();
  for (const r of ranked) {
    const hit = hits.get(r.page);
    if (hit) hit.passages.push(r);
    else hits.set(r.page, { ix, page: r.page, id: r.id, score: r.score * ix.opts.indexWeight, p: r.p, passages: [r], ex });
  }
  return [...hits.values()];
}

/** The Search object of `hits` (best first, cut). */
function shaped(
  query,
  hits,
  { mode, tier = "lean", fallback = null, damping, explanation, timings, unfiltered, counts = {}, totals = {} },
) {
  return {
    query,
    mode,
    tier,
    refined: null,
    fallback,
    damping: damping ?? state.pieces?.damping ?? 0,
    explanation: explanation ?? { entities: [], seeds: [], facts: [], topPhrases: [] },
    timings,
    results: hits.map((h) => ({ id: h.id, score: h.score, data: () => pageData(h) })),
    unfilteredResultCount: unfiltered,
    filters: counts,
    totalFilters: totals,
  };
}

/** Result URL `url` (a passage's, with its `#anchor`) under index `ix`'s `baseUrl`. */
const fullUrl = (ix, url) => (url ? ix.opts.baseUrl + url.replace(/^\//, "") : null);

/**
 * Hit `h`'s result data: its best passage (url, title, excerpt, content), its page's record
 * (meta, filters, word_count; from the fragment piece of that passage), and as `sub_results`
 * the page's passages with the query's words (Pagefind's sub-results: its sections with hits)
 * that come with the best one's fragment piece, so that data() fetches one piece: those the
 * ranking scored, by score, then the others by how many query words their excerpt marks.
 */
async function pageData(h) {
  const { ix } = h;
  const p = h.p ?? (await ix.src.passage(h.id));
  const record = typeof h.page === "number" && ix.src ? await ix.src.page(h.page, h.id) : null;
  const segments = h.ex(p.text);
  const piece = typeof h.page === "number" && ix.src?.fragmentOf ? ix.src.fragmentOf(h.id) : null;
  // Without pieces (the single file), every scored passage is at hand already.
  const near = (id) => piece === null || ix.src.fragmentOf(id) === piece;
  const scored = h.passages.filter((s) => s.score > 0 && (s.p || near(s.id)));
  const subs = await Promise.all(scored.map(async (s) => subResult(ix, s.p ?? (await ix.src.passage(s.id)), h.ex)));
  if (piece !== null) {
    const seen = new Set(scored.map((s) => s.id));
    const rest = ix.src.passagesOf(h.page).filter((j) => !seen.has(j) && near(j));
    const more = (await Promise.all(rest.map(async (j) => subResult(ix, await ix.src.passage(j), h.ex)))).filter((s) => s.hits > 0);
    subs.push(...more.sort((a, b) => b.hits - a.hits));
  }
  return {
    url: fullUrl(ix, p.url),
    raw_url: p.url ?? null,
    title: p.title,
    meta: record?.meta ?? { title: p.title.split(" › ")[0] },
    filters: pageFilters(ix, h.page, record),
    excerpt: excerptHtml(segments),
    excerptSegments: segments,
    content: p.text,
    word_count: record?.word_count ?? p.text.split(/\s+/).filter(Boolean).length,
    sub_results: subs.map(({ hits, ...s }) => s),
    contributions: p.contributions ?? [],
  };
}

/**
 * A passage of a result's page, as Pagefind's sub-result: its heading, URL and excerpt, and
 * `hits`, how many query words its excerpt marks (pageData orders by it, then drops it).
 */
function subResult(ix, p, ex) {
  const segments = ex(p.text);
  const anchor = p.url?.split("#")[1];
  return {
    hits: segments.filter((t, i) => i % 2 === 1 && t.trim() !== "").length,
    title: p.title.split(" › ").pop(),
    url: fullUrl(ix, p.url),
    excerpt: excerptHtml(segments),
    excerptSegments: segments,
    ...(anchor ? { anchor: { id: anchor } } : {}),
  };
}

/**
 * The filter values of page `page` of `ix`: its record's (else those its loaded filter pieces
 * tag it with), and the index's `mergeFilter` values, which every page of the index has.
 */
function pageFilters(ix, page, record) {
  const out = {};
  const add = (k, v) => typeof v === "string" && !(out[k] ??= []).includes(v) && out[k].push(v);
  if (record) for (const [k, values] of Object.entries(record.filters ?? {})) values.forEach((v) => add(k, v));
  else
    for (const [k, values] of Object.entries(ix.values)) for (const [v, pages] of Object.entries(values)) pages.includes(page) && add(k, v);
  for (const [k, v] of Object.entries(ix.opts.mergeFilter ?? {})) [v].flat().forEach((x) => add(k, x));
  return out;
}

/**
 * Every filter key and value of the searched indexes, with how many pages each tags:
 * `{key: {value: count}}`, added up over the primary and merged indexes (a `mergeFilter`
 * value counts every page of its index). Loads every filter piece, once; later searches then
 * give counts too.
 */
export async function filters() {
  await loadEntry();
  primary();
  return (await narrowing()).filterCounts(inner());
}

/**
 * The sort keys of the searched indexes (`data-pagefind-sort`), sorted: the keys a search's
 * `sort` takes. Not in Pagefind's API (its UI reads them from its filters); fetches nothing.
 */
export async function sorts() {
  await init();
  return [...new Set(state.indexes.flatMap((ix) => Object.keys(ix.entry.sorts ?? {})))].sort();
}

/**
 * Fetches what a search for `query` (with these `filters` and `sort`) needs from every index in
 * pieces (its words' pieces, the filter and sort pieces) and ranks nothing, as Pagefind's
 * `preload()`: a search box may call it as the visitor types.
 */
export async function preload(query, { filters, sort } = {}) {
  await init();
  const tasks = state.indexes.map((ix) => !isListing(query) && ix.pieces?.preload(query));
  if (nonEmpty(filters) || nonEmpty(sort)) tasks.push((await narrowing()).loadPieces(inner(), filters, sort));
  await Promise.all(tasks);
}

/**
 * Searches another `hipporag site` build too (Pagefind's `mergeIndex`): `url` is its
 * `_hipporag/` directory (another origin's needs CORS). Every later search and filters() span
 * both; results are merged by score × `indexWeight` (ties: the primary first), each index's
 * scores first put on one scale by how well it matches the query (hipporag-filters.js,
 * `MERGE_EXPONENT`: its best BM25 score over the query's BM25 upper bound there). `mergeFilter`
 * values tag every page of that index; `language` picks its index (default: the page's);
 * `baseUrl` prefixes its result URLs (default: the directory holding its `_hipporag/`). The
 * primary site's search module searches every index, so both must be in pieces (lean sites),
 * built by the same version.
 */
export async function mergeIndex(url, options = {}) {
  await init();
  await (await narrowing()).mergeIndex(inner(), url, options);
}

/** search() after `ms` of quiet; resolves to null when a later call superseded this one. */
export function debouncedSearch(query, opts = {}, ms = 300) {
  const mine = ++state.seq;
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      if (mine !== state.seq) return resolve(null);
      search(query, opts).then((r) => resolve(mine === state.seq ? r : null), reject);
    }, ms);
  });
}
