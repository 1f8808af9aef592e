// hipporag-full.js — the single-file index's side of hipporag-site.js, imported only by a site
// without pieces (`hipporag site --encoder minilm`: the semantic tier) or by a search in a mode
// the pieces do not serve (hipporag1, hipporag2, dense; `hipporag site --full-index`): the
// wasm retriever (hipporag.js), the query encoder the entry names, the index, and search()
// over them. A lean site's plain search never loads it. `site` is hipporag-site.js' state and
// helpers (its `inner()`).
import { memo } from "./hipporag-pieces.js";

/** hipporag-site.js' state and helpers, from the first call. */
let site = null;

/** The single-file index (loaded once): the wasm retriever, the query encoder, the index. */
const load = memo(async () => {
  const { state, here } = site;
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
  return HippoRAG.load({ index: new URL(entry.index, state.base).href, wasm: new URL("hipporag_wasm_bg.wasm", here), encode });
});

/** The single-file index of `s` (hipporag-site.js' inner()), loaded once: a HippoRAG instance. */
export function full(s) {
  site ??= s;
  return load();
}

/**
 * hipporag-site.js' search() over the single file (`own`: the entry's mode; `narrow`: filters,
 * a sort, a listing or merged indexes, which hipporag-filters.js serves).
 */
export async function fullSearch(s, query, options, { own, narrow }) {
  site ??= s;
  const { state, narrowing, excerptOf, isListing } = site;
  const { topK = 8, mode } = options;
  const { defaults } = state;
  const rag = await full(site);
  // The entry's defaults (`hipporag site` writes {mode: "hybrid"}; every weight is the Rust
  // default); another `mode` runs with that mode's own defaults.
  const opts = own ? { topK: topK * 8, ...defaults } : { topK: topK * 8, mode };
  const lexicalMode = opts.mode === "hybrid" || opts.mode === "bm25";
  const { model } = state;
  const run = async (useEncoder, tier) => {
    const o = useEncoder ? opts : { ...opts, useEncoder: false };
    if (narrow) return (await narrowing()).narrowedSearch(site, query, options, opts.mode ?? "hybrid", { rag, opts: o, tier });
    return shape(query, await rag.search(query, o), topK, tier, excerptOf(rag, query));
  };
  if (model && !model.ready && lexicalMode && !isListing(query)) {
    const lean = await run(false, "lean");
    lean.refined = model.error
      ? Promise.resolve(null)
      : model.load().then(
          () => site.search(query, options),
          (e) => {
            console.warn(`hipporag: the ${model.id} query encoder could not be loaded; results stay lexical: ${e?.message ?? e}`);
            return null;
          },
        );
    return lean;
  }
  return run(true, model ? "semantic" : "lean");
}

/**
 * The site's view of a HippoRAG.search() result: one result per page, `topK` of them.
 * Its `damping` is the one the search ran with (`res.damping`, the retriever's);
 * `ex(text)` gives a result's excerpt segments.
 */
function shape(query, res, topK, tier, ex) {
  const { state, byPage, shaped } = site;
  const { pieces } = state;
  const page = (p) => (pieces ? pieces.pages[p.id] : (p.url ?? `#${p.id}`).split("#")[0]);
  const hits = byPage(
    state.indexes[0],
    res.passages.map((p) => ({ id: p.id, page: page(p), score: p.score, p })),
    ex,
  );
  return shaped(query, hits.slice(0, topK), {
    mode: res.mode,
    tier,
    fallback: res.fallback ?? null,
    damping: res.damping,
    explanation: { entities: res.entities, seeds: res.seeds, facts: res.facts, topPhrases: res.topPhrases },
    timings: res.timings,
    unfiltered: new Set(res.passages.filter((p) => p.score > 0).map(page)).size,
  });
}
