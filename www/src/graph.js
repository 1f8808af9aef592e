// graph.js — draws the activated subgraph as SVG: phrase nodes (seeds highlighted, area ∝ PPR
// probability), passage nodes (ranked passages), triple edges (solid, labelled with the
// relation), synonymy edges (dashed) and passage–phrase links (dotted). Positions come from
// layout.js, computed in the worker; this only builds DOM.

const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * Replaces the content of `container` with a drawing of `graph` (layout.js layoutSubgraph:
 * nodes with x, y, r, label; links by node key). Returns the <svg>.
 */
export function drawSubgraph(container, graph, { height = 520 } = {}) {
  container.replaceChildren();
  const { nodes } = graph;
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const links = graph.links.map((l) => ({ ...l, source: byKey.get(l.source), target: byKey.get(l.target) }));

  const pad = 70;
  const xs = nodes.map((n) => n.x);
  const ys = nodes.map((n) => n.y);
  const [x0, x1, y0, y1] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad / 2, Math.max(...ys) + pad / 2];
  const svg = el("svg", {
    viewBox: `${x0} ${y0} ${Math.max(x1 - x0, 200)} ${Math.max(y1 - y0, 160)}`,
    width: "100%",
    height,
    role: "img",
    "aria-label": `Activated subgraph: ${nodes.filter((n) => n.type === "phrase").length} phrases, ${links.filter((l) => l.kind !== "passage").length} edges`,
    preserveAspectRatio: "xMidYMid meet",
  });
  const defs = el("defs", {}, svg);
  const marker = el(
    "marker",
    { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" },
    defs,
  );
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }, marker);

  const gLinks = el("g", { class: "links" }, svg);
  const gLabels = el("g", { class: "edge-labels" }, svg);
  const gNodes = el("g", { class: "nodes" }, svg);

  for (const l of links) {
    const { source: s, target: t } = l;
    const line = el("line", { x1: s.x, y1: s.y, x2: t.x, y2: t.y, class: `edge ${l.kind}` }, gLinks);
    if (l.kind === "triple") line.setAttribute("stroke-width", Math.min(1.5 + l.weight, 5));
    el("title", {}, line).textContent = l.label;
    if (l.kind === "triple" && l.relation && Math.hypot(t.x - s.x, t.y - s.y) > 60) {
      const t2 = el("text", { x: (s.x + t.x) / 2, y: (s.y + t.y) / 2 - 3, class: "edge-label" }, gLabels);
      t2.textContent = clip(l.relation, 22);
      el("title", {}, t2).textContent = l.label;
    }
  }
  for (const n of nodes) {
    const g = el("g", { class: `node ${n.type}${n.seed ? " seed" : ""}`, transform: `translate(${n.x},${n.y})` }, gNodes);
    if (n.type === "passage") {
      el("rect", { x: -n.r, y: -n.r, width: 2 * n.r, height: 2 * n.r, rx: 4 }, g);
      el("text", { class: "rank", y: 4 }, g).textContent = `#${n.rank}`;
      el("text", { class: "label", y: n.r + 13 }, g).textContent = n.label;
      el("title", {}, g).textContent = `Passage #${n.rank}: ${n.title} (score ${n.score.toPrecision(3)})`;
    } else {
      el("circle", { r: n.r }, g);
      el("text", { class: "label", y: -n.r - 5 }, g).textContent = n.label;
      el("title", {}, g).textContent =
        `${n.phrase}\nPPR ${n.ppr.toExponential(2)}` + (n.seed ? `\nseed for: ${n.entities.join(", ")}` : "");
    }
  }
  container.appendChild(svg);
  return svg;
}
