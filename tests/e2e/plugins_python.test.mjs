// The wheel's plugins on real sites built by their generator (docs/plugins.md): the Sphinx
// extension `hipporag.sphinx` on Sphinx's own documentation and the MkDocs plugin `hipporag` on
// a real MkDocs site built with mkdocs-material, each searched in headless Chromium through the
// search box the plugin put into the theme.
//
// It installs what it needs itself: a venv in out/plugins-venv/ with the generators pinned
// below, from the registry as their users install them, and the sdists the sites come from
// (out/plugins-src/); once fetched, everything runs offline. The plugins are the source tree's
// (PYTHONPATH=cli/python, HIPPORAG_BINARY=target/release/hipporag: the package's binary finder
// honours it), and the venv gets a `hipporag` dist-info whose entry points are
// cli/pyproject.toml's, so `plugins: [hipporag]` finds the plugin as it does in the wheel.
//
// MkDocs' own sdists (1.3 … 1.6) hold only its package, not its docs/: the MkDocs site is
// PyMdown Extensions' documentation (its sdist's docs/src/markdown/, 56 pages written for
// mkdocs-material), with a minimal mkdocs.yml: `theme: material`, `plugins: [hipporag]`.
// Sphinx's docs are built with their own conf.py, run by a wrapper that adds the extension (and
// drops the intersphinx inventories, which would need the network).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch, outDir, root, serve } from "./harness.mjs";

const PINS = { sphinx: "9.0.4", mkdocs: "1.6.1", "mkdocs-material": "9.8.2", "pymdown-extensions": "13.1.2" };
const venv = join(root, "out", "plugins-venv");
const bin = (name) => join(venv, "bin", name);
const src = join(root, "out", "plugins-src");
const sphinxOut = join(root, "out", "plugins-sphinx");
const mkdocsOut = join(root, "out", "plugins-mkdocs");
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(HIPPORAG|PAGEFIND)_/i.test(k) || k === "HIPPORAG_MODEL_DIR")),
  PYTHONPATH: join(root, "cli", "python"),
  HIPPORAG_BINARY: join(root, "target", "release", "hipporag"),
  NO_MKDOCS_2_WARNING: "1",
  RUST_LOG: "warn",
};
const run = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, ...opts });
const timings = {};
const timed = (name, f) => {
  const t = performance.now();
  const r = f();
  timings[name] = Math.round(performance.now() - t);
  return r;
};

/** The venv with the pinned generators, and the `hipporag` dist-info carrying pyproject's entry points. */
function installVenv() {
  if (!existsSync(bin("python"))) run("python3", ["-m", "venv", venv]);
  run(bin("pip"), ["install", "-q", "--disable-pip-version-check", ...Object.entries(PINS).map(([p, v]) => `${p}==${v}`)]);
  const site = run(bin("python"), ["-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).trim();
  const info = join(site, "hipporag-0.0.0.dev0.dist-info");
  mkdirSync(info, { recursive: true });
  writeFileSync(join(info, "METADATA"), "Metadata-Version: 2.1\nName: hipporag\nVersion: 0.0.0.dev0\n");
  // cli/pyproject.toml's [project.entry-points], as the wheel's entry_points.txt holds them.
  const entryPoints = run(bin("python"), [
    "-c",
    `import sys, tomllib
eps = tomllib.load(open(sys.argv[1], "rb"))["project"]["entry-points"]
print("".join(f"[{g}]\\n" + "".join(f"{k} = {v}\\n" for k, v in e.items()) + "\\n" for g, e in eps.items()), end="")`,
    join(root, "cli", "pyproject.toml"),
  ]);
  assert.match(entryPoints, /\[mkdocs\.plugins\]\nhipporag = hipporag\.mkdocs:HipporagPlugin/);
  writeFileSync(join(info, "entry_points.txt"), entryPoints);
}

/** The sdist of `pkg==version`, unpacked in out/plugins-src/ (downloaded once). */
function sdist(pkg, version, dirName) {
  const dir = join(src, dirName);
  if (existsSync(dir)) return dir;
  mkdirSync(src, { recursive: true });
  run(bin("pip"), ["download", "-q", "--disable-pip-version-check", "--no-binary", ":all:", "--no-deps", "-d", src, `${pkg}==${version}`]);
  const archive = readdirSync(src).find((f) => f.startsWith(dirName) && f.endsWith(".tar.gz"));
  assert.ok(archive, `${pkg} ${version}: no sdist in ${src}`);
  run("tar", ["xzf", join(src, archive), "-C", src]);
  return dir;
}

function buildSphinx() {
  const doc = join(sdist("sphinx", PINS.sphinx, `sphinx-${PINS.sphinx}`), "doc");
  if (!existsSync(join(doc, "conf_orig.py"))) renameSync(join(doc, "conf.py"), join(doc, "conf_orig.py"));
  writeFileSync(
    join(doc, "conf.py"),
    `# The test's wrapper: Sphinx's own conf.py, then hipporag's extension; no intersphinx
# inventories (the build is offline).
import os
exec(compile(open(os.path.join(os.path.dirname(__file__), "conf_orig.py")).read(), "conf_orig.py", "exec"))
extensions.append("hipporag.sphinx")
intersphinx_mapping = {}
`,
  );
  rmSync(sphinxOut, { recursive: true, force: true });
  // -j 2: the extension says it is parallel-safe. Sphinx's own docs warn (nitpicky, no graphviz).
  timed("sphinxBuildMs", () => run(bin("sphinx-build"), ["-q", "-j", "2", "-b", "html", doc, sphinxOut]));
}

function buildMkdocs() {
  const pkg = sdist("pymdown-extensions", PINS["pymdown-extensions"], `pymdown_extensions-${PINS["pymdown-extensions"]}`);
  const proj = join(root, "out", "plugins-mkdocs-project");
  rmSync(proj, { recursive: true, force: true });
  cpSync(join(pkg, "docs", "src", "markdown"), join(proj, "docs"), { recursive: true });
  // Its pages' front matter names Lucide icons, which its own theme (Zensical) has and
  // mkdocs-material lacks: those lines go.
  for (const f of readdirSync(join(proj, "docs"), { recursive: true })) {
    if (!String(f).endsWith(".md")) continue;
    const p = join(proj, "docs", String(f));
    writeFileSync(p, readFileSync(p, "utf8").replace(/^icon: lucide\/.*\n/m, ""));
  }
  writeFileSync(
    join(proj, "mkdocs.yml"),
    `site_name: PyMdown Extensions Documentation
site_dir: ${mkdocsOut}
theme:
  name: material
plugins:
  - hipporag
markdown_extensions:
  - toc:
      permalink: ""
  - admonition
  - attr_list
  - def_list
  - tables
  - abbr
  - footnotes
  - md_in_html
  - pymdownx.superfences
  - pymdownx.highlight
  - pymdownx.inlinehilite
  - pymdownx.details
  - pymdownx.tabbed:
      alternate_style: true
  - pymdownx.tasklist
  - pymdownx.keys
  - pymdownx.snippets:
      base_path: docs/.snippets
      auto_append: [refs.md]
`,
  );
  rmSync(mkdocsOut, { recursive: true, force: true });
  const log = timed("mkdocsBuildMs", () =>
    run(bin("mkdocs"), ["build", "-f", join(proj, "mkdocs.yml")], { cwd: proj, stdio: ["ignore", "pipe", "pipe"] }),
  );
  return log;
}

// `./build.sh test` runs this file once with HIPPORAG_E2E_PREFETCH=1 while it compiles: the
// downloads only (the venv's packages, the two sdists), then the tests find them in place.
if (process.env.HIPPORAG_E2E_PREFETCH) {
  installVenv();
  sdist("sphinx", PINS.sphinx, `sphinx-${PINS.sphinx}`);
  sdist("pymdown-extensions", PINS["pymdown-extensions"], `pymdown_extensions-${PINS["pymdown-extensions"]}`);
  process.exit(0);
}

const browser = { b: null };
before(async () => {
  timed("installMs", installVenv);
  buildSphinx();
  buildMkdocs();
  browser.b = await launch();
});
after(async () => {
  await browser.b?.close();
  console.log(JSON.stringify(timings));
});

/**
 * Opens `path` of the served `dir`, opens the search box the plugin put into the theme (the
 * modal's button) and types each question; every one must find its page among the results.
 */
async function searchSite(dir, path, trigger, questions, screenshot) {
  const server = await serve(dir);
  const page = await browser.b.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(server.origin + path);
    const button = page.locator(trigger);
    await button.waitFor({ timeout: 30000 });
    await button.click();
    const dialog = page.locator("dialog.hipporag-dialog");
    const input = dialog.locator("input.hipporag-input");
    await input.waitFor();
    let searches = 0;
    const found = [];
    for (const { q, pages } of questions) {
      const t = performance.now();
      await input.fill(q);
      await page.waitForSelector(`dialog.hipporag-dialog .hipporag[data-searches="${++searches}"]`, { timeout: 120000 });
      const hrefs = await dialog
        .locator("li.hipporag-result a")
        .evaluateAll((els) => els.map((a) => new URL(a.href).pathname.replace(/index\.html$/, "")));
      const hit = hrefs.findIndex((h) => pages.some((p) => h === p));
      found.push({ q, rank: hit + 1, ms: Math.round(performance.now() - t) });
      assert.ok(hit >= 0, `"${q}": none of ${pages} among the results ${hrefs.join(" ")}`);
    }
    await page.screenshot({ path: join(outDir, screenshot) });
    assert.deepEqual(errors, []);
    return found;
  } finally {
    await page.close();
    server.stop();
  }
}

test("Sphinx: its own docs, built with hipporag.sphinx, are searched in the theme's search box", async () => {
  // The extension replaced the theme's search box (sphinx13 includes searchfield.html) and
  // indexed the site after the build, leaving out the generated pages.
  const html = readFileSync(join(sphinxOut, "usage", "domains", "python.html"), "utf8");
  assert.match(html, /data-hipporag-search="modal"/);
  assert.match(html, /<script [^>]*src="(\.\.\/)+_static\/\.\.\/_hipporag\/hipporag-ui\.js"/);
  assert.doesNotMatch(html, /<input type="text" name="q"/, "Sphinx's own search box is gone");
  const entry = JSON.parse(readFileSync(join(sphinxOut, "_hipporag", "hipporag-entry.json"), "utf8"));
  assert.ok(entry, "hipporag-entry.json");
  const found = await searchSite(
    sphinxOut,
    "/usage/quickstart.html",
    "button.hipporag-trigger",
    [
      { q: "how do I cross-reference a Python function", pages: ["/usage/domains/python.html", "/usage/referencing.html"] },
      {
        q: "how do I document my Python code automatically from its docstrings",
        pages: ["/usage/extensions/autodoc.html", "/tutorial/automatic-doc-generation.html"],
      },
      { q: "how do I link my documents together with a table of contents tree", pages: ["/usage/restructuredtext/directives.html"] },
    ],
    "plugin_sphinx.png",
  );
  timings.sphinxQuestions = found;
});

test("MkDocs: a mkdocs-material site built with plugins: [hipporag] is searched in the header's search box", async () => {
  const html = readFileSync(join(mkdocsOut, "extensions", "tabbed", "index.html"), "utf8");
  assert.match(html, /<div class="md-header__option"><div class="hipporag-search" data-hipporag-search="modal"><\/div><\/div>/);
  assert.match(html, /<script type="module" src="\.\.\/\.\.\/_hipporag\/hipporag-ui\.js"><\/script>/);
  assert.doesNotMatch(html, /data-md-component="search"/, "material's own search is gone");
  const found = await searchSite(
    mkdocsOut,
    "/",
    "header button.hipporag-trigger",
    [
      { q: "how do I put content in tabs", pages: ["/extensions/tabbed/", "/extensions/blocks/plugins/tab/"] },
      { q: "how do I make a task list with checkboxes", pages: ["/extensions/tasklist/"] },
      { q: "how do I include the content of another file in a page", pages: ["/extensions/snippets/"] },
    ],
    "plugin_mkdocs.png",
  );
  timings.mkdocsQuestions = found;
});
