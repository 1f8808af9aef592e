// The default UI's strings (www/site/hipporag-ui-strings.js) against its English ones
// (hipporag-ui.js's `EN`): every language has every string, with the same `{…}` fields.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const site = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "www", "site");
const { STRINGS } = await import(join(site, "hipporag-ui-strings.js"));

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
