// hipporag-pieces.js — the page's side of a site's index in pieces (`hipporag site` writes
// _hipporag/index/: a meta piece named by its SHA-256, then term, cluster, phrase and fragment
// pieces named by the build id, `{build}-t12.bin`; each a gzip member). hipporag-site.js opens
// it; a page rarely needs this module directly.
//
//   const pieces = await openPieces(new URL("index/<meta>.bin", base), new URL("hipporag_pieces_wasm_bg.wasm", base));
//   const { ranked } = await pieces.search("save a dict as JSON", { mode: "hybrid", topK: 64 });
//   const passage = await pieces.passage(ranked[0].id); // {id, title, url, text}
//   const page = await pieces.page(ranked[0].page);      // {id, url, meta, filters, sort, word_count}, or null
//
// A search asks the wasm module (hipporag_pieces_wasm_bg.wasm, the same Rust as the native
// `hipporag`) which pieces the question needs, fetches them, hands them back, and asks again
// until nothing is missing (src/pieces/planner.rs: the term and phrase pieces of its words,
// then the IVF cluster pieces its static vector probes); then it ranks. A result's text comes
// from its fragment piece when asked for. Every piece is fetched once per page and gunzipped
// by the browser, which checks gzip's CRC-32. A missing piece (the site was rebuilt while this
// page held the old index: a new build names its pieces anew) or a damaged one rejects with an
// Error whose `kind` says which ("piece.missing", "format.invalid", …): never partial results.
//
// A search within a filter passes the allowed pages (`allowedPages`): the ranking scores only
// their passages, normalised over them, and fills `topK` from them. Filter and sort pieces
// (gzipped JSON the entry names by URL) load through `loadPiece`, which needs no wasm.
// `memo` (run once per key) is the one hipporag-site.js, hipporag-filters.js and
// hipporag-full.js use too: a lean site's first search loads no other module for it.
/**
 * `load` wrapped so that it runs once per key: the promise of its first call is kept and
 * shared, even by concurrent callers; a rejected one is forgotten, so a later call tries again.
 * @template K, V
 * @param {(key: K) => Promise<V>} load
 * @returns {(key: K) => Promise<V>}
 */
export function memo(load) {
  const kept = new Map();
  return (key) => {
    if (!kept.has(key)) {
      const p = load(key);
      kept.set(key, p);
      p.catch(() => kept.delete(key));
    }
    return kept.get(key);
  };
}

function pieceError(message, kind) {
  const e = new Error(`hipporag: ${message}`);
  e.kind = kind;
  return e;
}

/** The stored bytes of piece `name` in `dir` (from `started`, its fetch if already begun). */
async function download(dir, name, started) {
  const url = new URL(name, dir);
  let res;
  try {
    res = await (started ?? fetch(url));
  } catch (e) {
    throw pieceError(`${url.pathname}: ${e.message}`, "piece.fetch");
  }
  if (!res.ok) {
    throw pieceError(
      `${url.pathname}: HTTP ${res.status}; the site's search index has changed since this page loaded it: reload the page`,
      "piece.missing",
    );
  }
  return new Uint8Array(await res.arrayBuffer());
}

/** Gunzips stored piece bytes by the browser's DecompressionStream (a damaged piece fails gzip's CRC-32: `format.invalid`). */
async function gunzip(dir, name, bytes) {
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw pieceError(`${new URL(name, dir).pathname}: not a whole gzip member (${e.message})`, "format.invalid");
  }
}

/**
 * The parsed JSON of the gzipped piece at `url` (a filter or sort piece), fetched once per page
 * even by concurrent callers; rejects as a piece does (`piece.missing`, `format.invalid`, …).
 */
export const loadPiece = memo(async (href) => {
  const bytes = await gunzip(href, "", await download(href, ""));
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw pieceError(`${new URL(href).pathname}: not JSON (${e.message})`, "format.invalid");
  }
});

/**
 * Opens the index in pieces whose meta piece is at `metaUrl` (its directory holds the other
 * pieces), with the search module's wasm at `wasmUrl`. `started` may hold the fetches of both
 * already begun (`{wasm, meta}`: promises of their Responses), as hipporag-site.js starts them
 * before this module has loaded.
 */
export async function openPieces(metaUrl, wasmUrl, started = {}) {
  // Imported here, not at the top, so that loadPiece serves a page without the module (a
  // semantic-tier site); hipporag-site.js has already started its download.
  const { default: init, Pieces } = await import("./hipporag_pieces_wasm.js");
  const dir = new URL("./", metaUrl);
  const metaName = metaUrl.pathname.split("/").pop();
  // The meta piece downloads while the module compiles (streaming, from its Response).
  const [, meta] = await Promise.all([init({ module_or_path: started.wasm ?? wasmUrl }), download(dir, metaName, started.meta)]);
  const index = Pieces.fromMeta(await gunzip(dir, metaName, meta));
  const pages = index.pages;
  const pageCount = pages.reduce((n, p) => Math.max(n, p + 1), 0);
  const fetched = { pieces: 0 };
  // A piece's gunzipped bytes, fetched once even by concurrent searches.
  const piece = memo(async (name) => {
    fetched.pieces++;
    return gunzip(dir, name, await download(dir, name));
  });
  // A fragment piece's passages and page records (a site's; none in an index without them) by id.
  const fragment = memo(async (name) => {
    const json = JSON.parse(new TextDecoder().decode(await piece(name)));
    return { passages: new Map(json.passages.map((p) => [p.id, p])), pages: new Map((json.pages ?? []).map((r) => [r.id, r])) };
  });
  // Each page's passages, ascending (built at the first call that needs them).
  let ofPage = null;
  const passagesOf = (pageId) => {
    if (!ofPage) {
      ofPage = Array.from({ length: pageCount }, () => []);
      pages.forEach((p, j) => ofPage[p].push(j));
    }
    return ofPage[pageId] ?? [];
  };
  // The pieces `question` needs, fetched and handed to the module until none is missing.
  const preload = async (question) => {
    for (let need; (need = index.missing(question)).length > 0;) {
      await Promise.all(Array.from(need, async (id) => index.add(id, await piece(index.name(id)))));
    }
  };
  const passage = async (id) => {
    const name = index.fragmentName(id);
    if (!name) throw pieceError(`no passage ${id}`, "request");
    const p = (await fragment(name)).passages.get(id);
    if (!p) throw pieceError(`${name}: passage ${id} is not in its fragment piece`, "format.invalid");
    return p;
  };
  return {
    passages: pages.length,
    /** The page id of each passage (dense, numbered by first appearance of the page's URL). */
    pages,
    /** Pages: one more than the highest page id. */
    pageCount,
    /** The PPR damping factor of the phrase pieces' vectors. */
    damping: index.damping,
    /** Pieces fetched so far (meta excluded). */
    fetched,
    /**
     * Ranks passages for `question`: `{ranked: [{id, page, score}], ms}`, best first, passages
     * with a positive score only. Options left out take the Rust defaults
     * (`RetrieveOptions::default()`: `mode` "hybrid", `staticWeight` 1, the graph's share
     * `phraseWeight` decided per query). `allowedPages` (page ids) ranks only those pages'
     * passages (a filter: the ranking narrows first, then orders); left out, every passage.
     */
    async search(question, { mode, staticWeight, phraseWeight, topK = 64, allowedPages } = {}) {
      const t = performance.now();
      await preload(question);
      const ids = new Uint32Array(topK);
      const scores = new Float64Array(topK);
      const allowed = allowedPages && Uint32Array.from(allowedPages);
      const n = index.search(question, mode, staticWeight, phraseWeight, ids, scores, allowed);
      const ranked = [];
      for (let k = 0; k < n; k++) if (scores[k] > 0) ranked.push({ id: ids[k], page: pages[ids[k]], score: scores[k] });
      return { ranked, ms: performance.now() - t };
    },
    /**
     * `question`'s BM25 upper bound over this index (its pieces fetched first): the score of a
     * passage whose term frequencies saturate every query term (src/search/ranking.rs's
     * `bm25_upper_bound`). A BM25 score over it is the query's match on this index's own scale.
     */
    async bm25UpperBound(question) {
      await preload(question);
      return index.bm25UpperBound(question);
    },
    /** Fetches the pieces `question` needs (its words' term, cluster and phrase pieces), ranks nothing. */
    preload,
    /**
     * The excerpt of a result's `text` for `question` (after its search): segments alternating
     * unmarked and marked plain text, the query's words marked (src/search/excerpt.rs).
     */
    excerpt(text, question) {
      return index.excerpt(text, question);
    },
    /** Passage `id`'s {id, title, url, text}, from its fragment piece (fetched once). */
    passage,
    /** The passage ids of page `pageId`, ascending (empty for no such page). */
    passagesOf,
    /** The name of the fragment piece holding passage `id` (passages of one piece come in one fetch). */
    fragmentOf: (id) => index.fragmentName(id),
    /**
     * Page `pageId`'s record `{id, url, meta, filters, sort, word_count}` (`hipporag site`),
     * from the fragment piece of `passageId` (one of its passages; by default its first): every
     * fragment piece holding a passage of a page holds its record, without what its passages
     * say (docs/index-format.md), filled back in here from that passage: `url` its URL without
     * `#anchor`, `meta.title` its title before the first " › ", empty maps. null for an index
     * written without page records (`hipporag pieces`).
     */
    async page(pageId, passageId = passagesOf(pageId)[0]) {
      const name = passageId === undefined ? undefined : index.fragmentName(passageId);
      if (!name || pages[passageId] !== pageId) throw pieceError(`no passage ${passageId} of page ${pageId}`, "request");
      const f = await fragment(name);
      const r = f.pages.get(pageId);
      if (!r) return null;
      const p = f.passages.get(passageId);
      const meta = { title: p.title.split(" › ")[0], ...r.meta };
      if (meta.title === null) delete meta.title;
      const url = r.url ?? (p.url ?? "").split("#")[0];
      return { id: r.id, url, meta, filters: r.filters ?? {}, sort: r.sort ?? {}, word_count: r.word_count };
    },
  };
}
