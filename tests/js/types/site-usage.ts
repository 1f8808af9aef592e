// Compiled (not run) by tests/js/types.test.mjs against www/site/hipporag-site.d.ts: the
// calls a site drawing its own UI makes, as in hipporag-site.js's header and tests/e2e/site_docs.test.mjs.
import * as hipporag from "../../../www/site/hipporag-site.js";
import type { FilterCounts, Filters, ResultData, Search } from "../../../www/site/hipporag-site.js";

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

// Pagefind's filters, sorts, listings and merged indexes (docs/content/docs/js-api-filtering.md's examples).
export async function filtered(query: string): Promise<string[]> {
  await hipporag.options({ baseUrl: "/docs/", indexWeight: 2, mergeFilter: { site: "Docs" } });
  await hipporag.mergeIndex("https://blog.example.com/_hipporag/", {
    indexWeight: 0.5,
    mergeFilter: { site: ["Blog", "News"] },
    language: "en",
  });
  const all: FilterCounts = await hipporag.filters();
  const compound: Filters = {
    any: [
      { author: "Pagefind", tag: "Article" },
      { author: "CloudCannon", tag: "Documentation" },
    ],
    not: { year: "2018" },
  };
  const s = await hipporag.search(query, { filters: compound, sort: { date: "desc" }, topK: 3 });
  const nested = await hipporag.search(null, {
    filters: { color: { any: [{ any: ["Tabby"] }, { all: ["Black", "White"] }] }, mood: { none: ["Lazy"] } },
  });
  await hipporag.preload(query, { filters: { author: ["CloudCannon", "Pagefind"] } });
  const d = await s.results[0].data();
  const subs = d.sub_results.map((r) => `${r.title} ${r.url ?? ""} ${r.anchor?.id ?? ""} ${r.excerpt}`);
  const counts = Object.entries(s.filters).map(
    ([k, v]) => `${k}: ${Object.keys(v).length} / ${Object.keys(s.totalFilters[k] ?? {}).length}`,
  );
  return [
    ...subs,
    ...counts,
    d.meta.title ?? "",
    d.raw_url ?? "",
    String(d.word_count),
    ...(d.filters.site ?? []),
    String(s.unfilteredResultCount + nested.results.length + Object.keys(all).length),
  ];
}
