#!/usr/bin/env bash
# Fingerprints of every index this project builds from the data it has, so that a change meant to
# keep the bytes and the rankings (a refactor) can be checked: for each single file, the SHA-256
# of its bytes and of `hipporag eval --rankings`; for each site, the SHA-256 over every piece of
# `_hipporag/index/` and `bench/pieces_node.mjs`'s hash of every top 10 (every question, the
# page's own code in Node), and the entry's meta piece and single file (both named by their
# hashes). Prints one line each; compare two runs with `diff`. HIPPORAG names
# the binary (default target/release/hipporag).
#
#   bench/fingerprints.sh [OUT_DIR] [--no-rustdoc]      (default out/fingerprints)
#
# Needs `./build.sh build`, the model files, python3.11-doc (and rust-doc unless --no-rustdoc).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-$ROOT/out/fingerprints}
RUSTDOC=1
[ "${2:-}" = "--no-rustdoc" ] && RUSTDOC=0
DATA=${HIPPORAG_DATA:-$ROOT/../shared/data}
TOOLS=$DATA/../tools
BIN=${HIPPORAG:-$ROOT/target/release/hipporag}
mkdir -p "$OUT"

sha() { sha256sum "$1" | cut -c1-16; }

# A single file: its bytes and its rankings in every mode it has.
single() {
  local name=$1 questions=$2 index=$OUT/$1.hipporag
  shift 2
  "$BIN" index "$@" --out "$index" >/dev/null 2>&1
  "$BIN" eval "$index" --questions "$questions" --rankings "$OUT/$name.rankings.json" >/dev/null
  echo "file $name: bytes $(sha "$index"); rankings $(sha "$OUT/$name.rankings.json")"
}

# A site: every file `hipporag site` wrote, and the top 10s through its pieces.
site() {
  local name=$1 dir=$2 questions=$3
  shift 3
  "$BIN" site "$dir" "$@" >/dev/null 2>&1
  local files
  files=$(cd "$dir/_hipporag" && find index -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
  local tops
  tops=$(node bench/pieces_node.mjs "$dir" "$questions" --split all --repeats 1 | sed 's/.*top 10s \([0-9a-f]*\);.*/\1/')
  local names
  names=$(node -e 'const e = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(e.pieces, e.index ?? "-")' "$dir/_hipporag/hipporag-entry.json")
  echo "site $name: files $files; top 10s $tops; entry $names"
}

m=$DATA/musique_train
single musique_train "$m/musique_train.json" --corpus "$m/musique_train_corpus.json" \
  --openie "$m/openie_musique_train_results_ner_gpt-3.5-turbo-1106_1890.json" --fact-vectors
for l in ru zh; do
  single "xquad_$l" "$DATA/multilingual/xquad_$l.json" --lang "$l" --fact-vectors \
    --corpus "$DATA/multilingual/xquad_${l}_corpus.json"
done

docs=${PYTHON_DOCS:-/usr/share/doc/python3.11/html}
rm -rf "$OUT/pydocs" && cp -rL "$docs" "$OUT/pydocs"
site pydocs "$OUT/pydocs" "$DATA/pydocs/conala_pydocs.json" --full-index \
  --exclude 'genindex*.html' --exclude contents.html --exclude py-modindex.html

rm -rf "$OUT/musique"
python3 "$TOOLS/corpus_site.py" "$m/musique_train.json" "$m/musique_train_corpus.json" "$OUT/musique" >/dev/null
site musique "$OUT/musique/site" "$OUT/musique/questions.json" --exclude index.html

for l in ru zh; do
  rm -rf "$OUT/xquad_$l"
  python3 "$TOOLS/corpus_site.py" "$DATA/multilingual/xquad_$l.json" \
    "$DATA/multilingual/xquad_${l}_corpus.json" "$OUT/xquad_$l" "$l" >/dev/null
  site "xquad_$l" "$OUT/xquad_$l/site" "$OUT/xquad_$l/questions.json" --exclude index.html
done

if [ "$RUSTDOC" = 1 ]; then
  rd=${RUST_DOCS:-/usr/share/doc/rust-doc/html}
  # A copy kept between runs (32,101 pages), its build caches kept.
  [ -f "$OUT/rustdoc/.copied" ] || { rm -rf "$OUT/rustdoc"; cp -rL "$rd" "$OUT/rustdoc"; touch "$OUT/rustdoc/.copied"; }
  rm -rf "$OUT/rustdoc/_hipporag"
  site rustdoc "$OUT/rustdoc" bench/rustdoc_questions.json
fi
