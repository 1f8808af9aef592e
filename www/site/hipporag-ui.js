// hipporag-ui.js — the default search UI of `hipporag site`. A site adds one element and one
// script:
//
//   <div id="hipporag-search"></div>
//   <script type="module" src="/_hipporag/hipporag-ui.js"></script>
//
// and gets a search box whose results link to the passage (`page.html#anchor`), with the
// explanation (query entities → seed phrases → top personalized-PageRank phrases → the phrases
// each result drew its score from) behind a "Why these results?" toggle. Elements with
// `data-hipporag-search` are mounted too.
//
// A theme with room only for a box in its header uses the modal instead:
//
//   <div data-hipporag-search="modal"></div>
//
// renders a button there; it, "/" (outside text fields) or Ctrl-K / ⌘K opens a <dialog> with the
// same search. In both forms ↓/↑ move between the input and the result links, Enter follows a
// link, Esc closes the dialog and gives focus back to the button. Its strings follow the page's
// `<html lang>`, the explanation's too (`hipporag-ui-strings/<code>.json`, one small file that
// only a page in that language loads). Built on hipporag-site.js (init/search/
// debouncedSearch) and hipporag-helpers.js (h(), the demo's too).
import { init, debouncedSearch } from "./hipporag-site.js";
import { h, uiLanguage } from "./hipporag-helpers.js";

/** The UI's strings in English, the fallback of every language and every missing string. */
const EN = {
  placeholder: "Ask a question about these docs…",
  search: "Search",
  why: "Why these results?",
  unavailable: "Search is unavailable: {error}",
  failed: "Search failed: {error}",
  results: "{n} results in {ms} ms, computed in this page.",
  // The explanation: its labels hold their own punctuation (French puts a space before ":").
  ranking: "Ranking: ",
  entities: "Query entities: ",
  seeds: "Seed phrases: ",
  seed: "{phrase} (cosine {cosine}, specificity {specificity})",
  topPhrases: "Top PageRank phrases: ",
  none: "none",
  via: "via {phrases}",
  mixed: "; mixed with the personalized PageRank of the seed phrases",
  refined: " (refined by the semantic model)",
  loading: " Loading the semantic model to refine them…",
  notLoaded: " (The semantic model could not be loaded.)",
  // A search that fell back to dense ranking (`res.fallback`, the search module's own English reason).
  fallback: "Nothing in the question matched the graph: ranked by its embedding alone.",
  // Each ranking mode, by `res.mode`.
  modeHybrid:
    "BM25 over the passages, fused by page with static word-embedding scores when the site has them and, once the semantic model has loaded, the question's dense embedding (reciprocal rank), plus seed phrases when the site weights them",
  modeBm25: "BM25 over the passages",
  modeHipporag1: "query entities → seed phrases → personalized PageRank → passages",
  modeHipporag2: "linked facts and dense passage scores → personalized PageRank",
  modeDense: "cosine of question and passage embeddings",
};

/**
 * The strings of the page's language (`uiLanguage` of its `<html lang>`): its JSON file over
 * `EN`, so a missing string is English; `EN` for English (nothing fetched) and when the file
 * cannot be loaded (the reason on the console).
 */
async function pageStrings() {
  const code = uiLanguage(document.documentElement.lang);
  if (code === "en") return EN;
  const url = new URL(`hipporag-ui-strings/${code}.json`, import.meta.url);
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return { ...EN, ...(await res.json()) };
  } catch (e) {
    console.warn(`hipporag-ui: ${url}: ${e.message}; the UI speaks English`);
    return EN;
  }
}

const T = await pageStrings();
/** `T[key]` with `{name}` filled from `values`. */
const t = (key, values = {}) => T[key].replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
/** The description of ranking mode `mode` (`hybrid` → `modeHybrid`), or the mode's own name. */
const modeText = (mode) => T[`mode${mode.charAt(0).toUpperCase()}${mode.slice(1)}`] ?? mode;

const css = document.createElement("link");
css.rel = "stylesheet";
css.href = new URL("hipporag-ui.css", import.meta.url).href;
document.head.append(css);

/** The inline search: input, status, results and explanation, appended to `root`. */
function panel(root) {
  root.classList.add("hipporag");
  if (T.dir) root.dir = T.dir;
  const input = h("input", {
    type: "search",
    placeholder: t("placeholder"),
    "aria-label": t("search"),
    class: "hipporag-input",
  });
  const status = h("p", { class: "hipporag-status", "aria-live": "polite" });
  const list = h("ol", { class: "hipporag-results" });
  const why = h("details", { class: "hipporag-why", hidden: "" }, h("summary", {}, t("why")), h("div", { class: "hipporag-explain" }));
  root.append(input, status, list, why);
  // ↓/↑: from the input to the first result link, between links, and back to the input.
  root.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const links = [...list.querySelectorAll("li.hipporag-result > a")];
    const i = links.indexOf(document.activeElement);
    if (!links.length || (i < 0 && e.target !== input)) return;
    e.preventDefault();
    if (e.key === "ArrowDown") links[Math.min(i + 1, links.length - 1)].focus();
    else (i <= 0 ? input : links[i - 1]).focus();
  });
  init().then(
    () => (status.textContent = ""),
    (e) => {
      status.textContent = t("unavailable", { error: e.message });
      root.dataset.state = "error";
    },
  );
  let shown = 0;
  let current = 0;
  input.addEventListener("input", async () => {
    const mine = ++current;
    const q = input.value.trim();
    if (!q) {
      list.replaceChildren();
      why.hidden = true;
      status.textContent = "";
      return;
    }
    let res;
    try {
      res = await debouncedSearch(q, { topK: 8 }, 250);
      if (!res) return; // superseded by a later keystroke
      await show(res);
    } catch (e) {
      // A piece missing, damaged or of another build (e.kind): say so, show nothing partial.
      list.replaceChildren();
      why.hidden = true;
      status.textContent = t("failed", { error: e.message });
      root.dataset.state = "error";
      return;
    }
    delete root.dataset.state;
    // A semantic-tier site: the lean results are up; the model's arrive when it has loaded,
    // unless the visitor has typed on.
    if (res.refined) {
      const lean = status.textContent;
      status.textContent = lean + t("loading");
      const better = await res.refined;
      if (mine !== current) return;
      if (better) await show(better);
      else status.textContent = lean + t("notLoaded");
    }
  });

  async function show(res) {
    const items = await Promise.all(res.results.map((r) => r.data()));
    list.replaceChildren(
      ...items.map((d, i) =>
        h(
          "li",
          { class: "hipporag-result", "data-url": d.url ?? "", "data-score": res.results[i].score.toFixed(6) },
          h("a", { href: d.url ?? "#" }, d.title),
          // The excerpt's marked words as <mark> elements of text nodes: no HTML is parsed.
          h(
            "p",
            { class: "hipporag-excerpt" },
            d.excerptSegments.map((s, k) => (k % 2 ? h("mark", {}, s) : s)),
          ),
          d.contributions.length
            ? h(
                "p",
                { class: "hipporag-via" },
                t("via", {
                  phrases: d.contributions
                    .slice(0, 5)
                    .map((c) => c.phrase)
                    .join(", "),
                }),
              )
            : null,
        ),
      ),
    );
    const x = res.explanation;
    why.hidden = false;
    why.querySelector(".hipporag-explain").replaceChildren(
      ...(res.fallback ? [h("p", { title: res.fallback }, t("fallback"))] : []), // (replaceChildren would print a null as "null")
      h(
        "p",
        {},
        h("strong", {}, t("ranking")),
        modeText(res.mode) + (res.mode === "hybrid" && res.damping > 0 && x.seeds.length > 0 ? t("mixed") : ""),
      ),
      ...(x.seeds.length === 0
        ? []
        : [
            h("p", {}, h("strong", {}, t("entities")), x.entities.join(" · ") || t("none")),
            h(
              "p",
              {},
              h("strong", {}, t("seeds")),
              x.seeds
                .map((s) => t("seed", { phrase: s.phrase, cosine: s.cosine.toFixed(2), specificity: s.specificity.toFixed(3) }))
                .join(" · "),
            ),
            h(
              "p",
              {},
              h("strong", {}, t("topPhrases")),
              x.topPhrases
                .slice(0, 10)
                .map((p) => p.phrase)
                .join(" · "),
            ),
          ]),
    );
    const ms = (res.timings.encodeMs + res.timings.retrieveMs + res.timings.entitiesMs).toFixed(1);
    status.textContent = t("results", { n: items.length, ms }) + (res.tier === "semantic" ? t("refined") : "");
    root.dataset.tier = res.tier;
    root.dataset.searches = String(++shown);
  }
  return { input };
}

/** The dialog every modal trigger of the page opens (made by the first one). */
let dialog = null;

/** The modal: a button in `root` that opens the page's one search <dialog>; so do "/" and Ctrl-K / ⌘K. */
function modal(root) {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  const button = h(
    "button",
    { type: "button", class: "hipporag-trigger", "aria-haspopup": "dialog", "aria-keyshortcuts": mac ? "/ Meta+K" : "/ Control+K" },
    h("span", {}, t("search")),
    h("kbd", {}, mac ? "⌘K" : "Ctrl K"),
  );
  root.classList.add("hipporag-modal");
  root.append(button);
  if (!dialog) dialog = searchDialog(button);
  button.addEventListener("click", () => dialog.open(button));
}

/** Builds the dialog with the panel in it and the page's keyboard shortcuts; `first` gets focus back after a shortcut. */
function searchDialog(first) {
  const box = h("div", {});
  const el = h("dialog", { class: "hipporag-dialog", "aria-label": t("search") }, box);
  if (T.dir) el.dir = T.dir;
  document.body.append(el);
  const { input } = panel(box);
  let opener = first;
  const open = (from) => {
    if (el.open) return;
    opener = from;
    el.showModal();
    input.focus();
    input.select();
  };
  document.addEventListener("keydown", (e) => {
    const typing = e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]");
    if ((e.key === "k" && (e.ctrlKey || e.metaKey)) || (e.key === "/" && !typing && !el.open)) {
      e.preventDefault();
      open(first);
    }
  });
  // A click on the backdrop (the dialog element itself, outside its box) or on a result closes it.
  el.addEventListener("click", (e) => {
    if (e.target === el || (e.target instanceof Element && e.target.closest("li.hipporag-result a"))) el.close();
  });
  // Esc closes it even from the input (in a search field the browser would first clear the text).
  el.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      el.close();
    }
  });
  el.addEventListener("close", () => opener?.focus());
  return { open };
}

function mount(root) {
  if (root.dataset.hipporagSearch === "modal") modal(root);
  else panel(root);
}

for (const el of document.querySelectorAll("#hipporag-search, [data-hipporag-search]")) mount(el);
