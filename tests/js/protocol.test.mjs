// The page ↔ worker protocol (www/src/protocol.js) in Node: named message types, messages
// handled one at a time in order, and an error of kind "protocol" for any message no handler
// takes. Needs nothing built.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { MSG, handlerFor, serialDispatcher, unknownMessage } from "../../www/src/protocol.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A dispatcher over the worker's message types with recording handlers; `posted` collects what it sends back. */
function worker(handlers = {}) {
  const posted = [];
  const ran = [];
  const table = {
    [MSG.LOAD]: async (m) => ran.push(m),
    [MSG.SEARCH]: async (m) => ran.push(m),
    ...handlers,
  };
  return { dispatch: serialDispatcher(table, (m) => posted.push(m)), posted, ran };
}

test("message types are named once, distinct and frozen, each the lower case of its name", () => {
  const values = Object.values(MSG);
  assert.equal(new Set(values).size, values.length);
  assert.ok(Object.isFrozen(MSG));
  for (const [name, type] of Object.entries(MSG)) assert.equal(type, name.toLowerCase());
});

test("app.js and worker.js use every message type and name none that is not one", () => {
  const used = new Set();
  for (const f of ["app.js", "worker.js"]) {
    for (const [, name] of readFileSync(join(root, "www", "src", f), "utf8").matchAll(/\bMSG\.([A-Z_]+)/g)) used.add(name);
  }
  assert.deepEqual([...used].sort(), Object.keys(MSG).sort());
});

test("an unknown message type is answered by an error of kind protocol naming it", async () => {
  const w = worker();
  await w.dispatch({ type: "reticulate", seq: 3 });
  assert.deepEqual(w.ran, []);
  assert.equal(w.posted.length, 1);
  const [err] = w.posted;
  assert.equal(err.type, MSG.ERROR);
  assert.equal(err.kind, "protocol");
  assert.equal(err.received, "reticulate");
  assert.match(err.message, /unknown message type "reticulate"; expected one of "load", "search"/);
});

test("messages without a type, non-objects and inherited property names are protocol errors too", async () => {
  const w = worker();
  for (const data of [{}, null, undefined, 42, "load", { type: "toString" }, { type: "__proto__" }, { type: "constructor" }, { type: 7 }]) {
    await w.dispatch(data);
  }
  assert.deepEqual(w.ran, []);
  assert.equal(w.posted.length, 9);
  assert.ok(w.posted.every((m) => m.type === MSG.ERROR && m.kind === "protocol"));
  assert.match(w.posted[0].message, /^a message without a type; expected one of "load", "search"$/);
  assert.match(w.posted[5].message, /unknown message type "toString"/);
  assert.equal(w.posted[8].received, "7");
});

test("known messages run one at a time, in order; a throwing handler does not stop the queue", async () => {
  const order = [];
  const w = worker({
    [MSG.LOAD]: async (m) => {
      order.push(`load ${m.index.url} start`);
      await new Promise((r) => setTimeout(r, 30));
      order.push(`load ${m.index.url} end`);
    },
    [MSG.SEARCH]: async (m) => {
      if (m.seq === 2) throw new Error("boom");
      order.push(`search ${m.seq}`);
    },
  });
  w.dispatch({ type: MSG.LOAD, index: { url: "a.hipporag" } });
  w.dispatch({ type: MSG.SEARCH, seq: 1 });
  w.dispatch({ type: "nope" }); // answered at once, not queued
  w.dispatch({ type: MSG.SEARCH, seq: 2 });
  await w.dispatch({ type: MSG.SEARCH, seq: 3 });
  assert.deepEqual(order, ["load a.hipporag start", "load a.hipporag end", "search 1", "search 3"]);
  assert.deepEqual(
    w.posted.map((m) => m.kind),
    ["protocol", "worker"],
  );
  assert.match(w.posted[1].message, /^search: boom$/);
});

test("the page side finds its handlers the same way", () => {
  const handlers = { [MSG.PROGRESS]: () => 1, [MSG.LOADED]: () => 2, [MSG.RESULT]: () => 3, [MSG.ERROR]: () => 4 };
  assert.equal(handlerFor(handlers, { type: MSG.RESULT })(), 3);
  assert.equal(handlerFor(handlers, { type: "hasOwnProperty" }), null);
  assert.match(
    unknownMessage({ type: "bogus" }, handlers).message,
    /unknown message type "bogus"; expected one of "progress", "loaded", "result", "error"/,
  );
});

test("app.js and worker.js name every message type through MSG", () => {
  for (const f of ["app.js", "worker.js"]) {
    const src = readFileSync(join(root, "www", "src", f), "utf8");
    assert.doesNotMatch(src, /\bpost(?:Message)?\(\s*\{\s*type:\s*["'`]/, `${f}: a message posted with a literal type`);
    assert.match(src, /\bpost(?:Message)?\(\s*\{\s*type:\s*MSG\.[A-Z]+\b/, `${f}: posts its messages with MSG's names`);
    assert.doesNotMatch(src, /\.type\s*===?\s*["'`]/, `${f}: a message type compared with a literal`);
    assert.match(src, /from "\.\/protocol\.js"/);
  }
});
