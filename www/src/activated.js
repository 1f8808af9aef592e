// activated.js — which nodes the explanation draws, and the drawing's data.
//
// The activated subgraph of one retrieval: the seeds (query nodes), the phrases with the highest
// PPR probability, and the phrases that contributed most to each ranked passage, plus the
// ranked passages themselves. Phrase–phrase edges come from `Retriever.subgraph(ids)` (triple
// edges with their facts, synonymy edges with their cosine); passage nodes are joined to the
// phrases they drew score from (the passage-node matrix P). Pure functions: no DOM, no wasm.

/**
 * The phrase nodes to draw, strongest first, at most `maxPhrases` (seeds always included).
 * @param {import("../../pkg/hipporag_wasm.js").RetrieveResult} result
 * @returns {Map<number, {id: number, phrase: string, ppr: number, seed: boolean, entities: string[]}>}
 */
export function activatedPhrases(result, { maxPhrases = 18, perPassage = 3 } = {}) {
  const nodes = new Map();
  const add = (id, phrase, ppr) => {
    const n = nodes.get(id);
    if (n) n.ppr = Math.max(n.ppr, ppr ?? 0);
    else nodes.set(id, { id, phrase, ppr: ppr ?? 0, seed: false, entities: [] });
    return nodes.get(id);
  };
  const pprOf = new Map();
  for (const p of result.topPhrases) pprOf.set(p.phraseId, p.ppr);
  for (const p of result.passages) for (const c of p.contributions) pprOf.set(c.phraseId, c.ppr);
  for (const s of result.seeds) {
    const n = add(s.phraseId, s.phrase, pprOf.get(s.phraseId));
    n.seed = true;
    n.entities.push(s.linkedFrom);
  }
  // Contributions of each passage and the top PPR phrases compete for the remaining places.
  const candidates = [];
  for (const p of result.topPhrases) candidates.push(p);
  for (const p of result.passages) for (const c of p.contributions.slice(0, perPassage)) candidates.push(c);
  candidates.sort((a, b) => b.ppr - a.ppr || a.phraseId - b.phraseId);
  for (const c of candidates) {
    if (nodes.size >= Math.max(maxPhrases, result.seeds.length)) break;
    add(c.phraseId, c.phrase, c.ppr);
  }
  return nodes;
}

/**
 * The graph to draw: phrase nodes, passage nodes, phrase–phrase edges (from the index) and
 * passage–phrase links (contributions whose phrase is drawn).
 * @param {object} result  RetrieveResult
 * @param {Map} phrases    activatedPhrases(result)
 * @param {Array<{source: number, target: number, weight: number, kind: string, facts: Array}>} edges  Retriever.subgraph(ids)
 */
export function subgraphModel(result, phrases, edges) {
  const nodes = [...phrases.values()].map((n) => ({ ...n, key: `n${n.id}`, type: "phrase" }));
  const links = edges.map((e) => ({
    source: `n${e.source}`,
    target: `n${e.target}`,
    kind: e.kind,
    weight: e.weight,
    label: e.kind === "triple" ? e.facts.map((f) => factText(f, phrases)).join("; ") : `synonymy, cosine ${e.weight.toFixed(2)}`,
    relation: e.kind === "triple" && e.facts.length ? e.facts[0].relation : "",
  }));
  for (const p of result.passages) {
    const drawn = p.contributions.filter((c) => phrases.has(c.phraseId));
    if (!drawn.length) continue;
    nodes.push({ key: `p${p.id}`, type: "passage", id: p.id, rank: p.rank, title: p.title, score: p.score });
    for (const c of drawn) {
      links.push({
        source: `p${p.id}`,
        target: `n${c.phraseId}`,
        kind: "passage",
        weight: c.count,
        label: `“${c.phrase}” occurs in ${c.count} triple(s) of #${p.rank} ${p.title}`,
        relation: "",
      });
    }
  }
  return { nodes, links };
}

function factText(f, phrases) {
  const name = (id) => phrases.get(id)?.phrase ?? `#${id}`;
  return `${name(f.subject)} —${f.relation}→ ${name(f.object)}`;
}
