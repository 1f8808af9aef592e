// The index in pieces on musique_train, in headless Chromium: `hipporag index` (the rule
// extractor) → `hipporag pieces` → a page that loads hipporag-site.js, which fetches the pieces
// and ranks with the small search module (hipporag_pieces_wasm_bg.wasm). Every question, in hybrid
// and bm25, must rank as the single file does natively (`hipporag eval --pieces` checks the
// native pieces against the single file and writes the single file's rankings). Python's docs,
// with the static embeddings' cluster pieces: site_docs.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { data, questions, root, servedSite } from "./harness.mjs";

const dir = join(root, "out", "pieces-e2e");
const out = join(dir, "_hipporag");
const hipporag = join(root, "target", "release", "hipporag");
const musique = join(data, "musique_train", "musique_train.json");
/** mode → the single file's runs [{id, ranking, scores}]. */
const native = {};

const env = servedSite({
  dir,
  prepare: async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const index = join(dir, "musique_train.hipporag");
    const run = (args) =>
      execFileSync(hipporag, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, RUST_LOG: "warn" } });
    run(["index", "--corpus", join(data, "musique_train", "musique_train_corpus.json"), "--out", index]);
    run(["pieces", index, "--out", out]);
    const rankings = join(dir, "rankings.json");
    run(["eval", index, "--questions", musique, "--exact-seeds", "--pieces", out, "--rankings", rankings]);
    for (const m of JSON.parse(readFileSync(rankings, "utf8"))) native[m.mode] = m.runs;
    // What `hipporag site` adds beside the pieces for the default search.
    for (const f of ["hipporag_pieces_wasm.js", "hipporag_pieces_wasm_bg.wasm"]) copyFileSync(join(root, "pkg", f), join(out, f));
    for (const f of ["hipporag-site.js", "hipporag-pieces.js", "hipporag-helpers.js", "hipporag-full.js"])
      copyFileSync(join(root, "www", "site", f), join(out, f));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>pieces</title>\n");
  },
});

test("musique_train: the index in pieces ranks every question in Chromium as the single file does", async () => {
  const qs = questions();
  const context = await env.browser.newContext();
  const requests = [];
  context.on("request", (r) => requests.push(new URL(r.url()).pathname));
  const page = await context.newPage();
  await page.goto(`${env.server.origin}/index.html`);
  const ranked = await page.evaluate(
    async (qs) => {
      const h = await import("/_hipporag/hipporag-site.js");
      const out = { hybrid: [], bm25: [] };
      for (const q of qs) {
        out.hybrid.push((await h.search(q, { topK: 5 })).results.map((r) => [r.id, r.score]));
        out.bm25.push((await h.search(q, { topK: 5, mode: "bm25" })).results.map((r) => [r.id, r.score]));
      }
      const first = await (await h.search(qs[0], { topK: 1 })).results[0].data();
      return { ...out, first };
    },
    qs.map((q) => q.question),
  );
  for (const mode of ["hybrid", "bm25"]) {
    assert.equal(native[mode].length, qs.length);
    for (const [i, run] of native[mode].entries()) {
      const want = run.ranking.map((id, k) => [id, run.scores[k]]).filter(([, s]) => s > 0);
      assert.deepEqual(ranked[mode][i], want, `${mode}, question ${run.id}`);
    }
  }
  // A result's text comes from its fragment piece.
  const corpus = JSON.parse(readFileSync(join(data, "musique_train", "musique_train_corpus.json"), "utf8"));
  const id = native.hybrid[0].ranking[0];
  assert.equal(ranked.first.title, corpus[id].title);
  // Its whole text (`--fragment-text-chars` 0, the default), which its excerpt is cut from.
  const text = corpus[id].text;
  const shown = ranked.first.content;
  assert.equal(shown, text);
  // Its excerpt: a window of that text, the query's words marked (<mark> in the HTML form).
  const segments = ranked.first.excerptSegments;
  assert.ok(shown.replace(/\s+/g, " ").includes(segments.join("").replace(/^…|…$/g, "")), segments.join(""));
  assert.ok(segments.length >= 3 && ranked.first.excerpt.includes(`<mark>`), JSON.stringify(segments));
  // Only pieces, the search module and the site API: no single file, no retriever wasm.
  assert.ok(requests.some((p) => p.startsWith("/_hipporag/index/")));
  assert.ok(!requests.some((p) => p.endsWith(".hipporag") || p.endsWith("hipporag_wasm_bg.wasm")), requests.join(" "));
  // A mode the pieces do not serve, on a site without the single file: a clear error.
  const err = await page.evaluate(async (q) => {
    const h = await import("/_hipporag/hipporag-site.js");
    return h.search(q, { mode: "hipporag1" }).then(
      () => null,
      (e) => e.message,
    );
  }, qs[0].question);
  assert.match(err, /--full-index/);
  await context.close();
});
