// hipporag-helpers.js — the helpers the site's JS (hipporag-site.js, hipporag-pieces.js,
// hipporag-ui.js, served as plain ES modules from a site's /_hipporag/) and the demo (www/src/,
// bundled by esbuild) share:
//
//   h("a", { href: url, class: "hit", dataset: { id: "3" }, onclick: go }, "title", null, [kids])
//   const piece = memo((name) => fetchPiece(name)); await piece("a.bin"); // fetched once
//
// h() builds an element. Attributes: `class` sets className, `dataset` and `style` take objects
// (CSSOM, which a strict Content-Security-Policy allows), `on…` adds an event listener, `true`
// sets an empty attribute, and undefined, null and false leave the attribute out. Children:
// nodes or text, arrays are flattened, undefined, null and false are skipped.

/**
 * `load` wrapped so that it runs once per key: the promise of its first call is kept and
 * shared, even by concurrent callers; a rejected one is forgotten, so a later call tries again.
 * @template K, V
 * @param {(key: K) => Promise<V>} load
 * @returns {(key: K) => Promise<V>}
 */
export function memo(load) {
  const kept = new Map();
  return (key) => {
    if (!kept.has(key)) {
      const p = load(key);
      kept.set(key, p);
      p.catch(() => kept.delete(key));
    }
    return kept.get(key);
  };
}

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
