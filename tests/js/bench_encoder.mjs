// Node timing harness (not a test) for the all-MiniLM-L6-v2 encoder's wasm module (pkg/minilm/):
// model load time (`new MiniLmEncoder(weights, tokenizer, config)`, the bytes already in
// memory), encode latency of a 5-entity query (five phrase strings of one call, as the
// HippoRAG 1 search encodes a question's entities) and of one question (HippoRAG 2 and dense
// encode only the question), and the module's size. Medians over --repeats runs.
//
//   node tests/js/bench_encoder.mjs [--repeats 20] [MODEL_DIR]
import { readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const r = args.indexOf("--repeats");
const repeats = r >= 0 ? Number(args.splice(r, 2)[1]) : 20;
const modelDir = args[0] ?? process.env.HIPPORAG_MODEL_DIR ?? join(process.env.HOME, ".cache", "hipporag-wasm", "all-MiniLM-L6-v2");
const wasmPath = join(root, "pkg", "minilm", "hipporag_minilm_bg.wasm");

const { default: init, MiniLmEncoder } = await import(join(root, "pkg", "minilm", "hipporag_minilm.js"));
const wasmBytes = readFileSync(wasmPath);
let t = performance.now();
await init({ module_or_path: wasmBytes });
const initMs = performance.now() - t;
const files = ["model.safetensors", "tokenizer.json", "config.json"].map((f) => new Uint8Array(readFileSync(join(modelDir, f))));
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const loads = [];
let enc;
for (let i = 0; i < 3; i++) {
  enc?.free();
  t = performance.now();
  enc = new MiniLmEncoder(files[0], files[1], files[2]);
  loads.push(performance.now() - t);
}
const entities = ["journal of psychotherapy integration", "first president", "association", "Stanford University", "Alzheimer's"];
const question = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
const time = (texts) => {
  enc.encode(texts); // warm-up
  const ms = [];
  for (let i = 0; i < repeats; i++) {
    t = performance.now();
    enc.encode(texts);
    ms.push(performance.now() - t);
  }
  return median(ms);
};
const five = time(entities);
const one = time([question]);
const raw = statSync(wasmPath).size;
const gz = gzipSync(wasmBytes, { level: 9 }).length;
console.log("| all-MiniLM-L6-v2 in wasm (Node " + process.version + ") | median |");
console.log("|---|---|");
console.log(`| module instantiate (${(raw / 1e6).toFixed(2)} MB wasm, ${(gz / 1e6).toFixed(2)} MB gzipped) | ${initMs.toFixed(0)} ms |`);
console.log(
  `| model load (${(files[0].length / 1e6).toFixed(1)} MB safetensors + tokenizer + config), 3 runs | ${median(loads).toFixed(0)} ms |`,
);
console.log(`| encode a 5-entity query, ${repeats} runs | ${five.toFixed(1)} ms |`);
console.log(`| encode one question, ${repeats} runs | ${one.toFixed(1)} ms |`);
