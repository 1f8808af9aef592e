// The default UI's strings (www/site/hipporag-ui-strings.json) against its English ones
// (hipporag-ui.js's `EN`): every language has every string, with the same `{…}` fields; the
// languages the page looks for (hipporag-helpers.js's `uiLanguage`) are the file's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const site = join(repo, "www", "site");
const STRINGS = JSON.parse(readFileSync(join(site, "hipporag-ui-strings.json"), "utf8"));
const { uiLanguage, UI_LANGUAGES } = await import(join(site, "hipporag-helpers.js"));

/** `EN`'s keys and strings, read from hipporag-ui.js's source (the module needs a document). */
function english() {
  const src = readFileSync(join(site, "hipporag-ui.js"), "utf8");
  const body = src.slice(src.indexOf("const EN = {"), src.indexOf("\n};", src.indexOf("const EN = {")));
  const en = {};
  // One `key: "…"` a line, or the key on one line and its string on the next.
  for (const m of body.matchAll(/^ {2}(\w+):\s*\n?\s*"((?:[^"\\]|\\.)*)",/gm)) en[m[1]] = m[2];
  return en;
}

const fields = (s) => [...s.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

test("every language has every English string, with the same fields", () => {
  const en = english();
  assert.ok(Object.keys(en).length >= 20, `EN read: ${Object.keys(en)}`);
  assert.ok("fallback" in en && "modeHybrid" in en);
  for (const [lang, strings] of Object.entries(STRINGS)) {
    const keys = Object.keys(strings).filter((k) => k !== "dir");
    assert.deepEqual(keys.sort(), Object.keys(en).sort(), `${lang}'s keys`);
    for (const k of keys) {
      assert.ok(strings[k].trim().length > 0, `${lang}.${k} is empty`);
      assert.deepEqual(fields(strings[k]), fields(en[k]), `${lang}.${k}'s fields`);
    }
  }
});

test("every string the UI asks for is one of EN's", () => {
  const src = readFileSync(join(site, "hipporag-ui.js"), "utf8");
  const asked = [...src.matchAll(/\bt\("(\w+)"/g)].map((m) => m[1]);
  // The filter pane, the sort select, sub-results and "Load more results" among them.
  for (const k of "filters filterBy clearFilters noMatch sortBy relevance ascending descending loadMore subResults".split(" ")) {
    assert.ok(asked.includes(k), `hipporag-ui.js never asks for "${k}"`);
  }
  const en = english();
  for (const k of asked) assert.ok(k in en, `hipporag-ui.js asks for "${k}", which EN lacks`);
});

/**
 * The codes `Language::code` returns in src/text/language.rs: the string literals of its match,
 * from the function's `{` to the brace that closes the match (string literals and `//` comments
 * skipped while counting braces).
 */
function analysisCodes() {
  const src = readFileSync(join(repo, "src", "text", "language.rs"), "utf8");
  const start = src.indexOf("pub fn code(self) -> &'static str {");
  assert.ok(start >= 0, "language.rs has no `pub fn code(self) -> &'static str {`");
  const open = src.indexOf("match self {", start);
  assert.ok(open >= 0, "Language::code has no `match self {`");
  let depth = 0;
  let end = -1;
  for (let i = src.indexOf("{", open); i < src.length && end < 0; i++) {
    if (src.startsWith("//", i)) i = src.indexOf("\n", i);
    else if (src[i] === '"') i = src.indexOf('"', i + 1);
    else if (src[i] === "{") depth++;
    else if (src[i] === "}" && --depth === 0) end = i;
    if (i < 0) break;
  }
  assert.ok(end > open, "the match of Language::code does not close");
  const body = src.slice(open, end).replace(/\/\/.*$/gm, "");
  return [...body.matchAll(/"([a-z]{2,3})"/g)].map((m) => m[1]);
}

test("every language the Rust analysis reads as itself has strings", () => {
  const codes = analysisCodes();
  assert.ok(codes.includes("en") && codes.includes("und") && codes.includes("de"), `codes read: ${codes}`);
  const own = codes.filter((c) => c !== "en" && c !== "und");
  assert.ok(own.length >= 20, `codes read: ${own}`);
  for (const code of own) assert.ok(code in STRINGS, `no strings for "${code}" in hipporag-ui-strings.json`);
});

test("a page's tag picks its language's strings, and English where there are none", () => {
  // The page fetches `hipporag-ui-strings/<code>.json` for exactly the file's codes.
  assert.deepEqual([...UI_LANGUAGES].sort(), Object.keys(STRINGS).sort());
  for (const code of Object.keys(STRINGS)) assert.equal(uiLanguage(code), code, `${code} is looked for`);
  const cases = {
    "de-CH": "de",
    pt_BR: "pt",
    nb: "no",
    "nn-NO": "no",
    "zh-CN": "zh",
    "zh-Hans-HK": "zh",
    "zh-TW": "zh-Hant",
    "zh-Hant": "zh-Hant",
    "zh-hk": "zh-Hant",
    EN: "en",
    "": "en",
    be: "en",
    "x-klingon": "en",
  };
  for (const [tag, code] of Object.entries(cases)) assert.equal(uiLanguage(tag), code, tag);
});

// Pagefind 1.6.0's UI translations (the `translations/*.json` its binary bundles): a site
// moving from Pagefind keeps its UI's language. Māori (`mi`) is not here yet: none of us
// writes it.
const PAGEFIND_UI =
  "af ar bg bn ca cs da de el es eu fa fi fr gl he hi hr hu id it ja ko mk my nb nl nn no pl pt ro ru sr sv sw ta th tr uk vi zh-cn zh-tw zh";

test("every language of Pagefind's UI but Maori speaks itself here", () => {
  for (const tag of PAGEFIND_UI.split(" ")) assert.notEqual(uiLanguage(tag), "en", `${tag} falls back to English`);
});

test("right-to-left languages say so, and their chains point their way", () => {
  for (const [code, s] of Object.entries(STRINGS)) {
    const rtl = ["ar", "fa", "he", "yi"].includes(code);
    assert.equal(s.dir, rtl ? "rtl" : undefined, `${code}.dir`);
    // U+2192 is not mirrored in right-to-left text: there it would point back at the step before.
    if (rtl) assert.ok(!s.modeHipporag1.includes("→") && s.modeHipporag1.includes("←"), `${code}.modeHipporag1`);
  }
});
