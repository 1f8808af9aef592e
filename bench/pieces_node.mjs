// The search module of a built site, timed in Node: every question of QUESTIONS ([{q, split}])
// of one split is asked once through SITE/_hipporag's own hipporag-pieces.js and search module
// (the page's code; `fetch` reads the piece files), then REPEATS more times with its pieces
// loaded. Prints a SHA-256 over every top 10 (two module builds rank alike when it is the same)
// and the median and 90th percentile of `search()` in ms. To compare module builds, build the
// site with each (`./build.sh build`, then `hipporag site`), or copy a build's
// hipporag_pieces_wasm.js and hipporag_pieces_wasm_bg.wasm into SITE/_hipporag.
//
//   node bench/pieces_node.mjs SITE QUESTIONS [--split test] [--limit N] [--repeats 5] [--mode hybrid]
//
// e.g. `node bench/pieces_node.mjs out/bench/rustdoc bench/rustdoc_questions.json`
// (docs/benchmarks.md, "The wasm modules with std from source", has the runs).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    split: { type: "string", default: "test" },
    repeats: { type: "string", default: "5" },
    mode: { type: "string", default: "hybrid" },
    limit: { type: "string", default: "0" },
  },
});
const [site, questionsFile] = positionals;
if (!site || !questionsFile) {
  console.error("usage: node bench/pieces_node.mjs SITE QUESTIONS [--split test] [--limit N] [--repeats 5] [--mode hybrid]");
  process.exit(2);
}

// The pieces and the module from disk, as a static server would send them.
globalThis.fetch = async (url) => {
  const path = fileURLToPath(url instanceof URL ? url : new URL(url));
  const type = path.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  return new Response(readFileSync(path), { headers: { "content-type": type } });
};

const dir = new URL(`${pathToFileURL(site).href}/_hipporag/`);
const entry = JSON.parse(readFileSync(new URL("hipporag-entry.json", dir), "utf8"));
if (!entry.pieces) {
  console.error(`${site}/_hipporag/hipporag-entry.json: no "pieces" (a site built by \`hipporag site\`)`);
  process.exit(2);
}
const { openPieces } = await import(new URL("hipporag-pieces.js", dir).href);
const pieces = await openPieces(new URL(entry.pieces, dir), new URL("hipporag_pieces_wasm_bg.wasm", dir));

const questions = JSON.parse(readFileSync(questionsFile, "utf8"))
  .filter((q) => values.split === "all" || q.split === values.split)
  .map((q) => q.q)
  .slice(0, Number(values.limit) || undefined);
if (questions.length === 0) {
  console.error(`${questionsFile}: no question of split ${values.split}`);
  process.exit(2);
}
const opts = { mode: values.mode, topK: 10 };
const tops = [];
for (const q of questions) tops.push((await pieces.search(q, opts)).ranked.map((r) => r.id).join(","));
const times = [];
for (let r = 0; r < Number(values.repeats); r++) {
  for (const q of questions) {
    const t0 = performance.now();
    await pieces.search(q, opts);
    times.push(performance.now() - t0);
  }
}
times.sort((a, b) => a - b);
const hash = createHash("sha256").update(tops.join("\n")).digest("hex").slice(0, 16);
const at = (p) => times[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(2);
console.log(
  `${site}: ${questions.length} questions (${values.split}), ${values.mode}; top 10s ${hash}; search() with its pieces loaded: median ${at(0.5)} ms, p90 ${at(0.9)} ms`,
);
