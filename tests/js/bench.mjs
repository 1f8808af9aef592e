// Node timing harness for the wasm retriever (not a test): Retriever.fromBytes time, per-query
// retrieve() latency (linking + PPR + ranking; the query is encoded beforehand) and wasm memory.
//
//   node tests/js/bench.mjs [--json] [--modes hipporag1,hipporag2] [--ppr auto,exact]
//                           [--pkg DIR] [--repeats 5] [--tolerance 1e-12] [--max-iterations 1000] INDEX QUESTIONS
//
// QUESTIONS is a MuSiQue-format file; entities come from the built-in extractor and the
// built-in hashed n-gram encoder (the index must be a `hashed-ngram-v1` index). Query times
// cover the questions that ran PPR (a dense fallback is counted but not timed); `--ppr` lists
// the PPR methods to time (`auto`, the library default; `exact`; `push`). The JSON output also
// holds every question's top-5 passage ids per mode and method. Memory is the
// wasm linear memory's size (`WebAssembly.Memory.buffer.byteLength`; it never shrinks, so each
// figure is the peak so far): after initialisation, after the first `fromBytes`, after all
// loads and after all queries.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { benchArgs, mib, printTableHead, root } from "./bench_common.mjs";

const {
  values: o,
  modes,
  repeats,
  indexPath,
  questionsPath,
} = benchArgs({
  usage:
    "node tests/js/bench.mjs [--json] [--modes m1,m2] [--ppr auto,exact,push] [--repeats N] [--tolerance T] [--max-iterations N] INDEX QUESTIONS",
  repeats: "5",
  options: {
    ppr: { type: "string", default: "auto" },
    tolerance: { type: "string", default: "1e-12" },
    "max-iterations": { type: "string", default: "1000" },
    pkg: { type: "string", default: join(root, "pkg") }, // another wasm-bindgen output, for A/B runs
  },
});
const json = o.json;
const methods = o.ppr.split(",");
const tolerance = Number(o.tolerance);
const maxIterations = Number(o["max-iterations"]);
const pkg = resolve(o.pkg);

const { initWasm, Retriever, hashedNgramEncode } = await import(join(pkg, "hipporag.js"));
const wasm = await initWasm(readFileSync(join(pkg, "hipporag_wasm_bg.wasm")));
const memory = () => wasm.memory.buffer.byteLength;
const memInit = memory();
const bytes = new Uint8Array(readFileSync(indexPath));
const loads = [];
let r;
let memFirstLoad;
for (let i = 0; i < 5; i++) {
  if (r) r.free();
  const t = performance.now();
  r = Retriever.fromBytes(bytes);
  loads.push(performance.now() - t);
  if (i === 0) memFirstLoad = memory();
}
const memLoads = memory();
if (r.info.encoder.id !== "hashed-ngram-v1") {
  console.error(`${indexPath}: encoder ${r.info.encoder.id}; this harness encodes queries with hashed-ngram-v1 only`);
  process.exit(2);
}
const dim = r.info.encoder.dim;
const qs = JSON.parse(readFileSync(questionsPath, "utf8")).map((q) => {
  const entities = r.extractEntities(q.question);
  const emb = hashedNgramEncode([q.question, ...entities], dim);
  return { entities, embeddings: emb.subarray(dim), queryEmbedding: emb.subarray(0, dim), topK: 5, tolerance, maxIterations };
});
const sorted = (a) => [...a].sort((x, y) => x - y);
const quantile = (a, q) => (a.length ? sorted(a)[Math.min(a.length - 1, Math.floor(a.length * q))] : NaN);

const results = {};
for (const mode of modes) {
  results[mode] = {};
  for (const ppr of methods) {
    const reqs = qs.map((q) => ({ ...q, mode, ppr }));
    const top = reqs.map((q) => r.retrieve(q)); // also the warm-up
    const timed = reqs.filter((q, i) => !top[i].fallback);
    const times = [];
    let iterations = 0;
    for (let rep = 0; rep < repeats; rep++)
      for (const q of timed) {
        const t = performance.now();
        const res = r.retrieve(q);
        times.push(performance.now() - t);
        iterations += res.pprSteps;
      }
    results[mode][ppr] = {
      questions: qs.length,
      timed: timed.length,
      fallbacks: qs.length - timed.length,
      repeats,
      medianMs: quantile(times, 0.5),
      p90Ms: quantile(times, 0.9),
      meanIterations: iterations / Math.max(1, times.length),
      top: top.map((res) => (res.fallback ? null : res.passages.map((p) => p.id))),
    };
  }
}
const memQueries = memory();
const out = {
  index: indexPath,
  bytes: bytes.length,
  nodes: { phrases: r.info.counts.phrases, passages: r.info.counts.passages, edges: r.info.counts.edges },
  load: { medianMs: quantile(loads, 0.5), firstMs: loads[0], runs: loads.length },
  memory: { initBytes: memInit, afterFirstLoadBytes: memFirstLoad, afterLoadsBytes: memLoads, afterQueriesBytes: memQueries },
  tolerance,
  modes: results,
};
if (json) {
  console.log(JSON.stringify(out, null, 2));
} else {
  printTableHead({ indexPath, bytes: bytes.length, counts: r.info.counts, where: "wasm in Node" });
  console.log(`| Retriever.fromBytes (first ${loads[0].toFixed(1)} ms) | ${quantile(loads, 0.5).toFixed(1)} ms | |`);
  for (const [mode, byMethod] of Object.entries(results))
    for (const [ppr, s] of Object.entries(byMethod)) {
      console.log(
        `| retrieve() ${mode}, ppr ${ppr}, ${s.timed} questions × ${repeats} (${s.fallbacks} dense fallbacks untimed) | ${s.medianMs.toFixed(2)} ms | ${s.p90Ms.toFixed(2)} ms |`,
      );
    }
  console.log(
    `| wasm memory: init / after first load / after ${loads.length} loads / after queries | ${mib(memInit)} / ${mib(memFirstLoad)} / ${mib(memLoads)} / ${mib(memQueries)} | |`,
  );
}
