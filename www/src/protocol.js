// protocol.js — the messages between the page (app.js) and its Web Worker (worker.js). Both
// import the names from here; a message whose type the receiver has no handler for is answered
// (worker) or shown (page) as an error of kind "protocol" naming that type.
//
// page → worker
//   {type: MSG.LOAD, index: {url, name}}                  load (or switch to) an index
//   {type: MSG.SEARCH, seq, question, topK, mode}         rank passages ("hipporag1"|"hipporag2"|"dense")
//   {type: MSG.BUILD, files: [{name, passages}], add?, remove?}  index the user's files in the worker (pkg/indexer/),
//                                                         load the index and save both in OPFS (add: join the saved
//                                                         files; remove: a saved file's name to leave out)
//   {type: MSG.RESTORE}                                   open the files and index saved in OPFS (or EMPTY)
//   {type: MSG.FORGET}                                    remove them (then EMPTY)
// worker → page
//   {type: MSG.PROGRESS, stage: "wasm"|"index"|"model"|"indexer"|"build", loaded, total, step?}
//                                                         (build: the indexer's `step` — OpenIE, encoding phrases, …)
//   {type: MSG.LOADED, info, encoder, timings: {wasmMs, indexDownloadMs, indexParseMs, modelMs}, bytes: {wasm, index, model}, wasmEarlier, built}
//                                                         (built: the index was made here from the user's files; indexDownloadMs is the build's time;
//                                                         documents: {files: [{name, passages}], restored, storeError, extraction?, language?} for them;
//                                                         language: languageReport's {language, passages: [[code, n]], warnings} after a build, and
//                                                         the one saved with the files when they are reopened, if the save has one)
//   {type: MSG.EMPTY}                                     no saved files (after RESTORE or FORGET)
//   {type: MSG.RESULT, seq, result, graph, timings}
//   {type: MSG.ERROR, kind: "asset"|"wasm"|"index"|"encoder"|"search"|"protocol"|"worker", seq?, message, received?}
//
// This module imports nothing, so Node tests load it as it is (tests/js/protocol.test.mjs).

export const MSG = Object.freeze({
  // page → worker
  LOAD: "load",
  SEARCH: "search",
  BUILD: "build",
  RESTORE: "restore",
  FORGET: "forget",
  // worker → page
  PROGRESS: "progress",
  LOADED: "loaded",
  RESULT: "result",
  ERROR: "error",
  EMPTY: "empty",
});

/** The handler for `data.type` among `handlers`' own properties (so "toString" is no message type), or null. */
export function handlerFor(handlers, data) {
  const type = data !== null && typeof data === "object" ? data.type : undefined;
  return typeof type === "string" && Object.hasOwn(handlers, type) ? handlers[type] : null;
}

/** The error message answering `data`, which no handler in `handlers` takes. */
export function unknownMessage(data, handlers) {
  const type = data !== null && typeof data === "object" ? data.type : undefined;
  const known = Object.keys(handlers)
    .map((k) => JSON.stringify(k))
    .join(", ");
  const what = type === undefined ? "a message without a type" : `unknown message type ${JSON.stringify(type)}`;
  return {
    type: MSG.ERROR,
    kind: "protocol",
    received: type === undefined ? null : String(type),
    message: `${what}; expected one of ${known}`,
  };
}

/**
 * The worker's `onmessage` body: runs `handlers[data.type](data)` one message at a time, in
 * order (a load finishes before the next search starts), and posts an error of kind "protocol"
 * for a message no handler takes. A handler that throws (they report their own errors) posts an
 * error of kind "worker" and the queue goes on. Returns the promise of the queue's tail.
 */
export function serialDispatcher(handlers, post) {
  let queue = Promise.resolve();
  return (data) => {
    const handler = handlerFor(handlers, data);
    if (!handler) {
      post(unknownMessage(data, handlers));
      return queue;
    }
    queue = queue
      .then(() => handler(data))
      .catch((e) => post({ type: MSG.ERROR, kind: "worker", message: `${data.type}: ${String(e?.message ?? e)}` }));
    return queue;
  };
}
