// A BM25 probe of the readings a language written without spaces could have (docs/tuning.md,
// "Katakana words in characters and pairs"): passages and questions cut into units by the
// browser's `Intl.Segmenter` (grapheme clusters) and their pairs, scored by a plain BM25
// (k1 1.2, b 0.75, Lucene's IDF), page-level hit@1 and R@5 over one split of a site's
// questions. It stands apart from the index (no stemmer, no title weight): it compares
// readings, it does not predict the site's figures.
//
//   node bench/pairs_probe.mjs CORPUS QUESTIONS LANG READING [SPLIT]
//
// CORPUS: `[{title, text}]` (../shared/data/multilingual/*_corpus.json), page `wiki/N.html`
// being passage N, as ../shared/tools/corpus_site.py writes it; QUESTIONS: the site's
// `[{q, gold_pages, split}]` (`node bench/docs.mjs --site jsquad` writes
// out/bench/jsquad/questions.json); LANG: `ja` or `th`; READING:
//   pairs          units and their pairs
//   katakana       as pairs, but a run of Katakana is one unit (the reading before session 5)
//   pairs+whole    pairs, and a Katakana word of three characters or more whole too (shipped)
//   pairs+lexicon  pairs, and every word of three to eight units that ICU's dictionary
//                  segmenter (`Intl.Segmenter` words) finds in a passage, wherever it occurs
// SPLIT: `dev` (default), `test` or `all`.
import { readFileSync } from "node:fs";

const [corpusPath, questionsPath, lang, reading, split = "dev"] = process.argv.slice(2);
const corpus = JSON.parse(readFileSync(corpusPath, "utf8"));
const questions = JSON.parse(readFileSync(questionsPath, "utf8")).filter((q) => split === "all" || q.split === split);
const inRun = lang === "ja" ? /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]/u : /\p{Script=Thai}/u;
const katakana = /^[\p{Script=Katakana}ー]+$/u;
const graphemes = new Intl.Segmenter(lang, { granularity: "grapheme" });
const words = new Intl.Segmenter(lang, { granularity: "word" });
const LEXICON_UNITS = [3, 8];

/** `text` (NFKC) as [inRun, string] stretches. */
function runs(text) {
  const out = [];
  for (const ch of text.normalize("NFKC")) {
    const r = inRun.test(ch);
    if (out.length && out[out.length - 1][0] === r) out[out.length - 1][1] += ch;
    else out.push([r, ch]);
  }
  return out;
}

/** A run's units: grapheme clusters; with the `katakana` reading, a Katakana stretch is one. */
function units(run) {
  const out = [];
  for (const { segment } of graphemes.segment(run)) {
    const last = out[out.length - 1];
    if (reading === "katakana" && last !== undefined && katakana.test(last) && katakana.test(segment)) out[out.length - 1] += segment;
    else out.push(segment);
  }
  return out;
}

const lexicon = new Set();
if (reading === "pairs+lexicon")
  for (const p of corpus)
    for (const [r, s] of runs(`${p.title}\n${p.text}`))
      if (r)
        for (const { segment } of words.segment(s)) {
          const n = units(segment).length;
          if (n >= LEXICON_UNITS[0] && n <= LEXICON_UNITS[1]) lexicon.add(segment);
        }

/** The terms of `text`; `query` adds every substring a lexicon word could be (absent ones match nothing). */
function terms(text, query) {
  const out = [];
  for (const [r, s] of runs(text)) {
    if (!r) {
      out.push(
        ...s
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean),
      );
      continue;
    }
    const u = units(s);
    u.forEach((x, i) => out.push(x, ...(i + 1 < u.length ? [x + u[i + 1]] : [])));
    if (reading === "pairs+whole") for (const m of s.matchAll(/[\p{Script=Katakana}ー]{3,}/gu)) out.push(m[0]);
    if (reading === "pairs+lexicon")
      for (let i = 0; i < u.length; i++)
        for (let n = LEXICON_UNITS[0]; n <= LEXICON_UNITS[1] && i + n <= u.length; n++) {
          const w = u.slice(i, i + n).join("");
          if (query || lexicon.has(w)) out.push(w);
        }
  }
  return out;
}

const docs = corpus.map((p) => terms(`${p.title}\n${p.text}`, false));
const df = new Map();
const tfs = docs.map((d) => {
  const tf = new Map();
  for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
  for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return tf;
});
const N = docs.length;
const avgdl = docs.reduce((a, d) => a + d.length, 0) / N;
let hit1 = 0;
let recall5 = 0;
for (const q of questions) {
  const scores = new Float64Array(N);
  for (const t of new Set(terms(q.q, true))) {
    const n = df.get(t);
    if (!n) continue;
    const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
    tfs.forEach((tf, i) => {
      const f = tf.get(t);
      if (f) scores[i] += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * docs[i].length) / avgdl));
    });
  }
  const top = [...scores.keys()]
    .sort((a, b) => scores[b] - scores[a] || a - b)
    .slice(0, 5)
    .map((i) => `wiki/${i}.html`);
  const gold = q.gold_pages ?? q.gold;
  if (gold.includes(top[0])) hit1 += 1;
  recall5 += gold.filter((g) => top.includes(g)).length / gold.length;
}
const n = questions.length;
console.log(`${lang} ${reading} ${split}: ${n} questions, hit@1 ${(hit1 / n).toFixed(3)}, R@5 ${(recall5 / n).toFixed(3)}`);
