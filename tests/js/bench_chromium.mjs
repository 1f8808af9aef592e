// Chromium timing harness for the wasm retriever (not a test): bench.mjs's figures measured in
// a headless Chromium page instead of Node.
//
//   node tests/js/bench_chromium.mjs [--json] [--modes hipporag1,hipporag2] [--repeats 3] [--pages 7] INDEX QUESTIONS
//
// Serves this checkout on 127.0.0.1 (a small static server below), opens a blank page, imports
// pkg/hipporag.js there and, inside the page (the main thread; the demo runs the same code in a
// worker): fetches the index and the questions, times `Retriever.fromBytes` — the first call on a
// fresh page (what a visitor waits for: wasm code not yet tiered up, linear memory still to grow;
// `--pages` fresh pages, median and range reported, as it varies a lot run to run on this VM)
// and the median of four more calls on the last page — then `retrieve()` per query with the default PPR method (queries
// encoded beforehand with the built-in hashed n-gram encoder; the index must be a
// `hashed-ngram-v1` index), and reads the wasm memory size. Prints a table, or JSON.
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { join, normalize, relative, resolve, extname } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../e2e/harness.mjs";
import { benchArgs, mib, printTableHead, root } from "./bench_common.mjs";

const args = benchArgs({
  usage: "node tests/js/bench_chromium.mjs [--json] [--modes m1,m2] [--repeats N] INDEX QUESTIONS",
  repeats: "3",
  options: { pages: { type: "string", default: "7" } },
});
const { modes, repeats } = args;
const json = args.values.json;
const pages = Number(args.values.pages);
const [indexPath, questionsPath] = [args.indexPath, args.questionsPath].map((p) => resolve(p));

// Static files: /pkg/… from this checkout, /index and /questions from the given paths.
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  let file;
  if (url.pathname === "/index") file = indexPath;
  else if (url.pathname === "/questions") file = questionsPath;
  else if (url.pathname === "/") {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>bench</title>");
    return;
  } else {
    file = normalize(join(root, decodeURIComponent(url.pathname)));
    if (relative(root, file).startsWith("..")) return res.writeHead(403).end();
  }
  try {
    const size = statSync(file).size;
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-length": size });
    createReadStream(file).pipe(res);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS });
let out;
try {
  const firstCalls = [];
  for (let k = 0; k < pages; k++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(origin + "/");
    out = await page.evaluate(
      async ({ modes, repeats, last }) => {
        const { initWasm, Retriever, hashedNgramEncode } = await import("/pkg/hipporag.js");
        const wasm = await initWasm(fetch("/pkg/hipporag_wasm_bg.wasm"));
        const memory = () => wasm.memory.buffer.byteLength;
        const memInit = memory();
        const bytes = new Uint8Array(await (await fetch("/index")).arrayBuffer());
        const questions = await (await fetch("/questions")).json();
        const loads = [];
        let r;
        for (let i = 0; i < 5; i++) {
          if (r) r.free();
          const t = performance.now();
          r = Retriever.fromBytes(bytes);
          loads.push(performance.now() - t);
        }
        const memLoads = memory();
        if (!last) return { load: { firstMs: loads[0] } };
        if (r.info.encoder.id !== "hashed-ngram-v1")
          throw new Error(`encoder ${r.info.encoder.id}: this harness encodes with hashed-ngram-v1 only`);
        const dim = r.info.encoder.dim;
        const qs = questions.map((q) => {
          const entities = r.extractEntities(q.question);
          const emb = hashedNgramEncode([q.question, ...entities], dim);
          return { entities, embeddings: emb.subarray(dim), queryEmbedding: emb.subarray(0, dim), topK: 5 };
        });
        const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
        const quantile = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
        const results = {};
        for (const mode of modes) {
          const reqs = qs.map((q) => ({ ...q, mode }));
          const timed = reqs.filter((q) => !r.retrieve(q).fallback); // also the warm-up
          const times = [];
          for (let k = 0; k < repeats; k++)
            for (const q of timed) {
              const t = performance.now();
              r.retrieve(q);
              times.push(performance.now() - t);
            }
          results[mode] = {
            timed: timed.length,
            fallbacks: qs.length - timed.length,
            repeats,
            medianMs: median(times),
            p90Ms: quantile(times, 0.9),
          };
        }
        return {
          bytes: bytes.length,
          counts: r.info.counts,
          load: { firstMs: loads[0], medianOfRestMs: median(loads.slice(1)) },
          memory: { initBytes: memInit, afterLoadsBytes: memLoads, afterQueriesBytes: memory() },
          modes: results,
        };
      },
      { modes, repeats, last: k === pages - 1 },
    );
    firstCalls.push(out.load.firstMs);
    await context.close();
  }
  firstCalls.sort((a, b) => a - b);
  out.load.firstCallsMs = firstCalls;
  out.load.firstMs = firstCalls[firstCalls.length >> 1];
  out.browser = browser.version();
  out.index = indexPath;
} finally {
  await browser.close();
  server.close();
}
if (json) {
  console.log(JSON.stringify(out, null, 2));
} else {
  printTableHead({
    indexPath,
    bytes: out.bytes,
    counts: out.counts,
    where: "wasm in Chromium",
    suffix: ` (Chromium ${out.browser})`,
  });
  const fc = out.load.firstCallsMs;
  console.log(
    `| Retriever.fromBytes, first call on a fresh page (${fc.length} pages; range ${fc[0].toFixed(1)}–${fc[fc.length - 1].toFixed(1)} ms) | ${out.load.firstMs.toFixed(1)} ms | |`,
  );
  console.log(`| Retriever.fromBytes, calls 2–5 | ${out.load.medianOfRestMs.toFixed(1)} ms | |`);
  for (const [mode, s] of Object.entries(out.modes)) {
    console.log(
      `| retrieve() ${mode}, ppr auto, ${s.timed} questions × ${s.repeats} (${s.fallbacks} dense fallbacks untimed) | ${s.medianMs.toFixed(2)} ms | ${s.p90Ms.toFixed(2)} ms |`,
    );
  }
  console.log(
    `| wasm memory: init / after 5 loads / after queries | ${mib(out.memory.initBytes)} / ${mib(out.memory.afterLoadsBytes)} / ${mib(out.memory.afterQueriesBytes)} | |`,
  );
}
