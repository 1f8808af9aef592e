// app.js — the page: corpus choice, loading progress, the search box, ranked passages with
// highlighted phrases, the explanation panel and the activated-subgraph drawing. All retrieval
// runs in worker.js; this thread only renders, so the page never freezes.
import { drawSubgraph } from "./graph.js";
import { phraseSpans } from "./highlight.js";
import { MSG, handlerFor, unknownMessage } from "./protocol.js";
import { checkFile, filePassages, pdfPassages } from "./documents.js";
import { h } from "../site/hipporag-helpers.js";

const $ = (id) => document.getElementById(id);

const fmtMs = (ms) => (ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
const fmtBytes = (b) => (b < 1024 ? `${b} B` : b < 1 << 20 ? `${(b / 1024).toFixed(0)} KB` : `${(b / (1 << 20)).toFixed(1)} MB`);
const pct = (x) => (x < 0.005 ? "<1%" : `${Math.round(100 * x)}%`);
const fmtInt = (n) => n.toLocaleString("en-US");

const ERROR_TITLES = {
  wasm: "This browser cannot run WebAssembly",
  worker: "The background worker could not start",
  manifest: "This site is incomplete",
  asset: "A file of this site could not be loaded",
  index: "The index could not be loaded",
  encoder: "This index needs an encoder the page does not have",
  search: "The search failed",
  protocol: "The page and its worker do not understand each other",
};
const ERROR_HINTS = {
  wasm: "HippoRAG runs as a WebAssembly module. Use a current Chrome, Firefox, Safari or Edge, and check that WebAssembly is not disabled by a policy or an extension.",
  worker: "The page runs retrieval in a module Web Worker. Serve the site over http(s) (./build.sh serve), not from file://.",
  manifest: "Rebuild the site with ./build.sh site and serve out/www/ (./build.sh serve).",
  asset: "Rebuild the site with ./build.sh site and serve out/www/ (./build.sh serve), then reload.",
  index: "The index file is missing, truncated or damaged. Rebuild it with `hipporag index` (./build.sh site does it) and reload.",
  encoder: "Queries must be encoded with the encoder the index was built with.",
  search: "The question could not be answered; the message above says why.",
  protocol: "The page and worker.js come from different builds. Reload; if it persists, rebuild the site with ./build.sh site.",
};

const state = { manifest: null, corpus: null, worker: null, seq: 0, sent: new Map(), ready: false };

function fail(kind, message) {
  const box = $("error");
  box.replaceChildren(
    h("h2", {}, ERROR_TITLES[kind] ?? "Something went wrong"),
    h("p", { class: "message" }, message),
    h("p", { class: "hint" }, ERROR_HINTS[kind] ?? ""),
  );
  box.dataset.kind = kind;
  box.hidden = false;
  if (kind !== "search") {
    document.body.dataset.state = "error";
    setSearchEnabled(false);
    $("load").classList.add("failed");
    $("load-summary").textContent = state.corpus ? `${state.corpus.name}: not loaded.` : "Not loaded.";
  }
}

function clearError() {
  $("error").hidden = true;
  $("error").replaceChildren();
  delete $("error").dataset.kind;
}

function setSearchEnabled(on) {
  $("q").disabled = !on;
  $("mode").disabled = !on;
  $("go").disabled = !on;
  for (const b of document.querySelectorAll("#examples button")) b.disabled = !on;
}

// ---- loading ---------------------------------------------------------------------------------

const STAGES = { wasm: "WebAssembly module", index: "Index", model: "Encoder model", indexer: "Indexer module", build: "Indexing" };

/** The corpus the user makes from their own files (not in corpora.json). */
const DOCUMENTS = {
  id: "documents",
  name: "Your documents",
  description:
    "Your own files, indexed here in the page by the in-browser indexer (the rule extractor and the lexical encoder, the same bytes as `hipporag index`; Chinese files load the indexer with jieba's dictionary: 4.7 MB, 3.7 MB gzipped). They are never uploaded: the page may fetch only its own static files.",
  examples: [],
};

function progressRow(stage) {
  let row = document.querySelector(`#load [data-stage="${stage}"]`);
  if (!row) {
    row = h(
      "div",
      { class: "stage", dataset: { stage } },
      h("span", { class: "what" }, STAGES[stage]),
      h("progress", { max: 1, value: 0 }),
      h("span", { class: "amount" }, ""),
    );
    $("progress").append(row);
  }
  return row;
}

function onProgress({ stage, loaded, total, step }) {
  const row = progressRow(stage);
  const bar = row.querySelector("progress");
  if (total) {
    bar.max = total;
    bar.value = loaded;
  } else bar.removeAttribute("value");
  row.querySelector(".amount").textContent =
    stage === "build"
      ? `${step}: ${fmtInt(loaded)} / ${fmtInt(total)}`
      : total
        ? `${fmtBytes(loaded)} / ${fmtBytes(total)}`
        : fmtBytes(loaded);
}

/** Makes `corpus` the page's (menu, URL), clears what belonged to the previous one and sets the body's state. */
function switchCorpus(corpus, bodyState) {
  state.corpus = corpus;
  state.ready = false;
  // Results still on their way belong to the previous index: onResult drops them.
  state.sent.clear();
  state.pendingQuery = null;
  $("corpus").value = corpus.id;
  const url = new URL(location.href);
  url.searchParams.set("corpus", corpus.id);
  history.replaceState(null, "", url);
  clearError();
  clearResults();
  document.body.dataset.state = bodyState;
  setSearchEnabled(false);
  $("load").classList.remove("failed", "done");
}

/** "Your documents": the file picker; the index is built when files are chosen. */
function showDocuments() {
  switchCorpus(DOCUMENTS, "documents");
  $("progress").replaceChildren();
  $("documents").hidden = false;
  $("file-errors").replaceChildren();
  $("load-summary").textContent = "Looking for documents saved in this browser…";
  $("corpus-desc").textContent = DOCUMENTS.description;
  renderExamples(DOCUMENTS);
  state.loadStart = performance.now();
  state.worker.postMessage({ type: MSG.RESTORE });
}

/** The indexed files, each with a button that re-indexes without it. */
function renderFileList(files) {
  state.documents = files;
  $("file-list").replaceChildren(
    ...files.map((f) =>
      h(
        "li",
        { dataset: { name: f.name } },
        h("span", {}, `${f.name} · ${fmtInt(f.passages)} passages `),
        h("button", { type: "button", class: "remove", onclick: () => rebuild({ files: [], remove: f.name }) }, "Remove"),
      ),
    ),
  );
  $("forget").hidden = files.length === 0;
}

/** Starts a build in the worker (progress rows, the load summary). */
function rebuild(message, what = "Indexing your documents…") {
  document.body.dataset.state = "loading";
  setSearchEnabled(false);
  clearResults();
  $("load").classList.remove("failed", "done");
  $("progress").replaceChildren();
  progressRow("wasm");
  progressRow("indexer");
  progressRow("build");
  $("load-summary").textContent = what;
  state.loadStart = performance.now();
  state.worker.postMessage({ type: MSG.BUILD, ...message });
}

/** Nothing saved (or just forgotten): the file picker alone. */
function onEmpty() {
  if (state.corpus?.id !== DOCUMENTS.id) return;
  renderFileList([]);
  clearResults();
  $("progress").replaceChildren();
  $("load").classList.remove("failed", "done");
  document.body.dataset.state = "documents";
  setSearchEnabled(false);
  $("load-summary").textContent = "Choose files to index.";
}

/** Reads the chosen files into passages (each file's problem listed, the others kept) and builds. */
async function indexFiles(files) {
  const parser = new DOMParser();
  const read = [];
  const problems = [];
  for (const f of files) {
    try {
      const bytes = new Uint8Array(await f.arrayBuffer());
      const passages =
        checkFile(f.name, bytes) === ".pdf"
          ? pdfPassages(f.name, await (await import("./pdf.js")).pdfPages(f.name, bytes))
          : filePassages(f.name, bytes, (t) => parser.parseFromString(t, "text/html"));
      read.push({ name: f.name, passages });
    } catch (e) {
      problems.push(String(e.message ?? e));
    }
  }
  $("file-errors").replaceChildren(...problems.map((p) => h("li", {}, p)));
  if (read.length === 0) return;
  const n = read.reduce((k, f) => k + f.passages.length, 0);
  // Files join those indexed before (a file of the same name replaces its old version).
  rebuild({ files: read, add: (state.documents ?? []).length > 0 }, `Indexing ${fmtInt(n)} passages from ${fmtInt(read.length)} files…`);
}

function loadCorpus(id) {
  if (id === DOCUMENTS.id) return showDocuments();
  $("documents").hidden = true;
  const corpus = state.manifest.corpora.find((c) => c.id === id) ?? state.manifest.corpora[0];
  switchCorpus(corpus, "loading");
  delete $("load").dataset.indexLoadMs;
  $("progress").replaceChildren();
  progressRow("wasm");
  progressRow("index");
  $("load-summary").textContent = `Loading ${corpus.name}…`;
  $("corpus-desc").textContent = corpus.description;
  renderExamples(corpus);
  state.loadStart = performance.now();
  state.worker.postMessage({ type: MSG.LOAD, index: { url: corpus.index, name: corpus.id } });
}

function onLoaded({ info, encoder, timings, bytes, wasmEarlier, built, documents }) {
  if (documents) {
    renderFileList(documents.files);
    if (documents.storeError)
      $("file-errors").append(h("li", {}, `Not saved in this browser (${documents.storeError}): a reload will need the files again.`));
    // A language read with an analysis not its own (the indexer's `languageReport`) is said, not done in silence.
    for (const w of documents.language?.warnings ?? [])
      $("file-errors").append(
        h(
          "li",
          { class: "language-warning", "data-language": w.code },
          // The message's `code` spans (language codes) as code.
          ...`${w.message}.${w.hasAnalysis ? " To read them as themselves, index those files without the others." : ""}`
            .split("`")
            .map((part, i) => (i % 2 ? h("code", {}, part) : part)),
        ),
      );
  }
  state.ready = true;
  state.info = info;
  const total = performance.now() - state.loadStart;
  const indexMs = timings.indexDownloadMs + timings.indexParseMs;
  const load = $("load");
  load.classList.add("done");
  load.dataset.indexLoadMs = indexMs.toFixed(1);
  load.dataset.indexParseMs = timings.indexParseMs.toFixed(1);
  load.dataset.modelMs = timings.modelMs.toFixed(1);
  load.dataset.totalLoadMs = total.toFixed(1);
  if (built && !documents?.restored) load.dataset.buildMs = timings.indexDownloadMs.toFixed(1);
  else delete load.dataset.buildMs;
  // How many passages this build ran the rule extractor on (the rest kept their documents).
  if (documents?.extraction) load.dataset.extractedPassages = String(documents.extraction.passages);
  else delete load.dataset.extractedPassages;
  if (documents?.language) load.dataset.language = documents.language.language;
  else delete load.dataset.language;
  if (documents?.restored) load.dataset.restored = "true";
  else delete load.dataset.restored;
  for (const [stage, ms, n] of [
    ["wasm", timings.wasmMs, bytes.wasm],
    ["index", indexMs, bytes.index],
  ]) {
    const row = progressRow(stage);
    row.querySelector("progress").max = 1;
    row.querySelector("progress").value = 1;
    row.querySelector(".amount").textContent =
      stage === "wasm" && wasmEarlier
        ? `${fmtBytes(n)}, loaded earlier in ${fmtMs(ms)}`
        : stage === "index" && documents?.restored
          ? `${fmtBytes(n)} from this browser's storage, decoded in ${fmtMs(timings.indexParseMs)}`
          : stage === "index" && built
            ? `${fmtBytes(n)} built in this tab in ${fmtMs(timings.indexDownloadMs)}, decoded in ${fmtMs(timings.indexParseMs)}` +
              (documents?.extraction?.kept
                ? ` · OpenIE on ${fmtInt(documents.extraction.passages)} new passages, ${fmtInt(documents.extraction.kept)} kept`
                : "")
            : `${fmtBytes(n)} in ${fmtMs(ms)}` +
              (stage === "index" ? ` (download ${fmtMs(timings.indexDownloadMs)}, decode ${fmtMs(timings.indexParseMs)})` : "");
  }
  if (bytes.model) {
    progressRow("model").querySelector(".amount").textContent = `${fmtBytes(bytes.model)} in ${fmtMs(timings.modelMs)}`;
  }
  const c = info.counts;
  $("load-summary").replaceChildren(
    h("strong", {}, state.corpus.name),
    ` · ${fmtInt(c.passages)} passages · ${fmtInt(c.phrases)} phrase nodes · ${fmtInt(c.tripleEdges)} triple + ${fmtInt(c.synonymyEdges)} synonymy edges · encoder `,
    h("code", {}, info.encoder.id),
    ` (${encoder})`,
    ...(documents?.language ? [" · read as ", h("code", {}, documents.language.language)] : []),
    ` · ready in ${fmtMs(total)}`,
  );
  document.body.dataset.state = "ready";
  setSearchEnabled(true);
  $("q").focus();
  if (state.pendingQuery) {
    const q = state.pendingQuery;
    state.pendingQuery = null;
    search(q);
  }
}

function renderExamples(corpus) {
  $("examples").replaceChildren(
    ...(corpus.examples?.length ? [h("span", { class: "label" }, "Try:")] : []),
    ...(corpus.examples ?? []).map((q) =>
      h(
        "button",
        {
          type: "button",
          class: "example",
          disabled: !state.ready,
          onclick: () => {
            $("q").value = q;
            search(q);
          },
        },
        q,
      ),
    ),
  );
}

// ---- searching -------------------------------------------------------------------------------

function search(question) {
  question = question.trim();
  if (!question) return;
  if (!state.ready) {
    state.pendingQuery = question;
    return;
  }
  const seq = ++state.seq;
  state.sent.set(seq, { t0: performance.now(), question });
  $("stats").textContent = "Searching…";
  document.body.dataset.searching = "true";
  state.worker.postMessage({ type: MSG.SEARCH, seq, question, topK: 5, mode: $("mode").value });
}

function clearResults() {
  $("results").replaceChildren();
  $("explain").hidden = true;
  $("x-graph-sec").hidden = true;
  $("stats").textContent = "";
  delete $("stats").dataset.seq;
}

function onResult({ seq, result, graph, timings }) {
  const sent = state.sent.get(seq);
  state.sent.delete(seq);
  if (!sent || seq !== state.seq) return; // a newer question is on its way
  clearError();
  renderPassages(result);
  renderExplanation(result, graph);
  const ms = performance.now() - sent.t0;
  const stats = $("stats");
  stats.replaceChildren(
    h("strong", {}, fmtMs(ms)),
    ` for “${sent.question}” — query entities ${fmtMs(timings.entitiesMs)}, encoding ${fmtMs(timings.encodeMs)}, linking + PPR + ranking ${fmtMs(timings.retrieveMs)}` +
      (result.pprSteps ? ` (${fmtInt(result.pprSteps)} PPR steps: Gauss–Seidel sweeps or forward pushes)` : "") +
      `, subgraph + layout ${fmtMs(timings.subgraphMs)}. Computed in this tab; nothing was sent anywhere.`,
  );
  stats.dataset.queryMs = ms.toFixed(2);
  stats.dataset.workerMs = timings.workerMs.toFixed(2);
  stats.dataset.seq = String(seq);
  delete document.body.dataset.searching;
}

function highlighted(text, seedPhrases, contribPhrases) {
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const s of phraseSpans(text, [...seedPhrases, ...contribPhrases])) {
    frag.append(text.slice(at, s.start));
    const seed = s.phrases.some((p) => seedPhrases.has(p));
    frag.append(h("mark", { class: seed ? "seed" : "", title: s.phrases.join(" · ") }, text.slice(s.start, s.end)));
    at = s.end;
  }
  frag.append(text.slice(at));
  return frag;
}

const SCORE_TITLES = {
  hipporag1: "Pᵀ·ppr: Σ over the passage's phrases of occurrences × PPR probability",
  hipporag2: "PPR probability of the passage node",
  dense: "cosine of question and passage embeddings",
  bm25: "BM25 of the question's terms in the passage",
  hybrid: "PPR probability of the passage node (reset: BM25 on passages + seed phrases)",
};

function renderPassages(result) {
  const seedPhrases = new Set(result.seeds.map((s) => s.phrase));
  const max = Math.max(...result.passages.map((p) => p.score), 1e-12);
  const notice =
    result.mode === "dense" || result.mode === "bm25"
      ? h(
          "p",
          { class: "notice" },
          result.fallback
            ? `Fallback — ${result.fallback}.`
            : result.mode === "bm25"
              ? "BM25 baseline: passages ranked by the question's terms."
              : "Dense baseline: passages ranked by the cosine of question and passage embeddings.",
        )
      : null;
  $("results").replaceChildren(
    h("h2", {}, "Top passages"),
    ...(notice ? [notice] : []),
    ...result.passages.map((p) =>
      h(
        "article",
        { class: "passage", dataset: { id: String(p.id), rank: String(p.rank) } },
        h(
          "header",
          {},
          h("span", { class: "rank" }, String(p.rank)),
          h("h3", {}, p.url ? h("a", { href: p.url }, p.title) : p.title),
          h("span", { class: "score", title: SCORE_TITLES[result.mode] }, p.score.toPrecision(3)),
        ),
        h("div", { class: "bar" }, h("span", { style: { width: `${((100 * p.score) / max).toFixed(1)}%` } })),
        h("p", { class: "text" }, highlighted(p.text, seedPhrases, new Set(p.contributions.map((c) => c.phrase)))),
      ),
    ),
  );
}

function renderExplanation(result, graph) {
  const panel = $("explain");
  panel.hidden = false;
  // 1. Query entities (HippoRAG) or linked facts (HippoRAG 2) → seeds.
  const v2 = result.mode === "hipporag2";
  $("x-step1").textContent = v2 ? "Question → linked facts → seed phrases" : "Query entities → seed phrases";
  $("x-step1-note").replaceChildren(
    v2
      ? "HippoRAG 2 links the whole question to its nearest facts (triples) by cosine; their subjects and objects become seeds, weighted by fact score × node specificity, and passages are nodes of the graph."
      : "Each query entity links to its nearest phrase node (cosine); the seed's restart weight is its node specificity 1/|Pᵢ| (rarer phrases weigh more).",
  );
  $("x-entities").replaceChildren(
    v2
      ? h(
          "ol",
          { class: "facts" },
          (result.facts ?? []).map((f) =>
            h(
              "li",
              {},
              h("span", { class: "fact" }, `(${f.subject}, ${f.relation}, ${f.object})`),
              h("span", { class: "num" }, f.cosine.toFixed(3)),
            ),
          ),
        )
      : result.entities.length
        ? h(
            "div",
            { class: "chips" },
            result.entities.map((e) => h("span", { class: "chip entity" }, e)),
          )
        : h("p", { class: "muted" }, "No query entity found in the question."),
  );
  const cols = v2
    ? [
        ["seed phrase", "", (s) => h("span", { class: "chip seed" }, s.phrase)],
        ["cosine", "cosine of the question and fact embeddings", (s) => s.cosine.toFixed(3)],
        ["specificity", "node specificity 1/|P_i|", (s) => `1/${Math.round(1 / s.specificity)}`],
        ["weight", "reset weight: fact score × node specificity", (s) => s.weight.toPrecision(3)],
      ]
    : [
        ["query entity", "", (s) => s.linkedFrom],
        ["seed phrase", "", (s) => h("span", { class: "chip seed" }, s.phrase)],
        ["cosine", "cosine of the entity and phrase embeddings", (s) => s.cosine.toFixed(3)],
        ["specificity", "node specificity 1/|P_i|: the seed's reset weight", (s) => `1/${Math.round(1 / s.specificity)}`],
      ];
  $("x-seeds").replaceChildren(
    result.seeds.length
      ? h(
          "table",
          { class: "seeds" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              cols.map(([name, title], i) =>
                h("th", { class: i >= cols.length - 2 || name === "cosine" ? "num" : "", title: title || undefined }, name),
              ),
            ),
          ),
          h(
            "tbody",
            {},
            result.seeds.map((s) =>
              h(
                "tr",
                {},
                cols.map(([name, , cell]) => h("td", { class: ["cosine", "specificity", "weight"].includes(name) ? "num" : "" }, cell(s))),
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, "No seed: dense ranking."),
  );
  // 2. Top PPR phrases.
  const maxPpr = Math.max(...result.topPhrases.map((p) => p.ppr), 1e-12);
  const seedIds = new Set(result.seeds.map((s) => s.phraseId));
  $("x-ppr").replaceChildren(
    h(
      "ol",
      { class: "ppr" },
      result.topPhrases.map((p) =>
        h(
          "li",
          {},
          h("span", { class: `phrase${seedIds.has(p.phraseId) ? " is-seed" : ""}` }, p.phrase),
          h("span", { class: "bar" }, h("span", { style: { width: `${((100 * p.ppr) / maxPpr).toFixed(1)}%` } })),
          h("span", { class: "num" }, p.ppr.toFixed(4)),
        ),
      ),
    ),
  );
  // 3. What each passage drew its score from.
  $("x-contrib").replaceChildren(
    h(
      "ol",
      { class: "contrib" },
      result.passages.map((p) =>
        h(
          "li",
          {},
          h("span", { class: "ptitle" }, `#${p.rank} ${p.title}`),
          h(
            "span",
            { class: "chips" },
            p.contributions.map((c) =>
              h(
                "span",
                {
                  class: `chip${seedIds.has(c.phraseId) ? " seed" : ""}`,
                  title: `${c.count} triple(s) × PPR ${c.ppr.toFixed(4)} = ${c.score.toFixed(4)}`,
                },
                v2 ? c.phrase : `${c.phrase} ${pct(c.score / p.score)}`,
              ),
            ),
          ),
        ),
      ),
    ),
  );
  $("x-step3").textContent = v2 ? "The phrases each passage is linked to" : "What each passage drew its score from";
  $("x-step3-note").textContent = v2
    ? "HippoRAG 2 scores a passage by the PPR probability of its own node; these are its phrases with the most PPR × occurrences."
    : "Passage score = Σ over its phrases of occurrences × PPR (Pᵀ·ppr); percentages are shares of that score.";
  // 4. The activated subgraph.
  const g = $("x-graph");
  if (graph && graph.nodes.length) {
    drawSubgraph(g, graph);
    g.dataset.nodes = String(graph.nodes.length);
    g.dataset.edges = String(graph.links.filter((l) => l.kind !== "passage").length);
  } else {
    g.replaceChildren(h("p", { class: "muted" }, "No graph walk for this query."));
    g.dataset.nodes = "0";
    g.dataset.edges = "0";
  }
  const dense = result.mode === "dense" || result.mode === "bm25";
  for (const id of ["x-entities-sec", "x-ppr-sec", "x-contrib-sec", "x-graph-sec"]) $(id).hidden = dense;
  $("x-dense").hidden = !dense;
  if (dense)
    $("x-dense").textContent =
      result.mode === "bm25"
        ? "No graph search for this ranking: passages are ordered by BM25 over the question's terms (the lexical baseline HippoRAG is compared with)."
        : "No graph search for this ranking: passages are ordered by the cosine between the question's embedding and each passage's embedding (the dense baseline HippoRAG is compared with).";
}

function onWorkerError({ kind, seq, message }) {
  if (kind === "search") {
    state.sent.delete(seq);
    delete document.body.dataset.searching;
    $("stats").textContent = "";
  }
  fail(kind, message);
}

// ---- start -----------------------------------------------------------------------------------

async function main() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    return fail("wasm", "WebAssembly is not available here, so the retriever cannot run.");
  }
  if (typeof Worker !== "function") return fail("worker", "Web Workers are not available in this browser.");
  let manifest;
  try {
    const res = await fetch("corpora.json");
    if (!res.ok) throw new Error(`corpora.json: HTTP ${res.status} ${res.statusText}`);
    manifest = await res.json();
    if (!Array.isArray(manifest.corpora) || manifest.corpora.length === 0) throw new Error("corpora.json lists no index");
  } catch (e) {
    return fail("manifest", String(e.message ?? e));
  }
  state.manifest = manifest;
  $("corpus").replaceChildren(
    ...manifest.corpora.map((c) => h("option", { value: c.id }, c.name)),
    h("option", { value: DOCUMENTS.id }, `${DOCUMENTS.name} (indexed in this tab)`),
  );
  $("files").addEventListener("change", (e) => {
    indexFiles([...e.target.files]);
    e.target.value = "";
  });
  $("forget").addEventListener("click", () => state.worker.postMessage({ type: MSG.FORGET }));
  $("corpus").addEventListener("change", (e) => loadCorpus(e.target.value));
  $("search").addEventListener("submit", (e) => {
    e.preventDefault();
    search($("q").value);
  });
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onerror = (e) => fail("worker", e.message || "worker.js failed to load");
  const handlers = {
    [MSG.PROGRESS]: onProgress,
    [MSG.LOADED]: onLoaded,
    [MSG.RESULT]: onResult,
    [MSG.ERROR]: onWorkerError,
    [MSG.EMPTY]: onEmpty,
  };
  worker.onmessage = ({ data }) => {
    const handler = handlerFor(handlers, data);
    if (handler) handler(data);
    else fail("protocol", unknownMessage(data, handlers).message);
  };
  state.worker = worker;
  const params = new URLSearchParams(location.search);
  // The corpus choice is kept in the URL; the question never is (a URL reaches the server).
  loadCorpus(params.get("corpus"));
}

window.addEventListener("unhandledrejection", (e) => fail("search", String(e.reason?.message ?? e.reason)));
main();
