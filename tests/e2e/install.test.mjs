// The packages of dist/ (`./build.sh package`) installed as a site owner installs them, on a
// real site: in an empty directory, with no Rust toolchain on PATH, no HOME caches and no
// network (every step runs in a new network namespace, `unshare -n`, where it can). npm: the
// three tarballs, then `npx hipporag site` on Python's docs (Debian's python3.11-doc). PyPI: a
// venv, `pip install --no-index --find-links dist hipporag`, then `hipporag site` on a copy of
// the docs' tutorial (the wheel's binary is npm's, byte for byte, so a second build of the
// whole docs would repeat the first). Each package's API (npm: `import * as hipporag from
// "hipporag"`; PyPI: `from hipporag.index import IndexAsync`) indexes two pages given from memory
// into the same bytes as `npx hipporag site` on them. The npm build's site then answers CoNaLa
// questions in headless Chromium: typed in the default UI, the gold page among the results; over
// the test split, page hit@10 near the figure README gives.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { data, launch, root, serve } from "./harness.mjs";

const DOCS = process.env.PYTHON_DOCS ?? "/usr/share/doc/python3.11/html";
const EXCLUDE = ["genindex*.html", "contents.html", "py-modindex.html"].flatMap((g) => ["--exclude", g]);
const dist = join(root, "dist");
const version = /^version = "(.*)"/m.exec(readFileSync(join(root, "cli", "Cargo.toml"), "utf8"))[1];
// CoNaLa questions typed in the UI (source_id): three of the test split whose gold page the
// installed build ranked first, on three different pages.
const TYPED = ["4302027-39", "89228-44", "5137497-66"];
const tmp = mkdtempSync(join(tmpdir(), "hipporag-install-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

// The site owner's machine: PATH without Rust (rustup's ~/.cargo/bin), an empty HOME, and
// nothing else of this environment (HIPPORAG_MODEL_DIR, CARGO_HOME, npm's and pip's settings).
const PATH = process.env.PATH.split(":")
  .filter((p) => !/\.cargo|rustup/.test(p))
  .join(":");
const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
const env = {
  PATH,
  HOME: join(tmp, "home"),
  LANG: "C.UTF-8",
  RUST_LOG: "warn",
  // Were a request made, it would fail at once rather than wait.
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_cache: join(tmp, "npm-cache"),
  npm_config_update_notifier: "false",
  PIP_CONFIG_FILE: "/dev/null",
};
mkdirSync(env.HOME);
const unshare = spawnSync("unshare", ["-n", "true"]).status === 0 ? ["unshare", "-n", "--"] : [];
if (!unshare.length) console.log("install test: unshare -n is not permitted here; npm and pip are kept offline by their flags alone");

/** Runs CMD in the site owner's empty directory, environment and (where it can) no network. */
function run(cmd, args, extraEnv = {}) {
  const [file, ...pre] = [...unshare, cmd];
  return execFileSync(file, [...pre, ...args], {
    cwd: tmp,
    env: { ...env, ...extraEnv },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 1 << 26,
  });
}

/**
 * `hipporag site` of a fresh copy of SOURCE (Python's docs) at DIR, with the command given,
 * expecting at least MIN_WORDS static words; its report.
 */
function buildSite(dir, cmd, pre, extraEnv, source = DOCS, minWords = 10000) {
  cpSync(source, join(tmp, dir), { recursive: true, dereference: true });
  const t = performance.now();
  const report = JSON.parse(run(cmd, [...pre, "site", dir, "--json", ...EXCLUDE], extraEnv));
  console.log(`${cmd} ${pre.join(" ")} hipporag site: ${((performance.now() - t) / 1000).toFixed(1)} s, ${report.pages} pages`);
  // The browser files come from the binary; the static word embeddings from the model package.
  assert.equal(report.pkg, "embedded");
  assert.ok(report.staticWords > minWords, `static word embeddings: ${report.staticWords} words`);
  return report;
}

/** SHA-256 of every file below DIR, by relative path. */
function hashes(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

// The model packages' version: the one the wheel depends on.
const modelVersion = /"hipporag-all-minilm-l6-v2==(.*)"/.exec(readFileSync(join(root, "cli", "pyproject.toml"), "utf8"))[1];
const tarballs = [`hipporag-${version}.tgz`, `hipporag-linux-x64-${version}.tgz`, `hipporag-all-minilm-l6-v2-${modelVersion}.tgz`];

test("the site owner's environment has no Rust toolchain", () => {
  assert.ok(existsSync(dist), `${dist} is missing: run ./build.sh package`);
  for (const tool of ["cargo", "rustc", "rustup"]) {
    assert.notEqual(spawnSync("sh", ["-c", `command -v ${tool}`], { env }).status, 0, `${tool} is on PATH`);
  }
  for (const f of tarballs) assert.ok(existsSync(join(dist, f)), `${f} is not in ${dist}: run ./build.sh package`);
});

test("npm install of the tarballs, then npx hipporag site on Python's docs", () => {
  const t = performance.now();
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", ...tarballs.map((f) => join(dist, f))]);
  console.log(`npm install: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const bin = join(tmp, "node_modules", "@hipporag", "linux-x64", "bin", "hipporag");
  assert.ok(statSync(bin).mode & 0o111, `${bin} is executable`);
  // Static: file(1) says so, whatever the libc of this machine.
  assert.match(execFileSync("file", ["-L", bin], { encoding: "utf8" }), /statically linked|static-pie linked/);
  assert.match(run("npx", ["hipporag", "--version"]), new RegExp(`hipporag ${version.replaceAll(".", "\\.")}`));
  buildSite("site-npm", "npx", ["hipporag"]);
});

test("pip install of the wheel into a venv (npm's binary, byte for byte), then hipporag site", () => {
  run(python, ["-m", "venv", "venv"]);
  const t = performance.now();
  run(join(tmp, "venv", "bin", "pip"), [
    "install",
    "--quiet",
    "--disable-pip-version-check",
    "--no-index",
    "--find-links",
    dist,
    "hipporag",
  ]);
  console.log(`pip install: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const sha = (f) => createHash("sha256").update(readFileSync(f)).digest("hex");
  const npmBin = join(tmp, "node_modules", "@hipporag", "linux-x64", "bin", "hipporag");
  assert.equal(sha(join(tmp, "venv", "bin", "hipporag")), sha(npmBin));
  // The venv activated: its bin/ first on PATH.
  const venv = { PATH: `${join(tmp, "venv", "bin")}:${PATH}`, VIRTUAL_ENV: join(tmp, "venv") };
  const report = buildSite("site-pip", "hipporag", [], venv, join(DOCS, "tutorial"), 1000);
  assert.ok(report.pages >= 15, `${report.pages} pages of the tutorial`);
  const files = Object.keys(hashes(join(tmp, "site-pip", "_hipporag")));
  assert.ok(
    files.some((f) => f.endsWith(".bin")),
    `pieces among ${files.length} files in _hipporag/`,
  );
});

test("the installed packages' Node API and Python API index two pages as `hipporag site` does", () => {
  // Two pages of the tutorial, given as a generator would: by URL, from memory.
  const two = ["appetite.html", "interpreter.html"];
  writeFileSync(
    join(tmp, "two-pages.json"),
    JSON.stringify(two.map((p) => [`/tutorial/${p}`, readFileSync(join(DOCS, "tutorial", p), "utf8")])),
  );
  for (const p of two) cpSync(join(DOCS, "tutorial", p), join(tmp, "two-site", "tutorial", p), { dereference: true });
  run("npx", ["hipporag", "site", "two-site", "--json"]);
  // Node: `import * as hipporag from "hipporag"` resolved from the project's node_modules/.
  run(process.execPath, [
    "--input-type=module",
    "-e",
    `import * as hipporag from "hipporag";
import { readFileSync } from "node:fs";
const { errors, index } = await hipporag.createIndex();
if (errors.length) throw new Error(errors.join("\\n"));
for (const [url, content] of JSON.parse(readFileSync("two-pages.json", "utf8"))) {
  const r = await index.addHTMLFile({ url, content });
  if (r.errors.length) throw new Error(r.errors.join("\\n"));
}
const w = await index.writeFiles({ outputPath: "api-npm/_hipporag" });
if (w.errors.length) throw new Error(w.errors.join("\\n"));
await hipporag.close();`,
  ]);
  // Python: the venv's interpreter, the wheel's package and binary.
  run(join(tmp, "venv", "bin", "python"), [
    "-c",
    `import asyncio, json
from hipporag.index import IndexAsync
async def main():
    async with IndexAsync({"output_path": "api-pip/_hipporag"}) as index:
        for url, content in json.load(open("two-pages.json", encoding="utf-8")):
            await index.add_html_file(url=url, content=content)
asyncio.run(main())`,
  ]);
  const cli = hashes(join(tmp, "two-site", "_hipporag"));
  const entry = JSON.parse(readFileSync(join(tmp, "api-npm", "_hipporag", "hipporag-entry.json"), "utf8"));
  assert.ok(entry.counts.passages >= 2, JSON.stringify(entry.counts));
  assert.deepEqual(hashes(join(tmp, "api-npm", "_hipporag")), cli, "the Node API's bundle differs from hipporag site's");
  assert.deepEqual(hashes(join(tmp, "api-pip", "_hipporag")), cli, "the Python API's bundle differs from hipporag site's");
});

test("the installed build's site answers CoNaLa questions in Chromium", async () => {
  const dir = join(tmp, "site-npm");
  const page = join(dir, "index.html");
  writeFileSync(
    page,
    readFileSync(page, "utf8").replace(
      "</body>",
      '<div id="hipporag-search"></div><script type="module" src="/_hipporag/hipporag-ui.js"></script></body>',
    ),
  );
  const server = await serve(dir);
  const browser = await launch();
  try {
    const questions = JSON.parse(readFileSync(join(data, "pydocs", "conala_pydocs.json"), "utf8"));
    const tab = await browser.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    await tab.goto(`${server.origin}/index.html`);
    // Typed in the default UI: the gold page among the results.
    const input = tab.locator("#hipporag-search input");
    for (const [i, id] of TYPED.entries()) {
      const q = questions.find((x) => x.source_id === id);
      await input.fill(q.q);
      await tab.waitForSelector(`#hipporag-search[data-searches="${i + 1}"]`, { timeout: 120000 });
      const urls = await tab.locator("#hipporag-search li.hipporag-result").evaluateAll((els) => els.map((e) => e.dataset.url));
      const pages = urls.map((u) => u.split("#")[0].replace(/^\//, ""));
      assert.ok(
        q.gold_pages.some((p) => pages.includes(p)),
        `${JSON.stringify(q.q)}: none of ${q.gold_pages} in ${pages}`,
      );
    }
    // Every test-split question through the JS API: page hit@10.
    const test = questions.filter((q) => q.split === "test");
    const ranked = await tab.evaluate(
      async (qs) => {
        const h = await import("/_hipporag/hipporag-site.js");
        const out = [];
        for (const q of qs) {
          const { results } = await h.search(q, { topK: 10 });
          const data = await Promise.all(results.map((r) => r.data()));
          out.push(data.map((d) => d.url.split("#")[0].replace(/^\//, "")));
        }
        return out;
      },
      test.map((q) => q.q),
    );
    const hit10 = ranked.filter((pages, i) => test[i].gold_pages.some((p) => pages.includes(p))).length / test.length;
    console.log(`installed build, CoNaLa test (${test.length} questions): page hit@10 ${hit10.toFixed(3)}`);
    assert.ok(hit10 >= 0.7, `page hit@10 ${hit10}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.stop();
  }
});
