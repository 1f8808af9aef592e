// The semantic tier of `hipporag site` (`--encoder minilm`) on eight real pages of Python 3.11's
// docs (Debian's python3.11-doc): the index holds all-MiniLM-L6-v2 vectors, and the page answers
// first from the lean signals (BM25 and static word embeddings, no model), then fetches the
// int8 model and refines the results with the question's embedding. In headless Chromium the
// test checks that order, that the refined ranking equals the native one (`hipporag query` with
// the same int8 model the page downloads), and that the default UI shows both states. Each page
// carries a Pagefind filter: filters() and a filtered search work over the single file too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyPythonDocs, outDir, root, servedSite } from "./harness.mjs";

const dir = join(root, "out", "pydocs-semantic-e2e");
const PAGES = [
  "library/json.html",
  "library/csv.html",
  "library/os.path.html",
  "library/random.html",
  "library/shutil.html",
  "library/venv.html",
  "tutorial/venv.html",
  "tutorial/inputoutput.html",
];
const QUESTIONS = [
  { q: "write a dict to a file as JSON", page: "/library/json.html" },
  { q: "pick an element of a list at random", page: "/library/random.html" },
  { q: "copy a file to another folder", page: "/library/shutil.html" },
];
const bin = join(root, "target", "release", "hipporag");
const out = join(dir, "_hipporag");
let build;
const env = servedSite({
  dir,
  prepare: async () => {
    copyPythonDocs(dir, PAGES);
    // Pagefind's filter on each page's <html>: its directory (library: 6 pages, tutorial: 2).
    for (const p of PAGES) {
      const f = join(dir, p);
      writeFileSync(f, readFileSync(f, "utf8").replace(/<html\b/, `<html data-pagefind-filter="section:${p.split("/")[0]}"`));
    }
    // The search page: one element, one script (left out of the index).
    writeFileSync(
      join(dir, "index.html"),
      '<!doctype html><html><body><div id="hipporag-search"></div><script type="module" src="/_hipporag/hipporag-ui.js"></script></body></html>',
    );
    build = JSON.parse(
      execFileSync(bin, ["site", dir, "--encoder", "minilm", "--exclude", "index.html", "--json"], {
        encoding: "utf8",
        env: { ...process.env, RUST_LOG: "warn" },
      }),
    );
  },
});

/** The native ranking of `q` on the site's index, encoded by the model files the page downloads. */
function nativePages(q) {
  const index = join(
    out,
    readdirSync(out).find((f) => f.startsWith("index.")),
  );
  const res = JSON.parse(
    execFileSync(
      bin,
      ["query", index, q, "--mode", "hybrid", "--top-k", "64", "--json", "--model", join(out, "models", "all-MiniLM-L6-v2")],
      { encoding: "utf8", env: { ...process.env, RUST_LOG: "warn" } },
    ),
  );
  const pages = [];
  for (const p of res.passages) {
    const page = p.url.split("#")[0];
    if (!pages.includes(page)) pages.push(page);
  }
  return pages.slice(0, 8);
}

test("semantic tier: lean results first, then the int8 MiniLM refines them as natively", async () => {
  const entry = JSON.parse(readFileSync(join(out, "hipporag-entry.json"), "utf8"));
  assert.equal(entry.encoder.id, "sentence-transformers/all-MiniLM-L6-v2");
  assert.ok(build.staticWords > 1000, `static words: ${build.staticWords}`);
  const weights = statSync(join(out, "models", "all-MiniLM-L6-v2", "model.safetensors")).size;
  assert.ok(weights < 30e6, `int8 model: ${weights} bytes`);

  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const requests = [];
  context.on("request", (r) => requests.push(new URL(r.url()).pathname));
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${env.server.origin}/index.html`);
  const root = page.locator("#hipporag-search");
  // Each results list's tier, recorded as it is shown (the UI sets data-tier, then
  // data-searches, in one task). The test waits on this record, not on the attributes:
  // Playwright polls a selector with a back-off of up to a second, and the refined list can
  // replace the lean one (data-searches "1" then "2") between two polls, so a wait for
  // data-searches="1" could miss it for good.
  await page.evaluate(() => {
    const r = document.querySelector("#hipporag-search");
    window.__shown = [];
    new MutationObserver(() => {
      if (window.__shown.at(-1)?.searches !== r.dataset.searches)
        window.__shown.push({ searches: r.dataset.searches, tier: r.dataset.tier });
    }).observe(r, { attributes: true, attributeFilter: ["data-searches"] });
  });
  await root.locator("input").fill(QUESTIONS[0].q);
  await page
    .waitForFunction(() => window.__shown.length >= 1, null, { timeout: 60000 })
    .catch(async (e) => {
      const status = await root.locator(".hipporag-status").innerText();
      throw new Error(`no results list was shown: status "${status}", page errors ${JSON.stringify(errors)}: ${e.message}`);
    });
  // The first results are lean, and the model was not asked for before the index.
  assert.deepEqual((await page.evaluate(() => window.__shown))[0], { searches: "1", tier: "lean" });
  const at = (f) => requests.findIndex((u) => u.endsWith(f));
  assert.ok(at("model.safetensors") === -1 || at("model.safetensors") > at(".hipporag"), requests.join(" "));
  await page.waitForSelector('#hipporag-search[data-tier="semantic"]', { timeout: 120000 });
  assert.match(await root.locator(".hipporag-status").innerText(), /refined by the semantic model/);
  await page.screenshot({ path: join(outDir, "site_semantic.png") });

  // The JS API once the model is in: semantic at once, and the same pages as natively.
  const api = await page.evaluate(
    async (qs) => {
      const h = await import("/_hipporag/hipporag-site.js");
      const res = [];
      for (const q of qs) {
        const s = await h.search(q);
        res.push({
          tier: s.tier,
          refined: s.refined,
          pages: await Promise.all(s.results.map(async (r) => (await r.data()).url.split("#")[0])),
        });
      }
      return res;
    },
    QUESTIONS.map((x) => x.q),
  );
  for (const [i, { q, page: gold }] of QUESTIONS.entries()) {
    assert.equal(api[i].tier, "semantic");
    assert.equal(api[i].refined, null);
    assert.deepEqual(api[i].pages, nativePages(q), q);
    assert.ok(api[i].pages.slice(0, 3).includes(gold), `${q}: ${gold} not in the top 3 of ${api[i].pages}`);
  }
  assert.ok(at("hipporag_minilm_bg.wasm") > 0, "the encoder module was fetched");
  assert.deepEqual(errors, []);
  await context.close();
});

test("semantic tier: Pagefind's filters over the single file (filters(), a filtered search)", async () => {
  const entry = JSON.parse(readFileSync(join(out, "hipporag-entry.json"), "utf8"));
  assert.ok(entry.filters?.section, `hipporag-entry.json names no section filter piece: ${JSON.stringify(entry.filters)}`);
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${env.server.origin}/index.html`);
  const got = await page.evaluate(async () => {
    const h = await import("/_hipporag/hipporag-site.js");
    const counts = await h.filters();
    const s = await h.search("create a virtual environment", { filters: { section: "tutorial" } });
    const listing = await h.search(null, { filters: { section: "library" } });
    const urls = (r) => Promise.all(r.results.map(async (x) => (await x.data()).url.split("#")[0]));
    return { counts, filtered: await urls(s), listed: await urls(listing), total: s.totalFilters };
  });
  assert.deepEqual(got.counts, { section: { library: 6, tutorial: 2 } });
  assert.ok(got.filtered.length > 0 && got.filtered.every((u) => u.startsWith("/tutorial/")), got.filtered.join(" "));
  assert.equal(got.filtered[0], "/tutorial/venv.html");
  assert.deepEqual(
    got.listed.sort(),
    PAGES.filter((p) => p.startsWith("library/"))
      .map((p) => `/${p}`)
      .sort(),
  );
  assert.deepEqual(errors, []);
  await context.close();
});
