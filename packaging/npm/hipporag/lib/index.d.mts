// Types of the `hipporag` package's Node API (lib/index.mjs), shaped like Pagefind's.

/**
 * Creates an index that pages can be added to. Each index is independent (a temporary site
 * directory of its own). Resolves to `{errors}` without an index when an option is unknown,
 * malformed or not supported (each error names its option), or the binary is missing.
 */
export function createIndex(options?: IndexOptions): Promise<NewIndexResponse>;

/** Deletes every index not yet deleted and stops their builds under way. */
export function close(): Promise<null>;

/**
 * The options of an index: Pagefind's where they mean the same, and `hipporag site`'s own
 * flags by the camelCase of their name.
 */
export interface IndexOptions {
  /**
   * Pagefind's root selector. Passed to `hipporag site --root-selector` when the binary has
   * that flag; otherwise an error. Pages can mark their content with `data-pagefind-body`.
   */
  rootSelector?: string;
  /** Pagefind's `excludeSelectors`: `--exclude-selectors` when the binary has it; otherwise an error. */
  excludeSelectors?: string[];
  /** Pagefind's `forceLanguage`: `--force-language` when the binary has it; otherwise an error. */
  forceLanguage?: string;
  /**
   * The build's log at info level rather than warnings only: into `logfile` when given, else
   * to this process's stderr.
   */
  verbose?: boolean;
  /** A file the build's log is written to; emptied when the index is created. */
  logfile?: string;
  /**
   * `true` only: hipporag keeps `index.html` in its URLs (a page's URL is its file's path in
   * the site). `false`, Pagefind's default, is an error.
   */
  keepIndexUrl?: boolean;
  /** `false` only: hipporag has no playground. */
  writePlayground?: boolean;
  /** `--lang`: the language of pages without an `<html lang>` (a BCP 47 tag; default `en`). */
  lang?: string;
  /** `--exclude`: leave out pages whose path in the site matches one of these globs. */
  exclude?: string[];
  /** `--include-noindex`: also index pages whose `<meta name="robots">` says `noindex`. */
  includeNoindex?: boolean;
  /** `--full-index`: also write the single-file index (for the `hipporag1`, `hipporag2` and `dense` modes). */
  fullIndex?: boolean;
  /** `--no-static-embeddings`: no static word embeddings (BM25 and the graph only); the build then needs no model. */
  noStaticEmbeddings?: boolean;
  /** `--model`: the all-MiniLM-L6-v2 directory (default: the model package, or $HIPPORAG_MODEL_DIR). */
  model?: string;
  /** `--encoder`: `hashed` (default) or `minilm` (the semantic tier). */
  encoder?: "hashed" | "minilm";
  /** `--model-weights`, with `encoder: "minilm"`: `int8` (default) or `f32`. */
  modelWeights?: "int8" | "f32";
  /** `--fragment-text-chars`: characters of each passage's text a result's `data()` gets; 0 for all. */
  fragmentTextChars?: number;
  /** `--synonymy-threshold`: the synonymy threshold on cosine (default 0.8). */
  synonymyThreshold?: number;
}

export interface NewIndexResponse {
  errors: string[];
  /** Absent when `errors` is not empty. */
  index?: HipporagIndex;
}

/**
 * An index. Its functions run one after another in the order they were called; none rejects:
 * a failure is in the response's `errors`.
 */
export interface HipporagIndex {
  /** Adds an HTML page that is not on disk, at the path its URL or sourcePath names. */
  addHTMLFile(file: HTMLFile): Promise<NewFileResponse>;
  /** Adds a record that is not an HTML page: written as a small page carrying its meta, filters and sort. */
  addCustomRecord(record: CustomRecord): Promise<NewFileResponse>;
  /** Adds the pages of a directory on disk (copied now: later changes to it are not seen). */
  addDirectory(directory: SiteDirectory): Promise<IndexingResponse>;
  /** Builds the index (once per change) and returns its files. */
  getFiles(): Promise<GetFilesResponse>;
  /** Builds the index (once per change) and writes its files to `outputPath`. */
  writeFiles(options?: WriteOptions): Promise<WriteFilesResponse>;
  /** Deletes the index's temporary directory; later calls return an error. */
  deleteIndex(): Promise<null>;
}

/**
 * An HTML page: `url` or `sourcePath`, and its content.
 * @example { url: "/about/", content: "<html lang='en'><body><h1>About</h1></body></html>" }
 */
export interface HTMLFile {
  /**
   * The page's URL path, which names the file it is written to, as Pagefind maps it:
   * `/a/b/` and `/a/b` → `a/b/index.html`, `/a/b.html` → `a/b.html`. The index records the
   * file's path (`/a/b/index.html`), as `hipporag site` does. Another extension, or a URL with
   * an origin, is an error.
   */
  url?: string;
  /**
   * The page's path as if it were on disk: relative to the site's root, or absolute inside the
   * working directory (then relative to it). `*.html`, `*.htm` or `*.md`.
   */
  sourcePath?: string;
  /** The page: a full HTML document (or Markdown for a `.md` sourcePath); bytes are written as given. */
  content: string | Uint8Array;
}

/**
 * A record that is not an HTML page.
 * @example { url: "/talks/2024/", content: "…", language: "en", meta: { title: "Talk" }, filters: { year: ["2024"] } }
 */
export interface CustomRecord {
  /** Its URL path, mapped to a page path as {@link HTMLFile.url}. */
  url: string;
  /** Its text; blank lines separate paragraphs. */
  content: string;
  /** Its language (the page's `<html lang>`): `en`, `pt-BR`, … */
  language: string;
  /** Meta (`data-pagefind-meta`): key to one value. Supplying a `title` is recommended. */
  meta?: Record<string, string>;
  /** Filters (`data-pagefind-filter`): key to its values. */
  filters?: Record<string, string[]>;
  /** Sort keys (`data-pagefind-sort`): key to a value; number-like values sort as numbers (`"20"`, not `20`). */
  sort?: Record<string, string>;
}

/** A directory of pages on disk. */
export interface SiteDirectory {
  /** The directory; relative to the working directory. */
  path: string;
  /** Which of its files to add (relative paths): default `**\/*.{html,htm,md}`, every page `hipporag site` reads. */
  glob?: string;
}

export interface IndexingResponse {
  errors: string[];
  /** Pages added (0 on an error). */
  page_count: number;
}

export interface NewFileResponse {
  errors: string[];
  /** Absent when `errors` is not empty. */
  file?: NewFile;
}

/** A page added to an index. */
export interface NewFile {
  /** The URL the index records for it (`/about/index.html`). */
  url: string;
  /** Its path in the index's site (`about/index.html`). */
  sourcePath: string;
  /** A custom record's meta, as given. */
  meta?: Record<string, string>;
}

export interface WriteOptions {
  /** The bundle directory to write (replaced if it holds a previous bundle); default `_hipporag` in the working directory. */
  outputPath?: string;
}

export interface WriteFilesResponse {
  errors: string[];
  /** The absolute path written (absent on an error). */
  outputPath?: string;
}

export interface GetFilesResponse {
  errors: string[];
  /** Every file of the bundle, by path relative to it (`hipporag-entry.json`, `index/….bin`, …), sorted. */
  files: IndexFile[];
}

export interface IndexFile {
  path: string;
  content: Uint8Array;
}
