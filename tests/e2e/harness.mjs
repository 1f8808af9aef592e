// Shared set-up for the browser tests: the built site (out/www/), a static server on
// 127.0.0.1 (the same command as `./build.sh serve`), Debian's chromium driven by
// playwright-core, the real MuSiQue data and copies of Python 3.11's HTML docs.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const site = process.env.HIPPORAG_SITE ?? join(root, "out", "www");
export const data = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
export const outDir = join(root, "tests", "e2e", "out");
mkdirSync(outDir, { recursive: true });

/** The flags from DEVELOPERS.md / the project brief. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Starts `python3 -m http.server --bind 127.0.0.1 0` on the site; resolves to {origin, stop}. */
export function serve(dir = site) {
  if (!existsSync(join(dir, "index.html"))) throw new Error(`${dir}/index.html is missing: run ./build.sh site first`);
  const proc = spawn("python3", ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let buf = "";
    const timer = setTimeout(() => reject(new Error(`http.server did not start: ${buf}`)), 15000);
    proc.on("error", reject);
    proc.on("exit", (code) => reject(new Error(`http.server exited with ${code}: ${buf}`)));
    proc.stdout.on("data", (d) => {
      buf += d;
      const m = /port (\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        proc.removeAllListeners("exit");
        resolve({ origin: `http://127.0.0.1:${m[1]}`, stop: () => proc.kill() });
      }
    });
    proc.stderr.on("data", () => {}); // the access log; drained so the server never blocks
  });
}

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS });
}

/**
 * Copies Python 3.11's HTML docs (Debian's python3.11-doc, or $PYTHON_DOCS) to `dir`, emptied
 * first: all of them, or only `pages` (paths below the docs' root).
 */
export function copyPythonDocs(dir, pages) {
  const docs = process.env.PYTHON_DOCS ?? "/usr/share/doc/python3.11/html";
  if (!existsSync(docs)) throw new Error(`${docs} is missing: apt-get install python3.11-doc`);
  rmSync(dir, { recursive: true, force: true });
  if (!pages) {
    cpSync(docs, dir, { recursive: true, dereference: true });
    return;
  }
  for (const p of pages) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    cpSync(join(docs, p), join(dir, p), { dereference: true });
  }
}

export const questions = () => JSON.parse(readFileSync(join(data, "musique_train", "musique_train.json"), "utf8"));
export const corpus = () => JSON.parse(readFileSync(join(data, "musique_train", "musique_train_corpus.json"), "utf8"));

/** Gold passage ids of a MuSiQue question: corpus positions matching (title, text), never title alone. */
export function goldIds(q, passages) {
  const key = (t, x) => `${t}\u0000${x}`;
  const ids = new Map();
  passages.forEach((p, i) => ids.set(key(p.title, p.text), [...(ids.get(key(p.title, p.text)) ?? []), i]));
  return q.paragraphs.filter((p) => p.is_supporting).map((p) => ids.get(key(p.title, p.paragraph_text)) ?? []);
}

/** Adler-32 (RFC 1950), as the index prefix stores it. */
export function adler32(bytes) {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i += 5552) {
    for (const x of bytes.subarray(i, i + 5552)) {
      a += x;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

export const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const quantile = (a, q) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(q * a.length))];

/**
 * Registers a test file's hooks: before its tests, `prepare()` (if given) runs, then `dir`
 * (default: the built site) is served on 127.0.0.1 and Chromium launched; after them both stop.
 * Returns `{server, browser}`, filled in once the hooks have run.
 */
export function servedSite({ dir = site, prepare } = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    if (prepare) await prepare();
    env.server = await serve(dir);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}
