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

export const ENCODERS = {
  "hashed-ngram-v1": {
    label: "built in, no model to download",
    async load(info) {
      const dim = info.encoder.dim;
      return { encode: async (texts) => hashedNgramEncode(texts, dim), modelBytes: 0 };
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
