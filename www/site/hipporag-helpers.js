// hipporag-helpers.js — the helpers the site's default UI (hipporag-ui.js, served as a plain
// ES module from a site's /_hipporag/) and the demo (www/src/, bundled by esbuild) share:
//
//   h("a", { href: url, class: "hit", dataset: { id: "3" }, onclick: go }, "title", null, [kids])
//
// h() builds an element. Attributes: `class` sets className, `dataset` and `style` take objects
// (CSSOM, which a strict Content-Security-Policy allows), `on…` adds an event listener, `true`
// sets an empty attribute, and undefined, null and false leave the attribute out. Children:
// nodes or text, arrays are flattened, undefined, null and false are skipped.
//
// uiLanguage("pt-BR") gives the code of the default UI's strings for a page's `<html lang>`.

/**
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "style") Object.assign(e.style, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return e;
}

/**
 * The languages with strings of their own: `hipporag site` splits `www/site/hipporag-ui-strings.json`
 * (one object per code, the keys of `EN` plus `dir` for a right-to-left script) into
 * `hipporag-ui-strings/<code>.json` beside hipporag-ui.js. Written by the project's developers; a
 * native speaker's correction is welcome. tests/js/ui_strings.test.mjs keeps this list equal to
 * the JSON's codes.
 */
export const UI_LANGUAGES = new Set(
  "af ar bg bn ca cs da de el eo es et eu fa fi fr ga gl he hi hr hu hy id it ja km ko lo lt mk my ne nl no pl pt ro ru sr sv sw ta th tr uk vi yi zh zh-Hant".split(
    " ",
  ),
);

/**
 * The code of `hipporag-ui-strings/` for a BCP 47 tag (`<html lang>`): its primary subtag,
 * lowercased, but `no` for `nb` and `nn`, and `zh-Hant` for Chinese in Traditional characters
 * (script `Hant`, or region `TW`, `HK` or `MO` without script `Hans`); `en` for English, an
 * empty tag or one without strings here.
 */
export function uiLanguage(tag) {
  const subtags = (tag || "en").trim().toLowerCase().split(/[-_]/);
  let code = subtags[0];
  if (code === "nb" || code === "nn") code = "no";
  if (code === "zh" && !subtags.includes("hans")) {
    if (subtags.includes("hant") || subtags.some((s) => ["tw", "hk", "mo"].includes(s))) code = "zh-Hant";
  }
  return UI_LANGUAGES.has(code) ? code : "en";
}
