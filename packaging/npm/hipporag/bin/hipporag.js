#!/usr/bin/env node
// The `hipporag` command of the npm package: runs the static binary of @hipporag/<os>-<cpu>
// (or $HIPPORAG_BINARY) with the model files of @hipporag/all-minilm-l6-v2, unless
// HIPPORAG_MODEL_DIR names others (lib/binary.cjs).
"use strict";
const { spawnSync } = require("node:child_process");
const { binary, binaryEnv } = require("../lib/binary.cjs");

let bin;
try {
  bin = binary();
} catch (e) {
  console.error(`hipporag: ${e.message}`);
  process.exit(1);
}
const run = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", env: binaryEnv() });
if (run.error) {
  console.error(`hipporag: ${bin}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
