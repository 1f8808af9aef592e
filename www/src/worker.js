// worker.js — everything slow runs here, off the page's thread: the wasm module, the index,
// the encoder and every query. The messages it takes and sends are named in protocol.js; any
// other message is answered with an error of kind "protocol".
// Nothing leaves the browser: the only requests are for the site's own static files.
import { HippoRAG, Retriever, initWasm, fetchBytes } from "../../pkg/hipporag.js";
import { encoderFor } from "../site/hipporag-encoders.js";
import { MSG, serialDispatcher } from "./protocol.js";
import { activatedPhrases, subgraphModel } from "./activated.js";
import { layoutSubgraph } from "./layout.js";
import { forgetDocuments, loadDocuments, saveDocuments } from "./storage.js";
import { lexiconWords } from "./lexicon.js";

const base = new URL("./", self.location.href);
let wasm = null; // {ms, bytes}
/** Error kinds the worker's own load steps throw (the page has a title and a hint for each). */
const LOAD_ERROR_KINDS = new Set(["asset", "wasm", "encoder"]);
let rag = null;

const post = (m) => self.postMessage(m);

async function download(url, stage) {
  const t = performance.now();
  const bytes = await fetchBytes(new URL(url, base), ({ loaded, total }) => post({ type: MSG.PROGRESS, stage, loaded, total }));
  return { bytes, ms: performance.now() - t };
}

async function ensureWasm() {
  if (wasm) return { ...wasm, earlier: true };
  if (typeof WebAssembly !== "object")
    throw Object.assign(new Error("WebAssembly is not available in this browser's workers"), { kind: "wasm" });
  const t = performance.now();
  let bytes;
  try {
    ({ bytes } = await download("hipporag_wasm_bg.wasm", "wasm"));
  } catch (e) {
    throw Object.assign(new Error(`the WebAssembly module could not be downloaded: ${e.message}`), { kind: "asset" });
  }
  await initWasm(bytes);
  wasm = { ms: performance.now() - t, bytes: bytes.length };
  return wasm;
}

async function load({ url }) {
  let stage = "wasm";
  try {
    const w = await ensureWasm();
    stage = "index";
    if (rag) {
      rag.retriever.free();
      rag = null;
    }
    const dl = await download(url, "index");
    await open(w, dl);
  } catch (e) {
    // The page's kinds come from this worker's own errors; the wasm's (e.kind "format.checksum",
    // "format.truncated", …) are index errors, so the stage that failed names them.
    post({ type: MSG.ERROR, kind: LOAD_ERROR_KINDS.has(e?.kind) ? e.kind : stage, message: String(e?.message ?? e) });
  }
}

/**
 * The in-browser indexer's modules, each loaded on the first build that needs it: `indexer/`
 * (pkg/indexer/) for every language, and `indexer-zh/` (pkg/indexer-zh/: the same indexer with
 * jieba's dictionary, about ten times the bytes) for Chinese files, so their phrases are the
 * native `hipporag index`'s rather than only their Latin-script words.
 */
const indexers = new Map();
async function ensureIndexer(dir = "indexer") {
  if (indexers.has(dir)) return indexers.get(dir);
  let bytes;
  try {
    ({ bytes } = await download(`${dir}/hipporag_indexer_wasm_bg.wasm`, "indexer"));
  } catch (e) {
    throw Object.assign(new Error(`the indexer's WebAssembly module could not be downloaded: ${e.message}`), { kind: "asset" });
  }
  const m =
    dir === "indexer-zh"
      ? await import("../../pkg/indexer-zh/hipporag_indexer_wasm.js")
      : await import("../../pkg/indexer/hipporag_indexer_wasm.js");
  await m.default({ module_or_path: bytes });
  indexers.set(dir, m);
  return m;
}

/** The user's files in the index now loaded ([{name, passages, openie?}]), or null. */
let documents = null;

/** What LOADED says about the user's files. */
const fileList = (files) => files.map((f) => ({ name: f.name, passages: f.passages.length }));

/**
 * Indexes the user's files here, in the worker, loads the result and saves both in OPFS
 * (storage.js): nothing leaves the tab. `files`: [{name, passages}]; with `add`, they join
 * (or replace, by name) the files indexed before; `remove` names a file to leave out.
 *
 * Each file keeps its OpenIE documents (`openie: {language, docs}`, the rule extractor's, with
 * that file's own statistics), so a build extracts only the files that have none yet, or whose
 * language is no longer the index's; the graph, synonymy edges and vectors are built again
 * from all the documents (`buildIndexFromOpenie`).
 */
async function buildIndex({ files = [], add = false, remove = null }) {
  let stage = "wasm";
  try {
    let all = add || remove !== null ? [...(documents ?? (await loadDocuments())?.files ?? [])] : [];
    const names = new Set(files.map((f) => f.name));
    all = all.filter((f) => !names.has(f.name) && f.name !== remove).concat(files);
    if (all.length === 0) return forget();
    const w = await ensureWasm();
    const plain = await ensureIndexer();
    const passages = all.flatMap((f) => f.passages);
    stage = "index";
    // The analysis every passage is read with, and what the user must be told about it.
    const report = plain.languageReport(passages);
    const language = report.language;
    // Chinese files: the module with jieba (its download is this build's "indexer" progress).
    stage = "wasm";
    const m = language === "zh" ? await ensureIndexer("indexer-zh") : plain;
    stage = "index";
    if (rag) {
      rag.retriever.free();
      rag = null;
    }
    const t = performance.now();
    // A file's documents are extracted again when the index's language changed, or when they
    // are Chinese documents from a module without jieba (saved before it was used for them).
    const segmented = m.segmentsChinese();
    const stale = all.filter(
      (f) =>
        f.openie?.language !== language ||
        f.openie.docs.length !== f.passages.length ||
        (language === "zh" && f.openie.segmented !== segmented),
    );
    const toExtract = stale.reduce((n, f) => n + f.passages.length, 0);
    let extracted = 0;
    for (const f of stale) {
      // One OpenIE row for all the files extracted: their passages counted together.
      const docs = m.extractOpenie(f.passages, language, (step, loaded) =>
        post({ type: MSG.PROGRESS, stage: "build", step, loaded: extracted + loaded, total: toExtract }),
      );
      f.openie = { language, docs, segmented };
      extracted += f.passages.length;
    }
    const docs = all.flatMap((f) => f.openie.docs);
    // Thai, Lao, Khmer and Burmese words by the browser's segmenter, as `hipporag index` reads
    // them with ICU4X's (none: read in clusters and pairs only).
    const lexicon = lexiconWords(passages);
    const options = { language, factVectors: true, ...(lexicon ? { lexiconWords: lexicon } : {}) };
    const bytes = m.buildIndexFromOpenie(passages, docs, options, (step, loaded, total) =>
      post({ type: MSG.PROGRESS, stage: "build", step, loaded, total }),
    );
    const ms = performance.now() - t;
    documents = all;
    let storeError = null;
    try {
      await saveDocuments(all, bytes, report);
    } catch (e) {
      // Out of quota, or no OPFS: the index works in this tab, a reload will not find it.
      storeError = `${e?.name ?? "Error"}: ${e?.message ?? e}`;
    }
    const extraction = { files: stale.length, passages: toExtract, kept: passages.length - toExtract };
    await open(
      w,
      { bytes, ms, built: true },
      {
        files: fileList(all),
        restored: false,
        storeError,
        extraction,
        language: report,
      },
    );
  } catch (e) {
    post({ type: MSG.ERROR, kind: LOAD_ERROR_KINDS.has(e?.kind) ? e.kind : stage, message: String(e?.message ?? e) });
  }
}

/** Opens the files and index saved in OPFS, or answers EMPTY when there are none. */
async function restore() {
  let stage = "wasm";
  try {
    const saved = await loadDocuments();
    if (!saved) {
      documents = null;
      return post({ type: MSG.EMPTY });
    }
    const w = await ensureWasm();
    stage = "index";
    if (rag) {
      rag.retriever.free();
      rag = null;
    }
    documents = saved.files;
    // The language report saved with the files: a reopened index says how they were read, as the build did.
    await open(
      w,
      { bytes: saved.bytes, ms: 0, built: true },
      { files: fileList(saved.files), restored: true, storeError: null, ...(saved.language ? { language: saved.language } : {}) },
    );
  } catch (e) {
    post({ type: MSG.ERROR, kind: LOAD_ERROR_KINDS.has(e?.kind) ? e.kind : stage, message: String(e?.message ?? e) });
  }
}

/** "Forget everything": the saved files and index, and the index in memory. */
async function forget() {
  documents = null;
  if (rag) {
    rag.retriever.free();
    rag = null;
  }
  try {
    await forgetDocuments();
    post({ type: MSG.EMPTY });
  } catch (e) {
    post({ type: MSG.ERROR, kind: "storage", message: String(e?.message ?? e) });
  }
}

/**
 * Opens index bytes (`dl`: {bytes, ms, built?}) and posts LOADED (with `docs`, what it says of
 * the user's files); throws what it cannot open.
 */
async function open(w, dl, docs = null) {
  let stage = "index";
  try {
    const t0 = performance.now();
    const retriever = Retriever.fromBytes(dl.bytes);
    const parseMs = performance.now() - t0;
    stage = "encoder";
    const info = retriever.info;
    let enc;
    try {
      enc = encoderFor(info);
    } catch (e) {
      retriever.free();
      throw e;
    }
    const t1 = performance.now();
    const { encode, modelBytes } = await enc.load(info, {
      base,
      fetchBytes: (u, s = "model") => download(u, s).then((d) => d.bytes),
      // esbuild bundles both into worker.js; the MiniLM one runs only for an index built with it.
      modules: { hipporag: () => import("../../pkg/hipporag.js"), minilm: () => import("../../pkg/minilm/hipporag_minilm.js") },
    });
    const modelMs = performance.now() - t1;
    rag = new HippoRAG(retriever, { encode });
    post({
      type: MSG.LOADED,
      info,
      encoder: enc.label,
      timings: { wasmMs: w.ms, indexDownloadMs: dl.ms, indexParseMs: parseMs, modelMs },
      bytes: { wasm: w.bytes, index: dl.bytes.length, model: modelBytes },
      wasmEarlier: Boolean(w.earlier),
      built: Boolean(dl.built),
      documents: docs,
    });
  } catch (e) {
    throw Object.assign(e instanceof Error ? e : new Error(String(e)), { kind: LOAD_ERROR_KINDS.has(e?.kind) ? e.kind : stage });
  }
}

async function search({ seq, question, topK, mode }) {
  try {
    if (!rag) throw new Error("no index is loaded");
    const t0 = performance.now();
    const result = await rag.search(question, { topK, mode });
    const t1 = performance.now();
    let graph = null;
    if (result.mode !== "dense" && result.mode !== "bm25") {
      const phrases = activatedPhrases(result);
      const edges = rag.retriever.subgraph(Uint32Array.from(phrases.keys()));
      graph = layoutSubgraph(subgraphModel(result, phrases, edges));
    }
    const t2 = performance.now();
    post({
      type: MSG.RESULT,
      seq,
      result,
      graph,
      timings: { ...result.timings, searchMs: t1 - t0, subgraphMs: t2 - t1 /* edges + layout */, workerMs: t2 - t0 },
    });
  } catch (e) {
    post({ type: MSG.ERROR, kind: "search", seq, message: String(e?.message ?? e) });
  }
}

// Messages are handled one at a time, in order (a load finishes before the next search starts).
const dispatch = serialDispatcher(
  { [MSG.LOAD]: (m) => load(m.index), [MSG.SEARCH]: search, [MSG.BUILD]: buildIndex, [MSG.RESTORE]: restore, [MSG.FORGET]: forget },
  post,
);
self.onmessage = ({ data }) => dispatch(data);
