// What the wasm retriever's timing harnesses (bench.mjs in Node, bench_chromium.mjs in
// Chromium) share: their command line and the head of the Markdown table they print.
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The harness's command line: `--json`, `--modes m1,m2` (default hipporag1), `--repeats N`
 * (default `repeats`) and the harness's own `options`, then INDEX QUESTIONS; without those two
 * it prints `usage` and exits with status 2.
 */
export function benchArgs({ usage, repeats, options = {} }) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      modes: { type: "string", default: "hipporag1" },
      repeats: { type: "string", default: repeats },
      ...options,
    },
  });
  const [indexPath, questionsPath] = positionals;
  if (!indexPath || !questionsPath) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return { values, modes: values.modes.split(","), repeats: Number(values.repeats), indexPath, questionsPath };
}

/** `bytes` in MiB, one decimal. */
export const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Prints the index's size and graph and the table's head, for times measured `where` ("wasm in Node"). */
export function printTableHead({ indexPath, bytes, counts, where, suffix = "" }) {
  console.log(
    `\n${indexPath}: ${(bytes / 1e6).toFixed(1)} MB, ${counts.phrases} phrases, ${counts.passages} passages, ${counts.edges} phrase edges${suffix}`,
  );
  console.log(`| ${where} | median | p90 |`);
  console.log("|---|---|---|");
}
