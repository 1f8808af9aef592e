// The all-MiniLM-L6-v2 encoder in the browser: the musique_train index built with
// `--encoder minilm` (./build.sh test builds it before the site), its query encoder running in
// the page's Web Worker as its own WebAssembly module (pkg/minilm/, candle + tokenizers), the
// model files fetched from the site. HippoRAG 2 mode over the 100 MuSiQue questions must reach
// the native `hipporag eval` recall@5 (within 0.02: the wasm and native encoders agree to 1e-4
// per component, so an int8-quantised query can, rarely, flip a near tie) and beat the dense
// baseline, with no request leaving the page. Prints the model load time and query latency.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { corpus, data, goldIds, median, outDir, questions, root, servedSite, site } from "./harness.mjs";

const QUESTIONS = questions();
const CORPUS = corpus();
const env = servedSite();

async function ask(page, question) {
  const seq = Number((await page.locator("#stats").getAttribute("data-seq")) ?? 0) + 1;
  await page.locator("#q").fill(question);
  await page.locator("#q").press("Enter");
  await page.waitForSelector(`#stats[data-seq="${seq}"]`, { timeout: 60000 });
  const ids = await page.locator("#results article.passage").evaluateAll((els) => els.map((e) => Number(e.dataset.id)));
  return { ids, ms: Number(await page.locator("#stats").getAttribute("data-query-ms")) };
}

test("all-MiniLM-L6-v2 in the page: HippoRAG 2 recall@5 as native, above dense, nothing sent", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const requests = [];
  context.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${env.server.origin}/?corpus=musique_train_minilm`);
  await page.waitForSelector("body[data-state=ready], body[data-state=error]", { timeout: 120000 });
  assert.equal(
    await page.getAttribute("body", "data-state"),
    "ready",
    await page
      .locator("#error")
      .innerText()
      .catch(() => ""),
  );
  assert.match(await page.locator("body").innerText(), /sentence-transformers\/all-MiniLM-L6-v2/);
  assert.ok(requests.includes(`GET ${env.server.origin}/models/all-MiniLM-L6-v2/model.safetensors`), requests.join("\n"));
  assert.ok(requests.includes(`GET ${env.server.origin}/minilm/hipporag_minilm_bg.wasm`), requests.join("\n"));
  const modelMs = Number(await page.getAttribute("#load", "data-model-ms"));
  const loadRequests = requests.length;

  const recall = {};
  const times = {};
  for (const mode of ["hipporag2", "dense"]) {
    await page.selectOption("#mode", mode);
    let r = 0;
    times[mode] = [];
    for (const q of QUESTIONS) {
      const { ids, ms } = await ask(page, q.question);
      times[mode].push(ms);
      const gold = goldIds(q, CORPUS);
      r += gold.filter((g) => g.some((id) => ids.includes(id))).length / gold.length;
    }
    recall[mode] = r / QUESTIONS.length;
  }
  assert.deepEqual(requests.slice(loadRequests), [], "no request while answering");
  assert.deepEqual(errors, []);
  const native = JSON.parse(
    execFileSync(
      join(root, "target", "release", "hipporag"),
      [
        "eval",
        join(site, "indexes", "musique_train_minilm.hipporag"),
        "--questions",
        join(data, "musique_train", "musique_train.json"),
        "--json",
      ],
      { encoding: "utf8" },
    ),
  );
  const nativeR5 = (m) => native.find((row) => row.mode === m).recall[1];
  for (const mode of ["hipporag2", "dense"]) {
    assert.ok(Math.abs(recall[mode] - nativeR5(mode)) <= 0.02, `${mode}: browser R@5 ${recall[mode]} vs native ${nativeR5(mode)}`);
  }
  assert.ok(recall.hipporag2 > recall.dense, `HippoRAG 2 ${recall.hipporag2} must beat dense ${recall.dense}`);
  await page.screenshot({ path: join(outDir, "minilm_question.png"), fullPage: true });
  const figures = {
    modelLoadMs: modelMs,
    recallAt5: recall,
    nativeRecallAt5: { hipporag2: nativeR5("hipporag2"), dense: nativeR5("dense") },
    medianQueryMs: { hipporag2: median(times.hipporag2), dense: median(times.dense) },
  };
  writeFileSync(join(outDir, "minilm_figures.json"), JSON.stringify(figures, null, 2) + "\n");
  console.log(
    `MiniLM in Chromium: encoder wasm + model loaded in ${modelMs.toFixed(0)} ms; recall@5 hipporag2 ${recall.hipporag2.toFixed(3)} ` +
      `(native ${nativeR5("hipporag2").toFixed(3)}), dense ${recall.dense.toFixed(3)} (native ${nativeR5("dense").toFixed(3)}); ` +
      `median query (encode + retrieve + draw) ${figures.medianQueryMs.hipporag2.toFixed(1)} ms hipporag2, ${figures.medianQueryMs.dense.toFixed(1)} ms dense`,
  );
  await context.close();
});
