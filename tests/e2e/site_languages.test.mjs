// A site in German and Arabic, each page read as its own language: XQuAD's first 40 German and
// 40 Arabic paragraphs (../shared/data/multilingual) as pages with their `<html lang>`, and 40
// of its Russian paragraphs tagged Belarusian (`be`, no analysis of its own), indexed by
// `hipporag site` and searched in headless Chromium through the default UI. The build reports
// each language with its analysis (`be`: the generic `und`, whose index its page searches); the site is served the search module with every
// Snowball stemmer (German's and Arabic's are not in the small one); each page's UI speaks its
// language (Arabic right to left), its explanation too, and finds the paragraph of XQuAD's own questions in its
// language. Screenshot: tests/e2e/out/site_languages_ar.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { data, outDir, root, servedSite } from "./harness.mjs";

const dir = join(root, "out", "languages-e2e");
const bin = join(root, "target", "release", "hipporag");
const PARAGRAPHS = 40;
const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const LANGS = ["de", "ar", "be"];
/** Each tag's XQuAD set: Belarusian (`be`), which has no analysis of its own, on XQuAD's Russian
 * paragraphs, to be read with the generic one and searched in its own (`und`) index. */
const SET = { de: "de", ar: "ar", be: "ru" };
/** The page with the search box in `lang` (the German one is the site's index.html). */
const searchPage = (lang) => (lang === "de" ? "index.html" : `search-${lang}.html`);
/** Each language's questions whose paragraph is among the pages, with that page's URL. */
const asked = {};
let report;

const env = servedSite({
  dir,
  prepare: async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const lang of LANGS) {
      const set = join(data, "multilingual", `xquad_${SET[lang]}`);
      const corpus = JSON.parse(readFileSync(`${set}_corpus.json`, "utf8")).slice(0, PARAGRAPHS);
      mkdirSync(join(dir, lang));
      corpus.forEach((p, i) => {
        const html = `<!doctype html><html lang="${lang}"><head><title>${esc(p.title)}</title></head><body><main><h1>${esc(p.title)}</h1><p>${esc(p.text)}</p></main></body></html>`;
        writeFileSync(join(dir, lang, `${i}.html`), html);
      });
      const byText = new Map(corpus.map((p, i) => [p.text, `/${lang}/${i}.html`]));
      asked[lang] = JSON.parse(readFileSync(`${set}.json`, "utf8"))
        .map((q) => ({ q: q.question, url: byText.get(q.paragraphs.find((p) => p.is_supporting ?? true).paragraph_text) }))
        .filter((q) => q.url)
        .filter((_, k) => k % 10 === 0);
      writeFileSync(
        join(dir, searchPage(lang)),
        `<!doctype html><html lang="${lang}"><body><div id="hipporag-search"></div><script type="module" src="/_hipporag/hipporag-ui.js"></script></body></html>`,
      );
    }
    const out = execFileSync(
      bin,
      ["site", dir, "--exclude", "index.html", "--exclude", "search-*.html", "--no-static-embeddings", "--json"],
      {
        encoding: "utf8",
        env: { ...process.env, RUST_LOG: "warn" },
      },
    );
    report = JSON.parse(out);
  },
});

test("each language is read, served and spoken as itself", async () => {
  const langs = Object.fromEntries(report.pageLanguages.map((l) => [l.tag, l]));
  for (const lang of LANGS) {
    const own = lang !== "be";
    assert.deepEqual([langs[lang].pages, langs[lang].analysis, langs[lang].own], [PARAGRAPHS, own ? lang : "und", own]);
    assert.ok(asked[lang].length >= 10, `${lang}: ${asked[lang].length} questions`);
  }
  // The module with every Snowball stemmer, under the small one's name.
  const served = statSync(join(dir, "_hipporag", "hipporag_pieces_wasm_bg.wasm")).size;
  assert.equal(served, statSync(join(root, "pkg", "hipporag_pieces_wasm_snowball_bg.wasm")).size);

  // Belarusian has no strings of its own: English.
  const want = {
    de: "Eine Frage zu dieser Dokumentation stellen…",
    ar: "اطرح سؤالًا عن هذا التوثيق…",
    be: "Ask a question about these docs…",
  };
  // The explanation behind "Why these results?" speaks the page's language too.
  const ranking = {
    de: "Rangfolge: BM25 über die Passagen",
    ar: "الترتيب: BM25 على المقاطع",
    be: "Ranking: BM25 over the passages",
  };
  for (const lang of LANGS) {
    const page = await (await env.browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const strings = [];
    page.on("request", (r) => r.url().includes("hipporag-ui-strings") && strings.push(new URL(r.url()).pathname));
    await page.goto(`${env.server.origin}/${searchPage(lang)}`);
    const box = page.locator("#hipporag-search");
    const input = box.locator("input");
    await input.waitFor();
    assert.equal(await input.getAttribute("placeholder"), want[lang]);
    // Only the page's own language's strings are fetched, and none for a language without them.
    assert.deepEqual(strings, lang === "be" ? [] : [`/_hipporag/hipporag-ui-strings/${lang}.json`]);
    assert.equal(await box.getAttribute("dir"), lang === "ar" ? "rtl" : null);
    let found = 0;
    for (const [k, { q, url }] of asked[lang].entries()) {
      await input.fill(q);
      await page.waitForSelector(`#hipporag-search[data-searches="${k + 1}"]`, { timeout: 60000 });
      const urls = await box.locator("li.hipporag-result").evaluateAll((li) => li.slice(0, 5).map((l) => l.dataset.url));
      if (urls.some((u) => u.split("#")[0] === url)) found += 1;
    }
    // XQuAD's questions name their paragraph's words: nearly all are found in the top 5.
    assert.ok(found >= 0.8 * asked[lang].length, `${lang}: ${found} of ${asked[lang].length} in the top 5`);
    const explained = await box.locator(".hipporag-explain").textContent();
    assert.ok(explained.includes(ranking[lang]), `${lang}: ${explained.slice(0, 120)}`);
    if (lang === "ar") await page.screenshot({ path: join(outDir, "site_languages_ar.png") });
    assert.deepEqual(errors, []);
  }
});
