// The encoder registry shared by the demo's worker and a site's JS API
// (www/site/hipporag-encoders.js) in Node: the choice by `encoder.id`, the error for an encoder
// the page lacks, and the MiniLM loader staying lazy (nothing of the model is imported or
// fetched for a hashed-ngram-v1 index). The last test runs the built-in encoder from pkg/ when
// `./build.sh build` has made it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { ENCODERS, MINILM_DIR, MINILM_WASM, encoderFor } from "../../www/site/hipporag-encoders.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const info = (id, dim = 384) => ({ encoder: { id, dim, normalized: true } });
const refuse = (what) => () => {
  throw new Error(`${what} must not be called`);
};

test("encoders are chosen by the index header's encoder.id", () => {
  assert.deepEqual(Object.keys(ENCODERS), ["hashed-ngram-v1", "sentence-transformers/all-MiniLM-L6-v2"]);
  assert.equal(encoderFor(info("hashed-ngram-v1")), ENCODERS["hashed-ngram-v1"]);
  assert.equal(encoderFor(info("sentence-transformers/all-MiniLM-L6-v2")), ENCODERS["sentence-transformers/all-MiniLM-L6-v2"]);
  for (const e of Object.values(ENCODERS)) assert.ok(e.label.length > 10 && typeof e.load === "function");
});

test("an encoder the page lacks: an Error of kind encoder naming it and the ones there are", () => {
  // The message tests/e2e/site.test.mjs expects on the page.
  const expected =
    /^this index was built with the encoder "hashed-ngram-v9" \(dim 384\), which this page cannot run; it has: "hashed-ngram-v1", "sentence-transformers\/all-MiniLM-L6-v2"\. Rebuild/;
  assert.throws(
    () => encoderFor(info("hashed-ngram-v9")),
    (e) => e.kind === "encoder" && expected.test(e.message),
  );
  assert.throws(
    () => encoderFor(info("toString")),
    (e) => e.kind === "encoder",
  );
  assert.throws(
    () => encoderFor({}),
    (e) => e.kind === "encoder" && /encoder "undefined"/.test(e.message),
  );
});

test("hashed-ngram-v1 loads without importing or fetching anything of MiniLM", async () => {
  const calls = [];
  const ctx = {
    base: new URL("https://example.org/_hipporag/"),
    fetchBytes: refuse("fetchBytes"),
    modules: {
      hipporag: async () => ({
        hashedNgramEncode: (texts, dim) => {
          calls.push([texts, dim]);
          return new Float32Array(texts.length * dim);
        },
      }),
      minilm: refuse("the MiniLM import"),
    },
  };
  const { encode, modelBytes } = await encoderFor(info("hashed-ngram-v1", 8)).load(info("hashed-ngram-v1", 8), ctx);
  assert.equal(modelBytes, 0);
  assert.equal((await encode(["a", "b"])).length, 16);
  assert.deepEqual(calls, [[["a", "b"], 8]]);
});

test("all-MiniLM-L6-v2 fetches its module and model files relative to the host, and checks the dimension", async () => {
  const fetched = [];
  const inits = [];
  const ctx = (dim) => ({
    base: new URL("https://example.org/"),
    fetchBytes: async (url, stage) => {
      fetched.push([url, stage]);
      return new Uint8Array(3);
    },
    modules: {
      hipporag: refuse("the wrapper import"),
      minilm: async () => ({
        default: async (o) => inits.push(o),
        MiniLmEncoder: class {
          dim = dim;
          encode = (texts) => new Float32Array(texts.length * dim);
        },
      }),
    },
  });
  const id = "sentence-transformers/all-MiniLM-L6-v2";
  const { encode, modelBytes } = await encoderFor(info(id)).load(info(id), ctx(384));
  assert.deepEqual(fetched, [
    [MINILM_WASM, "model"],
    [MINILM_DIR + "model.safetensors", "model"],
    [MINILM_DIR + "tokenizer.json", "model"],
    [MINILM_DIR + "config.json", "model"],
  ]);
  assert.equal(inits.length, 1);
  assert.ok(inits[0].module_or_path instanceof Uint8Array);
  assert.equal(modelBytes, 12);
  assert.equal((await encode(["q"])).length, 384);
  await assert.rejects(encoderFor(info(id)).load(info(id), ctx(768)), /gives 768-d vectors; the index holds 384-d ones/);
  // A module that cannot be imported, and a host without one, say so.
  await assert.rejects(
    ENCODERS[id].load(info(id), {
      ...ctx(384),
      modules: {
        minilm: async () => {
          throw new TypeError("Failed to fetch dynamically imported module: /_hipporag/minilm/hipporag_minilm.js");
        },
      },
    }),
    (e) => e.kind === "encoder" && /module, which the index needs, could not be loaded: Failed to fetch/.test(e.message),
  );
  await assert.rejects(
    ENCODERS[id].load(info(id), { ...ctx(384), modules: { hipporag: refuse("the wrapper import") } }),
    (e) => e.kind === "encoder" && /does not ship the all-MiniLM-L6-v2 encoder module/.test(e.message),
  );
});

test("hashed-ngram-v1 through the registry = the wrapper's built-in encoder (needs pkg/)", async (t) => {
  const pkg = join(root, "pkg", "hipporag.js");
  if (!existsSync(pkg)) return t.skip("pkg/ is missing: ./build.sh build");
  const mod = await import(pkg);
  await mod.initWasm(readFileSync(join(root, "pkg", "hipporag_wasm_bg.wasm")));
  const i = info("hashed-ngram-v1", 384);
  const { encode } = await encoderFor(i).load(i, {
    base: new URL("file:///"),
    fetchBytes: refuse("fetchBytes"),
    modules: { hipporag: async () => mod },
  });
  const texts = ["Journal of Psychotherapy Integration", "Stanford"];
  assert.deepEqual(await encode(texts), await mod.builtinEncoder(i)(texts));
});
