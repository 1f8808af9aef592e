// storage.js — "Your documents" kept in this browser's origin-private file system (OPFS), so a
// reload opens the index without indexing again. One directory, `hipporag-documents/`:
//
//   files.json       {version, files: [{name, passages: [{title, text, url?}], openie?: {language, docs, segmented?}}],
//                     language?: the indexer's languageReport of them}
//   index.hipporag   the index built from them (the in-browser indexer's bytes)
//
// Written by the worker after each build (files.json last, so a half-written save is never
// read as whole); "Forget everything" removes the directory. Nothing here leaves the device.

const DIR = "hipporag-documents";
// 2 adds each file's OpenIE documents (`openie`); a version-1 save is still read, and its files
// are extracted again at the next build. `segmented` marks Chinese documents of the indexer with
// jieba (pkg/indexer-zh/); Chinese documents without it are extracted again. `language` (the
// analysis the index was built with and its warnings) is optional: a save without it is shown
// without them.
const VERSION = 2;
const READABLE = new Set([1, 2]);

async function root() {
  if (!globalThis.navigator?.storage?.getDirectory) throw new Error("this browser has no origin-private file system");
  return navigator.storage.getDirectory();
}

async function writeFile(dir, name, data) {
  const handle = await dir.getFileHandle(name, { create: true });
  const w = await handle.createWritable();
  try {
    await w.write(data);
    await w.close();
  } catch (e) {
    await w.abort().catch(() => {});
    throw e;
  }
}

/**
 * Saves `files` ([{name, passages, openie?}]), their index bytes and `language` (the indexer's
 * `languageReport` of their passages, shown again when the save is opened); throws (e.g. a
 * QuotaExceededError) when it cannot.
 */
export async function saveDocuments(files, indexBytes, language) {
  const dir = await (await root()).getDirectoryHandle(DIR, { create: true });
  // A half-written save leaves no files.json, so it is never read as a whole one.
  await dir.removeEntry("files.json").catch(() => {});
  await writeFile(dir, "index.hipporag", indexBytes);
  await writeFile(dir, "files.json", JSON.stringify({ version: VERSION, files, language }));
}

/** The saved files, index bytes and language report (null in a save without one), or null when nothing (whole) is saved. */
export async function loadDocuments() {
  let dir;
  try {
    dir = await (await root()).getDirectoryHandle(DIR);
  } catch {
    return null;
  }
  try {
    const meta = JSON.parse(await (await (await dir.getFileHandle("files.json")).getFile()).text());
    if (!READABLE.has(meta.version) || !Array.isArray(meta.files)) return null;
    const bytes = new Uint8Array(await (await (await dir.getFileHandle("index.hipporag")).getFile()).arrayBuffer());
    return { files: meta.files, bytes, language: meta.language ?? null };
  } catch {
    return null;
  }
}

/** Removes everything saved. */
export async function forgetDocuments() {
  await (await root()).removeEntry(DIR, { recursive: true }).catch((e) => {
    if (e?.name !== "NotFoundError") throw e;
  });
}
