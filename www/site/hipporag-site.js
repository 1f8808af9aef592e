// hipporag-site.js — the JS API of a site indexed by `hipporag site DIR` (served from
// /_hipporag/), shaped like Pagefind's so sites can draw their own UI:
//
//   const hipporag = await import("/_hipporag/hipporag-site.js");
//   await hipporag.init();                       // optional: search() calls it
//   const s = await hipporag.search("how do I save a dict to a file as JSON?");
//   const first = await s.results[0].data();     // {url, title, excerpt, content, contributions}
//   const latest = await hipporag.debouncedSearch(query, {}, 300); // null when superseded
//
// Everything runs in the page, and the query never leaves the browser. A lean site's index is
// in pieces (hipporag-pieces.js): `init()` fetches the small search module and the meta piece,
// and each search fetches only the pieces its words need, then the fragments of the results
// whose `data()` is asked for. The modes the pieces do not serve (hipporag1, hipporag2, dense)
// load the single-file index when the site has one (`hipporag site --full-index`; a
// semantic-tier site always has). `init({baseUrl})` prefixes result URLs when the site is not
// served at the root of its origin.
import { memo } from "./hipporag-helpers.js";

const here = new URL("./", import.meta.url);
/** What this page holds of the site's search, filled by init(). */
const state = {
  /** Prefix of result URLs (`init({baseUrl})`). */
  baseUrl: "/",
  /** The language `init({language})` asked for, or the page's `<html lang>`. */
  language: "",
  /** The last debouncedSearch() call's number. */
  seq: 0,
  /** hipporag-entry.json, its index the page's language's. */
  entry: null,
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
};

/**
 * Loads hipporag-entry.json and what the first search needs (once): the search module and the
 * meta piece of a site in pieces, else the wasm retriever and the single-file index.
 */
export function init({ baseUrl: b, language } = {}) {
  if (b !== undefined) state.baseUrl = b.endsWith("/") ? b : b + "/";
  if (language !== undefined) state.language = language;
  return start();
}

/** init()'s loading, once (a failed one, a missing file or a network error, is tried again). */
const start = memo(async () => {
  const res = await fetch(new URL("hipporag-entry.json", here));
  if (!res.ok) throw new Error(`hipporag: ${res.url}: HTTP ${res.status}`);
  const tag = state.language || (globalThis.document?.documentElement?.lang ?? "");
  state.entry = ownLanguage(await res.json(), tag);
  state.defaults = state.entry.search ?? {};
  if (state.entry.pieces) {
    const metaUrl = new URL(state.entry.pieces, here);
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
});

/**
 * The entry with its index (pieces and single file) replaced by the one of `tag`'s language
 * when the site has one (`hipporag site` writes one index per `<html lang>`, listed in
 * `languages`), else as it is: the site's default language.
 */
function ownLanguage(entry, tag) {
  let code = String(tag).trim().toLowerCase().split(/[-_]/)[0];
  if (code === "nb" || code === "nn") code = "no"; // Norwegian's analysis is `no`
  // A tag without an analysis of its own is in the generic (`und`) index's `tags`.
  const own = (entry.languages ?? []).find((l) => l.lang === code || (l.tags ?? []).includes(code));
  return own ? { ...entry, pieces: own.pieces ?? null, index: own.index ?? null } : entry;
}

/** The single-file index (loaded once): the wasm retriever, the query encoder, the index. */
const full = memo(async () => {
  const entry = state.entry;
  if (!entry.index) {
    throw new Error(
      "hipporag: this site's index is in pieces only, which serve the hybrid and bm25 modes; rebuild it with `hipporag site --full-index` for hipporag1, hipporag2 and dense",
    );
  }
  const [{ HippoRAG, fetchBytes }, { encoderFor }] = await Promise.all([import("./hipporag.js"), import("./hipporag-encoders.js")]);
  // The query encoder named in the entry (the index header's), from the registry the demo
  // uses too; an encoder this page lacks fails here, before the index is downloaded.
  const info = { encoder: entry.encoder };
  const encoder = encoderFor(info);
  const ctx = {
    base: here,
    fetchBytes: (url) => fetchBytes(new URL(url, here)),
    modules: { hipporag: () => import("./hipporag.js"), minilm: () => import("./minilm/hipporag_minilm.js") },
  };
  let encode;
  if (entry.encoder.id === "hashed-ngram-v1") {
    encode = (await encoder.load(info, ctx)).encode;
  } else {
    // A model-backed encoder: nothing of it is fetched until the first results are shown.
    const model = {
      id: entry.encoder.id,
      ready: false,
      error: null,
      load: memo(() =>
        encoder.load(info, ctx).then(
          (e) => ((model.ready = true), e.encode),
          (e) => {
            model.error = e;
            throw e;
          },
        ),
      ),
    };
    state.model = model;
    encode = async (texts) => (await model.load())(texts);
  }
  return HippoRAG.load({ index: new URL(entry.index, here).href, wasm: new URL("hipporag_wasm_bg.wasm", here), encode });
});

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
 * Returns {query, mode, tier, refined, results: [{id, score, data()}], explanation, timings}.
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
 */
export async function search(query, { topK = 8, mode } = {}) {
  await init();
  const { defaults, pieces } = state;
  const own = !mode || mode === defaults.mode;
  if (pieces && (own || mode === "bm25")) {
    const m = own ? (defaults.mode ?? "hybrid") : mode;
    const res = await pieces.search(query, { mode: m, topK: topK * 8 });
    return shapePieces(query, res, m, topK);
  }
  const rag = await full();
  // The entry's defaults (`hipporag site` writes {mode: "hybrid"}; every weight is the Rust
  // default); another `mode` runs with that mode's own defaults.
  const opts = own ? { topK: topK * 8, ...defaults } : { topK: topK * 8, mode };
  const lexicalMode = opts.mode === "hybrid" || opts.mode === "bm25";
  const { model } = state;
  if (model && !model.ready && lexicalMode) {
    const lean = shape(query, await rag.search(query, { ...opts, useEncoder: false }), topK, "lean", excerptOf(rag, query));
    lean.refined = model.error
      ? Promise.resolve(null)
      : model.load().then(
          () => search(query, { topK, mode }),
          (e) => {
            console.warn(`hipporag: the ${model.id} query encoder could not be loaded; results stay lexical: ${e?.message ?? e}`);
            return null;
          },
        );
    return lean;
  }
  return shape(query, await rag.search(query, opts), topK, model ? "semantic" : "lean", excerptOf(rag, query));
}

/** A result's excerpt segments for `query` from the single file's retriever (src/search/excerpt.rs). */
function excerptOf(rag, query) {
  return (text) => rag.retriever.excerpt(text, query);
}

/**
 * The passage's result data, as both index forms give it; `segments` is its excerpt for the
 * query (src/search/excerpt.rs, from whichever module ranked it).
 */
function resultData(p, contributions, segments) {
  return {
    url: p.url ? state.baseUrl + p.url.replace(/^\//, "") : null,
    title: p.title,
    excerpt: excerptHtml(segments),
    excerptSegments: segments,
    content: p.text,
    contributions,
  };
}

/** The first of `items` of each page (`pageOf(item)`), `topK` of them: one result per page. */
function onePerPage(items, pageOf, topK) {
  const seen = new Set();
  return items.filter((x) => !seen.has(pageOf(x)) && seen.add(pageOf(x))).slice(0, topK);
}

/** The site's view of a search of the index in pieces: one result per page, `topK` of them. */
function shapePieces(query, res, mode, topK) {
  const { pieces } = state;
  const ranked = onePerPage(res.ranked, (r) => r.page, topK);
  return {
    query,
    mode,
    tier: "lean",
    refined: null,
    fallback: null,
    damping: pieces.damping,
    explanation: { entities: [], seeds: [], facts: [], topPhrases: [] },
    timings: { entitiesMs: 0, encodeMs: 0, retrieveMs: res.ms },
    results: ranked.map((r) => ({
      id: r.id,
      score: r.score,
      data: async () => {
        const p = await pieces.passage(r.id);
        return resultData(p, [], pieces.excerpt(p.text, query));
      },
    })),
  };
}

/**
 * The site's view of a HippoRAG.search() result: one result per page, `topK` of them.
 * Its `damping` is the one the search ran with (`res.damping`, the retriever's);
 * `excerpt(text)` gives a result's excerpt segments.
 */
function shape(query, res, topK, tier, excerpt = (text) => [text]) {
  const passages = onePerPage(res.passages, (p) => (p.url ?? `#${p.id}`).split("#")[0], topK);
  return {
    query,
    mode: res.mode,
    tier,
    refined: null,
    fallback: res.fallback ?? null,
    damping: res.damping,
    explanation: { entities: res.entities, seeds: res.seeds, facts: res.facts, topPhrases: res.topPhrases },
    timings: res.timings,
    results: passages.map((p) => ({
      id: p.id,
      score: p.score,
      data: async () => resultData(p, p.contributions, excerpt(p.text)),
    })),
  };
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
