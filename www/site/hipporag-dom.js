// hipporag-dom.js — the one DOM helper of the demo (www/src/, bundled by esbuild) and of the
// site UI (hipporag-ui.js, served as a plain ES module from a site's /_hipporag/, next to this
// file: `hipporag site` copies it there with the rest of www/site/).
//
//   h("a", { href: url, class: "hit", dataset: { id: "3" }, onclick: go }, "title", null, [kids])
//
// Attributes: `class` sets className, `dataset` and `style` take objects (CSSOM, which a strict
// Content-Security-Policy allows), `on…` adds an event listener, `true` sets an empty attribute,
// and undefined, null and false leave the attribute out. Children: nodes or text, arrays are
// flattened, undefined, null and false are skipped.

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
