// pdf.js — a PDF's text by page, with Mozilla's pdf.js (npm `pdfjs-dist`, bundled: no CDN),
// loaded only when the user picks a PDF (esbuild puts it in its own chunk). pdf.js parses in its
// own worker (`pdf.worker.min.mjs`, copied beside the page by www/build.mjs), so the page's
// CSP (`worker-src 'self'`) holds; `isEvalSupported: false` keeps it free of eval.

/** Each page's text (lines joined with newlines), in page order. Throws an Error naming the file. */
export async function pdfPages(name, bytes) {
  const pdfjs = await import("pdfjs-dist");
  pdfjs.GlobalWorkerOptions.workerSrc = new URL("pdf.worker.min.mjs", document.baseURI).href;
  // Text extraction needs no font data: pdf.js warns that it has no standard fonts, and reads on.
  const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false, useSystemFonts: false, stopAtErrors: true });
  let doc;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy();
    if (e?.name === "PasswordException") throw new Error(`${name}: an encrypted PDF (it needs a password)`);
    throw new Error(`${name}: not a readable PDF (${e?.message ?? e})`);
  }
  try {
    const pages = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      let text = "";
      for (const item of content.items) {
        if (typeof item.str !== "string") continue;
        text += item.str + (item.hasEOL ? "\n" : "");
      }
      pages.push(text.replace(/[ \t]+\n/g, "\n").trim());
    }
    return pages;
  } finally {
    await task.destroy();
  }
}
