// hipporag-filters.js — the search of hipporag-site.js past a plain one: filters, sorts,
// listings (`search(null)`), filter counts and merged indexes, over page ids (each index's dense
// ids, `Pieces.pages`). hipporag-site.js imports it only when a search has filters or a sort,
// lists, spans merged indexes or gives counts, or on filters(): a plain search loads none of it.
//
//   matchPages({ tag: { Article: [0, 2], Docs: [1] } }, { tag: { any: ["Article", "Docs"] } }, 4); // Uint32Array [0, 1, 2]
//
// A filter piece (`hipporag site`, one per filter key) is `{key, values: {value: [page ids]}}`;
// a sort piece is `{key, numeric, pages: [page ids in ascending order of value]}`, pages without
// the key absent. The filter syntax and its meaning are Pagefind's (pagefind_web/src/filter.rs,
// docs/content/docs/js-api-filtering.md), rewritten here over sets of pages. A filter narrows
// first: the wasm ranks only the allowed pages' passages (`allowedPages`), then the ranking
// orders them; only a mode the single file serves ranks every passage and filters after.
import { loadPiece, memo, openPieces } from "./hipporag-pieces.js";

/**
 * How sharply merged indexes are told apart by how well the query matches each (narrowedSearch):
 * r, an index's best BM25 score over the query's BM25 upper bound there (the score of a
 * passage saturating every query term, a share in [0, 1] on every site's own scale), over the
 * best index's r; its scores × r^MERGE_EXPONENT. Chosen by bench/merge.mjs on the dev halves
 * of Python's docs (CoNaLa) merged with the musique_train site (docs/benchmarks.md, "Several
 * sites merged").
 */
const MERGE_EXPONENT = 16;

const KEYWORDS = new Set(["any", "all", "none", "not"]);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (o, k) => o != null && Object.hasOwn(o, k);

/**
 * The pages of `pageCount` that match `filters` (Pagefind's syntax) over `filterPieces`
 * (`{key: {value: [page ids]}}`, the loaded keys): a Uint32Array of page ids, ascending, or
 * null when `filters` constrains nothing (no filter key in it; Pagefind then filters nothing).
 * `{key: "v"}` matches the pages tagged v; `{key: ["a", "b"]}` those tagged both; inside a key
 * or at the top, `{any: …}` matches one or more of the conditions nested in it, `{all: …}` every
 * one, `{none: …}` and `{not: …}` the pages `any` and `all` would not; the keys of one object are
 * all required. An unknown key or value matches no page; values that are not strings (numbers,
 * booleans, null) are ignored, as Pagefind ignores them. `filters` is read as its JSON
 * (Pagefind sends JSON.stringify(filters) to its wasm).
 */
export function matchPages(filterPieces, filters, pageCount) {
  if (filters === undefined) return null;
  filters = JSON.parse(JSON.stringify(filters));
  if (!isObject(filters) || filterNames(filters).length === 0) return null;
  const set = new PageSets(filterPieces, pageCount).object(filters, true);
  return set && ids(set);
}

/**
 * The filter keys `filters` names (the pieces a search with them needs), in the order met:
 * the keys of its objects but the keywords `any`, `all`, `none` and `not` whose value is an
 * object or an array, which nest further conditions.
 */
export function filterNames(filters) {
  const names = new Set();
  const dig = (v) => {
    if (Array.isArray(v)) for (const x of v) if (typeof x === "object" && x !== null) dig(x);
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (KEYWORDS.has(k) && typeof x === "object" && x !== null) dig(x);
      else names.add(k);
    }
  };
  if (filters !== undefined) dig(JSON.parse(JSON.stringify(filters)));
  return [...names];
}

/** Sets of pages as one byte per page (1: in), combined as Pagefind's filter.rs combines them. */
class PageSets {
  constructor(pieces, n) {
    this.pieces = pieces;
    this.n = n;
  }
  /** The pages tagged `key: value` (none for an unknown key or value). */
  tagged(key, value) {
    const set = new Uint8Array(this.n);
    const pages = has(this.pieces, key) && has(this.pieces[key], value) ? this.pieces[key][value] : [];
    for (const p of pages) if (p < this.n) set[p] = 1;
    return set;
  }
  /** Every set of `sets` joined (`all`: intersection, else union); null when there is none. */
  collapse(sets, all) {
    if (sets.length === 0) return null;
    const out = sets[0].slice();
    for (const s of sets.slice(1)) for (let p = 0; p < this.n; p++) out[p] = all ? out[p] & s[p] : out[p] | s[p];
    return out;
  }
  /** `set` with `none`/`not` applied (the pages it does not hold) when `keyword` says so. */
  negated(keyword, set) {
    if (set && (keyword === "none" || keyword === "not")) for (let p = 0; p < this.n; p++) set[p] ^= 1;
    return set;
  }
  /** An object of conditions: keys are filter keys, or keywords nesting objects or arrays. */
  object(obj, all) {
    const sets = [];
    for (const [k, v] of Object.entries(obj)) {
      const nested = KEYWORDS.has(k) && typeof v === "object" && v !== null;
      const joinAll = k === "all" || k === "not";
      const set = !nested ? this.value(k, v, true) : Array.isArray(v) ? this.array(v, joinAll) : this.object(v, joinAll);
      if (set) sets.push(this.negated(k, set));
    }
    return this.collapse(sets, all);
  }
  /** An array of condition objects (its other items are skipped). */
  array(arr, all) {
    return this.collapse(
      arr
        .filter(isObject)
        .map((o) => this.object(o, true))
        .filter(Boolean),
      all,
    );
  }
  /** The value given for filter `key`: a string, an array (all of it), or keywords nesting these. */
  value(key, v, all) {
    if (typeof v === "string") return this.tagged(key, v);
    const sets = [];
    if (Array.isArray(v)) {
      for (const x of v) {
        const set = typeof x === "string" ? this.tagged(key, x) : isObject(x) ? this.value(key, x, true) : null;
        if (set) sets.push(set);
      }
    } else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (!KEYWORDS.has(k) || !(typeof x === "string" || (typeof x === "object" && x !== null))) continue;
        const set = this.value(key, x, k === "all" || k === "not");
        if (set) sets.push(this.negated(k, set));
      }
    } else {
      return null;
    }
    return this.collapse(sets, all);
  }
}

/** The page ids of a set, ascending. */
function ids(set) {
  const out = [];
  for (let p = 0; p < set.length; p++) if (set[p]) out.push(p);
  return Uint32Array.from(out);
}

/**
 * `filterPieces` with an index's `mergeFilter` (Pagefind's: `{key: "v"}` or `{key: ["a", "b"]}`)
 * added: each of its values tags every one of the index's `pageCount` pages.
 */
export function withMergeFilter(filterPieces, mergeFilter, pageCount) {
  const out = { ...filterPieces };
  for (const [key, v] of Object.entries(mergeFilter ?? {})) {
    const every = Array.from({ length: pageCount }, (_, p) => p);
    out[key] = { ...out[key] };
    for (const value of typeof v === "string" ? [v] : Array.isArray(v) ? v : []) if (typeof value === "string") out[key][value] = every;
  }
  return out;
}

/**
 * How many of `pages` (page ids; null: every page) each key and value of `filterPieces` tags:
 * `{key: {value: count}}`, as Pagefind's `filters()` and a search's `filters`/`totalFilters`.
 */
export function countFilters(filterPieces, pages) {
  const wanted = pages && new Set(pages);
  const out = {};
  for (const key of Object.keys(filterPieces).sort()) {
    out[key] = {};
    for (const [value, tagged] of Object.entries(filterPieces[key]))
      out[key][value] = wanted ? tagged.filter((p) => wanted.has(p)).length : tagged.length;
  }
  return out;
}

/**
 * Counts of several indexes added up, key by key and value by value (Pagefind's
 * `mergeFilters`), keys and values in sorted order whatever order their pieces arrived in, as
 * Pagefind gives them.
 */
export function mergeCounts(counts) {
  const sum = {};
  for (const c of counts) {
    for (const [key, values] of Object.entries(c)) {
      sum[key] ??= {};
      for (const [value, n] of Object.entries(values)) sum[key][value] = (sum[key][value] ?? 0) + n;
    }
  }
  const out = {};
  for (const key of Object.keys(sum).sort()) {
    out[key] = {};
    for (const value of Object.keys(sum[key]).sort()) out[key][value] = sum[key][value];
  }
  return out;
}

/**
 * Each page of sort piece `piece` (`{key, numeric, pages}`, ascending order of value) and its
 * place in the order `direction` asks (`"asc"`, else descending, as Pagefind reads any other
 * word): a Map from page id to a number in [0, 1), its rank over the pages with the key, so
 * that indexes of different sizes interleave. A page without the key is not in it; an index
 * without the sort key (`piece` undefined) gives an empty Map.
 */
export function sortPlaces(piece, direction) {
  const order = piece?.pages ?? [];
  const n = order.length;
  return new Map(Array.from(order, (p, k) => [p, (direction === "asc" ? k : n - 1 - k) / n]));
}

/**
 * The single file's passages served as the index in pieces serves them (`src` of a site
 * without pieces, the semantic tier), once: every passage in id order (a BM25 ranking of no
 * word scores each 0, and ties go by id) and its page id (src/index/format.rs's
 * `passage_pages`: pages numbered by first appearance of their URL without `#anchor`).
 */
const fileSource = memo(async (rag) => {
  const n = rag.info.counts.passages;
  const all = (await rag.search("", { mode: "bm25", topK: n, useEncoder: false })).passages.sort((a, b) => a.id - b.id);
  const ids = new Map();
  let next = 0;
  const pages = Uint32Array.from(all, (p) => {
    const page = (p.url ?? "").split("#")[0];
    if (!page) return next++;
    if (!ids.has(page)) ids.set(page, next++);
    return ids.get(page);
  });
  const ofPage = Array.from({ length: next }, () => []);
  pages.forEach((p, j) => ofPage[p].push(j));
  return {
    passages: n,
    pages,
    pageCount: next,
    damping: 0,
    passage: async (id) => all[id],
    passagesOf: (pageId) => ofPage[pageId] ?? [],
    page: async () => null,
    excerpt: (text, question) => rag.retriever.excerpt(text, question),
  };
});

/**
 * hipporag-site.js's search() with filters, a sort or a listing, over merged indexes, or with
 * filter counts to give (`site`: its indexes and helpers): each index narrowed to
 * the pages its filter pieces match, ranked over them (every passage asked for, so that counts
 * and sorts see every page scored), merged by score (ties: the primary first), cut at `topK`
 * only when ranked without a sort. `file` is the single file's ranking (`{rag, opts, tier}`)
 * for a mode the pieces do not serve, or on a site without pieces.
 */
export async function narrowedSearch(site, query, { filters, sort, topK = 8 }, mode, file) {
  const t = performance.now();
  const listing = site.isListing(query);
  let [sortKey] = Object.keys(sort ?? {}); // one sort, the first, as Pagefind
  const direction = sortKey === undefined ? undefined : sort[sortKey];
  if (sortKey !== undefined && direction !== "asc" && direction !== "desc")
    console.warn(`hipporag: sort direction ${direction} is not asc or desc: sorting desc`);
  // A mode only the single file serves searches the primary index alone (merged indexes are pieces).
  const indexes = site.state.indexes.filter((ix, i) => i === 0 || listing || mode === "hybrid" || mode === "bm25");
  await Promise.all(indexes.map((ix) => load(site, ix, filterNames(filters), sortKey)));
  if (sortKey !== undefined && !indexes.some((ix) => ix.sorts[sortKey])) {
    console.warn(`hipporag: no index has the sort key ${sortKey}: the results keep the ranking's order`);
    sortKey = undefined;
  }
  const ranking = file && !listing ? await file.rag.search(query, { ...file.opts, topK: file.rag.info.counts.passages }) : null;
  const q = { query, listing, filters, sortKey, direction, mode, ranking, rag: file?.rag };
  const parts = await Promise.all(indexes.map((ix, i) => part(site, ix, i === 0 ? q : { ...q, ranking: null })));
  // Across merged indexes, each one's hybrid scores are scaled by how well its best passage
  // matches the query: (r / the best index's r)^MERGE_EXPONENT, r its top BM25 score over the
  // query's BM25 upper bound there. The hybrid scores are shares of one index's ranking, alike
  // at each rank in every index, so an index the question does not concern would otherwise
  // interleave with the one it does. Raw BM25 scores are not comparable across sites: a site's
  // heading weights and size move them (docs/tuning.md, "Heading weights").
  const best = Math.max(...parts.map((p) => p.best));
  if (parts.length > 1 && best > 0) for (const p of parts) for (const h of p.hits) h.score *= (p.best / best) ** MERGE_EXPONENT;
  let hits = parts.flatMap((p) => p.hits);
  if (sortKey !== undefined) hits.sort((a, b) => a.at - b.at);
  else if (!listing) hits = hits.sort((a, b) => b.score - a.score).slice(0, topK);
  return site.shaped(query, hits, {
    mode: ranking?.mode ?? mode,
    tier: listing ? "lean" : file?.tier,
    fallback: ranking?.fallback ?? null,
    damping: ranking?.damping,
    explanation: ranking && { entities: ranking.entities, seeds: ranking.seeds, facts: ranking.facts, topPhrases: ranking.topPhrases },
    timings: ranking?.timings ?? { entitiesMs: 0, encodeMs: 0, retrieveMs: performance.now() - t },
    unfiltered: parts.reduce((n, p) => n + p.unfiltered, 0),
    counts: mergeCounts(parts.map((p) => p.counts)),
    totals: mergeCounts(parts.map((p) => p.totals)),
  });
}

/**
 * One index's share of narrowedSearch(): its hits (each with `at`, its place in the sort, when
 * sorted), how many pages the query matches without filters, the filter counts over its
 * hits (`counts`) and over the pages matched without filters (`totals`), Pagefind's `filters`
 * and `totalFilters`, and `best`, the top BM25 score of its passages the filter allows over the
 * query's BM25 upper bound when several indexes are searched in pieces in the hybrid mode (1
 * otherwise; in the bm25 mode every score is then over that bound).
 */
async function part(site, ix, q) {
  const src = ix.src;
  const n = src.pageCount;
  const values = withMergeFilter(ix.values, ix.opts.mergeFilter, n);
  const allowed = matchPages(values, q.filters, n); // null: every page
  const ex = q.ranking ? site.excerptOf(q.rag, q.query) : (text) => src.excerpt(text, q.query ?? "");
  let hits, every;
  let best = 1;
  if (q.listing) {
    // No term, so (as Pagefind) no page matched without filters: 0 and zero totals.
    const pages = allowed ?? Array.from({ length: n }, (_, p) => p);
    hits = Array.from(pages, (page) => ({ ix, page, id: src.passagesOf(page)[0], score: 0, passages: [], ex }));
    every = [];
  } else if (q.ranking) {
    // The single file ranked every passage; the filter applies after.
    const scored = q.ranking.passages.filter((p) => p.score > 0).map((p) => ({ id: p.id, page: src.pages[p.id], score: p.score, p }));
    every = site.byPage(ix, scored, ex);
    const inside = allowed && new Set(allowed);
    hits = inside ? every.filter((h) => inside.has(h.page)) : every;
  } else {
    const rank = async (allowedPages) =>
      site.byPage(ix, (await src.search(q.query, { mode: q.mode, topK: src.passages, allowedPages })).ranked, ex);
    hits = await rank(allowed ?? undefined);
    every = allowed ? await rank(undefined) : hits;
    // For narrowedSearch's merge of indexes: its best passage's BM25 score under the filter
    // over the query's upper bound here; a BM25 search's own scores become shares of it.
    if (site.state.indexes.length > 1) {
      const bound = await src.bm25UpperBound(q.query);
      if (q.mode === "bm25") {
        for (const h of new Set([...hits, ...every])) h.score = bound > 0 ? h.score / bound : 0;
      } else {
        const top = (await src.search(q.query, { mode: "bm25", topK: 1, allowedPages: allowed ?? undefined })).ranked[0]?.score ?? 0;
        best = bound > 0 ? top / bound : 0;
      }
    }
  }
  const counts = countFilters(values, pagesOf(hits));
  const totals = countFilters(values, pagesOf(every));
  if (q.sortKey !== undefined) {
    const places = sortPlaces(ix.sorts[q.sortKey], q.direction);
    hits = hits.filter((h) => places.has(h.page));
    for (const h of hits) h.at = places.get(h.page);
  }
  return { hits, unfiltered: every.length, counts, totals, best };
}

const pagesOf = (hits) => hits.map((h) => h.page);

/**
 * Loads what a search of index `ix` with filter keys `names` and sort key `sortKey` needs:
 * the filter and sort pieces its entry lists for them (once; a key it lacks stays unknown),
 * and, on a site without pieces, the single file's passages and pages.
 */
async function load(site, ix, names, sortKey) {
  ix.src ??= await fileSource(await site.full());
  await Promise.all([
    loadFilters(ix, names),
    sortKey !== undefined && !(sortKey in ix.sorts) && piece(ix, "sorts", sortKey).then((p) => p && (ix.sorts[sortKey] = p)),
  ]);
}

/** Index `ix`'s `kind` (`filters` or `sorts`) piece of `key`, as its entry lists it (null when it lists none). */
async function piece(ix, kind, key) {
  if (!Object.hasOwn(ix.entry[kind] ?? {}, key)) return null;
  const url = new URL(ix.entry[kind][key], ix.base).href;
  const json = await loadPiece(url);
  if (json?.key !== key) throw Object.assign(new Error(`hipporag: ${url}: not the ${kind} piece of ${key}`), { kind: "format.invalid" });
  return json;
}

/** Loads index `ix`'s filter pieces of the keys `names` (once; a key it lacks stays unknown). */
async function loadFilters(ix, names) {
  await Promise.all(
    names
      .filter((k) => !(k in ix.values))
      .map(async (k) => {
        const p = await piece(ix, "filters", k);
        if (p) ix.values[k] = p.values;
      }),
  );
}

/** Loads the filter and sort pieces `filters` and `sort` name in every index (preload()). */
export async function loadPieces(site, filters, sort) {
  await Promise.all(site.state.indexes.map((ix) => load(site, ix, filterNames(filters), Object.keys(sort ?? {})[0])));
}

/**
 * filters(): every filter piece of every index loaded, and its pages counted, added up. It
 * needs the entry and the filter pieces alone; only an index with a `mergeFilter` (every page
 * of it tagged) needs its page count, and so its search module and meta piece (init()).
 */
export async function filterCounts(site) {
  const counts = await Promise.all(
    site.state.indexes.map(async (ix) => {
      await loadFilters(ix, Object.keys(ix.entry.filters ?? {}));
      const merged = Object.keys(ix.opts.mergeFilter ?? {}).length > 0;
      if (merged && !ix.src) await site.init();
      return countFilters(merged ? withMergeFilter(ix.values, ix.opts.mergeFilter, ix.src.pageCount) : ix.values, null);
    }),
  );
  return mergeCounts(counts);
}

const slash = (u) => (u.endsWith("/") ? u : u + "/");

/**
 * hipporag-site.js's mergeIndex(): opens the index of the `hipporag site` build whose
 * `_hipporag/` is at `url` (its language's, as init() picks) with the primary's search module,
 * and adds it to the indexes searched.
 */
export async function mergeIndex(site, url, { indexWeight = 1, mergeFilter = {}, language, baseUrl } = {}) {
  const { state } = site;
  const page = globalThis.location?.href ?? site.here;
  const base = new URL(slash(String(url)), page);
  if (state.indexes.some((ix) => ix.base.href === base.href)) {
    console.warn(`hipporag: mergeIndex(${url}): that index is searched already`);
    return;
  }
  const res = await fetch(new URL("hipporag-entry.json", base));
  if (!res.ok) throw new Error(`hipporag: ${res.url}: HTTP ${res.status}`);
  const entry = site.ownLanguage(await res.json(), language ?? site.pageLanguage());
  if (!entry.pieces || !state.pieces) {
    throw new Error(
      `hipporag: mergeIndex(${url}): both sites' indexes must be in pieces (lean sites; a semantic-tier site searches its single file)`,
    );
  }
  // The primary's search module, initialised by init(), opens this index's meta piece too.
  const pieces = await openPieces(new URL(entry.pieces, base), new URL("hipporag_pieces_wasm_bg.wasm", site.here));
  // By default its results are under the directory holding its _hipporag/ (with the origin when another's).
  const dir = base.pathname.replace(/_?hipporag\/$/, "");
  const sameOrigin = base.origin === new URL(page).origin;
  const opts = { baseUrl: baseUrl !== undefined ? slash(baseUrl) : sameOrigin ? dir : new URL(dir, base).href, indexWeight, mergeFilter };
  state.indexes.push(site.indexOf(entry, base, opts, pieces));
}
