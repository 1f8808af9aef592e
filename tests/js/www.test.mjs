// The page's pure helpers in Node: phrase highlighting against src/normalize.rs's normalisation,
// and the choice of activated-subgraph nodes, on real results from the real index.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { phraseSpans, normalizeWithMap } from "../../www/src/highlight.js";
import { activatedPhrases, subgraphModel } from "../../www/src/activated.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { HippoRAG } = await import(join(root, "pkg", "hipporag.js"));
const wasm = readFileSync(join(root, "pkg", "hipporag_wasm_bg.wasm"));
const indexBytes = new Uint8Array(readFileSync(join(root, "out", "musique_train.hipporag")));

test("normalisation in JS matches the index's phrase keys", async () => {
  // The same examples as src/normalize.rs's doc test.
  assert.equal(normalizeWithMap("  Thomas C. Südhof ").norm, "thomas c sudhof");
  assert.equal(normalizeWithMap("Москва").norm, "москва");
  assert.equal(normalizeWithMap("東京都").norm, "東京都");
  assert.equal(normalizeWithMap("--").norm, "");
  // Contributing phrases of real results are found in their passages, more than 90% of them
  // over the 100 questions; the rest are OpenIE paraphrases absent from the text
  // (docs/tuning.md, "Measurements behind the code", has the count).
  const rag = await HippoRAG.load({ index: indexBytes, wasm });
  const data = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
  const questions = JSON.parse(readFileSync(join(data, "musique_train", "musique_train.json"), "utf8"));
  let found = 0;
  let total = 0;
  for (const q of questions) {
    for (const p of (await rag.search(q.question)).passages) {
      for (const c of p.contributions) {
        total++;
        if (phraseSpans(`${p.title}\n${p.text}`, [c.phrase]).length) found++;
      }
    }
  }
  assert.ok(found / total > 0.9, `${found}/${total} contributing phrases located in their passages`);
});

test("normalisation in JS gives the phrase keys of every shared case (tests/cases/normalize.rs)", () => {
  // The cases the native and wasm tests hold normalize_phrase to: `("input", "key"),` with
  // Rust's `\u{…}` escapes.
  const rust = readFileSync(join(root, "tests", "cases", "normalize.rs"), "utf8");
  const block = rust.slice(rust.indexOf("pub const CASES"), rust.indexOf("pub const FOLD_CASES"));
  const unescape = (s) => s.replace(/\\u\{([0-9a-fA-F]+)\}/g, (_, h) => String.fromCodePoint(parseInt(h, 16)));
  const cases = [...block.matchAll(/\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)",?\s*\)/g)].map((m) => [unescape(m[1]), unescape(m[2])]);
  assert.ok(cases.length >= 15, `${cases.length} cases read`);
  for (const [input, key] of cases) assert.equal(normalizeWithMap(input).norm, key, JSON.stringify(input));
  // A phrase with a stroke letter is found in text that writes it with or without.
  const text = "Łódź lies west of Warsaw; Lodz is its English spelling.";
  assert.deepEqual(
    phraseSpans(text, ["lodz"]).map((s) => text.slice(s.start, s.end)),
    ["Łódź", "Lodz"],
  );
});

test("phrase spans map back to the original text on word boundaries", () => {
  const text = "Thomas C. Südhof works at Stanford University; Stanford's medicine school (Stanford).";
  const spans = phraseSpans(text, ["thomas c sudhof", "stanford university", "stanford", "ford"]);
  assert.deepEqual(
    spans.map((s) => text.slice(s.start, s.end)),
    ["Thomas C. Südhof", "Stanford University", "Stanford", "Stanford"],
  );
  // Overlaps merge into one span naming both phrases; "ford" never matches inside a word.
  assert.deepEqual(spans[1].phrases.sort(), ["stanford", "stanford university"]);
  assert.equal(phraseSpans("Oxford", ["ford"]).length, 0);
  // Astral characters and combining marks keep offsets right.
  const t2 = "𝔸 café au lait";
  const [s] = phraseSpans(t2, ["cafe"]);
  assert.equal(t2.slice(s.start, s.end), "café");
});

test("the activated subgraph: seeds first, at most 18 phrases, real edges, passages linked", async () => {
  const rag = await HippoRAG.load({ index: indexBytes, wasm });
  const res = await rag.search("What county shares a border with the county in which Johnnycake, West Virginia is located?");
  const phrases = activatedPhrases(res);
  assert.ok(phrases.size <= 18 && phrases.size >= res.seeds.length);
  for (const s of res.seeds) assert.ok(phrases.get(s.phraseId).seed);
  const edges = rag.retriever.subgraph(Uint32Array.from(phrases.keys()));
  assert.ok(edges.length > 0);
  for (const e of edges) {
    assert.ok(phrases.has(e.source) && phrases.has(e.target) && e.source < e.target);
    if (e.kind === "triple")
      assert.ok(e.facts.length > 0 && e.facts.every((f) => [f.subject, f.object].sort().join() === [e.source, e.target].sort().join()));
  }
  const model = subgraphModel(res, phrases, edges);
  const keys = new Set(model.nodes.map((n) => n.key));
  assert.ok(model.links.every((l) => keys.has(l.source) && keys.has(l.target)));
  assert.ok(model.nodes.some((n) => n.type === "passage"));
  assert.throws(() => rag.retriever.subgraph([rag.info.counts.phrases]), /is not a phrase id/);
});
