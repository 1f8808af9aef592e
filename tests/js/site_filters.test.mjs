// Filters, sorts, listings and merged indexes of a site's JS API (www/site/hipporag-filters.js,
// hipporag-site.js, hipporag-pieces.js) in Node, with nothing built:
//
// * matchPages against Pagefind's own examples: docs/content/docs/js-api-filtering.md (authors,
//   tags, years) and the cats of pagefind/integration_tests/compound_filtering/, with the
//   results those tests expect, and the corners of pagefind_web/src/filter.rs (an unknown key
//   or value, values that are not strings, keywords given a string);
// * the sort order a sort piece gives (numbers, not text; desc; pages without the key left out);
// * search(), filters(), preload() and mergeIndex() over two small sites in pieces on disk, served
//   by a fake fetch, with a stand-in for the wasm search module (hipporag_pieces_wasm.js) that
//   scores a passage by how often it holds the query's words, and records what the JS asks of
//   it. The Rust ranking under a filter is the wasm's (tested in Rust); what is tested here is
//   the JS around it: which pages it allows, what it asks for, how it groups, sorts, counts,
//   merges and fills data().
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { countFilters, filterNames, matchPages, mergeCounts, sortPlaces, withMergeFilter } from "../../www/site/hipporag-filters.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

// ---- matchPages: Pagefind's examples ----

/** `{key: {value: [page ids]}}` from one `{key: [values]}` per page. */
function piecesOf(pages) {
  const out = {};
  pages.forEach((tags, page) => {
    for (const [key, values] of Object.entries(tags)) for (const v of values) ((out[key] ??= {})[v] ??= []).push(page);
  });
  return out;
}

// js-api-filtering.md's authors, tags and years.
const DOCS = [
  { author: ["CloudCannon"], tag: ["Article"], year: ["2018"] },
  { author: ["Pagefind"], tag: ["Article"], year: ["2019"] },
  { author: ["CloudCannon", "Pagefind"], tag: ["Article"] },
  { author: ["CloudCannon"], tag: ["Documentation"], year: ["2018"] },
  { author: ["CloudCannon"], tag: ["Documentation"], year: ["2020"] },
  { author: ["Liam Bigelow"], tag: ["Article"] },
];
const docs = (filters) => {
  const m = matchPages(piecesOf(DOCS), filters, DOCS.length);
  return m && [...m];
};

test("matchPages: js-api-filtering.md's examples", () => {
  // "where one of the authors is exactly CloudCannon"
  assert.deepEqual(docs({ author: "CloudCannon" }), [0, 2, 3, 4]);
  // "a tag of Article, and authored by both CloudCannon and Pagefind"
  assert.deepEqual(docs({ author: ["CloudCannon", "Pagefind"], tag: "Article" }), [2]);
  // "a tag of Article, with an author of either CloudCannon or Pagefind"
  assert.deepEqual(docs({ author: { any: ["CloudCannon", "Pagefind"] }, tag: "Article" }), [0, 1, 2]);
  // "a tag of Article, or pages authored by both CloudCannon and Pagefind"
  assert.deepEqual(docs({ any: { author: ["CloudCannon", "Pagefind"], tag: "Article" } }), [0, 1, 2, 5]);
  // "(Pagefind and Article) or (CloudCannon and Documentation), but not of 2018"
  const compound = {
    any: [
      { author: "Pagefind", tag: "Article" },
      { author: "CloudCannon", tag: "Documentation" },
    ],
    not: { year: "2018" },
  };
  assert.deepEqual(docs(compound), [1, 2, 4]);
});

test("matchPages: the corners of Pagefind's filter.rs", () => {
  // An unknown key or value matches no page, even beside a key that matches.
  assert.deepEqual(docs({ author: "Nobody" }), []);
  assert.deepEqual(docs({ colour: "Red" }), []);
  assert.deepEqual(docs({ colour: "Red", tag: "Article" }), []);
  assert.deepEqual(docs({ constructor: "x" }), [], "keys are the pieces' own, not Object.prototype's");
  assert.deepEqual(docs({ author: "toString" }), []);
  // No filter key at all: nothing is filtered (null), as Pagefind's `filter()` returns None.
  for (const f of [undefined, {}, { any: {} }, { any: [] }, { all: [{}] }, { not: [{ none: {} }] }])
    assert.equal(docs(f), null, JSON.stringify(f));
  // Values that are not strings are ignored (Pagefind parses JSON.stringify(filters)): a key
  // with only such values constrains nothing; beside others it is left out.
  assert.equal(docs({ year: 2018 }), null);
  assert.equal(docs({ author: [] }), null);
  assert.deepEqual(docs({ year: 2018, tag: "Documentation" }), [3, 4]);
  assert.deepEqual(docs({ author: ["CloudCannon", 7, null], tag: "Documentation" }), [3, 4]);
  assert.deepEqual(docs({ tag: "Article", year: undefined }), [0, 1, 2, 5]);
  // Negations are complements over every page; `not` is "not all", `none` is "not any".
  assert.deepEqual(docs({ not: { author: "Nobody" } }), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(docs({ author: { not: ["CloudCannon", "Pagefind"] } }), [0, 1, 3, 4, 5]);
  assert.deepEqual(docs({ author: { none: ["CloudCannon", "Pagefind"] } }), [5]);
  // Inside a key, an array's objects nest with `all`.
  assert.deepEqual(docs({ author: ["CloudCannon", { not: "Pagefind" }] }), [0, 3, 4]);
  assert.deepEqual(docs({ author: [{ any: ["Pagefind", "Liam Bigelow"] }, "CloudCannon"] }), [2]);
  // A keyword given a string is read as a filter key of that name (none exists): `none` and
  // `not` of it are then every page.
  assert.deepEqual(docs({ any: "CloudCannon" }), []);
  assert.deepEqual(docs({ none: "CloudCannon" }), [0, 1, 2, 3, 4, 5]);
  // Top-level arrays hold objects only; other items are skipped.
  assert.deepEqual(docs({ any: ["CloudCannon", { tag: "Documentation" }] }), [3, 4]);
  assert.deepEqual(filterNames({ any: [{ author: "x" }, "y"], not: { tag: { any: ["a"] } }, none: "z" }), ["author", "tag", "none"]);
});

// pagefind/integration_tests/compound_filtering/background.toolproof.yml: page 0 is the site's
// index (no filter, and not a result of "Cat"); its tests search "Cat".
const CATS = [
  {},
  { color: ["Black", "White"], mood: ["Lazy"] }, // cheeka
  { mood: ["Zen"], color: ["Orange", "White"] }, // theodore
  { mood: ["Angry"], color: ["Tabby"] }, // ali
  { mood: ["Boisterous", "Mischievous"], color: ["Black", "White"] }, // smudge
  { mood: ["Nervous", "Pining"], color: ["Grey"] }, // grey
  { mood: ["Lazy"], color: ["Black", "White", "Orange"] }, // treacle
];
const NAMES = ["index", "cheeka", "theodore", "ali", "smudge", "grey", "treacle"];
/** The cats a search for "Cat" with `filters` lists, sorted by name as the tests sort URLs. */
const cats = (filters) => {
  const m = matchPages(piecesOf(CATS), filters, CATS.length) ?? NAMES.keys();
  return [...m]
    .filter((p) => p > 0)
    .map((p) => NAMES[p])
    .sort();
};

test("matchPages: Pagefind's compound_filtering integration tests", () => {
  assert.deepEqual(cats({ color: { any: ["Black", "Orange"] } }), ["cheeka", "smudge", "theodore", "treacle"]);
  assert.deepEqual(cats({ color: { any: ["Black", "Orange"] }, mood: "Lazy" }), ["cheeka", "treacle"]);
  assert.deepEqual(cats({ color: { any: ["Black", "Orange"] }, mood: "Zen" }), ["theodore"]);
  assert.deepEqual(cats({ any: { color: { any: ["Black", "Orange"] }, mood: "Angry" } }), [
    "ali",
    "cheeka",
    "smudge",
    "theodore",
    "treacle",
  ]);
  assert.deepEqual(cats({ color: { any: ["Black", "Orange"] }, mood: { not: "Lazy" } }), ["smudge", "theodore"]);
  const complex = {
    any: [{ color: { any: [{ any: ["Tabby"] }, { all: ["Black", "White", "Orange"] }] } }, { mood: { all: ["Nervous", "Pining"] } }],
  };
  assert.deepEqual(cats(complex), ["ali", "grey", "treacle"]);
  const nestedExclusions = {
    all: [
      { all: [{ color: { any: ["Orange", "White"] }, mood: { any: ["Lazy", "Zen"] } }, { not: { color: "Black" } }] },
      { mood: { none: ["Lazy", "Nervous"] } },
    ],
  };
  assert.deepEqual(cats(nestedExclusions), ["theodore"]);
  assert.deepEqual(cats({ none: [{ color: { any: ["Orange", "White"] } }, { mood: "Angry" }] }), ["grey"]);
});

test("counts, mergeFilter and the sort order of a sort piece", () => {
  const pieces = piecesOf(CATS);
  assert.deepEqual(countFilters({ mood: pieces.mood }, null).mood, {
    Lazy: 2,
    Zen: 1,
    Angry: 1,
    Boisterous: 1,
    Mischievous: 1,
    Nervous: 1,
    Pining: 1,
  });
  assert.deepEqual(countFilters({ color: pieces.color }, [1, 2, 3]).color, { Black: 1, White: 2, Orange: 1, Tabby: 1, Grey: 0 });
  assert.deepEqual(mergeCounts([{ a: { x: 1 } }, { a: { x: 2, y: 1 }, b: { z: 4 } }]), { a: { x: 3, y: 1 }, b: { z: 4 } });
  // mergeFilter tags every page; a value of a loaded key joins its values.
  const merged = withMergeFilter(pieces, { site: ["Cats", 3], color: "Any" }, 3);
  assert.deepEqual(merged.site, { Cats: [0, 1, 2] });
  assert.deepEqual(merged.color.Any, [0, 1, 2]);
  assert.deepEqual(merged.color.Black, pieces.color.Black);
  assert.equal(pieces.color.Any, undefined, "the loaded pieces are left as they are");
  // A numeric sort piece lists 9 < 10 < 100 (pages 4, 0, 2; text would order 10, 100, 9):
  // the JS keeps the piece's order, reverses it for desc, and leaves out pages not in it.
  const piece = { key: "n", numeric: true, pages: [4, 0, 2] };
  const order = (places) => [...places].sort((a, b) => a[1] - b[1]).map(([p]) => p);
  assert.deepEqual(order(sortPlaces(piece, "asc")), [4, 0, 2]);
  assert.deepEqual(order(sortPlaces(piece, "desc")), [2, 0, 4]);
  assert.equal(sortPlaces(piece, "asc").has(1), false);
  assert.deepEqual([...sortPlaces(piece, "asc").values()], [0, 1 / 3, 2 / 3]);
  assert.equal(sortPlaces(undefined, "asc").size, 0);
});

// ---- search(), filters(), preload(), mergeIndex() over sites in pieces ----

// The stand-in for the wasm module: a meta piece of JSON naming one term piece per word and the
// fragment pieces; a passage's score is how often it holds the question's words (0 outside
// `allowedPages`); every call to search() is recorded in globalThis.fakeSearches.
const FAKE_WASM = `
const words = (q) => [...new Set(q.toLowerCase().match(/\\w+/g) ?? [])];
export default async function init() {}
export class Pieces {
  static fromMeta(bytes) { return new Pieces(JSON.parse(new TextDecoder().decode(bytes))); }
  constructor(meta) { this.meta = meta; this.tf = new Map(); }
  get pages() { return Uint32Array.from(this.meta.pages); }
  get damping() { return 0.5; }
  missing(q) { return Uint32Array.from(words(q).filter((w) => w in this.meta.terms && !this.tf.has(w)).map((w) => this.meta.terms[w])); }
  name(id) { return this.meta.names[id]; }
  add(id, bytes) { for (const [w, tf] of Object.entries(JSON.parse(new TextDecoder().decode(bytes)))) this.tf.set(w, tf); }
  search(q, mode, staticWeight, phraseWeight, ids, scores, allowedPages) {
    (globalThis.fakeSearches ??= []).push({ q, mode, k: ids.length, allowedPages });
    const ok = allowedPages && new Set(allowedPages);
    const n = this.meta.pages.length;
    const score = Array.from({ length: n }, (_, j) => (ok && !ok.has(this.meta.pages[j]) ? 0 : words(q).reduce((s, w) => s + (this.tf.get(w)?.[j] ?? 0), 0)));
    const top = score.map((s, j) => [j, s]).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, ids.length);
    top.forEach(([j, s], k) => ((ids[k] = j), (scores[k] = s)));
    return top.length;
  }
  // The upper bound: each word's highest count in a passage, 1 for a word the site lacks.
  bm25UpperBound(q) { return words(q).reduce((s, w) => s + (this.tf.has(w) ? Math.max(...Object.values(this.tf.get(w))) : 1), 0); }
  excerpt(text, q) {
    const want = new Set(words(q));
    const out = [""];
    for (const t of text.split(/(\\s+)/)) {
      if (want.has(t.toLowerCase())) out.push(t, "");
      else out[out.length - 1] += t;
    }
    return out;
  }
  fragmentName(j) { return j < this.meta.pages.length ? this.meta.fragments.findLast((f) => f.first <= j).name : undefined; }
}
`;

// Site A: five pages, seven passages in two fragment pieces (theodore straddles them).
const SITE_A = [
  { url: "/index.html", title: "Home", tags: {}, passages: [["", "Home", "welcome home of cats"]] },
  {
    url: "/cheeka.html",
    title: "Cheeka",
    tags: { color: ["Black", "White"], mood: ["Lazy"] },
    sort: { n: "9" },
    passages: [
      ["", "Cheeka", "cheeka is a lazy cat cat cat"],
      ["food", "Cheeka › Food", "cheeka eats fish"],
    ],
  },
  {
    url: "/theodore.html",
    title: "Theodore",
    tags: { mood: ["Zen"], color: ["Orange", "White"] },
    sort: { n: "10" },
    passages: [
      ["", "Theodore", "theodore the zen cat"],
      ["naps", "Theodore › Naps", "naps all day cat"],
    ],
  },
  {
    url: "/ali.html",
    title: "Ali",
    tags: { mood: ["Angry"], color: ["Tabby"] },
    sort: { n: "100" },
    passages: [["", "Ali", "ali cat angry"]],
  },
  {
    url: "/grey.html",
    title: "Grey",
    tags: { mood: ["Nervous", "Pining"], color: ["Grey"] },
    passages: [["", "Grey", "grey cat nervous"]],
  },
];
// Site B, merged: its first page holds "cat" five times.
const SITE_B = [
  { url: "/one.html", title: "One", tags: { color: ["Black"] }, sort: { n: "50" }, passages: [["", "One", "cat cat cat cat cat blog"]] },
  { url: "/two.html", title: "Two", tags: {}, passages: [["", "Two", "dogs only"]] },
];

const gz = (json) => gzipSync(JSON.stringify(json));

/** Writes `pages` as a site's `_hipporag/` in `dir` (entry, meta, term, fragment, filter and sort pieces). */
function writeSite(dir, pages, fragmentStarts) {
  mkdirSync(join(dir, "index"), { recursive: true });
  const passages = pages.flatMap((pg, page) =>
    pg.passages.map(([anchor, title, text]) => ({ page, title, text, url: anchor ? `${pg.url}#${anchor}` : pg.url })),
  );
  const tf = {};
  passages.forEach((p, j) => {
    for (const w of p.text.split(" ")) (tf[w] ??= {})[j] = (tf[w][j] ?? 0) + 1;
  });
  const words = Object.keys(tf).sort();
  words.forEach((w, k) => writeFileSync(join(dir, "index", `t${k}.bin`), gz({ [w]: tf[w] })));
  const record = (page) => ({
    id: page,
    url: pages[page].url,
    meta: { title: pages[page].title },
    filters: pages[page].tags,
    sort: pages[page].sort ?? {},
    word_count: passages.filter((p) => p.page === page).reduce((n, p) => n + p.text.split(" ").length, 0),
  });
  const fragments = fragmentStarts.map((first, f) => {
    const run = passages.map((p, id) => ({ id, ...p })).slice(first, fragmentStarts[f + 1]);
    const json = {
      passages: run.map(({ id, title, url, text }) => ({ id, title, url, text })),
      pages: [...new Set(run.map((p) => p.page))].map(record),
    };
    writeFileSync(join(dir, "index", `frag${f}.bin`), gz(json));
    return { first, name: `frag${f}.bin` };
  });
  const meta = {
    pages: passages.map((p) => p.page),
    terms: Object.fromEntries(words.map((w, k) => [w, k])),
    names: words.map((_, k) => `t${k}.bin`),
    fragments,
  };
  writeFileSync(join(dir, "index", "meta.bin"), gz(meta));
  const filters = {};
  for (const key of ["color", "mood"]) {
    const values = {};
    pages.forEach((pg, page) => (pg.tags[key] ?? []).forEach((v) => (values[v] ??= []).push(page)));
    if (Object.keys(values).length === 0) continue;
    writeFileSync(join(dir, "index", `f-${key}.bin`), gz({ key, values }));
    filters[key] = `index/f-${key}.bin`;
  }
  const withN = pages.map((pg, page) => [page, pg.sort?.n]).filter(([, v]) => v !== undefined);
  writeFileSync(join(dir, "index", "s-n.bin"), gz({ key: "n", numeric: true, pages: withN.sort((a, b) => a[1] - b[1]).map(([p]) => p) }));
  const index = { pieces: "index/meta.bin", index: null, filters, sorts: { n: "index/s-n.bin" } };
  // The top-level entry lacks the maps: only the language's (init({language: "en"})) has them.
  const entry = {
    search: { mode: "hybrid" },
    encoder: { id: "hashed-ngram-v1" },
    pieces: "index/meta.bin",
    languages: [{ lang: "en", ...index }],
  };
  writeFileSync(join(dir, "hipporag-entry.json"), JSON.stringify(entry));
}

const tmp = mkdtempSync(join(tmpdir(), "hipporag-site-filters-"));
const siteA = join(tmp, "a", "_hipporag");
const plain = join(tmp, "plain", "_hipporag");
writeSite(siteA, SITE_A, [0, 4]);
writeSite(plain, SITE_A, [0, 4]);
writeSite(join(tmp, "b", "_hipporag"), SITE_B, [0]);
for (const dir of [siteA, plain]) {
  for (const f of ["hipporag-site.js", "hipporag-pieces.js", "hipporag-helpers.js", "hipporag-filters.js"])
    copyFileSync(join(root, "www", "site", f), join(dir, f));
  writeFileSync(join(dir, "hipporag_pieces_wasm.js"), FAKE_WASM);
  writeFileSync(join(dir, "hipporag_pieces_wasm_bg.wasm"), "");
}
// A site without pieces (the semantic tier's layout): its single file, served by a stand-in for
// hipporag.js whose ranking scores a passage by how often it holds the question's words (every
// passage, zeros included, best first and ties by id, as the retriever's top_k).
const single = join(tmp, "single", "_hipporag");
{
  mkdirSync(join(single, "index"), { recursive: true });
  writeSite(join(tmp, "single-pieces"), SITE_A, [0, 4]); // for its filter and sort pieces only
  const passages = SITE_A.flatMap((pg) =>
    pg.passages.map(([anchor, title, text]) => ({ title, text, url: anchor ? `${pg.url}#${anchor}` : pg.url })),
  );
  const entry = JSON.parse(readFileSync(join(tmp, "single-pieces", "hipporag-entry.json"), "utf8"));
  for (const f of ["f-color.bin", "f-mood.bin", "s-n.bin"]) copyFileSync(join(tmp, "single-pieces", "index", f), join(single, "index", f));
  const lang = { ...entry.languages[0], pieces: null, index: "index.x.hipporag" };
  writeFileSync(join(single, "hipporag-entry.json"), JSON.stringify({ ...entry, pieces: null, index: lang.index, languages: [lang] }));
  for (const f of [
    "hipporag-site.js",
    "hipporag-pieces.js",
    "hipporag-helpers.js",
    "hipporag-filters.js",
    "hipporag-full.js",
    "hipporag-encoders.js",
  ])
    copyFileSync(join(root, "www", "site", f), join(single, f));
  writeFileSync(
    join(single, "hipporag.js"),
    `const PASSAGES = ${JSON.stringify(passages)};
const words = (q) => q.toLowerCase().match(/\\w+/g) ?? [];
export const fetchBytes = async () => new Uint8Array(0);
export const hashedNgramEncode = (texts, dim) => new Float32Array(texts.length * dim);
export class HippoRAG {
  static async load() { return new HippoRAG(); }
  info = { counts: { passages: PASSAGES.length } };
  retriever = { excerpt: (text) => [text] };
  async search(q, { topK, mode, useEncoder = true }) {
    (globalThis.fakeFileSearches ??= []).push({ q, topK, mode, useEncoder });
    const score = (p) => words(q).reduce((s, w) => s + p.text.split(" ").filter((x) => x === w).length, 0);
    const passages = PASSAGES.map((p, id) => ({ id, ...p, score: score(p), contributions: [] }))
      .sort((a, b) => b.score - a.score || a.id - b.id).slice(0, topK);
    return { mode, fallback: null, damping: 0.5, entities: [], seeds: [], facts: [], topPhrases: [], timings: {}, passages };
  }
}
`,
  );
}
// The plain copy has no filters module: a search without filters or sort must not import it.
rmSync(join(plain, "hipporag-filters.js"));

/** Every file fetched, as a path below `tmp`. */
const fetched = [];
globalThis.fetch = async (url) => {
  const path = fileURLToPath(url);
  fetched.push(path.slice(tmp.length + 1));
  try {
    return new Response(readFileSync(path));
  } catch {
    return new Response(null, { status: 404 });
  }
};
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

let instances = 0;
/** A fresh instance of the site's JS API (its own state) from `dir`, its search in English. */
async function site(dir = siteA) {
  const api = await import(`${pathToFileURL(join(dir, "hipporag-site.js"))}?${++instances}`);
  await api.init({ language: "en" });
  return api;
}
/** The term piece of `word` in site A (writeSite: one per word, in sorted order). */
const termPiece = (word) =>
  `t${[...new Set(SITE_A.flatMap((pg) => pg.passages.flatMap(([, , text]) => text.split(" "))))].sort().indexOf(word)}.bin`;
const lastSearch = () => globalThis.fakeSearches.at(-1);
const urls = async (s) => Promise.all(s.results.map(async (r) => (await r.data()).url));

test("a search without filters or sort asks for topK × 8 passages, fetches no filter piece and imports no filters module", async () => {
  const api = await site(plain);
  fetched.length = 0;
  const s = await api.search("cat", { topK: 2 });
  assert.deepEqual(lastSearch(), { q: "cat", mode: "hybrid", k: 16, allowedPages: undefined });
  assert.deepEqual(
    s.results.map((r) => [r.id, r.score]),
    [
      [1, 3],
      [3, 1],
    ],
  );
  assert.equal(s.unfilteredResultCount, 4, "the pages of the passages ranked above 0");
  assert.deepEqual([s.filters, s.totalFilters], [{}, {}]);
  assert.deepEqual(fetched, [`plain/_hipporag/index/${termPiece("cat")}`], "the term piece of `cat` only");
  // data(): the page's record from the result passage's fragment piece; its scored passages.
  const cheeka = await s.results[0].data();
  assert.deepEqual(
    { ...cheeka, sub_results: undefined },
    {
      url: "/cheeka.html",
      raw_url: "/cheeka.html",
      title: "Cheeka",
      meta: { title: "Cheeka" },
      filters: { color: ["Black", "White"], mood: ["Lazy"] },
      excerpt: "cheeka is a lazy <mark>cat</mark> <mark>cat</mark> <mark>cat</mark>",
      excerptSegments: ["cheeka is a lazy ", "cat", " ", "cat", " ", "cat", ""],
      content: "cheeka is a lazy cat cat cat",
      word_count: 10,
      sub_results: undefined,
      contributions: [],
    },
  );
  assert.deepEqual(
    cheeka.sub_results.map((r) => [r.title, r.url]),
    [["Cheeka", "/cheeka.html"]],
  );
  // Theodore's passages straddle the two fragment pieces: its sub-results are those of the
  // result's own piece (data() fetches one piece), each with its heading and anchor; "Naps",
  // in the other piece, is not fetched.
  fetched.length = 0;
  const theodore = await s.results[1].data();
  assert.deepEqual(
    theodore.sub_results.map((r) => [r.title, r.url, r.anchor?.id, r.excerpt]),
    [["Theodore", "/theodore.html", undefined, "theodore the zen <mark>cat</mark>"]],
  );
  assert.deepEqual(
    fetched.filter((f) => f.endsWith("frag1.bin")),
    [],
    "the piece holding Naps is not fetched",
  );
  assert.equal(theodore.word_count, 8);
  await assert.rejects(api.search("cat", { filters: { mood: "Zen" } }), /hipporag-filters\.js/, "this copy has no filters module");
});

test("a filter narrows the ranking first: the wasm gets the allowed pages and is asked for every passage", async () => {
  const api = await site();
  fetched.length = 0;
  const s = await api.search("cat", { filters: { mood: { any: ["Angry", "Nervous"] } }, topK: 1 });
  const asked = globalThis.fakeSearches.slice(-2);
  assert.deepEqual(
    asked.map((a) => [a.k, a.allowedPages && [...a.allowedPages]]),
    [
      [7, [3, 4]],
      [7, undefined],
    ],
    "ranked within the filter, then without it for the counts",
  );
  assert.ok(asked[0].allowedPages instanceof Uint32Array);
  assert.deepEqual(await urls(s), ["/ali.html"], "topK pages of the allowed ones");
  assert.equal(s.unfilteredResultCount, 4);
  assert.deepEqual(s.filters, { mood: { Angry: 1, Lazy: 0, Nervous: 1, Pining: 1, Zen: 0 } }, "over the pages matched, before the cut");
  assert.deepEqual(s.totalFilters, { mood: { Angry: 1, Lazy: 1, Nervous: 1, Pining: 1, Zen: 1 } });
  assert.ok(
    fetched.includes("a/_hipporag/index/f-mood.bin") && !fetched.includes("a/_hipporag/index/f-color.bin"),
    "only the piece of the key named",
  );
  // An unknown value or key matches no page; the counts show the loaded keys.
  const none = await api.search("cat", { filters: { color: "Purple" } });
  assert.deepEqual([none.results.length, none.unfilteredResultCount], [0, 4]);
  assert.deepEqual(Object.keys(none.filters).sort(), ["color", "mood"]);
  assert.equal((await api.search("cat", { filters: { size: "big" } })).results.length, 0);
  // Counts stay once pieces are loaded: a plain search now ranks every passage to give them.
  const after = await api.search("cat", { topK: 1 });
  assert.deepEqual([lastSearch().k, after.results.length, after.totalFilters.color.White], [7, 1, 2]);
});

test("listings and sorts: search(null), page order or sort order, pages without the key left out, no topK cut", async () => {
  const api = await site();
  const all = await api.search(null, { topK: 1 });
  assert.deepEqual(await urls(all), ["/index.html", "/cheeka.html", "/theodore.html", "/ali.html", "/grey.html"]);
  assert.deepEqual(
    all.results.map((r) => r.id),
    [0, 1, 3, 5, 6],
    "each page's first passage",
  );
  assert.equal(all.unfilteredResultCount, 0, "a listing matches no term, as Pagefind's");
  const white = await api.search("", { filters: { color: "White" } });
  assert.deepEqual(await urls(white), ["/cheeka.html", "/theodore.html"]);
  assert.deepEqual((await white.results[1].data()).sub_results, []);
  assert.deepEqual(white.filters.color, { Black: 1, White: 2, Orange: 1, Tabby: 0, Grey: 0 });
  assert.deepEqual(white.totalFilters.color, { Black: 0, White: 0, Orange: 0, Tabby: 0, Grey: 0 }, "Pagefind's totals of a listing");
  // The sort piece orders 9 < 10 < 100 as numbers; grey and the index have no `n`.
  assert.deepEqual(await urls(await api.search(null, { sort: { n: "asc" } })), ["/cheeka.html", "/theodore.html", "/ali.html"]);
  assert.deepEqual(await urls(await api.search(null, { sort: { n: "desc" } })), ["/ali.html", "/theodore.html", "/cheeka.html"]);
  // With a query: every page scored above 0, in sort order, not cut at topK.
  const sorted = await api.search("cat", { sort: { n: "desc" }, topK: 1 });
  assert.deepEqual(await urls(sorted), ["/ali.html", "/theodore.html", "/cheeka.html"]);
  const filteredSorted = await api.search("cat", { filters: { color: "White" }, sort: { n: "asc" } });
  assert.deepEqual(await urls(filteredSorted), ["/cheeka.html", "/theodore.html"]);
});

test("filters(), sorts() and preload()", async () => {
  const api = await site();
  assert.deepEqual(await api.sorts(), ["n"]);
  assert.deepEqual(await api.filters(), {
    color: { Black: 1, White: 2, Orange: 1, Tabby: 1, Grey: 1 },
    mood: { Lazy: 1, Zen: 1, Angry: 1, Nervous: 1, Pining: 1 },
  });
  const before = globalThis.fakeSearches.length;
  fetched.length = 0;
  await api.preload("naps day", { sort: { n: "asc" } });
  assert.equal(globalThis.fakeSearches.length, before, "preload ranks nothing");
  assert.deepEqual(
    fetched
      .filter((f) => /\/t\d+\.bin$/.test(f))
      .map((f) => f.split("/").pop())
      .sort(),
    [termPiece("day"), termPiece("naps")].sort(),
  );
});

test("mergeIndex: results merged by score × indexWeight × (each index's best BM25 over its upper bound, over the best index's)^16, mergeFilter on every page, filters() and listings over both", async () => {
  const api = await site();
  await api.options({ mergeFilter: { site: "Cats" } });
  await api.mergeIndex(pathToFileURL(join(tmp, "b", "_hipporag")).href, {
    indexWeight: 0.5,
    mergeFilter: { site: "Blog" },
    baseUrl: "/b/",
  });
  // "cat blog": the primary's best passage scores 3 of its upper bound 4 (cat at most 3 times
  // in a passage, blog absent: 1), the blog's 6 of 6, so the primary's scores are scaled by
  // (0.75)^16 (cheeka 3 → 0.030, theodore 1 → 0.010) and the blog's by 1 (one: 6 × 0.5).
  const both = await api.search("cat blog", { topK: 3 });
  assert.deepEqual(await urls(both), ["/b/one.html", "/cheeka.html", "/theodore.html"]);
  assert.deepEqual(
    both.results.map((r) => +r.score.toFixed(9)),
    [3, +(3 * 0.75 ** 16).toFixed(9), +(0.75 ** 16).toFixed(9)],
  );
  // "cat": each site's best passage scores its whole bound (3 of 3, 5 of 5): neither is scaled,
  // and the scores × indexWeight interleave (cheeka 3, one 5 × 0.5, theodore 1), where the raw
  // best BM25 scores (3 against 5) would have put the blog first.
  const s = await api.search("cat", { topK: 3 });
  assert.deepEqual(await urls(s), ["/cheeka.html", "/b/one.html", "/theodore.html"]);
  assert.deepEqual(
    s.results.map((r) => r.score),
    [3, 2.5, 1],
  );
  // In the bm25 mode, each score is its share of its index's upper bound (× indexWeight):
  // cheeka 3 of 4, the blog's one 6 of 6 × 0.5, theodore 1 of 4.
  const bm25 = await api.search("cat blog", { topK: 3, mode: "bm25" });
  assert.deepEqual(await urls(bm25), ["/cheeka.html", "/b/one.html", "/theodore.html"]);
  assert.deepEqual(
    bm25.results.map((r) => r.score),
    [0.75, 0.5, 0.25],
  );
  assert.equal(s.unfilteredResultCount, 5);
  assert.deepEqual(s.totalFilters, { site: { Cats: 4, Blog: 1 } });
  assert.deepEqual((await both.results[0].data()).filters, { color: ["Black"], site: ["Blog"] });
  assert.deepEqual(await urls(await api.search("cat", { filters: { site: "Blog" } })), ["/b/one.html"]);
  assert.deepEqual(await urls(await api.search("cat", { filters: { color: "Black" } })), ["/cheeka.html", "/b/one.html"]);
  assert.deepEqual(await api.filters(), {
    site: { Cats: 5, Blog: 2 },
    color: { Black: 2, White: 2, Orange: 1, Tabby: 1, Grey: 1 },
    mood: { Lazy: 1, Zen: 1, Angry: 1, Nervous: 1, Pining: 1 },
  });
  // A listing lists the primary's pages, then the merged index's; a sort interleaves by rank.
  assert.deepEqual((await urls(await api.search(null))).slice(4), ["/grey.html", "/b/one.html", "/b/two.html"]);
  assert.deepEqual(await urls(await api.search(null, { sort: { n: "asc" } })), [
    "/cheeka.html",
    "/b/one.html",
    "/theodore.html",
    "/ali.html",
  ]);
  // The same index again is skipped.
  await api.mergeIndex(pathToFileURL(join(tmp, "b", "_hipporag")).href);
  assert.equal((await api.search(null)).results.length, 7);
});

test("a site without pieces: the single file ranks every passage, then the filter applies; listings and sorts from its passages", async () => {
  const api = await site(single);
  const plainSearch = await api.search("cat", { topK: 2 });
  assert.deepEqual(globalThis.fakeFileSearches.at(-1), { q: "cat", topK: 16, mode: "hybrid", useEncoder: true });
  assert.deepEqual(await urls(plainSearch), ["/cheeka.html", "/theodore.html"]);
  const s = await api.search("cat", { filters: { mood: { any: ["Angry", "Nervous"] } }, topK: 1 });
  assert.deepEqual(globalThis.fakeFileSearches.at(-1), { q: "cat", topK: 7, mode: "hybrid", useEncoder: true }, "every passage ranked");
  assert.deepEqual(await urls(s), ["/ali.html"]);
  assert.deepEqual([s.unfilteredResultCount, s.filters.mood.Nervous, s.totalFilters.mood.Lazy], [4, 1, 1]);
  // Page records are the fragments'; without them, meta.title is the heading path's first part,
  // filters come from the loaded pieces (mood's and color's by now) and word_count from the passage.
  const theodore = await (await api.search("naps", { filters: { color: "Orange" } })).results[0].data();
  assert.deepEqual(
    [theodore.url, theodore.meta, theodore.filters, theodore.word_count, theodore.sub_results.map((r) => r.title)],
    ["/theodore.html#naps", { title: "Theodore" }, { color: ["White", "Orange"], mood: ["Zen"] }, 4, ["Naps"]],
  );
  assert.deepEqual(await urls(await api.search(null, { filters: { color: "White" } })), ["/cheeka.html", "/theodore.html"]);
  assert.deepEqual(await urls(await api.search(null, { sort: { n: "desc" } })), ["/ali.html", "/theodore.html", "/cheeka.html"]);
  assert.deepEqual(await api.filters(), {
    color: { Black: 1, White: 2, Orange: 1, Tabby: 1, Grey: 1 },
    mood: { Lazy: 1, Zen: 1, Angry: 1, Nervous: 1, Pining: 1 },
  });
  await assert.rejects(api.mergeIndex(pathToFileURL(join(tmp, "b", "_hipporag")).href), /must be in pieces/);
});

test("filters() alone fetches the entry and the filter pieces: no search module, no meta piece", async () => {
  const api = await import(`${pathToFileURL(join(siteA, "hipporag-site.js"))}?${++instances}`);
  await api.options({ language: "en" });
  fetched.length = 0;
  const counts = await api.filters();
  assert.deepEqual(Object.keys(counts), ["color", "mood"]);
  assert.ok(
    fetched.some((f) => f.endsWith("hipporag-entry.json")),
    fetched.join(", "),
  );
  const entry = JSON.parse(readFileSync(join(siteA, "hipporag-entry.json"), "utf8"));
  const allowed = new Set(["hipporag-entry.json", ...Object.values(entry.filters ?? {})].map((f) => f.split("/").pop()));
  assert.deepEqual(
    fetched.map((f) => f.split("/").pop()).filter((f) => !allowed.has(f)),
    [],
    "only the entry and the filter pieces",
  );
  // A search afterwards opens the index and gives counts at once.
  const s = await api.search("cat");
  assert.deepEqual(Object.keys(s.filters), ["color", "mood"]);
});
