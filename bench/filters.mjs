// Ranking under a filter, `hipporag site` beside Pagefind (npm `pagefind`, pinned in
// package.json) on Python 3.11's HTML docs marked up with Pagefind's filters
// (tests/e2e/pydocs_filters.mjs: `section` per top directory, `initial`, `kind`; meta and
// sorts too). Each CoNaLa question (../shared/data/pydocs/conala_pydocs.json) is asked four
// ways in one headless Chromium run, through each engine's JS API as a site's page would:
// hipporag unfiltered, hipporag with `filters: {section: <its gold page's section>}`, Pagefind
// unfiltered, Pagefind filtered the same way. Per way: page hit@10 (a gold page among the first
// 10 pages) and page recall@10. Then the bytes a fresh page fetches of each engine's directory
// (gzip -9 of what is not gzipped already, as bench/docs.mjs counts them) for init + a filtered
// first search + data() of its top 10 (median and max over the first --cold questions, each on
// its own fresh page), and for `filters()` alone (each file listed in the JSON). Writes
// out/bench/filters.json (and the rankings to filters.runs.json) and prints a table.
//
//   node bench/filters.mjs [--split dev|test|all] [--limit N] [--cold N] [--out FILE]
//
// HIPPORAG names the binary (default target/release/hipporag); HIPPORAG_UI=www/site runs the
// working tree's JS API instead of the files embedded in the binary.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { launch, median, root, serve } from "../tests/e2e/harness.mjs";
import {
  EXCLUDE_GLOBS,
  buildHipporag,
  buildPagefind,
  installDriver,
  markPythonDocs,
  rankQuestions,
  scoreRuns,
  sectionOf,
  seedCache,
  servedBytes,
} from "../tests/e2e/pydocs_filters.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const SPLIT = opt("--split", "test");
const LIMIT = Number(opt("--limit", "0"));
const COLD = Number(opt("--cold", "5"));
const OUT = opt("--out", join(root, "out", "bench", "filters.json"));
const DATA = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const dir = join(root, "out", "bench", "pydocs-filters");

let questions = JSON.parse(readFileSync(join(DATA, "pydocs", "conala_pydocs.json"), "utf8"));
if (SPLIT !== "all") questions = questions.filter((q) => q.split === SPLIT);
if (LIMIT > 0) questions = questions.slice(0, LIMIT);
const filtersOf = (q) => ({ section: sectionOf(q.gold_pages[0]) });

// `hipporag site`'s word cache from another copy of the docs, when this one has none yet.
for (const from of [join(root, "out", "bench", "pydocs"), join(root, "out", "pydocs-filters-e2e"), join(root, "out", "pydocs-e2e")])
  seedCache(join(from, ".hipporag-cache"), join(dir, ".hipporag-cache"));
const { pages } = markPythonDocs(dir);
const hb = buildHipporag(
  dir,
  EXCLUDE_GLOBS.flatMap((g) => ["--exclude", g]),
);
const pfMs = buildPagefind(dir);
const pagefindVersion = JSON.parse(readFileSync(join(root, "node_modules", "pagefind", "package.json"), "utf8")).version;

/** In a fresh page: init + `job` of engine `name` (each engine's own calls), and the bytes of its directory's files it fetched. */
const JOBS = {
  hipporag: {
    dir: "_hipporag",
    search: async ([q, filters]) => {
      const h = await import("/_hipporag/hipporag-site.js");
      await h.init();
      const s = await h.search(q, { topK: 10, filters });
      await Promise.all(s.results.map((r) => r.data()));
    },
    filters: async () => {
      // filters() alone: it needs the entry and the filter pieces, not init()'s search module.
      const h = await import("/_hipporag/hipporag-site.js");
      await h.filters();
    },
  },
  pagefind: {
    dir: "pagefind",
    search: async ([q, filters]) => {
      const pf = await import("/pagefind/pagefind.js");
      await pf.init();
      const s = await pf.search(q, { filters });
      await Promise.all(s.results.slice(0, 10).map((r) => r.data()));
    },
    filters: async () => {
      const pf = await import("/pagefind/pagefind.js");
      await pf.init();
      await pf.filters();
    },
  },
};

async function fetched(browser, origin, name, job, arg) {
  const engine = JOBS[name];
  const ctx = await browser.newContext();
  const seen = new Set();
  const page = await ctx.newPage();
  await page.goto(`${origin}/about.html`, { waitUntil: "networkidle" });
  ctx.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith(`/${engine.dir}/`)) seen.add(path);
  });
  const t = performance.now();
  await page.evaluate(([fn, arg]) => eval(`(${fn})`)(arg), [engine[job].toString(), arg]);
  const ms = performance.now() - t;
  await ctx.close();
  const list = [...seen].sort().map((f) => [f, servedBytes(join(dir, decodeURIComponent(f)))]);
  return { bytes: list.reduce((s, [, b]) => s + b, 0), files: seen.size, ms, list };
}

const server = await serve(dir);
const browser = await launch();
let runs;
const bytes = {};
try {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${server.origin}/about.html`);
  await installDriver(page);
  runs = await rankQuestions(page, questions, [
    { name: "hipporag", engine: "hipporag" },
    { name: "hipporag filtered", engine: "hipporag", filters: filtersOf },
    { name: "pagefind", engine: "pagefind" },
    { name: "pagefind filtered", engine: "pagefind", filters: filtersOf },
  ]);
  await ctx.close();
  for (const name of ["hipporag", "pagefind"]) {
    const colds = [];
    for (const q of questions.slice(0, COLD)) colds.push(await fetched(browser, server.origin, name, "search", [q.q, filtersOf(q)]));
    const f = await fetched(browser, server.origin, name, "filters");
    bytes[name] = {
      filteredFirstSearchBytes: median(colds.map((c) => c.bytes)),
      filteredFirstSearchBytesMax: Math.max(...colds.map((c) => c.bytes)),
      filteredFirstSearchFiles: median(colds.map((c) => c.files)),
      filteredFirstSearchMs: Math.round(median(colds.map((c) => c.ms))),
      filtersOnlyBytes: f.bytes,
      filtersOnlyFiles: f.files,
      // Each file filters() fetched, with its bytes (the filter pieces among them).
      filtersOnlyFetched: Object.fromEntries(f.list),
    };
  }
} finally {
  await browser.close();
  server.stop();
}

const scores = Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, scoreRuns(questions, r)]));
// Where the filter put results outside the section (none expected of either engine).
const outside = Object.fromEntries(
  ["hipporag filtered", "pagefind filtered"].map((k) => [
    k,
    runs[k].reduce((n, r, i) => n + r.filter((u) => sectionOf(u) !== sectionOf(questions[i].gold_pages[0])).length, 0),
  ]),
);
const report = {
  date: new Date().toISOString(),
  docs: dir,
  pages: Object.keys(pages).length,
  split: SPLIT,
  queries: questions.length,
  filter: "section of the question's first gold page",
  sections: [...new Set(questions.map((q) => sectionOf(q.gold_pages[0])))],
  pagefind: pagefindVersion,
  build: { hipporagSeconds: +(hb.wallMs / 1000).toFixed(1), pagefindSeconds: +(pfMs / 1000).toFixed(1) },
  scores,
  resultsOutsideTheSection: outside,
  bytes,
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, JSON.stringify(report, null, 2) + "\n");
writeFileSync(OUT.replace(/\.json$/, ".runs.json"), JSON.stringify({ questions: questions.map((q) => q.q), runs }) + "\n");

console.log(
  `Python's docs, ${report.pages} pages; CoNaLa ${SPLIT} (${questions.length} questions) within their gold page's section; Pagefind ${pagefindVersion}`,
);
console.log(`\n${"".padEnd(18)} ${"hit@10".padStart(7)} ${"R@10".padStart(7)}`);
for (const [k, s] of Object.entries(scores))
  console.log(`${k.padEnd(18)} ${s["hit@10"].toFixed(3).padStart(7)} ${s["recall@10"].toFixed(3).padStart(7)}`);
console.log(
  `\n${"engine".padEnd(10)} ${"filtered first search (median/max, files)".padStart(42)} ${"filters() alone (files)".padStart(24)}`,
);
for (const [k, b] of Object.entries(bytes))
  console.log(
    `${k.padEnd(10)} ${`${(b.filteredFirstSearchBytes / 1e3).toFixed(0)}/${(b.filteredFirstSearchBytesMax / 1e3).toFixed(0)} KB (${b.filteredFirstSearchFiles})`.padStart(42)} ${`${(b.filtersOnlyBytes / 1e3).toFixed(1)} KB (${b.filtersOnlyFiles})`.padStart(24)}`,
  );
console.log(`\nresults outside the section: ${JSON.stringify(outside)}\nwrote ${OUT}`);
