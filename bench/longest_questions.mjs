// The first search of a site's longest questions in headless Chromium: for each of the N
// longest questions (by characters), a fresh page imports the site's hipporag-site.js, calls
// init() and searches once; printed are the question's length, its results, and the gzipped
// bytes and files it fetched from `_hipporag/` (the module, the JS, the entry and every piece).
// A site built by `hipporag site DIR` from `corpus_site.py`'s pages (docs/benchmarks.md,
// "JSQuAD's tail").
//
//   node bench/longest_questions.mjs SITE_DIR QUESTIONS [N]
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { launch, serve } from "../tests/e2e/harness.mjs";

const [dir, questionsFile, n = "15"] = process.argv.slice(2);
if (!dir || !questionsFile) {
  console.error("usage: node bench/longest_questions.mjs SITE_DIR QUESTIONS [N]");
  process.exit(2);
}
const questions = JSON.parse(readFileSync(questionsFile, "utf8")).map((q) => q.q);
questions.sort((a, b) => b.length - a.length);
/** A file's bytes as served: gzipped pieces as they are, anything else gzipped. */
const served = (path) => {
  const b = readFileSync(join(dir, decodeURIComponent(path)));
  return b[0] === 0x1f && b[1] === 0x8b ? b.length : gzipSync(b, { level: 9 }).length;
};
const server = await serve(dir);
const browser = await launch();
const all = [];
try {
  console.log("chars  results  first search  files");
  for (const q of questions.slice(0, Number(n))) {
    const ctx = await browser.newContext();
    const fetched = new Set();
    ctx.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/_hipporag/")) fetched.add(path);
    });
    const page = await ctx.newPage();
    await page.goto(`${server.origin}/_hipporag/hipporag-entry.json`);
    fetched.clear();
    const results = await page.evaluate(async (q) => {
      const h = await import("/_hipporag/hipporag-site.js");
      await h.init();
      return (await h.search(q)).results.length;
    }, q);
    const bytes = [...fetched].reduce((s, f) => s + served(f), 0);
    all.push(bytes);
    console.log(
      `${String(q.length).padStart(5)}  ${String(results).padStart(7)}  ${(bytes / 1e3).toFixed(1).padStart(9)} KB  ${String(fetched.size).padStart(5)}`,
    );
    await ctx.close();
  }
  console.log(`max ${(Math.max(...all) / 1e3).toFixed(1)} KB, median ${(all.sort((a, b) => a - b)[all.length >> 1] / 1e3).toFixed(1)} KB`);
} finally {
  await browser.close();
  server.stop();
}
