// The JS wrapper (pkg/hipporag.js) in Node: real index, real questions, real errors.
// Needs `./build.sh build` and out/musique_train.hipporag (./build.sh test does both first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const data = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const { HippoRAG } = await import(join(root, "pkg", "hipporag.js"));
const wasm = readFileSync(join(root, "pkg", "hipporag_wasm_bg.wasm"));
const indexPath = join(root, "out", "musique_train.hipporag");
const indexBytes = new Uint8Array(readFileSync(indexPath));
const questions = JSON.parse(readFileSync(join(data, "musique_train", "musique_train.json"), "utf8"));

test("search() finds the gold passage of a real MuSiQue question", async () => {
  const rag = await HippoRAG.load({ index: indexBytes, wasm });
  assert.equal(rag.info.encoder.id, "hashed-ngram-v1");
  assert.equal(rag.info.counts.passages, 1890);
  const res = await rag.search("Who was the first president of the association which published Journal of Psychotherapy Integration?");
  assert.ok(res.entities.includes("journal of psychotherapy integration"), JSON.stringify(res.entities));
  assert.equal(res.passages.length, 5);
  assert.ok(res.passages.some((p) => p.title === "Journal of Psychotherapy Integration"));
  assert.ok(res.seeds.length >= 1 && res.topPhrases.length > 0 && res.passages[0].contributions.length > 0);
});

test("recall@5 over the 100 questions in JS equals the native `hipporag eval`", async () => {
  const rag = await HippoRAG.load({ index: indexBytes, wasm });
  const key = (t, x) => `${t}\u0000${x}`;
  // Same matching as the native eval: gold by (title, text).
  const res0 = await rag.search(questions[0].question, { topK: 1890 });
  const byKey = new Map();
  for (const p of res0.passages) {
    const k = key(p.title, p.text);
    byKey.set(k, [...(byKey.get(k) ?? []), p.id]);
  }
  let sum = 0;
  for (const q of questions) {
    const gold = [...new Set(q.paragraphs.filter((p) => p.is_supporting).map((p) => key(p.title, p.paragraph_text)))];
    const top = (await rag.search(q.question, { topK: 5 })).passages.map((p) => p.id);
    sum += gold.filter((g) => byKey.get(g).some((id) => top.includes(id))).length / gold.length;
  }
  const js = sum / questions.length;
  const native = JSON.parse(
    execFileSync(
      join(root, "target", "release", "hipporag"),
      ["eval", indexPath, "--questions", join(data, "musique_train", "musique_train.json"), "--json"],
      { encoding: "utf8" },
    ),
  );
  const hippo = native.find((r) => r.mode === "hipporag1");
  assert.equal(js, hippo.recall[1]);
  assert.ok(js > 0.5, `R@5 ${js}`);
});

test("bad input gives clear errors", async () => {
  const rag = await HippoRAG.load({ index: indexBytes, wasm });
  await assert.rejects(HippoRAG.load({ index: new TextEncoder().encode("<html>404</html>"), wasm }), /not a hipporag index/);
  await assert.rejects(HippoRAG.load({ index: indexBytes.subarray(0, 1000), wasm }), /truncated/);
  const wrong = new HippoRAG(rag.retriever, { encode: async (t) => new Float32Array(t.length * 768) });
  await assert.rejects(wrong.search("Who founded Stanford University?"), /needs \d+ × 384/);
  // No entity at all: dense fallback, said so in the result.
  const res = await rag.search("what is it?");
  assert.equal(res.mode, "dense");
  assert.match(res.fallback, /no query entity/);
});

test("hipporag2 mode calls the recognition-memory hook with the linked facts", async () => {
  const seen = [];
  const rag = await HippoRAG.load({
    index: indexBytes,
    wasm,
    filterFacts: async (question, facts) => {
      seen.push(facts);
      return facts.slice(0, 1);
    },
  });
  const q = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
  const res = await rag.search(q, { mode: "hipporag2" });
  assert.equal(seen.length, 1);
  assert.equal(seen[0].length, 5);
  assert.ok(seen[0].every((f, i) => i === 0 || f.cosine <= seen[0][i - 1].cosine));
  assert.equal(res.mode, "hipporag2");
  assert.deepEqual(
    res.facts.map((f) => f.factId),
    [seen[0][0].factId],
  );
  assert.ok(res.seeds.length >= 1 && res.seeds.length <= 2);
  assert.equal(res.passages.length, 5);
  // A filter that rejects every fact: dense fallback, as the reference does.
  const none = await HippoRAG.load({ index: indexBytes, wasm, filterFacts: async () => [] });
  const fb = await none.search(q, { mode: "hipporag2" });
  assert.equal(fb.mode, "dense");
  assert.match(fb.fallback, /no fact/);
});
