// The all-MiniLM-L6-v2 encoder's own wasm module, as pages load it (pkg/minilm/, which
// `./build.sh build` and `./build.sh test` write), in Node: the 44 reference strings of
// ../shared/data/encoder/minilm_reference.json must reach cosine ≥ 0.999 with the independent
// implementation's vectors, and agree with the native encoder's vectors
// (target/fixtures/minilm_native.json, written by `cargo test -p hipporag-minilm`, which
// `./build.sh test` runs first) to 1e-4 in every component. Bad model bytes throw, naming the
// file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const modelDir = process.env.HIPPORAG_MODEL_DIR ?? join(process.env.HOME, ".cache", "hipporag-wasm", "all-MiniLM-L6-v2");
const reference = join(root, "..", "shared", "data", "encoder", "minilm_reference.json");
const nativeFixture = join(root, "target", "fixtures", "minilm_native.json");

const { default: init, MiniLmEncoder } = await import(join(root, "pkg", "minilm", "hipporag_minilm.js"));
await init({ module_or_path: readFileSync(join(root, "pkg", "minilm", "hipporag_minilm_bg.wasm")) });
const modelFile = (f) => new Uint8Array(readFileSync(join(modelDir, f)));

function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

test("pkg/minilm's vectors match the reference and the native encoder's", () => {
  assert.ok(existsSync(nativeFixture), `${nativeFixture} is missing: run cargo test --release -p hipporag-minilm first`);
  const enc = new MiniLmEncoder(modelFile("model.safetensors"), modelFile("tokenizer.json"), modelFile("config.json"));
  assert.equal(enc.dim, 384);
  assert.equal(enc.id, "sentence-transformers/all-MiniLM-L6-v2");
  const { texts, vectors } = JSON.parse(readFileSync(reference, "utf8"));
  const native = JSON.parse(readFileSync(nativeFixture, "utf8"));
  assert.equal(texts.length, 44);
  assert.equal(native.length, texts.length);
  const got = enc.encode(texts);
  assert.equal(got.length, texts.length * 384);
  let maxDiff = 0;
  texts.forEach((t, i) => {
    const row = got.subarray(i * 384, (i + 1) * 384);
    const c = cosine(row, vectors[i]);
    assert.ok(c >= 0.999, `${JSON.stringify(t)}: cosine ${c} with the reference`);
    row.forEach((x, k) => (maxDiff = Math.max(maxDiff, Math.abs(x - native[i][k]))));
  });
  assert.ok(maxDiff <= 1e-4, `wasm vs native: max component difference ${maxDiff}`);
  enc.free();
});

test("pkg/minilm: bad model bytes throw, naming the file", () => {
  const tokenizer = modelFile("tokenizer.json");
  const config = modelFile("config.json");
  assert.throws(() => new MiniLmEncoder(new TextEncoder().encode("nope"), tokenizer, config), /safetensors/);
  assert.throws(() => new MiniLmEncoder(new Uint8Array(), new TextEncoder().encode("{"), config), /safetensors|tokenizer/);
});
