// Node timing harness for the wasm retriever (not a test): index load time and per-query
// retrieve() latency (linking + PPR + ranking; encoding done beforehand) over a question file.
//   node tests/js/bench.mjs out/musique_train.hipporag ../shared/data/musique_train/musique_train.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [indexPath, questionsPath] = process.argv.slice(2);
const { initWasm, Retriever, hashedNgramEncode } = await import(join(root, "pkg", "hipporag.js"));
await initWasm(readFileSync(join(root, "pkg", "hipporag_wasm_bg.wasm")));
const bytes = new Uint8Array(readFileSync(indexPath));
const loads = [];
let r;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  r = Retriever.fromBytes(bytes);
  loads.push(performance.now() - t);
}
const dim = r.info.encoder.dim;
const qs = JSON.parse(readFileSync(questionsPath, "utf8")).map((q) => {
  const entities = r.extractEntities(q.question);
  const emb = hashedNgramEncode([q.question, ...entities], dim);
  return { entities, embeddings: emb.subarray(dim), queryEmbedding: emb.subarray(0, dim), topK: 5 };
});
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const q of qs) r.retrieve(q); // warm-up
const times = [];
for (let rep = 0; rep < 5; rep++) for (const q of qs) {
  const t = performance.now();
  r.retrieve(q);
  times.push(performance.now() - t);
}
console.log("| wasm in Node | median | p90 |");
console.log("|---|---|---|");
console.log(`| Retriever.fromBytes (${(bytes.length / 1e6).toFixed(1)} MB) | ${median(loads).toFixed(1)} ms | |`);
const sorted = [...times].sort((a, b) => a - b);
console.log(`| retrieve() hipporag1, ${qs.length} questions × 5 | ${median(times).toFixed(2)} ms | ${sorted[Math.floor(sorted.length * 0.9)].toFixed(2)} ms |`);
