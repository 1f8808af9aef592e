// Python 3.11's HTML docs marked up for Pagefind's filters, metadata and sorts, shared by
// tests/e2e/site_filters.test.mjs and bench/filters.mjs. `markPythonDocs(dir)` copies the docs
// (without the generated listings genindex*, contents, py-modindex, so that `hipporag site` and
// Pagefind index the same pages) and writes into each page, deterministically:
//
// * `section` (one value per page): `<html data-pagefind-filter="section:<top directory>">`
//   inline, `root` for the top-level pages;
// * `initial` (several values per page): the first character of each h2 (a letter upper-cased,
//   a digit `0-9`, anything else `Symbols`), each value once per page: the 1st, 3rd, … new
//   initial's h2 carries it as an attribute (`initial[data-initial]`), the 2nd, 4th, … gets a
//   hidden `data-pagefind-ignore` span before it whose text is the value (`initial`, the
//   element's text, with whitespace around it);
// * `kind` (several values per page, repeated): each Sphinx object description
//   `<dl class="py function">` → `kind[data-kind]` with `data-kind="py:function"` (a value with
//   a colon in it), every one of them: a page lists a value once (the contract drops
//   duplicates), where Pagefind 1.6.0 repeats it in `data().filters` and counts every
//   occurrence in `filters()`;
// * meta: `category` inline on `<body>` (a value with commas and a second colon in it);
//   `first_section` from the first h2's text; on the howto/ pages an explicit `title` from the
//   `<title>` element (overriding the automatic one, the first h1's text); and a default
//   `image` in `<head>` (`data-pagefind-default-meta`), which only pages without an automatic
//   image (no img after an h1) keep;
// * sorts: `bytes` (numeric, every page: the page's size in the original docs, as an
//   attribute) and `name` (a string: the first h1's text inline on that h1; none on whatsnew/
//   pages and pages without an h1, which a sort by `name` leaves out).
//
// It returns what it wrote, per page path: the values both engines must report.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const PYTHON_DOCS = process.env.PYTHON_DOCS ?? "/usr/share/doc/python3.11/html";
/** The generated listings (the index of every name, the table of contents, the module index). */
export const EXCLUDED = [/^genindex.*\.html$/, /^contents\.html$/, /^py-modindex\.html$/];
/** `hipporag site --exclude` globs for the same files (bench/docs.mjs and site_docs leave them out too). */
export const EXCLUDE_GLOBS = ["genindex*.html", "contents.html", "py-modindex.html"];

/** `meta.category` of each section: commas and a second colon in some, as the inline form allows. */
export const CATEGORY = {
  library: "Library reference: modules, built-in types, functions",
  reference: "Language reference: syntax, semantics",
  tutorial: "Tutorial",
  howto: "HOWTOs",
  faq: "FAQ",
  using: "Using Python: setup, usage",
  "c-api": "C API reference",
  extending: "Extending, embedding",
  installing: "Installing modules",
  distributing: "Distributing modules",
  distutils: "Distutils (legacy)",
  install: "Installing modules (legacy)",
  whatsnew: "What is new",
  includes: "Includes",
  root: "Front matter: glossary, license, about",
};
/** The default image meta (`data-pagefind-default-meta` in every page's head). */
export const DEFAULT_IMAGE = "/_static/py.svg";

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const decode = (s) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e.toLowerCase()] ?? m),
  );
/** An element's inner HTML as text: tags dropped, entities decoded, whitespace collapsed. */
export const textOf = (html) =>
  decode(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
/** A value written into a double-quoted attribute: nothing an entity would stand for. */
const safe = (s) => s.replace(/[&<>"]/g, "");

/** The `section` of a page path below the docs' root: its top directory, or `root`. */
export const sectionOf = (path) => (path.includes("/") ? path.split("/")[0] : "root");

/** An h2's initial: a letter upper-cased, a digit `0-9`, anything else `Symbols`. */
function initialOf(text) {
  const c = text[0] ?? "";
  if (/[a-z]/i.test(c)) return c.toUpperCase();
  if (/[0-9]/.test(c)) return "0-9";
  return "Symbols";
}

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/**
 * One page's HTML marked up (see the top of this file) → {html, expected}, where `expected` is
 * {section, filters: {key: [values]}, meta: {key: value} (the explicit and default meta this
 * markup sets, not the automatic title and image), sort: {key: value}}.
 */
export function markPage(path, html, bytes) {
  const section = sectionOf(path);
  const filters = { section: [section] };
  const meta = { category: CATEGORY[section] ?? section };
  const sort = { bytes: String(bytes) };
  const initials = [];
  const kinds = [];
  let out = html.replace(
    /<html([^>]*)>/,
    `<html$1 data-pagefind-filter="section:${section}" data-pagefind-sort="bytes[data-bytes]" data-bytes="${bytes}">`,
  );
  out = out.replace(/<body>/, `<body data-pagefind-meta="category:${safe(meta.category)}">`);
  out = out.replace("</head>", `<meta data-pagefind-default-meta="image[content]" content="${DEFAULT_IMAGE}">\n</head>`);
  if (section === "howto") {
    const m = /<title>([\s\S]*?)<\/title>/.exec(out);
    meta.title = textOf(m[1]);
    out = out.replace("<title>", '<title data-pagefind-meta="title">');
  }
  // The first h1 gives the `name` sort (not on whatsnew/ pages).
  const h1 = /<h1([^>]*)>([\s\S]*?)<\/h1>/.exec(out);
  if (h1 && section !== "whatsnew") {
    const name = safe(textOf(h1[2]));
    if (name) {
      sort.name = name;
      out = out.slice(0, h1.index) + `<h1${h1[1]} data-pagefind-sort="name:${name}">` + out.slice(h1.index + `<h1${h1[1]}>`.length);
    }
  }
  let j = 0;
  out = out.replace(/<h2([^>]*)>([\s\S]*?)<\/h2>/g, (whole, attrs, inner) => {
    const text = textOf(inner);
    const initial = initialOf(text);
    const first = j++ === 0 ? ' data-pagefind-meta="first_section"' : "";
    if (first && text) meta.first_section = text;
    // Only an initial new to the page is marked: Pagefind counts a value once per element
    // that gives it (filters() of a page with two h2s under B counts it twice), the contract
    // once per page.
    if (initials.includes(initial)) return first ? `<h2${attrs}${first}>${inner}</h2>` : whole;
    initials.push(initial);
    return initials.length % 2 === 1
      ? `<h2${attrs} data-initial="${initial}" data-pagefind-filter="initial[data-initial]"${first}>${inner}</h2>`
      : `<span hidden data-pagefind-ignore data-pagefind-filter="initial">\n    ${initial}\n  </span><h2${attrs}${first}>${inner}</h2>`;
  });
  out = out.replace(/<dl class="([a-z]+) ([a-z]+)">/g, (whole, domain, type) => {
    const kind = `${domain}:${type}`;
    if (!kinds.includes(kind)) kinds.push(kind);
    return `<dl class="${domain} ${type}" data-kind="${kind}" data-pagefind-filter="kind[data-kind]">`;
  });
  if (initials.length) filters.initial = initials;
  if (kinds.length) filters.kind = kinds;
  // The automatic image: the first img after the first h1 (its src and alt as written).
  let autoImage = null;
  const end = h1 ? out.indexOf("</h1>", h1.index) : -1;
  const img = end >= 0 ? /<img\b[^>]*>/.exec(out.slice(end)) : null;
  if (img) {
    const attr = (name) => {
      const m = new RegExp(`\\s${name}="([^"]*)"`).exec(img[0]);
      return m ? decode(m[1]) : undefined;
    };
    autoImage = { image: attr("src"), image_alt: attr("alt") };
  }
  return { html: out, expected: { section, filters, meta, sort, hasH1: Boolean(h1), autoImage } };
}

/**
 * Copies Python's docs to `dir` (emptied first; its `.hipporag-cache/`, `hipporag site`'s
 * caches, kept) without the generated listings, and marks every page. Returns
 * {pages: {path: expected}} (paths below the docs' root, `library/json.html`).
 */
export function markPythonDocs(dir) {
  if (!existsSync(PYTHON_DOCS)) throw new Error(`${PYTHON_DOCS} is missing: apt-get install python3.11-doc`);
  const cache = join(dir, ".hipporag-cache");
  const keep = `${dir}.hipporag-cache`;
  rmSync(keep, { recursive: true, force: true });
  if (existsSync(cache)) renameSync(cache, keep);
  rmSync(dir, { recursive: true, force: true });
  cpSync(PYTHON_DOCS, dir, { recursive: true, dereference: true });
  if (existsSync(keep)) renameSync(keep, cache);
  for (const f of readdirSync(dir)) if (EXCLUDED.some((re) => re.test(f))) rmSync(join(dir, f));
  const pages = {};
  for (const file of walk(dir).sort()) {
    const path = relative(dir, file);
    if (!path.endsWith(".html") || path.startsWith(".hipporag-cache")) continue;
    const html = readFileSync(file, "utf8");
    const { html: marked, expected } = markPage(path, html, Buffer.byteLength(html));
    writeFileSync(file, marked);
    pages[path] = expected;
  }
  return { pages };
}

/**
 * The filter counts the markup implies, `{key: {value: pages}}` over `paths` (a filter value
 * counts each page once), for a cross-check of both engines' `filters()`.
 */
export function expectedFilterCounts(pages, paths = Object.keys(pages)) {
  const counts = {};
  for (const p of paths)
    for (const [key, values] of Object.entries(pages[p].filters))
      for (const v of new Set(values)) {
        counts[key] ??= {};
        counts[key][v] = (counts[key][v] ?? 0) + 1;
      }
  return counts;
}

/** A result URL (`/library/json.html#json.dumps`, `/c-api/`) → its page path (`library/json.html`, `c-api/index.html`). */
export function pagePath(url) {
  const p = decodeURIComponent(
    url
      .replace(/^https?:\/\/[^/]+/, "")
      .split("#")[0]
      .split("?")[0],
  ).replace(/^\//, "");
  return p === "" || p.endsWith("/") ? `${p}index.html` : p;
}

/**
 * Whether two orders of the same pages agree where `valueOf` (page → sort value) tells them
 * apart: equal sets, and the same runs of equal values (the order inside a run of ties is each
 * engine's page numbering). Returns {exact, upToTies, detail}.
 */
export function compareOrders(got, want, valueOf) {
  const exact = got.length === want.length && got.every((u, i) => u === want[i]);
  if (exact) return { exact, upToTies: true, detail: "" };
  const runs = (a) => {
    const out = [];
    for (const u of a) {
      const v = valueOf(u);
      if (out.length && out.at(-1).v === v) out.at(-1).set.push(u);
      else out.push({ v, set: [u] });
    }
    return out.map((r) => ({ v: r.v, set: r.set.sort().join("\n") }));
  };
  const [a, b] = [runs(got), runs(want)];
  const firstDiff = a.findIndex((r, i) => !b[i] || r.v !== b[i].v || r.set !== b[i].set);
  const upToTies = a.length === b.length && firstDiff === -1;
  const at = got.findIndex((u, i) => u !== want[i]);
  return {
    exact,
    upToTies,
    detail: `lengths ${got.length}/${want.length}; first difference at ${at}: ${got[at]} (${valueOf(got[at])}) vs ${want[at]} (${valueOf(want[at])})`,
  };
}

/**
 * Copies `hipporag site`'s cache directory `from` (another copy's `.hipporag-cache/`: the static
 * word embeddings per word, OpenIE per passage) to `to` when `to` has none yet.
 */
export function seedCache(from, to) {
  if (existsSync(to) || !existsSync(from)) return;
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
}

/** `hipporag site` and Pagefind on the marked copy and on a second site: the build steps. */
export const HIPPORAG = process.env.HIPPORAG ?? join(ROOT, "target", "release", "hipporag");
export const PAGEFIND = join(ROOT, "node_modules", ".bin", "pagefind");

/**
 * `hipporag site dir args…` (its JSON report, and wallMs); $HIPPORAG_UI, when set, is passed as
 * `--ui` (the working tree's www/site instead of the files embedded in the binary).
 */
export function buildHipporag(dir, args = []) {
  const ui = process.env.HIPPORAG_UI ? ["--ui", process.env.HIPPORAG_UI] : [];
  const t = performance.now();
  const out = execFileSync(HIPPORAG, ["site", dir, "--json", ...ui, ...args], {
    encoding: "utf8",
    env: { ...process.env, RUST_LOG: "warn" },
    maxBuffer: 1 << 28,
  });
  return { ...JSON.parse(out), wallMs: performance.now() - t };
}

/** `pagefind --site dir args…` → its wall time (ms). */
export function buildPagefind(dir, args = []) {
  const t = performance.now();
  execFileSync(PAGEFIND, ["--site", dir, "--silent", ...args], { stdio: ["ignore", "inherit", "inherit"] });
  return performance.now() - t;
}

/**
 * musique_train as a second site (../shared/tools/corpus_site.py: one page per passage under
 * `dir/site/wiki/`, its 100 questions in `dir/questions.json`, gold pages `wiki/<n>.html`).
 */
export function musiqueSite(dir, data) {
  // `hipporag site`'s caches (site/.hipporag-cache/) are kept, as markPythonDocs keeps them.
  const cache = join(dir, "site", ".hipporag-cache");
  const keep = `${dir}.hipporag-cache`;
  rmSync(keep, { recursive: true, force: true });
  if (existsSync(cache)) renameSync(cache, keep);
  rmSync(dir, { recursive: true, force: true });
  const m = join(data, "musique_train");
  execFileSync(
    "python3",
    [join(data, "..", "tools", "corpus_site.py"), join(m, "musique_train.json"), join(m, "musique_train_corpus.json"), dir],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (existsSync(keep)) renameSync(keep, cache);
  return { site: join(dir, "site"), questions: JSON.parse(readFileSync(join(dir, "questions.json"), "utf8")) };
}

/** Bytes as a static host serves them: Pagefind's files and hipporag's pieces are gzipped already, others gzip -9. */
export function servedBytes(path) {
  const b = readFileSync(path);
  return b[0] === 0x1f && b[1] === 0x8b ? b.length : gzipSync(b, { level: 9 }).length;
}

/**
 * In the page (both engines' modules imported and initialised): window.__hf, a small driver
 * of both engines the test and the bench share. `urlH(result)`/`urlP(result)`: a result's page
 * URL (each result's data() asked once per id, unless `cacheHipporag` is false: a page with
 * merged indexes, whose results' ids may repeat). `listing(opts)`: search(null, opts) of both →
 * {h: [urls], p: [urls], hc, pc} (their counts). `rank(q, opts)`: one engine's top 10 pages.
 */
export async function installDriver(page, { cacheHipporag = true } = {}) {
  await page.evaluate(async (cacheHipporag) => {
    const h = await import("/_hipporag/hipporag-site.js");
    const pf = await import("/pagefind/pagefind.js");
    await h.init();
    await pf.init();
    const cache = { h: new Map(), p: new Map() };
    const urlOf = (which) => async (r) => {
      // A merged index's results may share ids with the primary's: no cache for them.
      if (which === "h" && !cacheHipporag) return (await r.data()).url;
      const c = cache[which];
      if (!c.has(r.id))
        c.set(
          r.id,
          r.data().then((d) => d.url),
        );
      return c.get(r.id);
    };
    const counts = (s) => ({
      filters: s.filters,
      totalFilters: s.totalFilters,
      unfilteredResultCount: s.unfilteredResultCount,
    });
    window.__hf = {
      h,
      pf,
      urlH: urlOf("h"),
      urlP: urlOf("p"),
      async listing(opts) {
        const a = await h.search(null, opts);
        const b = await pf.search(null, opts);
        return {
          h: await Promise.all(a.results.map(window.__hf.urlH)),
          p: await Promise.all(b.results.map(window.__hf.urlP)),
          hc: counts(a),
          pc: counts(b),
        };
      },
      async rank(engine, q, opts = {}) {
        if (engine === "hipporag") {
          const s = await h.search(q, { topK: 10, ...opts });
          return Promise.all(s.results.map(window.__hf.urlH));
        }
        const s = await pf.search(q, opts);
        return Promise.all(s.results.slice(0, 10).map(window.__hf.urlP));
      },
    };
  }, cacheHipporag);
}

/**
 * Each question ranked in the page (installDriver first) by each of `configs`
 * ([{name, engine: "hipporag"|"pagefind", filters: (q) => filters | undefined}]) → {name: [[page paths]]}.
 */
export async function rankQuestions(page, questions, configs) {
  const out = {};
  for (const c of configs) {
    const items = questions.map((q) => [q.q, c.filters ? c.filters(q) : undefined]);
    const ranked = await page.evaluate(
      async ([engine, items]) => {
        const res = [];
        for (const [q, filters] of items) res.push(await window.__hf.rank(engine, q, filters ? { filters } : {}));
        return res;
      },
      [c.engine, items],
    );
    out[c.name] = ranked.map((urls) => [...new Set(urls.map(pagePath))]);
  }
  return out;
}

/** hit@10 (a gold page among the first 10 pages) and page recall@10 over `questions` (gold_pages). */
export function scoreRuns(questions, runs, gold = (q) => q.gold_pages) {
  let hit = 0;
  let recall = 0;
  questions.forEach((q, i) => {
    const top = runs[i].slice(0, 10);
    const g = gold(q);
    if (top.some((u) => g.includes(u))) hit++;
    recall += g.filter((u) => top.includes(u)).length / g.length;
  });
  const n = questions.length;
  return { queries: n, "hit@10": +(hit / n).toFixed(3), "recall@10": +(recall / n).toFixed(3) };
}

/**
 * The page paths `filters` (Pagefind's filter syntax) selects among `pages` (markPythonDocs'
 * expectations), by Pagefind's rules (pagefind_web/src/filter.rs): a key's string is its pages,
 * an array of them all of them (objects in it: `all` of their own), `any`/`all`/`none`/`not`
 * nest under a key or at the top (`none`/`not` invert), an unknown key or value selects no page;
 * an object that selects nothing at all (`{}`) leaves every page.
 */
export function matchFilters(filters, pages) {
  const all = new Set(Object.keys(pages));
  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const invert = (s) => new Set([...all].filter((p) => !s.has(p)));
  const collapse = (maps, any) =>
    maps.length === 0 ? null : maps.reduce((a, b) => (any ? new Set([...a, ...b]) : new Set([...a].filter((p) => b.has(p)))));
  const valueSet = (key, v) => new Set([...all].filter((p) => (pages[p].filters[key] ?? []).includes(v)));
  function parseValue(key, f, any) {
    const maps = [];
    if (typeof f === "string") maps.push(valueSet(key, f));
    else if (Array.isArray(f)) {
      for (const v of f) {
        if (typeof v === "string") maps.push(valueSet(key, v));
        else if (isObj(v)) {
          const m = parseValue(key, v, false);
          if (m) maps.push(m);
        }
      }
    } else if (isObj(f)) {
      for (const [k, v] of Object.entries(f)) {
        const ok = isObj(v) || Array.isArray(v) || typeof v === "string";
        let m = null;
        if ((k === "any" || k === "none") && ok) m = parseValue(key, v, true);
        else if ((k === "all" || k === "not") && ok) m = parseValue(key, v, false);
        if (m) maps.push(k === "none" || k === "not" ? invert(m) : m);
      }
    } else return null;
    return collapse(maps, any);
  }
  function parseArr(arr, any) {
    const maps = arr
      .filter(isObj)
      .map((v) => parseObj(v, false))
      .filter(Boolean);
    return collapse(maps, any);
  }
  function parseObj(obj, any) {
    const maps = [];
    for (const [k, v] of Object.entries(obj)) {
      const logic = ["any", "all", "none", "not"].includes(k);
      const disjunct = k === "any" || k === "none";
      let m;
      if (logic && isObj(v)) m = parseObj(v, disjunct);
      else if (logic && Array.isArray(v)) m = parseArr(v, disjunct);
      else m = parseValue(k, v, false);
      if (m) maps.push(k === "none" || k === "not" ? invert(m) : m);
    }
    return collapse(maps, any);
  }
  return parseObj(filters, false) ?? all;
}
