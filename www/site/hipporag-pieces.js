// hipporag-pieces.js — the page's side of a site's index in pieces (`hipporag site` writes
// _hipporag/index/: a meta piece named by its SHA-256, then term, cluster, phrase and fragment
// pieces named by the build id, `{build}-t12.bin`; each a gzip member). hipporag-site.js opens
// it; a page rarely needs this module directly.
//
//   const pieces = await openPieces(new URL("index/<meta>.bin", base), new URL("hipporag_search_bg.wasm", base));
//   const { ranked } = await pieces.search("save a dict as JSON", { mode: "hybrid", topK: 64 });
//   const passage = await pieces.passage(ranked[0].id); // {id, title, url, text}
//
// A query fetches the term pieces of its words (and of the key ranges of the word being typed
// and of a misspelt word: src/expansion.rs) and the phrase pieces of its candidate phrases
// (their PPR vectors: the graph's share), then the IVF cluster pieces its static vector probes,
// then ranks in wasm (hipporag_search_bg.wasm, the same Rust as the native `hipporag`);
// a result's text comes from its fragment piece when asked for. Every piece is fetched once per
// page and gunzipped by the browser, which checks gzip's CRC-32. A missing piece (the site was
// rebuilt while this page held the old index: a new build names its pieces anew) or a damaged
// one rejects with an Error whose `kind` says which ("piece.missing", "format.invalid", …):
// never partial results.
import init, { SplitSearch } from "./hipporag_search.js";

function pieceError(message, kind) {
  const e = new Error(`hipporag: ${message}`);
  e.kind = kind;
  return e;
}

/** The gunzipped bytes of a gzip member, by the browser's own DecompressionStream. */
async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Fetches piece `name` from `dir` and gunzips it. */
async function fetchPiece(dir, name) {
  return unpack(dir, name, await download(dir, name));
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

/** Gunzips stored piece bytes (a damaged piece fails gzip's CRC-32: `format.invalid`). */
async function unpack(dir, name, bytes) {
  try {
    return await gunzip(bytes);
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
  const index = SplitSearch.fromMeta(await unpack(dir, metaName, meta));
  // name → Promise of the gunzipped bytes: a piece is fetched once, even by concurrent queries;
  // a failed fetch is forgotten, so a later query tries again.
  const cache = new Map();
  const fetched = { pieces: 0 };
  const load = (name) => {
    if (!cache.has(name)) {
      fetched.pieces++;
      cache.set(
        name,
        fetchPiece(dir, name).catch((e) => {
          cache.delete(name);
          throw e;
        }),
      );
    }
    return cache.get(name);
  };
  const fragments = new Map();
  return {
    passages: index.passages,
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
      const terms = () =>
        Promise.all([...index.missingTermPieces(question)].map(async (i) => index.addTermPiece(i, await load(index.termPieceName(i)))));
      await Promise.all([
        terms(),
        ...[...index.missingPhrasePieces(question)].map(async (i) => index.addPhrasePiece(i, await load(index.phrasePieceName(i)))),
      ]);
      // A misspelt word is known once its own term piece is loaded, its neighbours (terms one
      // edit away) once its deletes keys' pieces are, and its static neighbours' BM25 terms
      // after those: three more rounds at most, usually none (TERM_PIECE_ROUNDS in Rust).
      for (let round = 0; round < 3 && index.missingTermPieces(question).length > 0; round++) await terms();
      await Promise.all(
        [...index.missingClusterPieces(question)].map(async (c) => index.addClusterPiece(c, await load(index.clusterPieceName(c)))),
      );
      const flat = index.search(question, mode, staticWeight, phraseWeight, topK);
      const ranked = [];
      for (let i = 0; i < flat.length; i += 2) {
        if (flat[i + 1] > 0) ranked.push({ id: flat[i], page: index.pageOf(flat[i]), score: flat[i + 1] });
      }
      return { ranked, ms: performance.now() - t };
    },
    /**
     * The excerpt of a result's `text` for `question` (after its search): segments alternating
     * unmarked and marked plain text, the query's words marked (src/excerpt.rs).
     */
    excerpt(text, question) {
      return index.excerpt(text, question);
    },
    /** Passage `id`'s {id, title, url, text}, from its fragment piece (fetched once). */
    async passage(id) {
      const name = index.fragmentName(id);
      if (!name) throw pieceError(`no passage ${id}`, "request");
      if (!fragments.has(name)) {
        fragments.set(
          name,
          load(name).then((b) => {
            const byId = new Map();
            for (const p of JSON.parse(new TextDecoder().decode(b)).passages) byId.set(p.id, p);
            return byId;
          }),
        );
        fragments.get(name).catch(() => fragments.delete(name));
      }
      const p = (await fragments.get(name)).get(id);
      if (!p) throw pieceError(`${name}: passage ${id} is not in its fragment piece`, "format.invalid");
      return p;
    },
  };
}
