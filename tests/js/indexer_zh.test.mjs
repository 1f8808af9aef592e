// The in-browser indexer with jieba (pkg/indexer-zh/, indexer-wasm's `jieba` feature), which the
// demo's worker loads for Chinese files: on XQuAD's Chinese paragraphs (Simplified) and on the
// Chinese HippoRAG explainer (Traditional, read through zhconv's tables) it must give the bytes
// the native `hipporag index` writes, and the module without jieba (pkg/indexer/) must not: it
// finds only the Latin-script phrases of Chinese text. Needs `./build.sh build`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const data = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const cjk = /[\u3400-\u9fff\uf900-\ufaff]/u;

async function load(dir) {
  // Each build's glue is its own module (a query string keeps Node from sharing one instance).
  const m = await import(`${join(root, "pkg", dir, "hipporag_indexer_wasm.js")}?${dir}`);
  await m.default({ module_or_path: readFileSync(join(root, "pkg", dir, "hipporag_indexer_wasm_bg.wasm")) });
  return m;
}
const zh = await load("indexer-zh");
const plain = await load("indexer");

/** `hipporag index --corpus <passages> --fact-vectors` (the native binary, with jieba). */
function nativeIndex(passages) {
  const dir = mkdtempSync(join(tmpdir(), "hipporag-indexer-zh-"));
  try {
    const corpus = join(dir, "corpus.json");
    writeFileSync(corpus, JSON.stringify(passages));
    const out = join(dir, "native.hipporag");
    execFileSync(join(root, "target", "release", "hipporag"), ["index", "--corpus", corpus, "--out", out, "--fact-vectors"], {
      env: { ...process.env, RUST_LOG: "warn" },
    });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The OpenIE phrases of `passages` that hold a Han character. */
const hanPhrases = (m, passages) =>
  new Set(m.extractOpenie(passages, "zh").flatMap((d) => d.extracted_entities.filter((e) => cjk.test(e))));

test("which module segments Chinese", () => {
  assert.equal(zh.segmentsChinese(), true);
  assert.equal(plain.segmentsChinese(), false);
});

test("XQuAD zh (Simplified): the module with jieba gives the native index's bytes, the one without does not", () => {
  const corpus = JSON.parse(readFileSync(join(data, "multilingual", "xquad_zh_corpus.json"), "utf8"));
  assert.equal(zh.detectLanguage(corpus), "zh");
  const native = nativeIndex(corpus);
  const bytes = zh.buildIndex(corpus, { factVectors: true });
  assert.equal(bytes.length, native.length, "same length");
  assert.ok(Buffer.from(bytes).equals(native), "same bytes");
  assert.ok(!Buffer.from(plain.buildIndex(corpus, { factVectors: true })).equals(native));
  // What differs: jieba's words and names. Without it no phrase holds a Han character.
  const some = corpus.slice(0, 20);
  const words = hanPhrases(zh, some);
  assert.ok(words.size > 100, `${words.size} Chinese phrases in 20 paragraphs`);
  assert.equal(hanPhrases(plain, some).size, 0);
});

test("the Traditional explainer: the same bytes as the native index, its phrases whole words", () => {
  const text = readFileSync(join(data, "multilingual", "hipporag_explainer_zh.txt"), "utf8");
  const passages = text
    .split(/\n\s*\n/)
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => ({ title: "HippoRAG", text: t }));
  const bytes = zh.buildIndex(passages, { factVectors: true });
  assert.ok(Buffer.from(bytes).equals(nativeIndex(passages)), "same bytes");
  // Segmented as Simplified, kept as written (tests/multilingual.rs checks the same natively).
  const phrases = hanPhrases(zh, passages);
  for (const p of ["關鍵信息", "信息檢索", "命名實體", "斯坦福大學"]) assert.ok(phrases.has(p), `${p} is a phrase`);
  for (const f of ["檢索和問", "中的關", "雜關", "檢索結", "算文檔"])
    assert.ok(![...phrases].some((p) => p.includes(f)), `no phrase holds the fragment ${f}`);
});
