// The Astro integration (`hipporag/astro`) on a real Starlight site, built as a site owner
// builds one: a fresh Astro project in out/starlight-site/ whose package.json pins `astro` and
// `@astrojs/starlight` (the newest releases that run on Node 20: astro 6 and later need Node
// 22) and takes `hipporag` as a `file:` dependency on packaging/npm/hipporag, installed with
// `npm install` (once: node_modules/ is kept while package.json is unchanged). Starlight's
// Pagefind is off (`pagefind: false`), its `Search` component is the package's Search.astro,
// and the site has a `base` (/docs), which the script's path and the result URLs must follow.
//
// The pages: real Markdown documentation nobody here wrote, Black's (the Python formatter), 26
// pages from its sdist (`pip download --no-binary :all: --no-deps black==24.10.0`), each given
// Starlight's `title:` frontmatter from its first heading. (MkDocs' sdists, 1.4 to 1.6.1, carry
// no docs/ at all; Black's carries its whole Markdown docs.) A page the build rejects is
// dropped and the build run again.
//
// `npx astro build` runs the integration at `astro:build:done` (`hipporag site dist/`, the
// binary from HIPPORAG_BINARY=target/release/hipporag). Then dist/ is served below /docs/ and
// three questions are typed into the header's search (the modal the override renders) in
// headless Chromium: each must find its page among the first three results. Screenshot:
// tests/e2e/out/plugin_starlight.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { outDir, root, servedSite } from "./harness.mjs";

const ASTRO = "5.18.2";
const STARLIGHT = "0.37.7";
const BLACK = "24.10.0";
const BASE = "/docs";
const project = join(root, "out", "starlight-site");
const served = join(project, "served");
const QUESTIONS = [
  { q: "how do I make black and isort agree on how imports are formatted", page: "guides/using_black_with_other_tools/" },
  { q: "how do I run black as a pre-commit hook in my git repository", page: "integrations/source_version_control/" },
  { q: "how do I set up black in vim or PyCharm", page: "integrations/editors/" },
];
const timings = {};
const time = (name, f) => {
  const t = performance.now();
  const r = f();
  timings[name] = Math.round(performance.now() - t);
  return r;
};

const PACKAGE_JSON = `${JSON.stringify(
  {
    name: "hipporag-starlight-test",
    private: true,
    type: "module",
    dependencies: {
      "@astrojs/starlight": STARLIGHT,
      astro: ASTRO,
      hipporag: `file:${relative(project, join(root, "packaging", "npm", "hipporag"))}`,
    },
  },
  null,
  2,
)}\n`;

const ASTRO_CONFIG = `import { defineConfig } from "astro/config";
import starlight from "@astrojs/starlight";
import hipporag from "hipporag/astro";

export default defineConfig({
  base: ${JSON.stringify(BASE)},
  telemetry: false,
  integrations: [
    starlight({
      title: "Black",
      pagefind: false,
      components: { Search: "hipporag/astro/Search.astro" },
    }),
    hipporag(),
  ],
});
`;

const CONTENT_CONFIG = `import { defineCollection } from "astro:content";
import { docsLoader } from "@astrojs/starlight/loaders";
import { docsSchema } from "@astrojs/starlight/schema";

export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`;

/** Installs the project's packages unless node_modules/ was installed from this package.json. */
function install() {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "package.json"), PACKAGE_JSON);
  const stamp = join(project, "node_modules", ".hipporag-test-package.json");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === PACKAGE_JSON) return;
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, stdio: "inherit" });
  writeFileSync(stamp, PACKAGE_JSON);
}

/** Black's docs/ from its sdist (downloaded once into the project's .sdist/). */
function blackDocs() {
  const sdist = join(project, ".sdist");
  const docs = join(sdist, `black-${BLACK}`, "docs");
  if (existsSync(docs)) return docs;
  mkdirSync(sdist, { recursive: true });
  execFileSync("pip", ["download", "--no-binary", ":all:", "--no-deps", `black==${BLACK}`, "-d", sdist, "-q"], { stdio: "inherit" });
  execFileSync("tar", ["xzf", `black-${BLACK}.tar.gz`], { cwd: sdist });
  return docs;
}

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

/** Copies each .md page of DOCS into src/content/docs/ with a `title:` from its first heading. */
function writePages(docs) {
  const dest = join(project, "src", "content", "docs");
  rmSync(dest, { recursive: true, force: true });
  const pages = [];
  for (const file of walk(docs).filter((f) => f.endsWith(".md"))) {
    const rel = relative(docs, file);
    let text = readFileSync(file, "utf8");
    const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(text);
    const title = heading
      ? heading[1]
          .replace(/[*_`]/g, "")
          .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
          .trim()
      : rel.replace(/\.md$/, "").replace(/[_/]/g, " ");
    // Starlight renders the title as the page's <h1>: the heading it came from goes.
    if (heading) text = text.slice(0, heading.index) + text.slice(heading.index + heading[0].length);
    mkdirSync(dirname(join(dest, rel)), { recursive: true });
    writeFileSync(join(dest, rel), `---\ntitle: ${JSON.stringify(title)}\n---\n${text}`);
    pages.push(rel);
  }
  return pages;
}

/** `npx astro build`; a page the build names in its error is dropped and the build rerun. */
function build() {
  const env = {
    ...process.env,
    HIPPORAG_BINARY: join(root, "target", "release", "hipporag"),
    ASTRO_TELEMETRY_DISABLED: "1",
    RUST_LOG: "warn",
  };
  const dropped = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = spawnSync("npx", ["astro", "build"], { cwd: project, env, encoding: "utf8", maxBuffer: 1 << 26 });
    const out = `${r.stdout}\n${r.stderr}`;
    if (r.status === 0) return { out, dropped };
    const bad = /src\/content\/docs\/([^\s:"'`)]+\.md)/.exec(out);
    if (!bad || dropped.includes(bad[1])) throw new Error(`astro build failed:\n${out.slice(-4000)}`);
    console.log(`plugin_starlight: dropping ${bad[1]}, which the build rejects`);
    rmSync(join(project, "src", "content", "docs", bad[1]));
    dropped.push(bad[1]);
  }
  throw new Error(`astro build still failing after dropping ${dropped}`);
}

// `./build.sh test` runs this file once with HIPPORAG_E2E_PREFETCH=1 while it compiles: the
// downloads only (npm's packages, Black's sdist), then the test finds them in place.
if (process.env.HIPPORAG_E2E_PREFETCH) {
  install();
  blackDocs();
  process.exit(0);
}

let built;
const env = servedSite({
  dir: served,
  prepare: () => {
    time("installMs", install);
    const docs = time("sdistMs", blackDocs);
    const pages = writePages(docs);
    writeFileSync(join(project, "astro.config.mjs"), ASTRO_CONFIG);
    writeFileSync(join(project, "src", "content.config.ts"), CONTENT_CONFIG);
    rmSync(join(project, "dist"), { recursive: true, force: true });
    built = { pages, ...time("buildMs", build) };
    // dist/ below /docs/, the site's base; a root page for the harness's check.
    rmSync(served, { recursive: true, force: true });
    mkdirSync(served);
    symlinkSync(join(project, "dist"), join(served, BASE.slice(1)));
    writeFileSync(join(served, "index.html"), `<!doctype html><a href="${BASE}/">docs</a>\n`);
  },
});

test("Starlight: astro build runs hipporag site through the integration", () => {
  console.log(`plugin_starlight: ${built.pages.length} pages, dropped ${JSON.stringify(built.dropped)}`);
  assert.ok(built.pages.length >= 20, `pages: ${built.pages.length}`);
  assert.match(built.out, /hipporag site /, "the integration ran hipporag site");
  const ix = join(project, "dist", "_hipporag");
  assert.ok(existsSync(join(ix, "hipporag-ui.js")) && existsSync(join(ix, "hipporag-entry.json")), "dist/_hipporag/ written");
  assert.ok(!existsSync(join(project, "dist", "pagefind")), "no Pagefind index (pagefind: false)");
  const html = readFileSync(join(project, "dist", "integrations", "editors", "index.html"), "utf8");
  assert.match(html, /data-hipporag-search="modal"/, "the Search override is in the page");
  assert.ok(html.includes(`src="${BASE}/_hipporag/hipporag-ui.js"`), "the script under the site's base");
  assert.match(html, /data-pagefind-body/, "Starlight still marks the content");
});

test("Starlight: three questions typed into the header's search find their page", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1300, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${env.server.origin}${BASE}/getting_started/`);
  const trigger = page.locator("header button.hipporag-trigger").first();
  await trigger.waitFor({ timeout: 30000 });
  const dialog = page.locator("dialog.hipporag-dialog");
  const ranks = [];
  let searches = 0;
  for (const { q, page: want } of QUESTIONS) {
    if (!(await dialog.evaluate((d) => d.open).catch(() => false))) await trigger.click();
    const input = dialog.locator("input.hipporag-input");
    await input.fill("");
    const t = performance.now();
    await input.pressSequentially(q);
    await page.waitForSelector(`dialog.hipporag-dialog .hipporag[data-searches="${++searches}"]`, { timeout: 120000 });
    const ms = Math.round(performance.now() - t); // typing included
    // A search may still be under way for a shorter prefix: wait until none has ended for 1 s.
    for (let quiet = 0; quiet < 1000;) {
      await page.waitForTimeout(250);
      const n = Number(await dialog.locator(".hipporag").getAttribute("data-searches"));
      quiet = n === searches ? quiet + 250 : 0;
      searches = n;
    }
    const urls = await dialog.locator("li.hipporag-result").evaluateAll((els) => els.map((e) => e.dataset.url));
    const pagesOf = [...new Set(urls.map((u) => new URL(u, env.server.origin).pathname.replace(/index\.html$/, "")))];
    const rank = pagesOf.indexOf(`${BASE}/${want}`) + 1;
    ranks.push({ q, want, rank, ms, top: pagesOf.slice(0, 3) });
    assert.ok(rank >= 1 && rank <= 3, `"${q}": ${want} among the first three pages of ${JSON.stringify(pagesOf)}`);
  }
  await page.screenshot({ path: join(outDir, "plugin_starlight.png") });
  // The first result is followed, under the base.
  const first = dialog.locator("li.hipporag-result a").first();
  const href = await first.getAttribute("href");
  assert.ok(href.startsWith(`${BASE}/`), `result links under ${BASE}/: ${href}`);
  await Promise.all([page.waitForURL((u) => u.pathname.startsWith(`${BASE}/`)), first.click()]);
  assert.equal((await page.title()).includes("404"), false, "the result's page exists");
  assert.deepEqual(errors, []);
  console.log(`plugin_starlight: ${JSON.stringify({ ranks, timings })}`);
  writeFileSync(join(outDir, "plugin_starlight.json"), `${JSON.stringify({ ranks, timings, dropped: built.dropped }, null, 2)}\n`);
  await context.close();
});
