// The JS, CSS and JSON of www/, tests/js/, tests/e2e/ and bench/ are as prettier prints them (the exact
// version pinned in package.json, options in .prettierrc.json, exclusions in .prettierignore).
// Fix with: node_modules/.bin/prettier --write www tests/js tests/e2e bench
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIRS = ["www", "tests/js", "tests/e2e", "bench"];

test("www/, tests/js/, tests/e2e/ and bench/ are formatted with the pinned prettier", () => {
  const bin = join(root, "node_modules", "prettier", "bin", "prettier.cjs");
  assert.ok(existsSync(bin), `${bin} is missing: run npm ci`);
  const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.prettier;
  const installed = JSON.parse(readFileSync(join(root, "node_modules", "prettier", "package.json"), "utf8")).version;
  assert.equal(installed, pinned, "node_modules/prettier is not the version package.json pins: run npm ci");
  // --list-different: the unformatted files on stdout, exit 1 when there are any (2: prettier failed).
  const r = spawnSync(process.execPath, [bin, "--list-different", ...DIRS], { cwd: root, encoding: "utf8" });
  assert.notEqual(r.status, 2, `prettier failed:\n${r.stderr}`);
  const files = r.stdout.split("\n").filter(Boolean);
  assert.deepEqual(files, [], `not formatted (node_modules/.bin/prettier --write ${DIRS.join(" ")}):\n${files.join("\n")}\n${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
});
