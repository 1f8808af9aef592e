// Compiled (not run) by tests/js/types.test.mjs against www/hipporag.d.ts next to pkg/'s
// hipporag_wasm.d.ts: the calls of README.md's JS examples and of www/src/worker.js.
import { HippoRAG, Retriever, builtinEncoder, fetchBytes, hashedNgramEncode, initWasm } from "./hipporag.js";
import type { LinkedFact, SearchResult, SubgraphEdge } from "./hipporag.js";

export async function usage(wasm: Uint8Array, index: Uint8Array): Promise<number> {
  await initWasm(wasm);
  const bytes = await fetchBytes(new URL("index.hipporag", "https://example.org/"), ({ loaded, total }) => console.log(loaded, total));
  const retriever = Retriever.fromBytes(bytes);
  const encode = builtinEncoder(retriever.info) ?? (async (texts: string[]) => hashedNgramEncode(texts, retriever.info.encoder.dim));
  const rag = new HippoRAG(retriever, { encode });
  const loaded = await HippoRAG.load({
    index,
    wasm,
    onProgress: (p) => console.log(p.loaded),
    extractEntities: async (q) => [q],
    filterFacts: async (_q: string, facts: LinkedFact[]) => facts.slice(0, 1),
  });
  const res: SearchResult = await loaded.search("Who founded Stanford University?", { topK: 5, mode: "hipporag2", linkingTopK: 5 });
  const edges: SubgraphEdge[] = rag.retriever.subgraph(Uint32Array.from(res.topPhrases, (p) => p.phraseId));
  return (
    res.passages[0].score +
    res.timings.encodeMs +
    res.entities.length +
    edges.length +
    (res.fallback?.length ?? 0) +
    rag.info.counts.passages
  );
}
