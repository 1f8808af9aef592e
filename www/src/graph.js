// graph.js — draws the activated subgraph as SVG: phrase nodes (seeds highlighted, area ∝ PPR
// probability), passage nodes (ranked passages), triple edges (solid, labelled with the
// relation), synonymy edges (dashed) and passage–phrase links (dotted). The layout is d3-force,
// run to rest synchronously (a few dozen nodes: a few milliseconds) so the drawing is static and
// the same for the same result.
import { forceSimulation, forceLink, forceManyBody, forceCollide, forceX, forceY } from "d3-force";

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * Replaces the content of `container` with a drawing of `graph` ({nodes, links} from
 * activated.js subgraphModel). Returns the <svg>.
 */
export function drawSubgraph(container, graph, { width = 1200, height = 520 } = {}) {
  container.replaceChildren();
  const nodes = graph.nodes.map((n) => ({ ...n }));
  const links = graph.links.map((l) => ({ ...l }));
  const maxPpr = Math.max(1e-12, ...nodes.filter((n) => n.type === "phrase").map((n) => n.ppr));
  for (const n of nodes) {
    n.r = n.type === "passage" ? 11 : 5 + 13 * Math.sqrt(n.ppr / maxPpr);
    n.label = n.type === "passage" ? clip(n.title, 24) : clip(n.phrase, n.seed ? 40 : 28);
    // Collision radius: the node and about half its label (labels are ~6 px per character).
    n.room = Math.max(n.r + 8, Math.min(3.2 * n.label.length, 80));
  }

  const sim = forceSimulation(nodes)
    .force("link", forceLink(links).id((d) => d.key).distance((l) => (l.kind === "passage" ? 70 : l.kind === "synonymy" ? 80 : 110)).strength((l) => (l.kind === "passage" ? 0.3 : 0.6)))
    .force("charge", forceManyBody().strength(-380))
    .force("collide", forceCollide((d) => d.room).strength(0.9))
    // Gentle pulls to the centre, stronger vertically: a wide drawing for a wide panel.
    .force("x", forceX(0).strength(0.025))
    .force("y", forceY(0).strength(0.025 * Math.max(1, width / height)))
    .stop();
  for (let i = 0; i < 320; i++) sim.tick();

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
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, defs);
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
