// hipporag-encoders.js — the query encoders, keyed by the index header's `encoder.id`, shared by
// the demo (www/src/worker.js, bundled by esbuild) and a site's JS API (hipporag-site.js, served
// as a plain ES module from /_hipporag/, next to this file).
//
// An index is only usable with the encoder it was built with (HippoRAG links query entities to
// phrase nodes by cosine, so both sides must live in the same embedding space). The host reads
// `info.encoder` (the loaded index's header, or a site's hipporag-entry.json) and calls
//
//   encoderFor(info).load(info, ctx) => Promise<{ encode(texts: string[]): Promise<Float32Array>, modelBytes: number }>
//
// `encode` returns texts.length × info.encoder.dim values, row-major. `ctx` says where things
// are, since the demo and a site lay their files out differently:
//
//   ctx.base                    the URL model files are relative to (the demo's site root, a site's /_hipporag/)
//   ctx.fetchBytes(url, stage)  downloads bytes (the demo reports progress to the page, stage "model")
//   ctx.modules.hipporag()      import()s the wrapper (hipporag.js: hashedNgramEncode)
//   ctx.modules.minilm()        import()s the all-MiniLM-L6-v2 module (minilm/hipporag_minilm.js),
//                               called only for an index built with it: nothing of the model is
//                               fetched otherwise
//
// This module imports nothing itself, so Node can load it without the wasm package. A
// model-backed encoder registers here with its files under the host's `models/`.

/** Where the all-MiniLM-L6-v2 files are, relative to `ctx.base` (www/build.mjs puts them there). */
export const MINILM_DIR = "models/all-MiniLM-L6-v2/";
/** The encoder module's wasm, relative to `ctx.base`. */
export const MINILM_WASM = "minilm/hipporag_minilm_bg.wasm";

export const ENCODERS = {
  "hashed-ngram-v1": {
    label: "built in, no model to download",
    async load(info, ctx) {
      const { hashedNgramEncode } = await ctx.modules.hipporag();
      const dim = info.encoder.dim;
      return { encode: async (texts) => hashedNgramEncode(texts, dim), modelBytes: 0 };
    },
  },
  // all-MiniLM-L6-v2 in Rust (candle + tokenizers), its own wasm module (pkg/minilm/), the same
  // numbers as the native indexer's (parity to 1e-4, tested). Model: f32 weights (the demo), or
  // the int8 weights, a quarter the bytes, that `hipporag site --encoder minilm` ships
  // (docs/site.md, "The semantic tier", has the sizes); fetched once.
  "sentence-transformers/all-MiniLM-L6-v2": {
    label: "all-MiniLM-L6-v2 (Rust/candle in WebAssembly)",
    async load(info, ctx) {
      if (!ctx.modules.minilm) throw encoderError(`this page does not ship the all-MiniLM-L6-v2 encoder module, which the index needs`);
      let minilm;
      try {
        minilm = await ctx.modules.minilm();
      } catch (e) {
        throw encoderError(`the all-MiniLM-L6-v2 encoder module, which the index needs, could not be loaded: ${e?.message ?? e}`);
      }
      const { default: initMiniLm, MiniLmEncoder } = minilm;
      const wasm = await ctx.fetchBytes(MINILM_WASM, "model");
      await initMiniLm({ module_or_path: wasm });
      const weights = await ctx.fetchBytes(MINILM_DIR + "model.safetensors", "model");
      const tokenizer = await ctx.fetchBytes(MINILM_DIR + "tokenizer.json", "model");
      const config = await ctx.fetchBytes(MINILM_DIR + "config.json", "model");
      const enc = new MiniLmEncoder(weights, tokenizer, config);
      if (enc.dim !== info.encoder.dim)
        throw new Error(`all-MiniLM-L6-v2 gives ${enc.dim}-d vectors; the index holds ${info.encoder.dim}-d ones`);
      return { encode: async (texts) => enc.encode(texts), modelBytes: wasm.length + weights.length + tokenizer.length + config.length };
    },
  },
};

/** An Error with `kind: "encoder"` (the demo shows it under "This index needs an encoder…"). */
function encoderError(message) {
  return Object.assign(new Error(message), { kind: "encoder" });
}

/** The entry of ENCODERS for `info.encoder.id`; throws an Error (kind "encoder") saying which encoders there are. */
export function encoderFor(info) {
  const id = info?.encoder?.id;
  if (typeof id === "string" && Object.hasOwn(ENCODERS, id)) return ENCODERS[id];
  throw encoderError(
    `this index was built with the encoder "${id}" (dim ${info?.encoder?.dim}), which this page cannot run; ` +
      `it has: ${Object.keys(ENCODERS)
        .map((k) => `"${k}"`)
        .join(", ")}. ` +
      `Rebuild the index with one of them, or add the encoder to www/site/hipporag-encoders.js.`,
  );
}
