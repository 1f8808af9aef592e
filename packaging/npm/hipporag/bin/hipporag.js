#!/usr/bin/env node
// The `hipporag` command of the npm package: runs the static binary of @hipporag/<os>-<cpu>
// (an optional dependency, which npm installs only where os and cpu match) with the model
// files of @hipporag/all-minilm-l6-v2, unless HIPPORAG_MODEL_DIR names others.
"use strict";
const { spawnSync } = require("node:child_process");
const { dirname } = require("node:path");

const platform = `${process.platform}-${process.arch}`;
let binary;
try {
  binary = require.resolve(`@hipporag/${platform}/bin/hipporag`);
} catch {
  console.error(
    `hipporag: @hipporag/${platform} is not installed. Binaries exist for linux-x64 and linux-arm64; ` +
      "on those, install without --omit=optional (npm installs the one for this machine).",
  );
  process.exit(1);
}
const env = { ...process.env };
if (!env.HIPPORAG_MODEL_DIR) {
  try {
    env.HIPPORAG_MODEL_DIR = dirname(require.resolve("@hipporag/all-minilm-l6-v2/package.json"));
  } catch {
    // Left to the binary, whose message names --model and --no-static-embeddings.
  }
}
const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", env });
if (run.error) {
  console.error(`hipporag: ${binary}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
