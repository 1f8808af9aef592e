// lexicon.js — the words of Thai, Lao, Khmer and Burmese text by the browser's own word
// segmenter (`Intl.Segmenter`, ICU's dictionary-based break iterator), for the in-browser
// indexer's `lexiconWords` option: the native `hipporag index` finds the same kind of words with
// ICU4X's dictionaries and indexes those of three to eight clusters beside the clusters and their
// pairs (docs/languages.md, "The lexicon"). Nothing to download: the dictionaries are the
// browser's.

/**
 * A character of Thai, Lao, Khmer or Burmese: the characters of the indexer's `is_lexicon_char`
 * (src/text/script.rs), which the Rust test `the_pages_lexicon_scripts_are_the_indexers` holds
 * this class to.
 */
const SCRIPTS = /[\u0E00-\u0EFF\u1780-\u17FF\u19E0-\u19FF\u1000-\u109F\uAA60-\uAA7F\uA9E0-\uA9FF]/u;

/**
 * The distinct words `Intl.Segmenter` finds in the titles and texts of `passages`
 * (`[{title, text}]`) that hold a Thai, Lao, Khmer or Burmese character, sorted (the indexer
 * keeps those that are one run of three to eight units). `undefined` where the browser has no
 * `Intl.Segmenter`, or when no passage has such text: the index is then built without a lexicon.
 */
export function lexiconWords(passages) {
  if (typeof Intl?.Segmenter !== "function") return undefined;
  const segmenter = new Intl.Segmenter([], { granularity: "word" });
  const words = new Set();
  for (const p of passages) {
    for (const text of [p.title ?? "", p.text ?? ""]) {
      if (!SCRIPTS.test(text)) continue;
      for (const s of segmenter.segment(text)) {
        if (s.isWordLike && SCRIPTS.test(s.segment)) words.add(s.segment);
      }
    }
  }
  return words.size ? [...words].sort() : undefined;
}
