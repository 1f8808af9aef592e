// `hipporag/astro`: the Astro integration. Starlight uses it in place of its Pagefind:
//
//   import starlight from "@astrojs/starlight";
//   import hipporag from "hipporag/astro";
//   integrations: [
//     starlight({ title: "…", pagefind: false, components: { Search: "hipporag/astro/Search.astro" } }),
//     hipporag(),
//   ]
//
// After `astro build` writes the site (`astro:build:done`) it runs `hipporag site <outDir>`,
// the binary lib/binary.cjs finds ($HIPPORAG_BINARY, else @hipporag/<os>-<cpu>), in the output
// directory and without the HIPPORAG_* / PAGEFIND_* variables that would stand in for options
// (as the Node API does): the integration's options are the build's. They are the keys of the
// config file (hipporag.toml), camelCase as the Node API's: `rootSelector`, `exclude`, ….
// Starlight marks each page's content with `data-pagefind-body`, which `hipporag site` reads
// as its own, so no root selector is needed. Search.astro (this directory) is Starlight's
// `Search` override: the modal search button, its script under the site's `base`.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { binary, binaryEnv } = require("../lib/binary.cjs");

/**
 * The options, by their camelCase name: [flag, kind]. The config file's keys
 * (hipporag.toml's `root_selector` is `rootSelector` here) but `site` (the integration gives
 * Astro's output directory), `serve` and `json`. Kinds: boolean (the flag alone when true),
 * string, number, path (resolved against Astro's root: the binary runs in the output
 * directory), strings (the flag once per item).
 */
const OPTIONS = {
  glob: ["--glob", "string"],
  rootSelector: ["--root-selector", "string"],
  excludeSelectors: ["--exclude-selectors", "strings"],
  forceLanguage: ["--force-language", "string"],
  outputSubdir: ["--output-subdir", "string"],
  outputPath: ["--output-path", "path"],
  verbose: ["--verbose", "boolean"],
  quiet: ["--quiet", "boolean"],
  silent: ["--silent", "boolean"],
  exclude: ["--exclude", "strings"],
  includeNoindex: ["--include-noindex", "boolean"],
  lang: ["--lang", "string"],
  encoder: ["--encoder", "string"],
  modelWeights: ["--model-weights", "string"],
  fullIndex: ["--full-index", "boolean"],
  fragmentTextChars: ["--fragment-text-chars", "number"],
  noStaticEmbeddings: ["--no-static-embeddings", "boolean"],
  model: ["--model", "path"],
  synonymyThreshold: ["--synonymy-threshold", "number"],
  pkg: ["--pkg", "path"],
  ui: ["--ui", "path"],
};
/** The output directory's default, below the site (`--output-subdir`). */
const OUTPUT_SUBDIR = "_hipporag";
/** The virtual module Search.astro reads the script's directory from. */
const VIRTUAL = "virtual:hipporag/astro-config";

const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** OPTIONS as `hipporag site` flags; throws an Error naming every unknown or malformed one. */
export function siteArgs(options = {}, root = process.cwd()) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new Error("hipporag/astro: the options must be an object");
  }
  const errors = [];
  const args = [];
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null) continue;
    const known = OPTIONS[name];
    if (!known) {
      const camel = Object.keys(OPTIONS).find((k) => snake(k) === name || k.toLowerCase() === name.toLowerCase());
      const why = ["site", "serve", "json"].includes(name)
        ? "the integration sets it"
        : camel
          ? `did you mean "${camel}"?`
          : `known: ${Object.keys(OPTIONS).join(", ")}`;
      errors.push(`${name}: unknown option (${why})`);
      continue;
    }
    const [flag, kind] = known;
    const bad = (want) => errors.push(`${name}: expected ${want}, got ${JSON.stringify(value)}`);
    if (kind === "boolean") {
      if (typeof value !== "boolean") bad("true or false");
      else if (value) args.push(flag);
    } else if (kind === "string") {
      if (typeof value !== "string") bad("a string");
      else args.push(flag, value);
    } else if (kind === "path") {
      if (typeof value !== "string" || value === "") bad("a path");
      else args.push(flag, isAbsolute(value) ? value : resolve(root, value));
    } else if (kind === "number") {
      if (typeof value !== "number" || !Number.isFinite(value)) bad("a number");
      else args.push(flag, String(value));
    } else if (kind === "strings") {
      const list = typeof value === "string" ? [value] : value;
      if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) bad("an array of strings");
      else for (const v of list) args.push(flag, v);
    }
  }
  if (errors.length) throw new Error(`hipporag/astro: ${errors.join("; ")}`);
  return args;
}

/** This process's environment without the variables `hipporag site` reads as options. */
function optionFreeEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(HIPPORAG|PAGEFIND)_/i.test(k) && k !== "HIPPORAG_MODEL_DIR") continue;
    env[k] = v;
  }
  return env;
}

/** Runs BIN with ARGS in CWD, its output line by line to LOG; resolves to its exit code. */
function run(bin, args, cwd, log) {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { cwd, env: binaryEnv(optionFreeEnv()), stdio: ["ignore", "pipe", "pipe"] });
    const lines = (stream, write) => {
      let buf = "";
      stream.setEncoding("utf8");
      stream.on("data", (d) => {
        buf += d;
        const parts = buf.split("\n");
        buf = parts.pop();
        for (const l of parts) if (l.trim()) write(l);
      });
      stream.on("end", () => buf.trim() && write(buf));
    };
    lines(child.stdout, (l) => log.info(l));
    lines(child.stderr, (l) => log.warn(l));
    child.on("error", fail);
    child.on("close", (code, signal) => done(signal ? `signal ${signal}` : code));
  });
}

/**
 * The integration. `options`: the config file's keys in camelCase (see OPTIONS). Throws at
 * `astro:config:setup` on an unknown or malformed option, and fails the build when
 * `hipporag site` does.
 */
export default function hipporag(options = {}) {
  let root = process.cwd();
  let args = [];
  const outputSubdir = (options?.outputSubdir ?? OUTPUT_SUBDIR).replace(/^\/+|\/+$/g, "");
  return {
    name: "hipporag",
    hooks: {
      "astro:config:setup": ({ config, updateConfig }) => {
        root = fileURLToPath(config.root);
        args = siteArgs(options, root);
        updateConfig({
          vite: {
            // Search.astro is compiled from the package, not loaded by Node.
            ssr: { noExternal: ["hipporag"] },
            plugins: [
              {
                name: "hipporag:astro-config",
                resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : undefined),
                load: (id) =>
                  id === `\0${VIRTUAL}` ? `export default ${JSON.stringify({ outputSubdir })};` : undefined,
              },
            ],
          },
        });
      },
      "astro:build:done": async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const bin = binary();
        const full = ["site", outDir, ...args];
        logger.info(`hipporag ${full.join(" ")}`);
        const t = Date.now();
        const code = await run(bin, full, outDir, logger);
        if (code !== 0) throw new Error(`hipporag site ${outDir} failed (${code}); its messages are above`);
        logger.info(`search index written in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      },
    },
  };
}
