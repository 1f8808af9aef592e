// Where the `hipporag` binary and its model are, for the command (bin/hipporag.js) and the
// Node API (lib/index.mjs) alike: $HIPPORAG_BINARY when set, else the static binary of
// @hipporag/<os>-<cpu> (an optional dependency, which npm installs only where os and cpu match);
// the model files of @hipporag/all-minilm-l6-v2 unless $HIPPORAG_MODEL_DIR names others.
"use strict";
const { dirname, resolve } = require("node:path");

/** The binary's path, or throws an Error saying what to install (or build). */
function binary() {
  if (process.env.HIPPORAG_BINARY) return resolve(process.env.HIPPORAG_BINARY);
  const platform = `${process.platform}-${process.arch}`;
  try {
    return require.resolve(`@hipporag/${platform}/bin/hipporag`);
  } catch {
    throw new Error(
      `@hipporag/${platform} is not installed. Binaries exist for linux-x64 and linux-arm64; ` +
        "on those, install without --omit=optional (npm installs the one for this machine), " +
        "or set HIPPORAG_BINARY to a hipporag binary.",
    );
  }
}

/** The environment to run the binary in: `env` with HIPPORAG_MODEL_DIR set to the model package. */
function binaryEnv(env = process.env) {
  const out = { ...env };
  if (!out.HIPPORAG_MODEL_DIR) {
    try {
      out.HIPPORAG_MODEL_DIR = dirname(require.resolve("@hipporag/all-minilm-l6-v2/package.json"));
    } catch {
      // Left to the binary, whose message names --model and --no-static-embeddings.
    }
  }
  return out;
}

module.exports = { binary, binaryEnv };
