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
// only a page in that language loads).
//
// As Pagefind's UI: a site whose pages carry `data-pagefind-filter` gets a filter pane (one
// group per key, a checkbox per value with its count; a page must have every value checked,
// Pagefind UI's `{key: [values]}`; with no question and a value checked, the pages the filters
// match are listed), one whose pages carry `data-pagefind-sort` a "Sort by" select, and each
// result shows up to three more passages of its page (its sub-results) and its page's
// `meta.image`. The filters and sort keys load when the input first gets focus (the modal
// focuses it when it opens), not with the page, so the first search fetches no more than it
// needs. Two attributes of the element turn parts off, as Pagefind UI's options:
// `data-hipporag-show-sub-results="false"` and `data-hipporag-show-images="false"`.
//
// Built on hipporag-site.js (init/search/debouncedSearch/filters) and hipporag-helpers.js (h(),
// the demo's too).
import * as hipporag from "./hipporag-site.js";
import { h, uiLanguage } from "./hipporag-helpers.js";

/** The UI's strings in English, the fallback of every language and every missing string. */
const EN = {
  placeholder: "Ask a question about these docs…",
  search: "Search",
  why: "Why these results?",
  unavailable: "Search is unavailable: {error}",
  failed: "Search failed: {error}",
  results: "{n} results in {ms} ms, computed in this page.",
  // The filter pane: its label, each group's (read by screen readers; the group shows its key),
  // the button that unchecks every value, and the line of a search the checked values leave empty.
  filters: "Filters",
  filterBy: "Filter by {key}",
  clearFilters: "Clear filters",
  noMatch: "No results match these filters.",
  // The sort select: its label, its first option, and each sort key's two directions.
  sortBy: "Sort by",
  relevance: "Relevance",
  ascending: "{key} (ascending)",
  descending: "{key} (descending)",
  loadMore: "Load more results",
  // The label of a result's sub-results: the other passages of its page that matched.
  subResults: "More on this page",
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
/** A filter or sort key as a label: its first letter upper-cased (`section` → `Section`), as Pagefind UI shows it. */
const cap = (key) => key.replace(/^./u, (c) => c.toLocaleUpperCase());

/** Results drawn per page of the list; "Load more results" draws the next ones. */
const PAGE = 8;
/** Sub-results shown under a result, as Pagefind UI's. */
const SUB_RESULTS = 3;

const css = document.createElement("link");
css.rel = "stylesheet";
css.href = new URL("hipporag-ui.css", import.meta.url).href;
document.head.append(css);

/**
 * The options of the UI mounted on `el`, from its attributes: `data-hipporag-show-sub-results`
 * and `data-hipporag-show-images` ("false", "0", "no" or "off" turn them off; both default on).
 */
function uiOptions(el) {
  const flag = (name) => !/^\s*(false|0|no|off)\s*$/i.test(el.dataset[name] ?? "true");
  return { showSubResults: flag("hipporagShowSubResults"), showImages: flag("hipporagShowImages") };
}

/** The sort keys of the page's index and of any merged ones (hipporag-site.js's `sorts()`). */
async function sortKeys() {
  return hipporag.sorts();
}

/**
 * The address of a result's `meta.image`, resolved against the result's page (a page's
 * `<img src>` is relative to it), or null: no image, or not an http(s) or `data:image/` URL.
 */
function imageUrl(d) {
  const src = d.meta?.image;
  if (!src) return null;
  try {
    const url = new URL(src, new URL(d.url ?? "", document.baseURI));
    const ok = url.protocol === "https:" || url.protocol === "http:" || /^data:image\//i.test(url.href);
    return ok ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A result's title: its passage's heading path (`Page › Section`, the page's `<h1>` first); when
 * the page's `meta.title` is not where that path begins (a title the page set itself), that title
 * and the passage's own heading.
 */
function resultTitle(d) {
  const title = d.title ?? "";
  const page = d.meta?.title;
  if (!page || title.startsWith(page)) return title || page || "";
  const own = title.split(" › ").pop();
  return own && own !== page ? `${page} › ${own}` : page;
}

/** Excerpt segments (alternating unmarked and marked text) as text nodes and <mark> elements: no HTML is parsed. */
const marked = (segments) => (segments ?? []).map((s, k) => (k % 2 ? h("mark", {}, s) : s));

/** The inline search: input, sort, filter pane, status, results and explanation, appended to `root`. */
function panel(root, { showSubResults = true, showImages = true } = {}) {
  root.classList.add("hipporag");
  if (T.dir) root.dir = T.dir;
  const input = h("input", {
    type: "search",
    placeholder: t("placeholder"),
    "aria-label": t("search"),
    class: "hipporag-input",
  });
  const status = h("p", { class: "hipporag-status", "aria-live": "polite" });
  const sort = h("select", { class: "hipporag-sort-select" });
  const sortBox = h("label", { class: "hipporag-sort", hidden: true }, h("span", {}, t("sortBy")), sort);
  const clear = h("button", { type: "button", class: "hipporag-clear", hidden: true }, t("clearFilters"));
  const pane = h("fieldset", { class: "hipporag-filters", hidden: true }, h("legend", {}, t("filters")));
  const list = h("ol", { class: "hipporag-results" });
  const more = h("button", { type: "button", class: "hipporag-more", hidden: true }, t("loadMore"));
  const why = h("details", { class: "hipporag-why", hidden: "" }, h("summary", {}, t("why")), h("div", { class: "hipporag-explain" }));
  root.append(
    input,
    h("div", { class: "hipporag-bar" }, status, sortBox),
    h("div", { class: "hipporag-body" }, pane, h("div", { class: "hipporag-main" }, list, more, why)),
  );
  // ↓/↑: from the input to the first result link, between results' links, and back to the
  // input (a result's sub-results and the filter pane are reached with Tab).
  root.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const links = [...list.querySelectorAll("li.hipporag-result > a.hipporag-link")];
    const i = links.indexOf(document.activeElement);
    if (!links.length || (i < 0 && e.target !== input)) return;
    e.preventDefault();
    if (e.key === "ArrowDown") links[Math.min(i + 1, links.length - 1)].focus();
    else (i <= 0 ? input : links[i - 1]).focus();
  });
  hipporag.init().then(
    () => (status.textContent = ""),
    (e) => {
      status.textContent = t("unavailable", { error: e.message });
      root.dataset.state = "error";
    },
  );

  // The filter pane: the site's filters with their counts over every page (`totals`), loaded
  // once; `boxes` holds each value's checkbox and count by key, then value.
  let totals = {};
  const boxes = new Map();
  /** The search whose results are shown (`{res}`; null: none); "Load more results" draws more of them. */
  let shown = null;
  let searches = 0;
  let current = 0;

  /** The checked values, as Pagefind UI passes them: `{key: [values]}` (a page needs every one). */
  function chosen() {
    const f = {};
    for (const box of pane.querySelectorAll("input:checked")) (f[box.name] ??= []).push(box.value);
    return f;
  }

  /** Each value's count: how many of the shown search's results have it, or of all pages without one. */
  function showCounts(counts) {
    for (const [key, values] of boxes) {
      for (const [value, { box, count, label }] of values) {
        const n = counts?.[key] ? (counts[key][value] ?? 0) : (totals[key]?.[value] ?? 0);
        count.textContent = `(${n})`;
        label.classList.toggle("hipporag-empty", n === 0 && !box.checked);
      }
    }
  }

  async function loadFilters() {
    await hipporag.init();
    totals = (await hipporag.filters()) ?? {};
    const keys = Object.keys(totals).filter((k) => Object.keys(totals[k] ?? {}).length > 0);
    if (!keys.length) return;
    // As Pagefind UI: a single key with few values is open, more are closed until asked for.
    const open = keys.length === 1 && Object.keys(totals[keys[0]]).length <= 6;
    for (const key of keys) {
      const values = new Map();
      boxes.set(key, values);
      const group = h("fieldset", {}, h("legend", { class: "hipporag-sr" }, t("filterBy", { key })));
      for (const value of Object.keys(totals[key])) {
        const box = h("input", { type: "checkbox", name: key, value });
        const count = h("span", { class: "hipporag-count" });
        const label = h("label", { class: "hipporag-filter-value" }, box, h("span", { class: "hipporag-value" }, value), " ", count);
        values.set(value, { box, count, label });
        group.append(label);
      }
      pane.append(h("details", { class: "hipporag-filter", open }, h("summary", {}, cap(key)), group));
    }
    pane.append(clear);
    pane.hidden = false;
    root.classList.add("hipporag-faceted");
    root.closest("dialog")?.classList.add("hipporag-faceted");
    const counts = shown && Object.keys(shown.res.filters ?? {}).length ? shown.res.filters : null;
    showCounts(counts);
    // A search shown before the filters had loaded has no counts: run it again for them.
    if (shown && !counts) run(0);
  }

  async function loadSorts() {
    const keys = await sortKeys();
    if (!keys.length) return;
    sort.append(
      h("option", { value: "" }, t("relevance")),
      ...keys.flatMap((key) => [
        h("option", { value: `asc:${key}` }, t("ascending", { key: cap(key) })),
        h("option", { value: `desc:${key}` }, t("descending", { key: cap(key) })),
      ]),
    );
    sortBox.hidden = false;
  }

  let tools = null;
  input.addEventListener("focus", () => {
    tools ??= Promise.all(
      [loadFilters, loadSorts].map((load) => load().catch((e) => console.warn(`hipporag-ui: ${load.name}: ${e?.message ?? e}`))),
    );
  });

  input.addEventListener("input", () => run(250));
  sort.addEventListener("change", () => run(0));
  pane.addEventListener("change", () => {
    clear.hidden = !pane.querySelector("input:checked");
    run(0);
  });
  clear.addEventListener("click", () => {
    for (const box of pane.querySelectorAll("input:checked")) box.checked = false;
    clear.hidden = true;
    input.focus();
    run(0);
  });
  more.addEventListener("click", async () => {
    if (!shown) return;
    const mine = current;
    const from = list.children.length;
    const items = await draw(shown.res.results.slice(from, from + PAGE));
    if (mine !== current) return;
    list.append(...items);
    more.hidden = list.children.length >= shown.res.results.length;
    items[0]?.querySelector("a.hipporag-link")?.focus();
  });

  /**
   * Searches for the input's question with the checked filters and the chosen sort, after `ms`
   * of quiet: with no question and a value checked, lists the pages the filters match; with
   * neither, shows nothing.
   */
  async function run(ms) {
    const mine = ++current;
    const q = input.value.trim();
    const filters = chosen();
    const filtered = Object.keys(filters).length > 0;
    if (!q && !filtered) {
      shown = null;
      list.replaceChildren();
      more.hidden = true;
      why.hidden = true;
      status.textContent = "";
      showCounts(null);
      return;
    }
    const options = { topK: PAGE };
    if (filtered) options.filters = filters;
    if (sort.value) {
      const at = sort.value.indexOf(":");
      options.sort = { [sort.value.slice(at + 1)]: sort.value.slice(0, at) };
    }
    let res;
    try {
      res = await hipporag.debouncedSearch(q || null, options, ms);
      if (!res || mine !== current) return; // superseded by a later keystroke or choice
      if (!(await show(res, mine, q, filtered))) return;
    } catch (e) {
      if (mine !== current) return;
      // A piece missing, damaged or of another build (e.kind): say so, show nothing partial.
      shown = null;
      list.replaceChildren();
      more.hidden = true;
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
      if (better) await show(better, mine, q, filtered);
      else status.textContent = lean + t("notLoaded");
    }
  }

  /** The list items of `results` (their data() fetched side by side). */
  async function draw(results) {
    const items = await Promise.all(results.map((r) => r.data()));
    return items.map((d, i) => result(d, results[i]));
  }

  /** One result: its page's image, its title linked to its passage, the excerpt, its sub-results. */
  function result(d, r) {
    const image = showImages ? imageUrl(d) : null;
    // The page's other passages that matched, best first; the result's own is the one above.
    const subs = showSubResults ? (d.sub_results ?? []).filter((s) => s.url !== d.url).slice(0, SUB_RESULTS) : [];
    return h(
      "li",
      { class: "hipporag-result", "data-url": d.url ?? "", "data-score": typeof r.score === "number" ? r.score.toFixed(6) : null },
      image
        ? h(
            "div",
            { class: "hipporag-thumb" },
            h("img", {
              src: image,
              alt: d.meta?.image_alt ?? "",
              loading: "lazy",
              decoding: "async",
              onerror: (e) => e.target.parentNode?.remove(),
            }),
          )
        : null,
      h("a", { class: "hipporag-link", href: d.url ?? "#" }, resultTitle(d)),
      h("p", { class: "hipporag-excerpt" }, marked(d.excerptSegments)),
      subs.length
        ? h(
            "ul",
            { class: "hipporag-subs", "aria-label": t("subResults") },
            subs.map((s) =>
              h(
                "li",
                { class: "hipporag-sub" },
                h("a", { href: s.url }, s.title || resultTitle(d)),
                s.excerptSegments?.length ? h("p", { class: "hipporag-excerpt" }, marked(s.excerptSegments)) : null,
              ),
            ),
          )
        : null,
      d.contributions?.length
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
    );
  }

  /** Draws search `res` (of question `q`, with filters or not); false when a later search superseded it meanwhile. */
  async function show(res, mine, q, filtered) {
    const items = await draw(res.results.slice(0, PAGE));
    if (mine !== current) return false;
    shown = { res };
    list.replaceChildren(...items);
    more.hidden = res.results.length <= PAGE;
    showCounts(Object.keys(res.filters ?? {}).length ? res.filters : null);
    const x = res.explanation;
    // A listing of the filters' pages (no question) has nothing to explain.
    why.hidden = !q || !x;
    if (q && x) {
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
    }
    const n = res.results.length;
    // Nothing left by the filters (a question matching nothing at all says "0 results").
    if (n === 0 && filtered && !(q && res.unfilteredResultCount === 0)) {
      status.textContent = t("noMatch");
    } else {
      const tm = res.timings ?? {};
      const ms = ((tm.encodeMs ?? 0) + (tm.retrieveMs ?? 0) + (tm.entitiesMs ?? 0)).toFixed(1);
      status.textContent = t("results", { n, ms }) + (res.tier === "semantic" ? t("refined") : "");
    }
    if (res.tier) root.dataset.tier = res.tier;
    root.dataset.searches = String(++searches);
    return true;
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
  if (!dialog) dialog = searchDialog(button, uiOptions(root));
  button.addEventListener("click", () => dialog.open(button));
}

/**
 * Builds the dialog with the panel in it (with the first trigger's `options`) and the page's
 * keyboard shortcuts; `first` gets focus back after a shortcut.
 */
function searchDialog(first, options) {
  const box = h("div", {});
  const el = h("dialog", { class: "hipporag-dialog", "aria-label": t("search") }, box);
  if (T.dir) el.dir = T.dir;
  document.body.append(el);
  const { input } = panel(box, options);
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
  else panel(root, uiOptions(root));
}

for (const el of document.querySelectorAll("#hipporag-search, [data-hipporag-search]")) mount(el);
