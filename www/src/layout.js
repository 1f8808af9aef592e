// layout.js — positions for the activated-subgraph drawing, computed in the Web Worker so the
// page's thread only draws. d3-force, run to rest synchronously (a few dozen nodes): the same
// result gives the same picture (d3-force's initial placement and jiggle are deterministic).
import { forceSimulation, forceLink, forceManyBody, forceCollide, forceX, forceY } from "d3-force";

export const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * Adds `x`, `y`, `r` (radius: passages fixed, phrases ∝ √PPR) and `label` to every node of
 * `graph` ({nodes, links} from activated.js subgraphModel) and returns {nodes, links} with links
 * as node keys. `aspect` is the drawing's width / height.
 */
export function layoutSubgraph(graph, { aspect = 2.3, ticks = 320 } = {}) {
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
    .force(
      "link",
      forceLink(links)
        .id((d) => d.key)
        .distance((l) => (l.kind === "passage" ? 70 : l.kind === "synonymy" ? 80 : 110))
        .strength((l) => (l.kind === "passage" ? 0.3 : 0.6)),
    )
    .force("charge", forceManyBody().strength(-380))
    .force("collide", forceCollide((d) => d.room).strength(0.9))
    // Gentle pulls to the centre, stronger vertically: a wide drawing for a wide panel.
    .force("x", forceX(0).strength(0.025))
    .force("y", forceY(0).strength(0.025 * Math.max(1, aspect)))
    .stop();
  for (let i = 0; i < ticks; i++) sim.tick();
  for (const n of nodes) {
    delete n.vx;
    delete n.vy;
    delete n.index;
    n.x = Math.round(n.x * 10) / 10;
    n.y = Math.round(n.y * 10) / 10;
  }
  return { nodes, links: links.map((l) => ({ ...l, source: l.source.key, target: l.target.key, index: undefined })) };
}
