// www/src/documents.js in Node: the user's files cut into passages as `hipporag site` cuts
// pages, and each bad file's message naming it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import {
  MAX_FILE_BYTES,
  MAX_PASSAGE_CHARS,
  checkFile,
  filePassages,
  markdownSections,
  pdfPassages,
  sectionPassages,
} from "../../www/src/documents.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const data = process.env.HIPPORAG_DATA ?? join(root, "..", "shared", "data");
const utf8 = (s) => new TextEncoder().encode(s);
const noHtml = () => assert.fail("no HTML here");

test("a corpus file is read as `hipporag index --corpus` reads it", () => {
  const path = join(data, "musique_train", "musique_train_corpus.json");
  const corpus = JSON.parse(readFileSync(path, "utf8"));
  const ps = filePassages("musique_train_corpus.json", new Uint8Array(readFileSync(path)), noHtml);
  assert.equal(ps.length, 1890);
  assert.deepEqual(ps[7], { title: corpus[7].title, text: corpus[7].text });
});

test("Markdown: sections at headings, titled by their heading path; long ones cut at lines", () => {
  const md = "Intro line\n\n# HippoRAG\nOffline indexing.\n## PPR\nDamping 0.5.\n# Other\nText.";
  assert.deepEqual(
    markdownSections("notes.md", md).map((s) => s.headings.join(" › ")),
    ["notes.md", "notes.md › HippoRAG", "notes.md › HippoRAG › PPR", "notes.md › Other"],
  );
  const line = "x".repeat(900);
  const ps = sectionPassages([{ headings: ["a"], text: [line, line, line].join("\n") }]);
  assert.equal(ps.length, 3);
  assert.ok(ps.every((p) => [...p.text].length <= MAX_PASSAGE_CHARS));
  // The Russian explainer, as a text file: one section, cut at lines.
  const ru = readFileSync(join(data, "multilingual", "hipporag_explainer_ru.txt"));
  const rp = filePassages("hipporag_explainer_ru.txt", new Uint8Array(ru), noHtml);
  assert.ok(rp.length > 5 && rp.every((p) => p.title === "hipporag_explainer_ru.txt" && [...p.text].length <= MAX_PASSAGE_CHARS));
});

test("bad files: each message names the file and says what is wrong", () => {
  assert.throws(() => filePassages("a.txt", new Uint8Array(0), noHtml), /a\.txt: empty file/);
  assert.throws(() => filePassages("b.txt", Uint8Array.of(0x66, 0xff, 0xfe), noHtml), /b\.txt: not UTF-8 text/);
  assert.throws(() => filePassages("c.docx", utf8("PK"), noHtml), /c\.docx: not read/);
  assert.throws(() => filePassages("d.json", utf8('[{"title": "A"}]'), noHtml), /d\.json: entry 0/);
  assert.throws(() => filePassages("e.json", utf8("{oops"), noHtml), /e\.json: not JSON/);
  assert.throws(() => filePassages("f.md", utf8("   \n\n"), noHtml), /f\.md: no text/);
  assert.throws(() => checkFile("g.txt", new Uint8Array(MAX_FILE_BYTES + 1)), /g\.txt: 20\.0 MB is over the 20 MB limit per file/);
});

test("a PDF's pages become passages titled by page; a PDF without text is named", () => {
  const ps = pdfPassages("paper.pdf", ["First page.", "", "Third page."]);
  assert.deepEqual(
    ps.map((p) => p.title),
    ["paper.pdf › page 1", "paper.pdf › page 3"],
  );
  assert.throws(() => pdfPassages("scan.pdf", ["", " "]), /scan\.pdf: no text/);
  // PDFs go through pdf.js (www/src/pdf.js), not the text reader.
  assert.throws(() => filePassages("paper.pdf", utf8("%PDF-1.4"), noHtml), /paper\.pdf: a PDF is read by pdfPassages/);
});
