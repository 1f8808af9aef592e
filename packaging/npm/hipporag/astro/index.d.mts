// Types of `hipporag/astro`, the Astro integration (index.mjs).

/** The config file's keys (hipporag.toml), camelCase; `site`, `serve` and `json` are the integration's. */
export interface HipporagAstroOptions {
  glob?: string;
  rootSelector?: string;
  excludeSelectors?: string | string[];
  forceLanguage?: string;
  outputSubdir?: string;
  outputPath?: string;
  verbose?: boolean;
  quiet?: boolean;
  silent?: boolean;
  exclude?: string | string[];
  includeNoindex?: boolean;
  lang?: string;
  encoder?: "hashed" | "minilm";
  modelWeights?: "int8" | "f32";
  fullIndex?: boolean;
  fragmentTextChars?: number;
  noStaticEmbeddings?: boolean;
  model?: string;
  synonymyThreshold?: number;
  pkg?: string;
  ui?: string;
}

/** An Astro integration (typed loosely so that this package needs no `astro` types). */
export interface HipporagAstroIntegration {
  name: "hipporag";
  hooks: Record<string, (...args: any[]) => unknown>;
}

/** Runs `hipporag site` on Astro's output directory after `astro build`. */
export default function hipporag(options?: HipporagAstroOptions): HipporagAstroIntegration;

/** The options as `hipporag site` flags; throws naming every unknown or malformed option. */
export function siteArgs(options?: HipporagAstroOptions, root?: string): string[];
