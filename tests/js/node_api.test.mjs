// The Node API of the npm package (packaging/npm/hipporag/lib/index.mjs) and the Python API of
// the wheel (cli/python/hipporag/index.py, run by tests/js/python_api.py), from the source tree,
// with HIPPORAG_BINARY=target/release/hipporag (or $HIPPORAG_BINARY): Python's docs (Debian's
// python3.11-doc, or $PYTHON_DOCS), tutorial/ and faq/, given page by page through addHTMLFile
// and add_html_file, write the same bytes as `hipporag site` on a copy of the same pages;
// custom records' meta, filters and sort come back from the written entry and pieces
// (/tmp/contract.md §2, issue #67's page records); an option hipporag does not honour is an
// error naming it; and the declarations (lib/index.d.mts) type-check a caller's use.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BINARY = resolve(process.env.HIPPORAG_BINARY ?? join(root, "target", "release", "hipporag"));
const DOCS = process.env.PYTHON_DOCS ?? "/usr/share/doc/python3.11/html";
const PACKAGE = join(root, "packaging", "npm", "hipporag");
// The API finds the binary through HIPPORAG_BINARY, as a user's override does; its build log
// follows the `verbose` option only.
process.env.HIPPORAG_BINARY = BINARY;
delete process.env.RUST_LOG;
const hipporag = await import(pathToFileURL(join(PACKAGE, "lib", "index.mjs")).href);

const tmp = mkdtempSync(join(tmpdir(), "hipporag-node-api-"));
after(async () => {
  await hipporag.close();
  rmSync(tmp, { recursive: true, force: true });
});
const RUN_ENV = { ...process.env, RUST_LOG: "warn" };

/** Fails the test, saying how to build it, when the binary is missing. */
function requireBinary() {
  assert.ok(
    existsSync(BINARY),
    `${BINARY} is missing: build it with \`cargo build --release -p hipporag-cli\` (or ./build.sh build), or set HIPPORAG_BINARY`,
  );
}

/** The pages: tutorial/ and faq/ of Python's docs, by path below DOCS. */
function pages() {
  assert.ok(existsSync(DOCS), `${DOCS} is missing: apt-get install python3.11-doc (or set PYTHON_DOCS)`);
  return ["tutorial", "faq"].flatMap((d) =>
    readdirSync(join(DOCS, d))
      .filter((f) => f.endsWith(".html"))
      .sort()
      .map((f) => `${d}/${f}`),
  );
}

/** Every file below DIR, by relative path: its bytes. */
function files(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p);
    }
  };
  walk(dir);
  return out;
}

/** Asserts the bundle FILES (path → bytes) is REF's, file for file and byte for byte. */
function assertSameBundle(got, ref, what) {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(ref).sort(), `${what}: the files differ from hipporag site's`);
  const differ = Object.keys(ref).filter((f) => !Buffer.from(got[f]).equals(ref[f]));
  assert.deepEqual(differ, [], `${what}: these files' bytes differ from hipporag site's`);
}

let reference;
/** `hipporag site` on a copy of the pages: its `_hipporag/` (path → bytes), built once. */
function referenceBundle() {
  if (!reference) {
    const site = join(tmp, "reference");
    for (const p of pages()) {
      mkdirSync(dirname(join(site, p)), { recursive: true });
      cpSync(join(DOCS, p), join(site, p), { dereference: true });
    }
    const t = performance.now();
    const report = JSON.parse(
      execFileSync(BINARY, ["site", site, "--json"], {
        cwd: tmp,
        env: RUN_ENV,
        encoding: "utf8",
        maxBuffer: 1 << 26,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    console.log(`hipporag site: ${report.pages} pages, ${((performance.now() - t) / 1000).toFixed(1)} s`);
    assert.equal(report.pages, pages().length);
    reference = files(join(site, "_hipporag"));
  }
  return reference;
}

// Custom records for Node and Python alike: values with commas, colons and HTML's characters;
// several values of a filter; number-like sort values (3 sorts before 20).
const RECORDS = [
  {
    url: "/talks/graphs/",
    content: "Personalized PageRank over a phrase graph.\n\nA second paragraph, with <angle> & ampersand.",
    language: "en",
    meta: { title: "Graph search, explained", speaker: "Ada, Countess: of Lovelace", note: 'a "quoted" <b>&</b>' },
    filters: { year: ["2024"], tags: ["graphs", "search, ranking"] },
    sort: { weight: "20" },
  },
  {
    url: "/talks/bm25.html",
    content: "Okapi BM25 ranks passages by term frequency.",
    language: "en",
    meta: { title: "BM25" },
    filters: { year: ["2023"], tags: ["search, ranking"] },
    sort: { weight: "3" },
  },
];

/** JSON of a gzipped piece, or null for a piece that is not gzipped JSON. */
function jsonPiece(bytes) {
  try {
    return JSON.parse(gunzipSync(bytes).toString("utf8"));
  } catch {
    return null;
  }
}

/** The custom records of a bundle (path → bytes) as its entry and pieces hold them (/tmp/contract.md §2). */
function assertRecords(bundle, what) {
  const entry = JSON.parse(Buffer.from(bundle["hipporag-entry.json"]).toString("utf8"));
  const pagesByUrl = {};
  for (const [path, bytes] of Object.entries(bundle)) {
    if (!path.startsWith("index/")) continue;
    const f = jsonPiece(bytes);
    // A fragment's records leave out what its passages say (docs/index-format.md): pages are
    // numbered by first appearance, so its passages' pages, in order, are its records'.
    const urls = [...new Set((f?.passages ?? []).map((p) => (p.url ?? "").split("#")[0]))];
    const titles = new Map((f?.passages ?? []).map((p) => [(p.url ?? "").split("#")[0], p.title.split(" › ")[0]]));
    for (const [k, r] of (f?.pages ?? []).entries()) {
      const url = r.url ?? urls[k];
      const meta = { title: titles.get(url), ...r.meta };
      if (meta.title === null) delete meta.title;
      pagesByUrl[url] = { ...r, url, meta, filters: r.filters ?? {}, sort: r.sort ?? {} };
    }
  }
  const graphs = pagesByUrl["/talks/graphs/index.html"];
  const bm25 = pagesByUrl["/talks/bm25.html"];
  assert.ok(
    graphs && bm25,
    `${what}: no page records for the custom records in the fragment pieces (found ${JSON.stringify(Object.keys(pagesByUrl))}): ` +
      "the indexer does not write the `pages` of fragment pieces yet (issue #67)",
  );
  assert.deepEqual(graphs.meta, { note: 'a "quoted" <b>&</b>', speaker: "Ada, Countess: of Lovelace", title: "Graph search, explained" });
  assert.deepEqual(graphs.filters, { tags: ["graphs", "search, ranking"], year: ["2024"] });
  assert.deepEqual(graphs.sort, { weight: "20" });
  assert.equal(bm25.meta.title, "BM25");
  assert.deepEqual(bm25.filters, { tags: ["search, ranking"], year: ["2023"] });
  assert.deepEqual(bm25.sort, { weight: "3" });
  // The page beside them has no attributes: its automatic title only.
  const plain = pagesByUrl["/plain.html"];
  assert.deepEqual([plain?.filters, plain?.sort], [{}, {}]);
  // The filter and sort pieces the entry names.
  assert.ok(entry.filters && entry.sorts, `${what}: hipporag-entry.json has no filters or sorts (issue #67)`);
  const piece = (name) => jsonPiece(bundle[name]);
  assert.deepEqual(piece(entry.filters.year), { key: "year", values: { 2023: [bm25.id], 2024: [graphs.id] } });
  assert.deepEqual(piece(entry.filters.tags), {
    key: "tags",
    values: { graphs: [graphs.id], "search, ranking": [graphs.id, bm25.id].sort((a, b) => a - b) },
  });
  assert.deepEqual(piece(entry.sorts.weight), { key: "weight", numeric: true, pages: [bm25.id, graphs.id] });
}

test("addHTMLFile, page by page, writes the same bytes as hipporag site on the same pages", async () => {
  requireBinary();
  const ref = referenceBundle();
  const { errors, index } = await hipporag.createIndex();
  assert.deepEqual(errors, []);
  // By URL (a directory's index page by its directory: /tutorial/) and by sourcePath, alternately.
  for (const [i, p] of pages().entries()) {
    const content = readFileSync(join(DOCS, p), "utf8");
    const file = p.endsWith("/index.html")
      ? { url: `/${p.slice(0, -"index.html".length)}`, content }
      : i % 2
        ? { sourcePath: p, content }
        : { url: `/${p}`, content };
    const r = await index.addHTMLFile(file);
    assert.deepEqual(r, { errors: [], file: { url: `/${p}`, sourcePath: p } }, JSON.stringify(file.url ?? file.sourcePath));
  }
  const t = performance.now();
  const out = join(tmp, "node-out", "_hipporag");
  const written = await index.writeFiles({ outputPath: out });
  console.log(`Node API writeFiles: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  assert.deepEqual(written, { errors: [], outputPath: out });
  assertSameBundle(files(out), ref, "writeFiles");
  // getFiles: the same files, without a second build.
  const got = await index.getFiles();
  assert.deepEqual(got.errors, []);
  assert.ok(got.files.every((f) => f.content instanceof Uint8Array));
  assertSameBundle(Object.fromEntries(got.files.map((f) => [f.path, f.content])), ref, "getFiles");
  // writeFiles replaces the bundle it wrote before.
  assert.deepEqual((await index.writeFiles({ outputPath: out })).errors, []);
  assertSameBundle(files(out), ref, "writeFiles again");
  assert.equal(await index.deleteIndex(), null);
  assert.match((await index.getFiles()).errors[0], /deleted/);
});

test("addDirectory with a glob: the pages it matches, as hipporag site reads them", async () => {
  requireBinary();
  const { index } = await hipporag.createIndex({ noStaticEmbeddings: true });
  assert.deepEqual(await index.addDirectory({ path: join(DOCS, "tutorial"), glob: "{index,intro*}.html" }), { errors: [], page_count: 2 });
  assert.deepEqual(await index.addDirectory({ path: join(DOCS, "faq") }), {
    errors: [],
    page_count: pages().filter((p) => p.startsWith("faq/")).length,
  });
  const { errors, files: got } = await index.getFiles();
  assert.deepEqual(errors, []);
  const entry = JSON.parse(Buffer.from(got.find((f) => f.path === "hipporag-entry.json").content).toString("utf8"));
  assert.ok(entry.counts.passages > 50, JSON.stringify(entry.counts));
  assert.match((await index.addDirectory({ path: join(tmp, "missing") })).errors[0], /not a directory/);
  await index.deleteIndex();
});

test("addCustomRecord: meta, filters and sort come back from the entry and pieces", async () => {
  requireBinary();
  const { errors, index } = await hipporag.createIndex({ noStaticEmbeddings: true });
  assert.deepEqual(errors, []);
  for (const record of RECORDS) {
    const r = await index.addCustomRecord(record);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.file.meta, record.meta);
  }
  await index.addHTMLFile({
    url: "/plain.html",
    content: "<html><body><main><h1>Plain</h1><p>No attributes here.</p></main></body></html>",
  });
  const out = join(tmp, "node-records");
  assert.deepEqual((await index.writeFiles({ outputPath: out })).errors, []);
  // Keys the inline capture cannot read back, reserved filter keys, non-string values and URLs
  // that name no page path: errors naming them, nothing added.
  const bad = [
    [{ meta: { "a:b": "v" } }, "a:b"],
    [{ filters: { "a,b": ["v"] } }, "a,b"],
    [{ sort: { "a[b]": "v" } }, "a[b]"],
    [{ filters: { any: ["v"] } }, "any"],
    [{ sort: { weight: 20 } }, "sort weight"],
    [{ language: "" }, "language"],
    [{ url: "/resume.pdf" }, "/resume.pdf"],
    [{ url: "https://example.com/a/" }, "https://example.com/a/"],
  ];
  for (const [change, needle] of bad) {
    const r = await index.addCustomRecord({ url: "/x/", content: "x", language: "en", ...change });
    assert.equal(r.errors.length, 1, JSON.stringify(change));
    assert.ok(r.errors[0].includes(needle), `${r.errors[0]} does not name ${needle}`);
    assert.equal(r.file, undefined);
  }
  await index.deleteIndex();
  assertRecords(files(out), "Node API");
});

test("createIndex: an option hipporag does not honour is an error naming it", async () => {
  requireBinary();
  const help = execFileSync(BINARY, ["site", "--help"], { encoding: "utf8" });
  const cases = [
    [{ writePlayground: true }, "writePlayground"],
    [{ keepIndexUrl: false }, "keepIndexUrl"],
    [{ bogusOption: 1 }, "bogusOption"],
    [{ verbose: "yes" }, "verbose"],
    [{ lang: 5 }, "lang"],
  ];
  // Pagefind's selector and language options, while the binary has no such flag.
  for (const [name, flag, value] of [
    ["rootSelector", "--root-selector", "main"],
    ["excludeSelectors", "--exclude-selectors", [".ad"]],
    ["forceLanguage", "--force-language", "en"],
  ]) {
    if (!help.includes(flag)) cases.push([{ [name]: value }, name]);
  }
  for (const [options, name] of cases) {
    const r = await hipporag.createIndex(options);
    assert.equal(r.index, undefined, JSON.stringify(options));
    assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
    assert.ok(r.errors[0].includes(name), `${r.errors[0]} does not name ${name}`);
  }
  // Those it honours: accepted, and the log goes to the logfile.
  const logfile = join(tmp, "build.log");
  const { errors, index } = await hipporag.createIndex({
    keepIndexUrl: true,
    writePlayground: false,
    verbose: true,
    logfile,
    noStaticEmbeddings: true,
  });
  assert.deepEqual(errors, []);
  await index.addHTMLFile({ url: "/", content: "<html><body><main><p>One page of text.</p></main></body></html>" });
  assert.deepEqual((await index.getFiles()).errors, []);
  assert.match(readFileSync(logfile, "utf8"), /pages read: 1 /);
  // A failed build: its log in the error.
  const empty = (await hipporag.createIndex({ noStaticEmbeddings: true })).index;
  const failed = await empty.getFiles();
  assert.deepEqual(failed.files, []);
  assert.match(failed.errors[0], /hipporag site failed[^]*no page with text/);
  // writeFiles leaves a directory that is not a bundle as it is.
  const mine = join(tmp, "mine");
  mkdirSync(mine);
  writeFileSync(join(mine, "keep.txt"), "mine");
  assert.match((await index.writeFiles({ outputPath: mine })).errors[0], /hipporag-entry\.json/);
  assert.deepEqual(readdirSync(mine), ["keep.txt"]);
  await hipporag.close();
  assert.match((await index.getFiles()).errors[0], /deleted/);
});

test("Pagefind's rootSelector, excludeSelectors and forceLanguage: the bytes of hipporag site with those flags", async (t) => {
  requireBinary();
  const help = execFileSync(BINARY, ["site", "--help"], { encoding: "utf8" });
  if (!help.includes("--root-selector")) return t.skip("this binary has no --root-selector: the test above checks the error instead");
  const three = ["tutorial/appetite.html", "tutorial/classes.html", "tutorial/errors.html"];
  const site = join(tmp, "selectors");
  for (const p of three) cpSync(join(DOCS, p), join(site, p));
  const flags = ["--root-selector", "div.body", "--exclude-selectors", "div.highlight", "--force-language", "en", "--no-static-embeddings"];
  execFileSync(BINARY, ["site", site, "--json", ...flags], { cwd: tmp, env: RUN_ENV, stdio: ["ignore", "pipe", "pipe"] });
  const { errors, index } = await hipporag.createIndex({
    rootSelector: "div.body",
    excludeSelectors: ["div.highlight"],
    forceLanguage: "en",
    noStaticEmbeddings: true,
  });
  assert.deepEqual(errors, []);
  for (const p of three) assert.deepEqual((await index.addHTMLFile({ sourcePath: p, content: readFileSync(join(DOCS, p)) })).errors, []);
  const got = await index.getFiles();
  assert.deepEqual(got.errors, []);
  assertSameBundle(Object.fromEntries(got.files.map((f) => [f.path, f.content])), files(join(site, "_hipporag")), "selectors");
  // Without the flags the bytes differ: they were applied.
  const { index: plain } = await hipporag.createIndex({ noStaticEmbeddings: true });
  for (const p of three) await plain.addHTMLFile({ sourcePath: p, content: readFileSync(join(DOCS, p)) });
  const fragments = (fs) => fs.filter((f) => f.path.startsWith("index/")).map((f) => f.path);
  assert.notDeepEqual(fragments((await plain.getFiles()).files), fragments(got.files));
  await Promise.all([index.deleteIndex(), plain.deleteIndex()]);
});

test("the Python API writes the same bytes through add_html_file, and its custom records come back", () => {
  requireBinary();
  const ref = referenceBundle();
  const outSite = join(tmp, "python-out");
  const outRecords = join(tmp, "python-records");
  const help = execFileSync(BINARY, ["site", "--help"], { encoding: "utf8" });
  const r = spawnSync(
    "python3",
    [join(root, "tests", "js", "python_api.py"), DOCS, outSite, outRecords, String(help.includes("--root-selector")), ...pages()],
    {
      env: {
        ...RUN_ENV,
        PYTHONPATH: join(root, "cli", "python"),
        PYTHONDONTWRITEBYTECODE: "1",
        HIPPORAG_TEST_RECORDS: JSON.stringify(RECORDS),
      },
      encoding: "utf8",
    },
  );
  assert.equal(r.status, 0, `python3 tests/js/python_api.py failed:\n${r.stdout}${r.stderr}`);
  const report = JSON.parse(r.stdout);
  assert.equal(report.pages, pages().length);
  assertSameBundle(files(outSite), ref, "Python write_files");
  assertRecords(files(outRecords), "Python API");
});

test('the package\'s exports and index.d.mts: `import * as hipporag from "hipporag"` resolves and type-checks', async () => {
  // A project with the package in node_modules, as npm lays it out.
  const project = join(tmp, "project");
  mkdirSync(join(project, "node_modules"), { recursive: true });
  symlinkSync(PACKAGE, join(project, "node_modules", "hipporag"), "dir");
  writeFileSync(join(project, "package.json"), '{"type": "module"}');
  writeFileSync(
    join(project, "usage.ts"),
    `import * as hipporag from "hipporag";
const { errors, index } = await hipporag.createIndex({ verbose: true, forceLanguage: "en", noStaticEmbeddings: true });
if (index) {
  const a: { errors: string[]; page_count: number } = await index.addDirectory({ path: "public", glob: "**/*.html" });
  const b = await index.addHTMLFile({ url: "/about/", content: "<html></html>" });
  const url: string | undefined = b.file?.url;
  await index.addHTMLFile({ sourcePath: "about/index.html", content: new Uint8Array() });
  await index.addCustomRecord({ url: "/x/", content: "x", language: "en", meta: { title: "X" }, filters: { tag: ["a"] }, sort: { n: "1" } });
  const { files } = await index.getFiles();
  const bytes: Uint8Array | undefined = files[0]?.content;
  const w: string | undefined = (await index.writeFiles({ outputPath: "public/_hipporag" })).outputPath;
  const none: null = await index.deleteIndex();
  void [errors, a, url, bytes, w, none];
}
await hipporag.close();
`,
  );
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  assert.ok(existsSync(tsc), `${tsc} is missing: run npm ci`);
  const flags = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022"];
  const t = spawnSync(process.execPath, [tsc, ...flags, "usage.ts"], { cwd: project, encoding: "utf8" });
  assert.equal(t.status, 0, `tsc usage.ts:\n${t.stdout}${t.stderr}`);
  // And at run time, through the package's exports.
  const r = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", 'import * as h from "hipporag"; console.log(Object.keys(h).sort().join(","))'],
    {
      cwd: project,
      encoding: "utf8",
    },
  );
  assert.equal(r.stdout.trim(), "close,createIndex", r.stderr);
});
