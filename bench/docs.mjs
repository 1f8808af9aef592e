// The site-search benchmark: `hipporag site` and Pagefind (npm `pagefind`, pinned in
// package.json) on the same site, asked the same questions in the same headless Chromium run.
// Sites (`--site`): `pydocs` (default), Python 3.11's HTML docs with the 511 CoNaLa queries
// (../shared/data/pydocs/conala_pydocs.json); `musique`, musique_train as a site of one page
// per passage with its 100 multi-hop questions (../shared/tools/corpus_site.py; its questions
// are all `test`); `rustdoc`, Debian's rust-doc (/usr/share/doc/rust-doc/html, or $RUST_DOCS:
// std, core, alloc, the Book, the Reference and more, 32,101 pages) with the 20 questions of
// bench/rustdoc_questions.json. The rust-doc copy is kept between runs (out/bench/rustdoc), so
// that `hipporag site` reuses its caches there: a first build encodes 400,000 texts.
// The multilingual sets of ../shared/data/multilingual/ (issue #50), each a site of one page per
// paragraph made by corpus_site.py with its language in `<html lang>`, like musique: `xquad_de`,
// `xquad_ar`, `xquad_th`, `xquad_ru`, `xquad_zh` (XQuAD, 240 pages, 1,190 questions each) and
// `jsquad` (JSQuAD valid in Japanese, 1,145 pages, every 4th of its 4,442 questions: 1,111).
// Their sets carry no split: questions at even positions (after jsquad's thinning) are `dev`,
// odd ones `test`. bench/languages.sh puts them beside BM25 on the same passages. `xquad_vi`
// (XQuAD Vietnamese, which ../shared/data lacks) is read from a checkout of
// google-deepmind/xquad named by $XQUAD_DIR.
//
//   node bench/docs.mjs [--site pydocs|musique|rustdoc|xquad_de|xquad_ar|xquad_th|xquad_ru|xquad_zh|jsquad|xquad_vi] [--variant prefix|typo] [--out FILE] [--split dev|test|all] [--limit N] [--cold N]
//
// HIPPORAG names the binary (default target/release/hipporag).
//
// `--variant` asks the questions as a reader half-types them (cut after 3 letters of their
// longest word) or misspells them (one edit in it), made by ../shared/tools/query_variants.py
// (seed 1): the search box's prefix and fuzzy matching (src/expansion.rs) beside Pagefind's.
//
// The copy: Debian's python3.11-doc (/usr/share/doc/python3.11/html, or $PYTHON_DOCS) without
// the generated listings (genindex*, contents, py-modindex), for both engines alike. Each engine
// is served by `python3 -m http.server` on 127.0.0.1 and driven through its own JS API, as a
// site's page would: hipporag-site.js `init()`/`search()`, Pagefind's `pagefind.js`
// `init()`/`search()` and `data()` of its top 10 (Pagefind needs a fragment per result for
// its URL). Per engine and split: hit@1/5/10 and page recall@5/10 (gold = `gold_pages`), the
// cold first search (a fresh page: init + one query; median and max over the first --cold
// queries, each on its own fresh page once the page's own requests are over, the two engines
// taking turns after one warm-up page load), the warm median query, the bytes of the first
// search (gzip -9 of every file of the engine's directory the page fetched; Pagefind's files
// and hipporag's pieces are gzipped already), the bytes each later
// query fetched that earlier ones had not (on one page, after init and a first query), and the
// whole output. With both splits, the scores also over `all` the questions. Writes the JSON
// (default out/bench/docs.json) and prints a table.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { launch, median, root, serve } from "../tests/e2e/harness.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const SITE = opt("--site", "pydocs");
const VARIANT = opt("--variant", null);
if (VARIANT && !["prefix", "typo"].includes(VARIANT)) throw new Error(`--variant ${VARIANT}: expected prefix or typo`);
const OUT = opt("--out", join(root, "out", "bench", `${SITE === "pydocs" ? "docs" : SITE}${VARIANT ? `-${VARIANT}` : ""}.json`));
const SPLIT = opt("--split", "all");
const LIMIT = Number(opt("--limit", "0"));
// First searches measured, each on a fresh page with its own query (the first COLD queries).
const COLD = Number(opt("--cold", "15"));
const DOCS = process.env.PYTHON_DOCS ?? "/usr/share/doc/python3.11/html";
const RUST_DOCS = process.env.RUST_DOCS ?? "/usr/share/doc/rust-doc/html";
const DATA = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const BIN = process.env.HIPPORAG ?? join(root, "target", "release", "hipporag");
const EXCLUDED = [/^genindex.*\.html$/, /^contents\.html$/, /^py-modindex\.html$/];
const K = [1, 5, 10];

/**
 * A question set in MuSiQue's format and its corpus as a site in `dir` (corpus_site.py writes
 * `dir/site/` and `dir/questions.json`, its pages in `lang`). With `every` > 1 only every
 * `every`-th question is kept; with `split`, questions at even positions (of those kept) become
 * `dev` and odd ones `test` (corpus_site.py makes them all `test`).
 */
function corpusSite(dir, questions, corpus, lang = "en", { every = 1, split = false } = {}) {
  rmSync(dir, { recursive: true, force: true });
  execFileSync("python3", [join(DATA, "..", "tools", "corpus_site.py"), questions, corpus, dir, lang], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (every === 1 && !split) return;
  const path = join(dir, "questions.json");
  const qs = JSON.parse(readFileSync(path, "utf8"))
    .filter((_, i) => i % every === 0)
    .map((q, i) => (split ? { ...q, split: i % 2 === 0 ? "dev" : "test" } : q));
  writeFileSync(path, JSON.stringify(qs) + "\n");
}

/** musique_train as a site in `dir`. */
function musiqueSite(dir) {
  const m = join(DATA, "musique_train");
  corpusSite(dir, join(m, "musique_train.json"), join(m, "musique_train_corpus.json"));
}

/**
 * SITES' entry of a set of ../shared/data/multilingual/ (`name`.json, `name`_corpus.json): a
 * site of its passages in `lang` under out/bench/`site`/ as musique's, its questions split by parity.
 */
function multilingual(site, name, lang, every = 1, m = join(DATA, "multilingual")) {
  const dir = join(root, "out", "bench", site);
  return {
    dir: join(dir, "site"),
    prepare: () => corpusSite(dir, join(m, `${name}.json`), join(m, `${name}_corpus.json`), lang, { every, split: true }),
    questions: () => join(dir, "questions.json"),
    hipporag: ["--exclude", "index.html"],
    pagefind: ["--glob", "wiki/*.html"],
  };
}

/**
 * SITES' entry of an XQuAD language that ../shared/data lacks (Vietnamese): `xquad.LANG.json`
 * of a checkout of google-deepmind/xquad (`$XQUAD_DIR`), converted by bench/xquad_set.py into
 * out/bench/xquad_LANG-set/ (which bench/languages.sh's BM25 reads), then as `multilingual`.
 */
function xquadCheckout(lang) {
  const site = `xquad_${lang}`;
  const set = join(root, "out", "bench", `${site}-set`);
  const entry = multilingual(site, site, lang, 1, set);
  return {
    ...entry,
    prepare: () => {
      const repo = process.env.XQUAD_DIR;
      if (!repo) throw new Error(`--site ${site}: set XQUAD_DIR to a checkout of google-deepmind/xquad`);
      mkdirSync(set, { recursive: true });
      execFileSync(
        "python3",
        [
          join(root, "bench", "xquad_set.py"),
          join(repo, `xquad.${lang}.json`),
          join(set, `${site}.json`),
          join(set, `${site}_corpus.json`),
        ],
        { stdio: ["ignore", "ignore", "inherit"] },
      );
      entry.prepare();
    },
  };
}

/** Each site: where it is built, its questions, and each engine's arguments. */
const SITES = {
  pydocs: {
    dir: join(root, "out", "bench", "pydocs"),
    prepare: (dir) => copyDocs(dir),
    questions: () => join(DATA, "pydocs", "conala_pydocs.json"),
    hipporag: [],
    pagefind: [],
  },
  rustdoc: {
    dir: join(root, "out", "bench", "rustdoc"),
    prepare: (dir) => copyRustDocs(dir),
    questions: () => join(root, "bench", "rustdoc_questions.json"),
    hipporag: [],
    pagefind: [],
  },
  musique: {
    dir: join(root, "out", "bench", "musique", "site"),
    prepare: (dir) => musiqueSite(dirname(dir)),
    questions: () => join(root, "out", "bench", "musique", "questions.json"),
    hipporag: ["--exclude", "index.html"],
    pagefind: ["--glob", "wiki/*.html"],
  },
  xquad_de: multilingual("xquad_de", "xquad_de", "de"),
  xquad_ar: multilingual("xquad_ar", "xquad_ar", "ar"),
  xquad_th: multilingual("xquad_th", "xquad_th", "th"),
  xquad_ru: multilingual("xquad_ru", "xquad_ru", "ru"),
  xquad_zh: multilingual("xquad_zh", "xquad_zh", "zh"),
  jsquad: multilingual("jsquad", "jsquad_valid", "ja", 4),
  xquad_vi: xquadCheckout("vi"),
};
const site = SITES[SITE];
if (!site) throw new Error(`--site ${SITE}: expected one of ${Object.keys(SITES).join(", ")}`);
site.prepare(site.dir);
let queries = JSON.parse(
  VARIANT
    ? execFileSync("python3", [join(DATA, "..", "tools", "query_variants.py"), site.questions(), VARIANT, "1"], { encoding: "utf8" })
    : readFileSync(site.questions(), "utf8"),
);
if (SPLIT !== "all") queries = queries.filter((q) => q.split === SPLIT);
if (LIMIT > 0) queries = queries.slice(0, LIMIT);

/** The benchmark's copy of the docs: everything but the generated listings. */
function copyDocs(dir) {
  if (!existsSync(DOCS)) throw new Error(`${DOCS} is missing: apt-get install python3.11-doc`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(DOCS, dir, { recursive: true, dereference: true });
  for (const f of readdirSync(dir)) if (EXCLUDED.some((re) => re.test(f))) rmSync(join(dir, f));
}

/** The benchmark's copy of the Rust docs, made once (a marker file says it is complete). */
function copyRustDocs(dir) {
  if (!existsSync(RUST_DOCS)) throw new Error(`${RUST_DOCS} is missing: apt-get install rust-doc`);
  const done = join(dir, ".copied");
  if (existsSync(done)) return;
  rmSync(dir, { recursive: true, force: true });
  cpSync(RUST_DOCS, dir, { recursive: true, dereference: true });
  writeFileSync(done, `${RUST_DOCS}\n`);
}

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Bytes as a static host serves them: Pagefind's own files are gzipped already, others gzip -9. */
function servedBytes(path) {
  const b = readFileSync(path);
  return b[0] === 0x1f && b[1] === 0x8b ? b.length : gzipSync(b, { level: 9 }).length;
}

const page = (url) =>
  url
    .replace(/^https?:\/\/[^/]+/, "")
    .split("#")[0]
    .replace(/^\//, "");

function scores(ranked, gold) {
  const r = {};
  for (const k of K) r[`hit@${k}`] = ranked.slice(0, k).some((u) => gold.includes(u)) ? 1 : 0;
  for (const k of [5, 10]) r[`recall@${k}`] = gold.filter((g) => ranked.slice(0, k).includes(g)).length / gold.length;
  return r;
}

function summarise(runs) {
  const out = {};
  const both = new Set(runs.map((r) => r.split)).size > 1;
  for (const split of ["dev", "test", ...(both ? ["all"] : [])]) {
    const rs = split === "all" ? runs : runs.filter((r) => r.split === split);
    if (rs.length === 0) continue;
    const row = { queries: rs.length };
    for (const key of Object.keys(rs[0].scores)) row[key] = +(rs.reduce((s, r) => s + r.scores[key], 0) / rs.length).toFixed(3);
    out[split] = row;
  }
  return out;
}

/** In the page: the engine's search of one query → ranked page URLs (top 10) and its time. */
const ENGINES = {
  hipporag: {
    dir: "_hipporag",
    init: async () => {
      const h = await import("/_hipporag/hipporag-site.js");
      await h.init();
      window.__engine = h;
    },
    search: async (q) => {
      const t = performance.now();
      const s = await window.__engine.search(q, { topK: 10 });
      const ms = performance.now() - t;
      const urls = await Promise.all(s.results.map(async (r) => (await r.data()).url));
      return { ms, urls };
    },
  },
  pagefind: {
    dir: "pagefind",
    init: async () => {
      const pf = await import("/pagefind/pagefind.js");
      await pf.init();
      window.__engine = pf;
    },
    search: async (q) => {
      const t = performance.now();
      const s = await window.__engine.search(q);
      const ms = performance.now() - t;
      const urls = await Promise.all(s.results.slice(0, 10).map(async (r) => (await r.data()).url));
      return { ms, urls };
    },
  },
};

/**
 * A fresh context (empty cache) on the site's index.html, once the page's own requests are
 * over (its images load after the load event): the page, and the paths under the engine's
 * directory `dir` it requests after `clear()` (as a set and in order). Only the engine's own
 * files count: the site's own files (its logo, say) can arrive after the load event, and are no
 * engine's first search (docs/benchmarks.md, "Figures moved out of code comments").
 */
async function freshPage(browser, origin, dir) {
  const ctx = await browser.newContext();
  const fetched = new Set();
  const log = [];
  ctx.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (!path.startsWith(`/${dir}/`)) return;
    fetched.add(path);
    log.push(path);
  });
  const p = await ctx.newPage();
  await p.goto(`${origin}/index.html`, { waitUntil: "networkidle" });
  fetched.clear();
  log.length = 0;
  return { ctx, p, fetched, log };
}

/** Query `i` as the first search of a fresh page: init + that query, every file of the engine's it fetched counted. */
async function cold(browser, origin, siteDir, name, i) {
  const engine = ENGINES[name];
  const { ctx, p, fetched } = await freshPage(browser, origin, engine.dir);
  const r = await p.evaluate(
    async ([init, search, q]) => {
      const t = performance.now();
      await eval(`(${init})`)();
      await eval(`(${search})`)(q);
      return { ms: performance.now() - t };
    },
    [engine.init.toString(), engine.search.toString(), queries[i].q],
  );
  await ctx.close();
  const bytes = [...fetched].reduce((s, f) => s + servedBytes(join(siteDir, decodeURIComponent(f))), 0);
  return { ms: r.ms, bytes, files: fetched.size };
}

/**
 * Every query on one page, after init and a first query (not counted), with the bytes of the
 * files each fetched that no earlier one had (what a visitor's later queries cost).
 */
async function run(browser, origin, siteDir, name, colds) {
  const engine = ENGINES[name];
  const { ctx, p, fetched, log } = await freshPage(browser, origin, engine.dir);
  await p.evaluate(
    async ([init, search, q]) => {
      await eval(`(${init})`)();
      await eval(`(${search})`)(q);
    },
    [engine.init.toString(), engine.search.toString(), queries[0].q],
  );
  const runs = [];
  const seen = new Set(fetched);
  for (const q of queries) {
    const from = log.length;
    const r = await p.evaluate(([search, q]) => eval(`(${search})`)(q), [engine.search.toString(), q.q]);
    const fresh = [...new Set(log.slice(from))].filter((f) => !seen.has(f));
    fresh.forEach((f) => seen.add(f));
    const bytes = fresh.reduce((s, f) => s + servedBytes(join(siteDir, decodeURIComponent(f))), 0);
    const ranked = [...new Set(r.urls.map(page))];
    runs.push({ q: q.q, split: q.split, ms: r.ms, bytes, top: ranked.slice(0, 10), scores: scores(ranked, q.gold_pages) });
  }
  await ctx.close();
  const outputFiles = walk(join(siteDir, engine.dir));
  return {
    engine: name,
    ...summarise(runs),
    coldFirstSearchMs: Math.round(median(colds.map((c) => c.ms))),
    coldFirstSearchMsMax: Math.round(Math.max(...colds.map((c) => c.ms))),
    firstSearchBytes: median(colds.map((c) => c.bytes)),
    firstSearchBytesMax: Math.max(...colds.map((c) => c.bytes)),
    firstSearchFiles: median(colds.map((c) => c.files)),
    coldRuns: colds,
    warmMedianQueryMs: +median(runs.map((r) => r.ms)).toFixed(1),
    laterQueryBytesMedian: median(runs.map((r) => r.bytes)),
    laterQueryBytesMean: Math.round(runs.reduce((s, r) => s + r.bytes, 0) / runs.length),
    outputFiles: outputFiles.length,
    outputBytes: outputFiles.reduce((s, f) => s + servedBytes(f), 0),
    runs,
  };
}

const siteDir = site.dir;
const t0 = performance.now();
execFileSync(BIN, ["site", siteDir, ...site.hipporag], {
  stdio: "inherit",
  env: { ...process.env, RUST_LOG: "warn" },
});
const hipporagBuildS = (performance.now() - t0) / 1000;
const t1 = performance.now();
execFileSync(join(root, "node_modules", ".bin", "pagefind"), ["--site", siteDir, "--silent", ...site.pagefind], { stdio: "inherit" });
const pagefindBuildS = (performance.now() - t1) / 1000;
const pagefindVersion = JSON.parse(readFileSync(join(root, "node_modules", "pagefind", "package.json"), "utf8")).version;

const server = await serve(siteDir);
const browser = await launch();
const results = [];
try {
  const names = ["hipporag", "pagefind"];
  // Cold first searches, the engines taking turns (which goes first alternates), after one
  // page load that is no engine's, so that neither pays for the browser's own start.
  const warmup = await freshPage(browser, server.origin, "");
  await warmup.ctx.close();
  const colds = { hipporag: [], pagefind: [] };
  for (let i = 0; i < Math.min(COLD, queries.length); i++) {
    for (const name of i % 2 === 0 ? names : [...names].reverse()) {
      colds[name].push(await cold(browser, server.origin, siteDir, name, i));
    }
  }
  for (const name of names) {
    results.push(await run(browser, server.origin, siteDir, name, colds[name]));
    const r = results.at(-1);
    console.error(`${name}: done (${r.runs.length} queries)`);
  }
} finally {
  await browser.close();
  server.stop();
}
results[0].buildSeconds = +hipporagBuildS.toFixed(1);
results[1].buildSeconds = +pagefindBuildS.toFixed(1);
const report = {
  date: new Date().toISOString(),
  site: SITE,
  docs: SITE === "pydocs" ? DOCS : siteDir,
  queries: queries.length,
  split: SPLIT,
  pagefind: pagefindVersion,
  engines: results.map(({ runs, ...r }) => r),
  ratios: {
    firstSearchBytes: +(results[0].firstSearchBytes / results[1].firstSearchBytes).toFixed(2),
    warmMedianQueryMs: +(results[0].warmMedianQueryMs / results[1].warmMedianQueryMs).toFixed(2),
    coldFirstSearchMs: +(results[0].coldFirstSearchMs / results[1].coldFirstSearchMs).toFixed(2),
  },
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, JSON.stringify(report, null, 2) + "\n");
writeFileSync(OUT.replace(/\.json$/, ".runs.json"), JSON.stringify(results.map((r) => ({ engine: r.engine, runs: r.runs }))) + "\n");
const cols = ["hit@1", "hit@5", "hit@10", "recall@5", "recall@10"];
console.log(`${SITE} (${siteDir}): ${queries.length} queries; Pagefind ${pagefindVersion}`);
for (const split of ["dev", "test", "all"]) {
  if (!results[0][split]) continue;
  console.log(`\n${split} (${results[0][split].queries} queries)\nengine     ${cols.map((c) => c.padStart(9)).join(" ")}`);
  for (const r of results) console.log(`${r.engine.padEnd(10)} ${cols.map((c) => r[split][c].toFixed(3).padStart(9)).join(" ")}`);
}
console.log(
  "\nengine     first search (cold, median/max)  first-search bytes (median/max, files)  later query bytes (median, mean)  warm median  output bytes (files)  build",
);
for (const r of results)
  console.log(
    `${r.engine.padEnd(10)} ${(r.coldFirstSearchMs + "/" + r.coldFirstSearchMsMax + " ms").padStart(31)}  ${((r.firstSearchBytes / 1e3).toFixed(0) + "/" + (r.firstSearchBytesMax / 1e3).toFixed(0) + " KB (" + r.firstSearchFiles + ")").padStart(38)}  ${((r.laterQueryBytesMedian / 1e3).toFixed(1) + " KB, " + (r.laterQueryBytesMean / 1e3).toFixed(1) + " KB").padStart(32)}  ${(r.warmMedianQueryMs + " ms").padStart(11)}  ${((r.outputBytes / 1e6).toFixed(2) + " MB (" + r.outputFiles + ")").padStart(20)}  ${r.buildSeconds} s`,
  );
console.log(`\nratios hipporag/pagefind: ${JSON.stringify(report.ratios)}\nwrote ${OUT}`);
