// Hostile page text stays text: a site whose page title, heading id, heading and body text hold
// markup (`<img onerror>`, `<script>`) and whose links are `javascript:` URLs, indexed by
// `hipporag site` and searched in headless Chromium through the inline and the modal UI. The
// markup must show as characters in the titles, the excerpts (whose query words are <mark>
// elements) and "Why these results?", no element of it may appear in the page, and none of its
// scripts may run. Also the screenshot of the modal with its highlighted excerpts
// (tests/e2e/out/site_hostile_modal.png).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { outDir, root, servedSite } from "./harness.mjs";

const dir = join(root, "out", "hostile-e2e");
const bin = join(root, "target", "release", "hipporag");
// Each payload sets window.__pwned if it ever runs.
const IMG = "<img src=x onerror=window.__pwned=1>";
const SCRIPT = "<script>window.__pwned=2</script>";
const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const PAGES = {
  "spices.html": `<!doctype html><html><head><title>Zanzibar ${esc(IMG)} spices</title></head><body><main>
<h1>Zanzibar spices ${esc(SCRIPT)}</h1>
<p>Zanzibar grows cloves, nutmeg and cinnamon ${esc(IMG)} for the spice trade ${esc(SCRIPT)}.
See <a href="javascript:window.__pwned=3">the clove harvest</a>.</p>
<h2 id="&quot;&gt;&lt;img src=x onerror=window.__pwned=4&gt;">Clove harvest ${esc(IMG)}</h2>
<p>The clove harvest on Zanzibar and Pemba runs from July to December; pickers dry the buds in the sun.</p>
<h2 id="javascript:window.__pwned=5">Nutmeg</h2>
<p>Nutmeg from Zanzibar is sold at the Darajani market.</p>
</main></body></html>`,
  "ferries.html": `<!doctype html><html><head><title>Ferries to Zanzibar</title></head><body><main>
<h1>Ferries</h1><p>Fast ferries link Dar es Salaam and Zanzibar several times a day.</p>
</main></body></html>`,
  "index.html":
    '<!doctype html><html><body><div id="hipporag-search"></div><div data-hipporag-search="modal"></div><script type="module" src="/_hipporag/hipporag-ui.js"></script></body></html>',
};

const env = servedSite({
  dir,
  prepare: async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [f, html] of Object.entries(PAGES)) writeFileSync(join(dir, f), html);
    execFileSync(bin, ["site", dir, "--exclude", "index.html", "--json"], { encoding: "utf8", env: { ...process.env, RUST_LOG: "warn" } });
  },
});

/** What a payload left in the page: injected elements and whether any script ran. */
async function damage(page) {
  return page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    imgs: document.querySelectorAll("img").length,
    scripts: [...document.querySelectorAll("script")].filter((s) => !s.src).length,
    jsLinks: [...document.querySelectorAll("a[href]")].filter((a) => /^javascript:/i.test(a.getAttribute("href"))).length,
  }));
}

test("markup in page titles, heading ids, headings and text renders as text in both UIs", async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${env.server.origin}/index.html`);

  // Inline: the half-typed word finds the pages ("Zanzi" begins "Zanzibar").
  const inline = page.locator("#hipporag-search");
  await inline.locator("input").fill("cinnamon for the spice trade in Zanzi");
  await page.waitForSelector('#hipporag-search[data-searches="1"]', { timeout: 60000 });
  const results = inline.locator("li.hipporag-result");
  assert.ok((await results.count()) >= 2, "both pages are found");
  const titles = await results.locator("a").allInnerTexts();
  // A result's title is its passage's heading (here the h1, holding a <script>).
  const markup = (t) => t.includes(IMG) || t.includes(SCRIPT);
  assert.ok(titles.some(markup), `the heading's markup shows as text: ${titles.join(" | ")}`);
  const excerpts = await results.locator(".hipporag-excerpt").allInnerTexts();
  assert.ok(excerpts.some(markup), `markup in the text shows as text: ${excerpts.join(" | ")}`);
  const marked = await results.locator(".hipporag-excerpt mark").allInnerTexts();
  assert.ok(marked.some((m) => /^cinnamon$/i.test(m)) && marked.some((m) => /^zanzibar$/i.test(m)), `marked: ${marked.join(", ")}`);
  // Result links point at the site's pages, never at a script.
  for (const href of await results.locator("a").evaluateAll((as) => as.map((a) => a.href))) {
    assert.ok(href.startsWith(env.server.origin), href);
  }
  await inline.locator("summary").click();
  const why = await inline.locator(".hipporag-why").innerText();
  assert.ok(why.length > 0);

  // The modal: "/" opens it; the same search, the same text.
  await page.locator("body").click();
  await page.keyboard.press("/");
  const dialog = page.locator("dialog.hipporag-dialog");
  await dialog.locator("input").fill("Zanzibar spices");
  await page.waitForFunction(() => document.querySelectorAll("dialog.hipporag-dialog li.hipporag-result").length > 0, null, {
    timeout: 60000,
  });
  const modalTitles = await dialog.locator("li.hipporag-result a").allInnerTexts();
  assert.ok(modalTitles.some(markup), modalTitles.join(" | "));
  assert.ok((await dialog.locator(".hipporag-excerpt mark").count()) > 0);
  await page.screenshot({ path: join(outDir, "site_hostile_modal.png") });

  assert.deepEqual(await damage(page), { pwned: null, imgs: 0, scripts: 0, jsLinks: 0 });
  assert.deepEqual(errors, []);
});
