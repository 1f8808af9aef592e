// encoders.js — the query encoders the page can run, keyed by the index header's `encoder.id`.
//
// An index is only usable with the encoder it was built with (HippoRAG links query entities to
// phrase nodes by cosine, so both sides must live in the same embedding space). The worker reads
// `info.encoder.id` from the loaded index and calls the matching loader here:
//
//   load(info, ctx) => Promise<{ encode(texts: string[]): Promise<Float32Array>, modelBytes: number }>
//
// `ctx.fetchBytes(url, stage)` downloads with byte progress reported to the page (stage "model"),
// `ctx.base` is the site's base URL. `encode` returns texts.length × info.encoder.dim values,
// row-major. A model-backed encoder registers here with its files under the site's `models/`.
import { hashedNgramEncode } from "../../pkg/hipporag.js";
import initMiniLm, { MiniLmEncoder } from "../../pkg/minilm/hipporag_minilm.js";

/** Where build.mjs puts the all-MiniLM-L6-v2 files (from `./build.sh model`'s cache). */
const MINILM_DIR = "models/all-MiniLM-L6-v2/";

export const ENCODERS = {
  "hashed-ngram-v1": {
    label: "built in, no model to download",
    async load(info) {
      const dim = info.encoder.dim;
      return { encode: async (texts) => hashedNgramEncode(texts, dim), modelBytes: 0 };
    },
  },
  // all-MiniLM-L6-v2 in Rust (candle + tokenizers), its own wasm module (pkg/minilm/), the same
  // numbers as the native indexer's (parity to 1e-4, tested). Model: ~87 MB, fetched once.
  "sentence-transformers/all-MiniLM-L6-v2": {
    label: "all-MiniLM-L6-v2 (Rust/candle in WebAssembly)",
    async load(info, ctx) {
      const wasm = await ctx.fetchBytes("minilm/hipporag_minilm_bg.wasm", "model");
      await initMiniLm({ module_or_path: wasm });
      const weights = await ctx.fetchBytes(MINILM_DIR + "model.safetensors", "model");
      const tokenizer = await ctx.fetchBytes(MINILM_DIR + "tokenizer.json", "model");
      const config = await ctx.fetchBytes(MINILM_DIR + "config.json", "model");
      const enc = new MiniLmEncoder(weights, tokenizer, config);
      if (enc.dim !== info.encoder.dim) throw new Error(`all-MiniLM-L6-v2 gives ${enc.dim}-d vectors; the index holds ${info.encoder.dim}-d ones`);
      return { encode: async (texts) => enc.encode(texts), modelBytes: wasm.length + weights.length + tokenizer.length + config.length };
    },
  },
};

/** The loader for `info.encoder.id`, or an Error saying which encoders this page has. */
export function encoderFor(info) {
  const id = info.encoder.id;
  const e = ENCODERS[id];
  if (e) return e;
  const err = new Error(
    `this index was built with the encoder "${id}" (dim ${info.encoder.dim}), which this page cannot run; ` +
      `it has: ${Object.keys(ENCODERS).map((k) => `"${k}"`).join(", ")}. ` +
      `Rebuild the index with one of them, or add the encoder to www/src/encoders.js.`,
  );
  err.kind = "encoder";
  throw err;
}
