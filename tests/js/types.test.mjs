// The declaration files of the two public JS APIs, checked with the TypeScript compiler pinned in
// package.json: www/hipporag.d.ts (the wrapper, pkg/hipporag.js) against wasm-bindgen's
// pkg/hipporag_wasm.d.ts, and www/site/hipporag-site.d.ts (a site's /_hipporag/hipporag-site.js),
// each with a consumer file in tests/js/types/ compiled under --strict; and every export of
// each .js is declared in its .d.ts and the other way round. The wrapper's compile needs pkg/
// (./build.sh build); the rest needs nothing built.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const TSC_FLAGS = [
  "--noEmit",
  "--strict",
  "--target",
  "es2022",
  "--module",
  "esnext",
  "--moduleResolution",
  "bundler",
  "--lib",
  "esnext,dom",
];

function compile(files, cwd = root) {
  assert.ok(existsSync(tsc), `${tsc} is missing: run npm ci`);
  const r = spawnSync(process.execPath, [tsc, ...TSC_FLAGS, ...files], { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, `tsc ${files.join(" ")}:\n${r.stdout}${r.stderr}`);
}

/** The value exports (functions, classes, constants, re-exported values) of a .js or .d.ts file. */
async function valueExports(file) {
  const { default: ts } = await import(join(root, "node_modules", "typescript", "lib", "typescript.js"));
  const kind = file.endsWith(".d.ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, kind);
  const names = new Set();
  const exported = (s) => ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const s of sf.statements) {
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && exported(s)) names.add(s.name.text);
    else if (ts.isVariableStatement(s) && exported(s)) for (const d of s.declarationList.declarations) names.add(d.name.getText(sf));
    else if (ts.isExportDeclaration(s) && !s.isTypeOnly && s.exportClause && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) if (!e.isTypeOnly) names.add(e.name.text);
    } else if (ts.isExportAssignment(s)) names.add("default");
  }
  return [...names].sort();
}

test("hipporag-site.d.ts compiles, and a site's calls type-check against it", () => {
  compile([join("www", "site", "hipporag-site.d.ts"), join("tests", "js", "types", "site-usage.ts")]);
});

test("hipporag.d.ts compiles next to pkg/hipporag_wasm.d.ts, and README's calls type-check against it (needs pkg/)", (t) => {
  const wasmDts = join(root, "pkg", "hipporag_wasm.d.ts");
  if (!existsSync(wasmDts)) return t.skip("pkg/ is missing: ./build.sh build");
  // Laid out as in the package: hipporag.d.ts beside hipporag_wasm.d.ts.
  const dir = mkdtempSync(join(tmpdir(), "hipporag-types-"));
  try {
    copyFileSync(wasmDts, join(dir, "hipporag_wasm.d.ts"));
    copyFileSync(join(root, "www", "hipporag.d.ts"), join(dir, "hipporag.d.ts"));
    copyFileSync(join(root, "tests", "js", "types", "wrapper-usage.ts"), join(dir, "wrapper-usage.ts"));
    compile(["hipporag_wasm.d.ts", "hipporag.d.ts", "wrapper-usage.ts"], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every export of hipporag.js and hipporag-site.js is declared, and nothing else", async () => {
  for (const [js, dts] of [
    ["www/hipporag.js", "www/hipporag.d.ts"],
    ["www/site/hipporag-site.js", "www/site/hipporag-site.d.ts"],
  ]) {
    const fromJs = await valueExports(join(root, js));
    assert.ok(fromJs.length >= 3, `${js}: exports found: ${fromJs}`);
    assert.deepEqual(await valueExports(join(root, dts)), fromJs, `${dts} declares the value exports of ${js}`);
  }
});
