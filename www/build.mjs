// Assembles the static site: bundles the page and its Web Worker with esbuild (d3-force, pkg/
// and the two modules the demo shares with a site's /_hipporag/ UI: www/site/hipporag-helpers.js,
// h(), and www/site/hipporag-encoders.js, the encoder registry), copies the wasm module and
// every index that exists, and writes corpora.json, the manifest the page builds its corpus
// list from.
//
//   node www/build.mjs --out out/www --indexes out --data ../shared/data
//
// Needs pkg/ (./build.sh build) and `npm ci`. Corpora listed in www/corpora.json whose index
// file is missing are left out of the manifest and reported.
import { build } from "esbuild";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const www = dirname(fileURLToPath(import.meta.url));
const root = resolve(www, "..");
const { values: args } = parseArgs({
  options: {
    out: { type: "string", default: join(root, "out", "www") },
    indexes: { type: "string", default: join(root, "out") },
    data: { type: "string", default: process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data") },
  },
});
const out = resolve(args.out);
const wasm = join(root, "pkg", "hipporag_wasm_bg.wasm");
if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run ./build.sh build first`);

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "indexes"), { recursive: true });

await build({
  entryPoints: { app: join(www, "src", "app.js"), worker: join(www, "src", "worker.js") },
  outdir: out,
  bundle: true,
  format: "esm",
  target: ["chrome110", "firefox115", "safari16"],
  minify: true,
  // pdf.js (www/src/pdf.js) is imported only when a PDF is picked: its own chunk.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
});
for (const f of ["index.html", "style.css", "boot.js"]) copyFileSync(join(www, f), join(out, f));
copyFileSync(wasm, join(out, "hipporag_wasm_bg.wasm"));
// The in-browser indexer's module ("Your documents"), fetched only when the user indexes.
const indexerWasm = join(root, "pkg", "indexer", "hipporag_indexer_wasm_bg.wasm");
if (!existsSync(indexerWasm)) throw new Error(`${indexerWasm} is missing: run ./build.sh build first`);
mkdirSync(join(out, "indexer"), { recursive: true });
// pdf.js's parser worker (www/src/pdf.js points pdf.js at it).
copyFileSync(join(root, "node_modules", "pdfjs-dist", "build", "pdf.worker.min.mjs"), join(out, "pdf.worker.min.mjs"));
copyFileSync(indexerWasm, join(out, "indexer", "hipporag_indexer_wasm_bg.wasm"));
// The same module with jieba (pkg/indexer-zh/), fetched instead when the user's files are Chinese.
const indexerZhWasm = join(root, "pkg", "indexer-zh", "hipporag_indexer_wasm_bg.wasm");
if (!existsSync(indexerZhWasm)) throw new Error(`${indexerZhWasm} is missing: run ./build.sh build first`);
mkdirSync(join(out, "indexer-zh"), { recursive: true });
copyFileSync(indexerZhWasm, join(out, "indexer-zh", "hipporag_indexer_wasm_bg.wasm"));
// The all-MiniLM-L6-v2 encoder (its wasm module and model files), for corpora indexed with it.
const minilmWasm = join(root, "pkg", "minilm", "hipporag_minilm_bg.wasm");
const modelDir = process.env.HIPPORAG_MODEL_DIR ?? join(process.env.HOME ?? "", ".cache", "hipporag-wasm", "all-MiniLM-L6-v2");
function copyMiniLm() {
  if (!existsSync(minilmWasm)) return `${minilmWasm} is missing (./build.sh build)`;
  for (const f of ["model.safetensors", "tokenizer.json", "config.json"])
    if (!existsSync(join(modelDir, f))) return `${join(modelDir, f)} is missing (./build.sh model)`;
  mkdirSync(join(out, "minilm"), { recursive: true });
  mkdirSync(join(out, "models", "all-MiniLM-L6-v2"), { recursive: true });
  copyFileSync(minilmWasm, join(out, "minilm", "hipporag_minilm_bg.wasm"));
  for (const f of ["model.safetensors", "tokenizer.json", "config.json"])
    copyFileSync(join(modelDir, f), join(out, "models", "all-MiniLM-L6-v2", f));
  return null;
}
let minilmCopied = null; // null: not needed yet; true: copied; string: why not

const corpora = [];
for (const c of JSON.parse(readFileSync(join(www, "corpora.json"), "utf8"))) {
  const src = join(args.indexes, c.index);
  if (!existsSync(src)) {
    console.warn(`site: no index for ${c.id} (${src} is missing): left out of corpora.json`);
    continue;
  }
  if (c.encoder === "minilm") {
    if (minilmCopied === null) minilmCopied = copyMiniLm() ?? true;
    if (minilmCopied !== true) {
      console.warn(`site: ${c.id} needs the all-MiniLM-L6-v2 encoder, but ${minilmCopied}: left out of corpora.json`);
      continue;
    }
  }
  copyFileSync(src, join(out, "indexes", c.index));
  chmodSync(join(out, "indexes", c.index), 0o644); // `hipporag index` writes 0600 (a temporary file renamed)
  const questions = JSON.parse(readFileSync(join(args.data, c.questions), "utf8"));
  const examples = [...(c.extraExamples ?? []), ...questions.slice(0, c.examples).map((q) => q.question)];
  corpora.push({
    id: c.id,
    name: c.name,
    description: c.description,
    index: `indexes/${c.index}`,
    bytes: statSync(src).size,
    examples: [...new Set(examples)],
  });
}
writeFileSync(join(out, "corpora.json"), JSON.stringify({ corpora }, null, 2) + "\n");
const size = (f) => statSync(join(out, f)).size;
console.log(
  `site: ${out} — app.js ${size("app.js")} B, worker.js ${size("worker.js")} B, wasm ${size("hipporag_wasm_bg.wasm")} B; ` +
    `corpora: ${corpora.map((c) => `${c.id} (${c.bytes} B)`).join(", ") || "none"}`,
);
