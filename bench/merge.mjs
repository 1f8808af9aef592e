// How `mergeIndex` orders two sites' results, fitted and checked on the questions of both:
// Python 3.11's docs (tests/e2e/pydocs_filters.mjs' marked copy, CoNaLa's questions) and
// musique_train as a second site (../shared/tools/corpus_site.py, its 100 questions, gold
// pages `wiki/<n>.html`) served under /other/. In headless Chromium each question is asked of
// each site alone through its own `hipporag-site.js` (hybrid, top 10, the scores search()
// gives) with its best BM25 score (bm25 mode, top 1); then, in Node, every merge rule of
// RULES orders the two lists into one, and each rule's page hit@10 (docs) and page recall@10
// (musique) are printed beside each site alone, on the dev and test halves (CoNaLa's `split`;
// musique's even and odd questions). Finally the merged search itself (`mergeIndex` in the
// page) is asked the same questions, to check that hipporag-filters.js applies the rule
// chosen. Writes out/bench/merge.json.
//
//   node bench/merge.mjs [--limit N]
//
// The sites come from bench/filters.mjs' or the end-to-end test's build when present
// (out/pydocs-filters-e2e/ with other/ inside), else are built here. HIPPORAG names the
// binary; HIPPORAG_UI=www/site serves the working tree's JS.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch, root, serve } from "../tests/e2e/harness.mjs";
import { EXCLUDE_GLOBS, buildHipporag, markPythonDocs, musiqueSite, pagePath, seedCache } from "../tests/e2e/pydocs_filters.mjs";

const args = process.argv.slice(2);
const LIMIT = Number(args[args.indexOf("--limit") + 1] || 0);
const DATA = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const dir = join(root, "out", "bench", "merge");
const otherDir = join(root, "out", "bench", "merge-other");

if (!existsSync(join(dir, "other", "_hipporag", "hipporag-entry.json")) || process.env.HIPPORAG_UI) {
  for (const from of [join(root, "out", "pydocs-filters-e2e"), join(root, "out", "pydocs-e2e")])
    seedCache(join(from, ".hipporag-cache"), join(dir, ".hipporag-cache"));
  markPythonDocs(dir);
  buildHipporag(
    dir,
    EXCLUDE_GLOBS.flatMap((g) => ["--exclude", g]),
  );
  seedCache(join(root, "out", "musique-site-e2e", "site", ".hipporag-cache"), join(otherDir, "site", ".hipporag-cache"));
  const m = musiqueSite(otherDir, DATA);
  buildHipporag(m.site, ["--exclude", "index.html"]);
  cpSync(m.site, join(dir, "other"), { recursive: true, filter: (f) => !f.includes(".hipporag-cache") });
  writeFileSync(join(dir, "other-questions.json"), JSON.stringify(m.questions));
}
let docsQs = JSON.parse(readFileSync(join(DATA, "pydocs", "conala_pydocs.json"), "utf8"));
let otherQs = JSON.parse(readFileSync(join(dir, "other-questions.json"), "utf8")).map((q, i) => ({ ...q, split: i % 2 ? "test" : "dev" }));
if (LIMIT) [docsQs, otherQs] = [docsQs.slice(0, LIMIT), otherQs.slice(0, LIMIT)];
const questions = [...docsQs.map((q) => ({ ...q, site: "docs" })), ...otherQs.map((q) => ({ ...q, site: "other" }))];

/** In the page: each question's top 10 of one site alone, `{url, score}`, and its best BM25 score. */
async function askAlone(page, module, prefix) {
  return page.evaluate(
    async ([module, prefix, qs]) => {
      const h = await import(module);
      await h.init({ baseUrl: prefix });
      // The index in pieces itself, for each question's BM25 upper bound.
      const dir = new URL(module.replace(/[^/]*$/, ""), location.href);
      const entry = await (await fetch(new URL("hipporag-entry.json", dir))).json();
      const { openPieces } = await import(new URL("hipporag-pieces.js", dir).href);
      const pieces = await openPieces(new URL(entry.pieces, dir), new URL("hipporag_pieces_wasm_bg.wasm", dir));
      const out = [];
      for (const q of qs) {
        const s = await h.search(q, { topK: 10 });
        const b = await h.search(q, { topK: 1, mode: "bm25" });
        const hits = await Promise.all(s.results.map(async (r) => ({ url: (await r.data()).url, score: r.score })));
        out.push({ hits, best: b.results[0]?.score ?? 0, bound: await pieces.bm25UpperBound(q) });
      }
      return out;
    },
    [module, prefix, questions.map((q) => q.q)],
  );
}

/** In the page: each question's top 10 of the merged search (the primary with /other/ merged). */
async function askMerged(page) {
  return page.evaluate(
    async (qs) => {
      const h = await import("/_hipporag/hipporag-site.js");
      await h.init();
      await h.mergeIndex("/other/_hipporag/", { baseUrl: "/other/" });
      const out = [];
      for (const q of qs) {
        const s = await h.search(q, { topK: 10 });
        out.push(await Promise.all(s.results.map(async (r) => (await r.data()).url)));
      }
      return out;
    },
    questions.map((q) => q.q),
  );
}

/**
 * Merge rules: each scales a site's scores by a function of `r`, its match over the better
 * site's (1 for the better site), then the lists are merged by scaled score. A site's match is
 * its best BM25 score over the query's BM25 upper bound there (`bound`, what mergeIndex uses),
 * or the best BM25 score itself (`raw`, mergeIndex's rule before).
 */
const RULES = {
  "score (no scaling)": () => 1,
  "score × r": (r) => r,
  "score × r²": (r) => r * r,
  "score × r⁴": (r) => r ** 4,
  "score × r⁸": (r) => r ** 8,
  "score × r¹²": (r) => r ** 12,
  "score × r¹⁶": (r) => r ** 16,
  "score × r³²": (r) => r ** 32,
  "better site first": (r) => (r < 1 ? 0 : 1),
};

const MATCH = {
  bound: (x) => (x.bound > 0 ? x.best / x.bound : 0),
  raw: (x) => x.best,
};

function merge(a, b, f, match) {
  const best = Math.max(match(a), match(b));
  const scale = (x) => (best > 0 ? f(match(x) / best) : 1);
  const hits = [
    ...a.hits.map((h, k) => ({ ...h, s: h.score * scale(a), k, i: 0 })),
    ...b.hits.map((h, k) => ({ ...h, s: h.score * scale(b), k, i: 1 })),
  ];
  hits.sort((x, y) => y.s - x.s || x.i - y.i || x.k - y.k);
  return hits.slice(0, 10).map((h) => h.url);
}

/** Docs questions' page hit@10 and musique questions' page recall@10 (gold `other/wiki/<n>.html` merged), per half. */
function score(qs, runs) {
  const out = {};
  for (const split of ["dev", "test"]) {
    for (const site of ["docs", "other"]) {
      const idx = qs.flatMap((q, i) => (q.split === split && q.site === site ? [i] : []));
      let v = 0;
      for (const i of idx) {
        const top = runs[i].slice(0, 10).map(pagePath);
        const gold = qs[i].gold_pages.map((g) => (site === "other" ? `other/${g}` : g));
        v += site === "docs" ? +top.some((p) => gold.includes(p)) : gold.filter((g) => top.includes(g)).length / gold.length;
      }
      out[`${split} ${site === "docs" ? "docs hit@10" : "musique R@10"}`] = +(v / idx.length).toFixed(3);
    }
  }
  return out;
}

const server = await serve(dir);
const browser = await launch();
let result;
try {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${server.origin}/about.html`);
  const docs = await askAlone(page, "/_hipporag/hipporag-site.js", "/");
  const page2 = await ctx.newPage();
  await page2.goto(`${server.origin}/other/index.html`);
  const other = await askAlone(page2, "/other/_hipporag/hipporag-site.js", "/other/");
  const page3 = await ctx.newPage();
  await page3.goto(`${server.origin}/about.html`);
  const merged = await askMerged(page3);
  await ctx.close();
  const rows = {
    "each site alone": score(
      questions,
      questions.map((q, i) => (q.site === "docs" ? docs[i] : other[i]).hits.map((h) => h.url)),
    ),
  };
  for (const [m, match] of Object.entries(MATCH))
    for (const [name, f] of Object.entries(RULES))
      rows[`${name}, ${m}`] = score(
        questions,
        questions.map((_, i) => merge(docs[i], other[i], f, match)),
      );
  rows["mergeIndex in the page"] = score(questions, merged);
  result = { date: new Date().toISOString(), questions: { docs: docsQs.length, musique: otherQs.length }, rows };
} finally {
  await browser.close();
  server.stop();
}
mkdirSync(join(root, "out", "bench"), { recursive: true });
writeFileSync(join(root, "out", "bench", "merge.json"), JSON.stringify(result, null, 2) + "\n");
console.table(result.rows);
