// The in-browser indexer's wasm module (pkg/indexer/, indexer-wasm/) in Node: on musique_train's
// 1,890 passages it must give the bytes `hipporag index --corpus … --fact-vectors` writes (the
// rule extractor, the lexical encoder), and bad input must throw an Error naming what is wrong.
// Needs `./build.sh build` (pkg/ and target/release/hipporag).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const data = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const indexer = await import(join(root, "pkg", "indexer", "hipporag_indexer_wasm.js"));
const wasm = readFileSync(join(root, "pkg", "indexer", "hipporag_indexer_wasm_bg.wasm"));
// The module's exports: its memory only grows, so its size after a build is the build's peak.
const exports = await indexer.default({ module_or_path: wasm });
const corpusPath = join(data, "musique_train", "musique_train_corpus.json");
const { lexiconWords } = await import(join(root, "www", "src", "lexicon.js"));

test("buildIndex on musique_train gives the bytes of the native `hipporag index`", () => {
  const corpus = JSON.parse(readFileSync(corpusPath, "utf8"));
  const stages = [];
  const t0 = performance.now();
  // Its two Thai words read as the demo's worker reads them: the browser's words (here Node's
  // ICU) as the lexicon, which are ICU4X's for these two.
  const lexicon = lexiconWords(corpus);
  const bytes = indexer.buildIndex(corpus, { factVectors: true, lexiconWords: lexicon }, (stage, done, total) => {
    if (stages.at(-1)?.stage !== stage) stages.push({ stage, total });
    assert.ok(done <= total, `${stage}: ${done} of ${total}`);
  });
  const ms = performance.now() - t0;
  const dir = mkdtempSync(join(tmpdir(), "hipporag-indexer-"));
  try {
    const out = join(dir, "native.hipporag");
    execFileSync(join(root, "target", "release", "hipporag"), ["index", "--corpus", corpusPath, "--out", out, "--fact-vectors"], {
      env: { ...process.env, RUST_LOG: "warn" },
    });
    const native = readFileSync(out);
    assert.equal(bytes.length, native.length, "same length");
    assert.ok(Buffer.from(bytes).equals(native), "same bytes");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(
    stages.map((s) => s.stage),
    ["OpenIE", "phrase graph", "encoding phrases", "synonymy edges", "encoding passages", "encoding facts", "BM25 index"],
  );
  assert.equal(stages[0].total, 1890);
  const peakMiB = exports.memory.buffer.byteLength / 2 ** 20;
  console.log(
    `buildIndex: ${corpus.length} passages → ${bytes.length} bytes in ${ms.toFixed(0)} ms (Node, one thread); peak wasm memory ${peakMiB.toFixed(1)} MiB`,
  );
});

test("extraction file by file: the kept documents give the bytes of `hipporag index --openie` with the same documents", () => {
  const corpus = JSON.parse(readFileSync(corpusPath, "utf8"));
  assert.equal(indexer.detectLanguage(corpus), "en");
  // Two "files": the first 1,200 passages and the rest, each extracted with its own statistics.
  const files = [corpus.slice(0, 1200), corpus.slice(1200)];
  const docs = files.flatMap((f) => indexer.extractOpenie(f, "en"));
  assert.equal(docs.length, corpus.length);
  assert.equal(docs[1200].passage, `${corpus[1200].title}\n${corpus[1200].text}`);
  const options = { factVectors: true, lexiconWords: lexiconWords(corpus) };
  const bytes = indexer.buildIndexFromOpenie(corpus, docs, options);
  // The whole corpus extracted as one file is what buildIndex extracts.
  const whole = indexer.buildIndexFromOpenie(corpus, indexer.extractOpenie(corpus, "en"), options);
  assert.ok(Buffer.from(whole).equals(Buffer.from(indexer.buildIndex(corpus, options))), "one file = buildIndex");
  const dir = mkdtempSync(join(tmpdir(), "hipporag-indexer-"));
  try {
    const openie = join(dir, "openie.json");
    writeFileSync(openie, JSON.stringify({ docs }));
    const out = join(dir, "native.hipporag");
    execFileSync(
      join(root, "target", "release", "hipporag"),
      ["index", "--corpus", corpusPath, "--openie", openie, "--out", out, "--fact-vectors"],
      {
        env: { ...process.env, RUST_LOG: "warn" },
      },
    );
    assert.ok(Buffer.from(bytes).equals(readFileSync(out)), "same bytes as the binary from the same documents");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Per-file statistics differ from the corpus's: some sentence-initial words judged otherwise.
  assert.ok(!Buffer.from(bytes).equals(Buffer.from(whole)));
});

test("bad passages and options throw an Error naming the passage or option", () => {
  assert.throws(
    () => indexer.buildIndex([{ title: "A", text: "x" }, { title: "B" }]),
    (e) => e.kind === "request" && /passages\[1\]/.test(e.message) && /text/.test(e.message),
  );
  assert.throws(
    () => indexer.buildIndex([{ title: "A", text: "x" }], { language: "en!" }),
    (e) => e.kind === "request" && /options\.language "en!"/.test(e.message),
  );
  assert.throws(
    () => indexer.buildIndex([{ title: "A", text: "x" }], { factVectorz: true }),
    (e) => e.kind === "request" && /factVectorz/.test(e.message),
  );
  assert.throws(
    () => indexer.buildIndex([]),
    (e) => /no passages/.test(e.message),
  );
  assert.throws(
    () => indexer.extractOpenie([{ title: "A", text: "x" }], "auto"),
    (e) => e.kind === "request" && /language "auto"/.test(e.message),
  );
  assert.throws(
    () => indexer.buildIndexFromOpenie([{ title: "A", text: "x" }], [{ passage: "A\nx", extracted_entities: [] }]),
    (e) => e.kind === "request" && /docs\[0\]/.test(e.message) && /extracted_triples/.test(e.message),
  );
  assert.throws(
    () =>
      indexer.buildIndexFromOpenie(
        [
          { title: "A", text: "x" },
          { title: "B", text: "y" },
        ],
        indexer.extractOpenie([{ title: "A", text: "x" }], "en"),
      ),
    (e) => /1 OpenIE docs for 2 passages/.test(e.message),
  );
});

test("languageReport names a second language that the one index reads with the majority's analysis", () => {
  // XQuAD's 240 German passages with JSQuAD's first 160 Japanese ones, as one user's files.
  const read = (f) => JSON.parse(readFileSync(join(data, "multilingual", f), "utf8"));
  const passages = [...read("xquad_de_corpus.json"), ...read("jsquad_valid_corpus.json").slice(0, 160)];
  const report = indexer.languageReport(passages);
  assert.equal(report.language, "de");
  assert.equal(report.language, indexer.detectLanguage(passages));
  const counts = new Map(report.passages);
  assert.ok(counts.get("de") >= 230 && counts.get("ja") >= 150, JSON.stringify(report.passages));
  assert.deepEqual(report.warnings, [
    {
      code: "ja",
      passages: counts.get("ja"),
      hasAnalysis: true,
      message: `${counts.get("ja")} of 400 passages are in \`ja\`: their words are read as in a \`ja\` index, their phrases with the \`de\` analysis (an index has one)`,
    },
  ]);
  // One language alone: nothing to warn about.
  const en = indexer.languageReport(JSON.parse(readFileSync(corpusPath, "utf8")));
  assert.equal(en.language, "en");
  assert.deepEqual(en.warnings, []);
});

/** `hipporag eval INDEX --questions QUESTIONS --json`'s bm25 R@2 of `bytes`. */
function bm25RecallAt2(bytes, questions) {
  const dir = mkdtempSync(join(tmpdir(), "hipporag-indexer-th-"));
  try {
    const index = join(dir, "index.hipporag");
    writeFileSync(index, bytes);
    const out = execFileSync(join(root, "target", "release", "hipporag"), ["eval", index, "--questions", questions, "--json"], {
      env: { ...process.env, RUST_LOG: "warn" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    return JSON.parse(out).find((m) => m.mode === "bm25").recall[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("Thai with the browser's words (Intl.Segmenter) as the lexicon ranks as `hipporag index` with ICU4X's", () => {
  const corpusTh = join(data, "multilingual", "xquad_th_corpus.json");
  const questions = join(data, "multilingual", "xquad_th.json");
  const corpus = JSON.parse(readFileSync(corpusTh, "utf8"));
  const words = lexiconWords(corpus);
  assert.ok(words.length > 1000, `${words?.length} words`);
  assert.equal(lexiconWords(JSON.parse(readFileSync(corpusPath, "utf8")).slice(0, 100)), undefined, "no Thai: no lexicon");
  const dir = mkdtempSync(join(tmpdir(), "hipporag-indexer-th-"));
  let native;
  try {
    const out = join(dir, "native.hipporag");
    execFileSync(join(root, "target", "release", "hipporag"), ["index", "--corpus", corpusTh, "--out", out], {
      env: { ...process.env, RUST_LOG: "warn" },
    });
    native = readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const withWords = bm25RecallAt2(indexer.buildIndex(corpus, { lexiconWords: words }), questions);
  const without = bm25RecallAt2(indexer.buildIndex(corpus, {}), questions);
  const ofNative = bm25RecallAt2(native, questions);
  // ICU4C's words and ICU4X's differ in a few places, so the bytes do (within a question here).
  assert.ok(withWords > without + 0.003, `R@2 with the browser's words ${withWords}, without a lexicon ${without}`);
  assert.ok(withWords >= ofNative - 0.002, `R@2 with the browser's words ${withWords}, native ${ofNative}`);
});
