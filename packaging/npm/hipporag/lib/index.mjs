// The Node API of the `hipporag` package, shaped like Pagefind's (`createIndex`, `addHTMLFile`,
// `addDirectory`, `addCustomRecord`, `getFiles`, `writeFiles`, `deleteIndex`, `close`; every
// call resolves to `{errors, …}` and never rejects). Types: index.d.mts.
//
// It drives the same static binary as the `hipporag` command, so the same pages give the same
// bytes as `hipporag site`: each index is a temporary site directory. `addHTMLFile` writes a
// page at the path its URL maps to, `addDirectory` copies a directory's pages in,
// `addCustomRecord` writes a small HTML page carrying the record's meta, filters and sort as
// Pagefind's `data-pagefind-*` attributes; `getFiles` and `writeFiles` run
// `hipporag site <dir> --json` on it once per change and read or copy its `_hipporag/`.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

const require = createRequire(import.meta.url);
const { binary, binaryEnv } = require("./binary.cjs");

/** The output directory `hipporag site` writes inside the site, and the ones its walk skips. */
const OUTPUT_DIR = "_hipporag";
const SKIPPED_DIRS = (name) => name === OUTPUT_DIR || name === ".hipporag-cache" || name.startsWith(".hipporag-tmp");
/** The file every `_hipporag/` holds (how writeFiles knows a directory it may replace). */
const ENTRY_FILE = "hipporag-entry.json";
/** The pages `hipporag site` reads, and addDirectory's default glob. */
const PAGE_NAME = /\.(html|htm|md)$/;
const DEFAULT_GLOB = "**/*.{html,htm,md}";
/** Filter keys Pagefind's filter syntax reserves (the indexer ignores them). */
const RESERVED_FILTER_KEYS = new Set(["any", "all", "none", "not"]);

/**
 * `hipporag site`'s own options, by the camelCase name of their flag: [flag, kind]. Kinds:
 * boolean (the flag alone when true), string, number, path (resolved against the working
 * directory), strings (the flag once per item).
 */
const SITE_OPTIONS = {
  lang: ["--lang", "string"],
  exclude: ["--exclude", "strings"],
  includeNoindex: ["--include-noindex", "boolean"],
  fullIndex: ["--full-index", "boolean"],
  noStaticEmbeddings: ["--no-static-embeddings", "boolean"],
  model: ["--model", "path"],
  encoder: ["--encoder", "string"],
  modelWeights: ["--model-weights", "string"],
  fragmentTextChars: ["--fragment-text-chars", "number"],
  synonymyThreshold: ["--synonymy-threshold", "number"],
};
/** Pagefind's options that become a flag of `hipporag site` when the binary has that flag. */
const PAGEFIND_FLAG_OPTIONS = {
  rootSelector: ["--root-selector", "string"],
  excludeSelectors: ["--exclude-selectors", "strings"],
  forceLanguage: ["--force-language", "string"],
};
/** Pagefind's options the API itself honours, with their kind. */
const API_OPTIONS = { verbose: "boolean", logfile: "path", keepIndexUrl: "boolean", writePlayground: "boolean" };

/** Indexes not yet deleted, removed by close() or when the process exits. */
const live = new Set();
let exitHook = false;
/** `hipporag site --help` of each binary, read once (which Pagefind flags it has). */
const siteHelp = new Map();

const message = (e) => (e instanceof Error ? e.message : String(e));

/** Checks `value` is of `kind`; the flag's arguments for it. */
function flagArgs(name, flag, kind, value) {
  const bad = (want) => new Error(`${name}: expected ${want}, got ${JSON.stringify(value)}`);
  switch (kind) {
    case "boolean":
      if (typeof value !== "boolean") throw bad("true or false");
      return value ? [flag] : [];
    case "string":
      if (typeof value !== "string") throw bad("a string");
      return [flag, value];
    case "path":
      if (typeof value !== "string" || value === "") throw bad("a path");
      return [flag, resolve(value)];
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) throw bad("a number");
      return [flag, String(value)];
    case "strings":
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw bad("an array of strings");
      return value.flatMap((v) => [flag, v]);
  }
  throw new Error(`${name}: unknown kind ${kind}`);
}

/** The help of `hipporag site` of BIN (cached). */
async function helpOf(bin) {
  if (!siteHelp.has(bin)) {
    siteHelp.set(
      bin,
      run(bin, ["site", "--help"]).then((r) => r.stdout),
    );
  }
  return siteHelp.get(bin);
}

/**
 * The options of createIndex as `hipporag site` flags and the API's own settings; every
 * option that is unknown, malformed or not supported is an error naming it.
 */
async function readOptions(options, bin) {
  const errors = [];
  const flags = [];
  const settings = { verbose: false, logfile: undefined };
  if (options === undefined || options === null) return { errors, flags, settings };
  if (typeof options !== "object" || Array.isArray(options)) return { errors: ["createIndex: options must be an object"], flags, settings };
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null) continue;
    try {
      if (name in SITE_OPTIONS) {
        flags.push(...flagArgs(name, ...SITE_OPTIONS[name], value));
      } else if (name in PAGEFIND_FLAG_OPTIONS) {
        const [flag, kind] = PAGEFIND_FLAG_OPTIONS[name];
        const args = flagArgs(name, flag, kind, value);
        if (!(await helpOf(bin)).includes(flag)) {
          throw new Error(`${name}: not supported by this hipporag (its \`hipporag site\` has no ${flag})`);
        }
        flags.push(...args);
      } else if (name in API_OPTIONS) {
        flagArgs(name, "", API_OPTIONS[name], value);
        if (name === "keepIndexUrl" && value === false) {
          throw new Error(
            "keepIndexUrl: false is not supported: hipporag keeps index.html in its URLs (a page's URL is its file's path in the site)",
          );
        }
        if (name === "writePlayground" && value === true) throw new Error("writePlayground: not supported: hipporag has no playground");
        if (name === "verbose") settings.verbose = value;
        if (name === "logfile") settings.logfile = resolve(value);
      } else {
        throw new Error(`${name}: unknown option`);
      }
    } catch (e) {
      errors.push(`createIndex: ${message(e)}`);
    }
  }
  return { errors, flags, settings };
}

/**
 * This process's environment without the variables `hipporag site` reads as options
 * (`HIPPORAG_*` but HIPPORAG_MODEL_DIR, `PAGEFIND_*`): an index's options are createIndex's.
 */
function optionFreeEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(HIPPORAG|PAGEFIND)_/i.test(k) && k !== "HIPPORAG_MODEL_DIR") continue;
    env[k] = v;
  }
  return env;
}

/**
 * Runs BIN with ARGS in CWD (and ENV over the option-free environment); resolves to {code,
 * signal, stdout, stderr, error}.
 */
function run(bin, args, { cwd = tmpdir(), env: extra = {}, onChild } = {}) {
  return new Promise((done) => {
    const env = { ...binaryEnv(optionFreeEnv()), ...extra };
    let child;
    try {
      child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      done({ code: null, signal: null, stdout: "", stderr: "", error });
      return;
    }
    onChild?.(child);
    const out = [];
    const err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    let error;
    child.on("error", (e) => (error = e));
    child.on("close", (code, signal) =>
      done({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), error }),
    );
  });
}

/** The page path (below the site) a URL maps to, Pagefind's way: `/a/b/` → a/b/index.html. */
function pathOfUrl(url) {
  if (typeof url !== "string" || url === "") throw new Error("url: expected a path such as /about/ or /about.html");
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("//")) {
    throw new Error(`url ${url}: give the page's path in the site (/about/): hipporag records each page at its path, without an origin`);
  }
  let p = url.replace(/[?#][^]*$/, "");
  try {
    p = decodeURIComponent(p);
  } catch {
    throw new Error(`url ${url}: malformed percent-encoding`);
  }
  if (!p.startsWith("/")) p = `/${p}`;
  const last = p.slice(p.lastIndexOf("/") + 1);
  if (p.endsWith("/")) p += "index.html";
  else if (!last.includes(".")) p += "/index.html";
  else if (!/\.html?$/.test(last)) {
    throw new Error(
      `url ${url}: hipporag records a page at its file's path in the site, so its URL ends in /, .html or .htm (or has no extension: /about → about/index.html)`,
    );
  }
  return checkPagePath(p.slice(1), `url ${url}`);
}

/** A relative page path as `hipporag site` would read it, or throws naming WHAT. */
function checkPagePath(rel, what) {
  const parts = rel.split("/");
  if (rel.includes("\\") || rel.includes("\0")) throw new Error(`${what}: a page path may not hold \\ or NUL`);
  if (parts.some((s) => s === "" || s === "." || s === "..")) throw new Error(`${what}: not a path below the site (${rel})`);
  if (parts.slice(0, -1).some(SKIPPED_DIRS)) throw new Error(`${what}: ${rel} is inside a directory hipporag site skips`);
  if (!PAGE_NAME.test(rel)) throw new Error(`${what}: ${rel} is not a page name (*.html, *.htm or *.md)`);
  return rel;
}

/** The page path of a sourcePath: relative as given, absolute relative to the working directory. */
function pathOfSource(sourcePath) {
  if (typeof sourcePath !== "string" || sourcePath === "") throw new Error("sourcePath: expected a path such as about/index.html");
  let rel = sourcePath;
  if (isAbsolute(sourcePath)) {
    rel = relative(process.cwd(), sourcePath);
    if (rel.startsWith("..") || isAbsolute(rel))
      throw new Error(`sourcePath ${sourcePath}: not inside the working directory ${process.cwd()}`);
  }
  rel = rel
    .split(sep)
    .join("/")
    .replace(/^(\.\/)+/, "");
  return checkPagePath(rel, `sourcePath ${sourcePath}`);
}

/** The URL `hipporag site` gives the page at REL. */
const urlOfPath = (rel) => `/${rel.replace(/\.md$/, ".html")}`;

/** A glob (`**`, `*`, `?`, `{a,b}`, `[…]`) as a RegExp over `/`-separated relative paths. */
function globRegExp(glob) {
  let re = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      re += slash ? "(?:[^]*/)?" : "[^]*";
      i += slash ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "{") {
      braces++;
      re += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      re += ")";
    } else if (c === "," && braces > 0) re += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) throw new Error(`glob ${glob}: unclosed [`);
      let set = glob.slice(i + 1, end);
      if (set.startsWith("!")) set = `^${set.slice(1)}`;
      re += `[${set.replace(/\\/g, "\\\\")}]`;
      i = end;
    } else re += c.replace(/[.+^$()|\\\]]/g, "\\$&");
  }
  if (braces) throw new Error(`glob ${glob}: unclosed {`);
  return new RegExp(`^${re}$`);
}

/** Files below ROOT (relative, `/`-separated, sorted) and their real paths, skipping what `hipporag site` skips. */
async function walk(root) {
  const realRoot = await realpath(root);
  const out = [];
  const visit = async (dir, rel) => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS(e.name)) await visit(path, r);
      } else if (e.isFile()) out.push([r, path]);
      else if (e.isSymbolicLink()) {
        // As `hipporag site`: a link to a file inside the site is read; others are left out.
        const target = await realpath(path).catch(() => null);
        if (target && (target + sep).startsWith(realRoot + sep) && (await stat(target)).isFile()) out.push([r, target]);
      }
    }
  };
  await visit(root, "");
  return out;
}

/** Escapes TEXT for HTML text and attribute values. */
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** Checks a meta, filter or sort key: the inline capture `key:value` must read it back whole. */
function checkKey(kind, key) {
  if (key === "" || /[:,[\]]/.test(key) || key.trim() !== key) {
    throw new Error(`${kind} key ${JSON.stringify(key)}: a key may not be empty, hold ":", ",", "[" or "]", or start or end with a space`);
  }
  if (kind === "filters" && RESERVED_FILTER_KEYS.has(key))
    throw new Error(`filters key ${key}: reserved by the filter syntax (any, all, none, not)`);
}

/** The HTML page of a custom record (see the module comment). */
function customRecordHtml({ content, language, meta, filters, sort }) {
  if (typeof content !== "string") throw new Error("content: expected a string");
  if (typeof language !== "string" || !/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(language)) {
    throw new Error(`language: expected a language code such as en or pt-BR, got ${JSON.stringify(language)}`);
  }
  const object = (name, value) => {
    if (value === undefined || value === null) return {};
    if (typeof value !== "object" || Array.isArray(value)) throw new Error(`${name}: expected an object`);
    return value;
  };
  const tags = [];
  const capture = (attr, key, value) => tags.push(`<meta ${attr}="${escapeHtml(`${key}:${value}`)}">`);
  for (const [key, value] of Object.entries(object("meta", meta))) {
    checkKey("meta", key);
    if (typeof value !== "string") throw new Error(`meta ${key}: expected a string`);
    capture("data-pagefind-meta", key, value);
  }
  for (const [key, values] of Object.entries(object("filters", filters))) {
    checkKey("filters", key);
    if (!Array.isArray(values) || values.some((v) => typeof v !== "string"))
      throw new Error(`filters ${key}: expected an array of strings`);
    for (const v of values) capture("data-pagefind-filter", key, v);
  }
  for (const [key, value] of Object.entries(object("sort", sort))) {
    checkKey("sort", key);
    if (typeof value !== "string") throw new Error(`sort ${key}: expected a string (as Pagefind: "20", not 20)`);
    capture("data-pagefind-sort", key, value);
  }
  const title = typeof meta?.title === "string" ? `<title>${escapeHtml(meta.title)}</title>` : "";
  const paragraphs = content
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p)}</p>`);
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(language)}">`,
    `<head><meta charset="utf-8">${title}`,
    ...tags,
    "</head>",
    "<body><main>",
    ...paragraphs,
    "</main></body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * Creates an index that pages can be added to: a temporary site directory of its own.
 * Options: Pagefind's where they mean the same, and `hipporag site`'s flags by camelCase name
 * (index.d.mts lists them).
 */
export async function createIndex(options) {
  let bin;
  try {
    bin = binary();
    if (!existsSync(bin)) throw new Error(`${bin} does not exist${process.env.HIPPORAG_BINARY ? " (HIPPORAG_BINARY)" : ""}`);
  } catch (e) {
    return { errors: [`createIndex: ${message(e)}`] };
  }
  const { errors, flags, settings } = await readOptions(options, bin);
  if (errors.length) return { errors };
  try {
    if (settings.logfile) writeFileSync(settings.logfile, "");
    const dir = mkdtempSync(join(tmpdir(), "hipporag-index-"));
    const index = new SiteIndex(bin, dir, flags, settings);
    return { errors: [], index: index.api };
  } catch (e) {
    return { errors: [`createIndex: ${message(e)}`] };
  }
}

/** Deletes every index not yet deleted and stops the builds under way. */
export async function close() {
  await Promise.all([...live].map((i) => i.delete()));
  return null;
}

class SiteIndex {
  constructor(bin, dir, flags, settings) {
    this.bin = bin;
    this.dir = dir;
    this.flags = flags;
    this.settings = settings;
    /** Whether `_hipporag/` is the build of the pages as they are now. */
    this.built = false;
    this.deleted = false;
    this.queue = Promise.resolve();
    this.children = new Set();
    live.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", () => {
        for (const i of live) rmSync(i.dir, { recursive: true, force: true });
      });
    }
    const call = (name, empty, fn) => (arg) => this.call(name, empty, () => fn(arg));
    // Plain functions, as Pagefind's index object has: they may be passed around unbound.
    this.api = Object.freeze({
      addHTMLFile: call("addHTMLFile", { file: undefined }, (file) => this.addHTMLFile(file)),
      addCustomRecord: call("addCustomRecord", { file: undefined }, (record) => this.addCustomRecord(record)),
      addDirectory: call("addDirectory", { page_count: 0 }, (d) => this.addDirectory(d)),
      getFiles: call("getFiles", { files: [] }, () => this.getFiles()),
      writeFiles: call("writeFiles", { outputPath: undefined }, (o) => this.writeFiles(o)),
      deleteIndex: () => this.delete(),
    });
  }

  /** Runs FN after the calls before it; `{errors: [], …result}`, or `{errors, …empty}`. */
  call(name, empty, fn) {
    const p = this.queue.then(async () => {
      if (this.deleted) return { errors: [`${name}: this index was deleted`], ...empty };
      try {
        return { errors: [], ...(await fn()) };
      } catch (e) {
        return { errors: [`${name}: ${message(e)}`], ...empty };
      }
    });
    this.queue = p;
    return p;
  }

  async writePage(rel, content) {
    const path = join(this.dir, ...rel.split("/"));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    this.built = false;
  }

  async addHTMLFile(file) {
    if (!file || typeof file !== "object") throw new Error("expected {url, content} or {sourcePath, content}");
    const { url, sourcePath, content } = file;
    if (typeof content !== "string" && !(content instanceof Uint8Array)) throw new Error("content: expected the page's HTML as a string");
    if (url !== undefined && sourcePath !== undefined) throw new Error("give url or sourcePath, not both");
    if (url === undefined && sourcePath === undefined) throw new Error("url or sourcePath is required");
    const rel = url !== undefined ? pathOfUrl(url) : pathOfSource(sourcePath);
    await this.writePage(rel, content);
    return { file: { url: urlOfPath(rel), sourcePath: rel } };
  }

  async addCustomRecord(record) {
    if (!record || typeof record !== "object") throw new Error("expected {url, content, language, meta?, filters?, sort?}");
    if (record.url === undefined) throw new Error("url is required");
    const rel = pathOfUrl(record.url);
    if (rel.endsWith(".md")) throw new Error(`url ${record.url}: a custom record is HTML`);
    await this.writePage(rel, customRecordHtml(record));
    return { file: { url: urlOfPath(rel), sourcePath: rel, meta: { ...(record.meta ?? {}) } } };
  }

  async addDirectory(d) {
    if (!d || typeof d !== "object" || typeof d.path !== "string" || d.path === "") throw new Error("expected {path, glob?}");
    if (d.glob !== undefined && typeof d.glob !== "string") throw new Error("glob: expected a string");
    const root = resolve(d.path);
    if (!(await stat(root).catch(() => null))?.isDirectory()) throw new Error(`${root} is not a directory`);
    const glob = globRegExp(d.glob ?? DEFAULT_GLOB);
    let pageCount = 0;
    for (const [rel, path] of await walk(root)) {
      if (!glob.test(rel) || !PAGE_NAME.test(rel)) continue;
      const to = join(this.dir, ...rel.split("/"));
      await mkdir(dirname(to), { recursive: true });
      await copyFile(path, to);
      pageCount++;
    }
    if (pageCount) this.built = false;
    return { page_count: pageCount };
  }

  /** `hipporag site` on the pages, unless `_hipporag/` is already their build. */
  async build() {
    if (this.built) return;
    // The build's log: warnings, or with `verbose` its progress too (RUST_LOG, when set, wins).
    const env = process.env.RUST_LOG ? {} : { RUST_LOG: this.settings.verbose ? "info" : "warn" };
    const verbose = this.settings.verbose && (await helpOf(this.bin)).includes("--verbose") ? ["--verbose"] : [];
    // In the index's directory, which holds no config file (hipporag.toml, pagefind.yml, …).
    const r = await run(this.bin, ["site", this.dir, "--json", ...verbose, ...this.flags], {
      cwd: this.dir,
      env,
      onChild: (c) => {
        this.children.add(c);
        c.on("close", () => this.children.delete(c));
      },
    });
    if (this.settings.logfile) appendFileSync(this.settings.logfile, r.stderr);
    else if (this.settings.verbose) process.stderr.write(r.stderr);
    if (this.deleted) throw new Error("this index was deleted");
    if (r.error) throw new Error(`${this.bin}: ${r.error.message}`);
    if (r.code !== 0) {
      const log = r.stderr.trim().split("\n").slice(-20).join("\n");
      throw new Error(`hipporag site failed (${r.signal ?? `exit ${r.code}`}):\n${log}`);
    }
    this.report = JSON.parse(r.stdout);
    this.built = true;
  }

  async getFiles() {
    await this.build();
    const out = join(this.dir, OUTPUT_DIR);
    const files = [];
    for (const [rel, path] of await walk(out)) {
      const b = await readFile(path);
      files.push({ path: rel, content: new Uint8Array(b.buffer, b.byteOffset, b.byteLength) });
    }
    return { files };
  }

  async writeFiles(options) {
    if (options !== undefined && (typeof options !== "object" || options === null)) throw new Error("expected {outputPath}");
    const outputPath = resolve(options?.outputPath ?? OUTPUT_DIR);
    const existing = await stat(outputPath).catch(() => null);
    if (existing) {
      if (!existing.isDirectory()) throw new Error(`${outputPath} exists and is not a directory`);
      const names = await readdir(outputPath);
      if (names.length && !names.includes(ENTRY_FILE)) {
        throw new Error(`${outputPath} is not empty and holds no ${ENTRY_FILE}: not a hipporag bundle, left as it is`);
      }
    }
    await this.build();
    // Copied aside, then renamed over the old bundle, as `hipporag site` writes its own.
    const parent = dirname(outputPath);
    await mkdir(parent, { recursive: true });
    const stamp = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const fresh = join(parent, `.hipporag-tmp-${basename(outputPath)}-${stamp}`);
    const old = `${fresh}-old`;
    try {
      await cp(join(this.dir, OUTPUT_DIR), fresh, { recursive: true });
      if (existing) await rename(outputPath, old);
      await rename(fresh, outputPath);
    } finally {
      await rm(fresh, { recursive: true, force: true });
      await rm(old, { recursive: true, force: true });
    }
    return { outputPath };
  }

  /** Deletes the index's directory; later calls return an error. Resolves to null. */
  async delete() {
    if (this.deleted) return null;
    this.deleted = true;
    live.delete(this);
    for (const c of this.children) c.kill();
    await this.queue.catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
    return null;
  }
}
