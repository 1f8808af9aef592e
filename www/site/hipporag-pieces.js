// hipporag-pieces.js — the page's side of a site's index in pieces (`hipporag site` writes
// _hipporag/index/: a meta piece named by its SHA-256, then term, cluster, phrase and fragment
// pieces named by the build id, `{build}-t12.bin`; each a gzip member). hipporag-site.js opens
// it; a page rarely needs this module directly.
//
//   const pieces = await openPieces(new URL("index/<meta>.bin", base), new URL("hipporag_pieces_wasm_bg.wasm", base));
//   const { ranked } = await pieces.search("save a dict as JSON", { mode: "hybrid", topK: 64 });
//   const passage = await pieces.passage(ranked[0].id); // {id, title, url, text}
//
// A search asks the wasm module (hipporag_pieces_wasm_bg.wasm, the same Rust as the native
// `hipporag`) which pieces the question needs, fetches them, hands them back, and asks again
// until nothing is missing (src/pieces/planner.rs: the term and phrase pieces of its words,
// then the IVF cluster pieces its static vector probes); then it ranks. A result's text comes
// from its fragment piece when asked for. Every piece is fetched once per page and gunzipped
// by the browser, which checks gzip's CRC-32. A missing piece (the site was rebuilt while this
// page held the old index: a new build names its pieces anew) or a damaged one rejects with an
// Error whose `kind` says which ("piece.missing", "format.invalid", …): never partial results.
import init, { Pieces } from "./hipporag_pieces_wasm.js";
import { memo } from "./hipporag-helpers.js";

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
 * Opens the index in pieces whose meta piece is at `metaUrl` (its directory holds the other
 * pieces), with the search module's wasm at `wasmUrl`. `started` may hold the fetches of both
 * already begun (`{wasm, meta}`: promises of their Responses), as hipporag-site.js starts them
 * before this module has loaded.
 */
export async function openPieces(metaUrl, wasmUrl, started = {}) {
  const dir = new URL("./", metaUrl);
  const metaName = metaUrl.pathname.split("/").pop();
  // The meta piece downloads while the module compiles (streaming, from its Response).
  const [, meta] = await Promise.all([init({ module_or_path: started.wasm ?? wasmUrl }), download(dir, metaName, started.meta)]);
  const index = Pieces.fromMeta(await gunzip(dir, metaName, meta));
  const pages = index.pages;
  const fetched = { pieces: 0 };
  // A piece's gunzipped bytes, fetched once even by concurrent searches.
  const piece = memo(async (name) => {
    fetched.pieces++;
    return gunzip(dir, name, await download(dir, name));
  });
  // A fragment piece's passages by id.
  const fragment = memo(async (name) => {
    const byId = new Map();
    for (const p of JSON.parse(new TextDecoder().decode(await piece(name))).passages) byId.set(p.id, p);
    return byId;
  });
  return {
    passages: pages.length,
    /** The PPR damping factor of the phrase pieces' vectors. */
    damping: index.damping,
    /** Pieces fetched so far (meta excluded). */
    fetched,
    /**
     * Ranks passages for `question`: `{ranked: [{id, page, score}], ms}`, best first, passages
     * with a positive score only. Options left out take the Rust defaults
     * (`RetrieveOptions::default()`: `mode` "hybrid", `staticWeight` 1, the graph's share
     * `phraseWeight` decided per query).
     */
    async search(question, { mode, staticWeight, phraseWeight, topK = 64 } = {}) {
      const t = performance.now();
      for (let need; (need = index.missing(question)).length > 0;) {
        await Promise.all(Array.from(need, async (id) => index.add(id, await piece(index.name(id)))));
      }
      const ids = new Uint32Array(topK);
      const scores = new Float64Array(topK);
      const n = index.search(question, mode, staticWeight, phraseWeight, ids, scores);
      const ranked = [];
      for (let k = 0; k < n; k++) if (scores[k] > 0) ranked.push({ id: ids[k], page: pages[ids[k]], score: scores[k] });
      return { ranked, ms: performance.now() - t };
    },
    /**
     * The excerpt of a result's `text` for `question` (after its search): segments alternating
     * unmarked and marked plain text, the query's words marked (src/search/excerpt.rs).
     */
    excerpt(text, question) {
      return index.excerpt(text, question);
    },
    /** Passage `id`'s {id, title, url, text}, from its fragment piece (fetched once). */
    async passage(id) {
      const name = index.fragmentName(id);
      if (!name) throw pieceError(`no passage ${id}`, "request");
      const p = (await fragment(name)).get(id);
      if (!p) throw pieceError(`${name}: passage ${id} is not in its fragment piece`, "format.invalid");
      return p;
    },
  };
}
