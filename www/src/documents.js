// documents.js — the user's own files as passages, for the in-browser indexer (pkg/indexer/).
// Files are cut as `hipporag site` cuts pages (indexer/src/site/mod.rs, page_passages): one
// section per heading, titled by its heading path, and sections longer than MAX_PASSAGE_CHARS
// cut at line boundaries. Read here, on the page: nothing is sent anywhere.
//
//   .json  a corpus as `hipporag index --corpus` reads it: [{title, text, url?}]
//   .md    sections at ATX headings (#, ##, …)
//   .html  sections at <h1>–<h6> of <main> (else <body>), read by the page's DOMParser
//   .txt   one section titled by the file name
//   .pdf   one section per page ("paper.pdf › page 3"), its text read by pdf.js (pdf.js)
//
// This module imports nothing and takes the HTML parser as an argument, so Node tests load it
// as it is (tests/js/documents.test.mjs).

/** Longest passage in characters, as `hipporag site`'s MAX_PASSAGE_CHARS. */
export const MAX_PASSAGE_CHARS = 1500;
/** Largest file read, in bytes: bigger ones are refused with a message naming them. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The file kinds read, by extension. */
export const EXTENSIONS = [".json", ".md", ".html", ".htm", ".txt", ".pdf"];

/** Sections → passages: a section's heading path is the title; long text is cut at lines. */
export function sectionPassages(sections) {
  const out = [];
  for (const { headings, text } of sections) {
    const title = headings.join(" › ");
    let chunk = [];
    let chars = 0;
    const push = () => {
      const t = chunk.join("\n");
      if (t.trim()) out.push({ title, text: t });
      chunk = [];
      chars = 0;
    };
    for (const line of text.split("\n")) {
      const n = [...line].length;
      // The line and the newline before it must fit (a single longer line stays whole).
      if (chunk.length && chars + 1 + n > MAX_PASSAGE_CHARS) push();
      chunk.push(line);
      chars += n + (chunk.length > 1 ? 1 : 0);
    }
    push();
  }
  return out;
}

/** Markdown → sections at ATX headings; text before the first heading belongs to the file. */
export function markdownSections(name, md) {
  const sections = [];
  let path = [name];
  let lines = [];
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text) sections.push({ headings: path, text });
    lines = [];
  };
  for (const line of md.split(/\r?\n/)) {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) {
      flush();
      const level = m[1].length;
      path = [...path.slice(0, level), m[2]];
    } else lines.push(line);
  }
  flush();
  return sections;
}

/** An HTML document (a DOM `Document`) → sections at h1–h6 of <main>, else <body>. */
export function htmlSections(name, doc) {
  const root = doc.querySelector("main") ?? doc.body ?? doc.documentElement;
  for (const el of root.querySelectorAll("script, style, nav, header, footer, aside, noscript, template")) el.remove();
  const sections = [];
  let path = [doc.title?.trim() || name];
  let lines = [];
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text) sections.push({ headings: path, text });
    lines = [];
  };
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 1 && /^H[1-6]$/.test(child.tagName)) {
        flush();
        const level = Number(child.tagName[1]);
        path = [...path.slice(0, level), child.textContent.replace(/\s+/g, " ").trim()];
      } else if (child.nodeType === 1 && /^(P|LI|PRE|TD|TH|DT|DD|BLOCKQUOTE|FIGCAPTION)$/.test(child.tagName)) {
        const t = child.tagName === "PRE" ? child.textContent : child.textContent.replace(/\s+/g, " ").trim();
        if (t) lines.push(t);
      } else if (child.nodeType === 1) walk(child);
      else if (child.nodeType === 3 && child.textContent.trim()) lines.push(child.textContent.replace(/\s+/g, " ").trim());
    }
  };
  walk(root);
  flush();
  return sections;
}

/** A corpus file's passages ([{title, text, url?}]); an error names the file and the entry. */
export function jsonPassages(name, text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name}: not JSON (${e.message}); expected [{"title", "text"}]`);
  }
  if (!Array.isArray(v)) throw new Error(`${name}: expected a JSON array of {"title", "text"}`);
  return v.map((p, i) => {
    if (p === null || typeof p !== "object" || typeof p.text !== "string")
      throw new Error(`${name}: entry ${i}: expected {"title", "text"} with "text" a string`);
    const out = { title: typeof p.title === "string" ? p.title : "", text: p.text };
    if (typeof p.url === "string") out.url = p.url;
    return out;
  });
}

/** A PDF's passages from its pages' text (`pages[i]` is page i + 1). */
export function pdfPassages(name, pages) {
  const passages = sectionPassages(pages.map((text, i) => ({ headings: [name, `page ${i + 1}`], text })));
  if (passages.length === 0) throw new Error(`${name}: no text (a scanned PDF holds images, not text)`);
  return passages;
}

/** The size and emptiness checks every file passes first; throws an Error naming the file. */
export function checkFile(name, bytes) {
  const ext = (/\.[^.]+$/.exec(name.toLowerCase()) ?? [""])[0];
  if (!EXTENSIONS.includes(ext)) throw new Error(`${name}: not read (expected ${EXTENSIONS.join(", ")})`);
  if (bytes.length > MAX_FILE_BYTES)
    throw new Error(`${name}: ${(bytes.length / 1048576).toFixed(1)} MB is over the ${MAX_FILE_BYTES / 1048576} MB limit per file`);
  if (bytes.length === 0) throw new Error(`${name}: empty file`);
  return ext;
}

/**
 * One text file's passages (every kind but PDF, which `pdfPassages` reads). `bytes`: its
 * contents (Uint8Array); `parseHtml(text)`: a DOM Document (the page's DOMParser). Throws an
 * Error naming the file when it is too big, empty, not UTF-8, of a kind not read, or holds no
 * text.
 */
export function filePassages(name, bytes, parseHtml) {
  const ext = checkFile(name, bytes);
  if (ext === ".pdf") throw new Error(`${name}: a PDF is read by pdfPassages`);
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${name}: not UTF-8 text`);
  }
  const passages =
    ext === ".json"
      ? jsonPassages(name, text)
      : sectionPassages(
          ext === ".md"
            ? markdownSections(name, text)
            : ext === ".txt"
              ? [{ headings: [name], text: text.trim() }]
              : htmlSections(name, parseHtml(text)),
        );
  if (passages.length === 0) throw new Error(`${name}: no text`);
  return passages;
}
