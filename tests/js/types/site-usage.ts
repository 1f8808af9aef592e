// Compiled (not run) by tests/js/types.test.mjs against www/site/hipporag-site.d.ts: the
// calls a site drawing its own UI makes, as in hipporag-site.js's header and tests/e2e/site_docs.test.mjs.
import * as hipporag from "../../../www/site/hipporag-site.js";
import type { ResultData, Search } from "../../../www/site/hipporag-site.js";

export async function usage(query: string): Promise<string[]> {
  await hipporag.init({ baseUrl: "/docs/" });
  const s: Search = await hipporag.search(query, { topK: 5, mode: "hipporag2" });
  const first: ResultData = await s.results[0].data();
  const links = [first.url ?? "#", first.title, first.excerpt, ...first.contributions.map((c) => c.phrase)];
  const seeds = s.explanation.seeds.map((x) => `${x.phrase} (cosine ${x.cosine.toFixed(2)}, specificity ${x.specificity.toFixed(3)})`);
  const latest = await hipporag.debouncedSearch(query, {}, 250);
  if (latest === null) return [];
  const ms = latest.timings.encodeMs + latest.timings.retrieveMs + latest.timings.entitiesMs;
  return [...links, ...seeds, s.fallback ?? "", String(ms), ...s.explanation.topPhrases.map((p) => p.phrase)];
}
