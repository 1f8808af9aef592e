// highlight.js — finds normalised phrases in a passage's original text, for <mark>ing.
//
// Phrase nodes are stored normalised (src/text/normalize.rs: NFKD, Latin accents and strokes folded, lowercase,
// every non-alphanumeric run → one space). To highlight "thomas c sudhof" inside
// "Thomas C. Südhof", the text is normalised the same way while remembering, for every
// normalised character, the original character it came from; matches on whole words are mapped
// back to spans of the original text. Pure functions: no DOM.

/** Latin letters with a stroke, a bar or no dot, and the letter each folds to (src/text/normalize.rs's `STROKE_FOLDS`). */
const STROKE_FOLDS = {
  ı: "i",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  ø: "o",
  Ø: "O",
  ħ: "h",
  Ħ: "H",
  ŧ: "t",
  Ŧ: "T",
  ǥ: "g",
  Ǥ: "G",
  ƀ: "b",
  Ƀ: "B",
};
const LATIN_BASE = (c) => /[A-Za-z]/.test(c) || (c >= "\u00C0" && c <= "\u024F") || (c >= "\u1E00" && c <= "\u1EFF");
const MARK = /\p{M}/u;
const ALNUM = /[\p{L}\p{N}]/u;

/** The normalised text and, per normalised UTF-16 unit, the index of its source character. */
export function normalizeWithMap(text) {
  let out = "";
  const map = [];
  let lastLatin = false;
  let pendingSpace = false;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i);
    const ch = String.fromCodePoint(cp);
    for (const d of ch.normalize("NFKD")) {
      const c = STROKE_FOLDS[d] ?? d;
      if (MARK.test(c)) {
        if (lastLatin) continue;
        if (out && !pendingSpace) {
          out += c;
          for (let k = 0; k < c.length; k++) map.push(i);
        }
        continue;
      }
      lastLatin = LATIN_BASE(c);
      if (ALNUM.test(c)) {
        if (pendingSpace && out) {
          out += " ";
          map.push(i);
        }
        pendingSpace = false;
        const low = c.toLowerCase();
        out += low;
        for (let k = 0; k < low.length; k++) map.push(i);
      } else {
        pendingSpace = true;
      }
    }
    i += ch.length;
  }
  return { norm: out, map };
}

/**
 * Spans of `text` matching any of `phrases` (normalised) on word boundaries, merged and sorted:
 * `[{start, end, phrases: string[]}]` in UTF-16 offsets of `text`.
 */
export function phraseSpans(text, phrases) {
  const { norm, map } = normalizeWithMap(text);
  const spans = [];
  for (const p of new Set(phrases)) {
    if (!p) continue;
    for (let at = norm.indexOf(p); at !== -1; at = norm.indexOf(p, at + 1)) {
      const end = at + p.length;
      if ((at > 0 && norm[at - 1] !== " ") || (end < norm.length && norm[end] !== " ")) continue;
      const s = map[at];
      const last = map[end - 1];
      const e = last + String.fromCodePoint(text.codePointAt(last)).length;
      spans.push({ start: s, end: e, phrases: [p] });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged = [];
  for (const s of spans) {
    const top = merged[merged.length - 1];
    if (top && s.start < top.end) {
      top.end = Math.max(top.end, s.end);
      if (!top.phrases.includes(s.phrases[0])) top.phrases.push(s.phrases[0]);
    } else merged.push({ ...s, phrases: [...s.phrases] });
  }
  return merged;
}
