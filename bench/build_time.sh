#!/usr/bin/env bash
# Clean builds side by side, in one run: Pagefind (npm `pagefind`, pinned in package-lock.json)
# and `hipporag site` on a copy of a real site, each under /usr/bin/time -v (wall time and peak
# resident memory), REPEATS times (default 2), alternating. A hipporag build starts with no
# `_hipporag/` and no `.hipporag-cache/`. Prints one line per build, the ratios of the medians
# (2 runs: their mean), and the hash of the index files, which must not change between runs.
#
#   bench/build_time.sh [OUT_DIR] [pydocs|rustdoc|generated]     (default out/build_time, pydocs)
#
# HIPPORAG names the binary (default target/release/hipporag). Needs `./build.sh build` (or
# `./build.sh package`'s binary), `npm ci`, the model files, and Debian's python3.11-doc
# (pydocs: 488 pages, genindex/contents/py-modindex left out as `./build.sh pydocs` does) or
# rust-doc (rustdoc: 32,101 pages); generated: bench/generated_site.py's two pages, one of them
# 3 million words of a request log (issue #69). TIMEOUT (seconds, default none) stops a build
# that runs longer and records it as that long.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-$ROOT/out/build_time}
SITE=${2:-pydocs}
REPEATS=${REPEATS:-2}
BIN=${HIPPORAG:-$ROOT/target/release/hipporag}
PAGEFIND=$ROOT/node_modules/.bin/pagefind
case "$SITE" in
  pydocs)
    docs=${PYTHON_DOCS:-/usr/share/doc/python3.11/html}
    args=(--exclude 'genindex*.html' --exclude contents.html --exclude py-modindex.html)
    ;;
  rustdoc)
    docs=${RUST_DOCS:-/usr/share/doc/rust-doc/html}
    args=()
    ;;
  generated)
    docs=$OUT/generated
    args=()
    [ -f "$docs/log.html" ] || python3 bench/generated_site.py "$docs"
    ;;
  *) echo "error: site $SITE: expected pydocs, rustdoc or generated" >&2; exit 1 ;;
esac
[ -d "$docs" ] || { echo "error: $docs is missing (Debian: python3.11-doc or rust-doc)" >&2; exit 1; }
[ -x "$PAGEFIND" ] || { echo "error: $PAGEFIND is missing: npm ci" >&2; exit 1; }
mkdir -p "$OUT"
rm -rf "$OUT/site" && cp -rL "$docs" "$OUT/site"

# "wall seconds peak_kb" of a /usr/bin/time -v report.
measure() {
  awk '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
       /Maximum resident set size/ { kb = $NF }
       END { printf "%.2f %d\n", s, kb }' "$1"
}

: > "$OUT/runs.txt"
for r in $(seq "$REPEATS"); do
  rm -rf "$OUT/site/pagefind"
  /usr/bin/time -v "$PAGEFIND" --site "$OUT/site" > "$OUT/pagefind.$r.log" 2> "$OUT/pagefind.$r.time"
  read -r s kb < <(measure "$OUT/pagefind.$r.time")
  echo "pagefind $s $kb" >> "$OUT/runs.txt"
  echo "run $r: Pagefind $s s, $((kb / 1024)) MB peak"
  rm -rf "$OUT/site/_hipporag" "$OUT/site/.hipporag-cache"
  limit=()
  [ -z "${TIMEOUT:-}" ] || limit=(timeout "$TIMEOUT")
  /usr/bin/time -v "${limit[@]}" "$BIN" site "$OUT/site" "${args[@]}" > "$OUT/hipporag.$r.log" 2> "$OUT/hipporag.$r.time" ||
    echo "run $r: hipporag stopped (TIMEOUT=${TIMEOUT:-}) or failed: $OUT/hipporag.$r.time"
  read -r s kb < <(measure "$OUT/hipporag.$r.time")
  files=none
  [ ! -d "$OUT/site/_hipporag/index" ] ||
    files=$(cd "$OUT/site/_hipporag" && find index -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
  echo "hipporag $s $kb" >> "$OUT/runs.txt"
  echo "run $r: hipporag $s s, $((kb / 1024)) MB peak; index files $files"
done
# Each build's stages, as the last run printed them.
tr '\r' '\n' < "$OUT/hipporag.$REPEATS.time" | grep -E ' in [0-9.]+ s' | awk '!seen[$0]++'
python3 - "$OUT/runs.txt" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    engine, s, kb = line.split()
    runs.setdefault(engine, []).append((float(s), int(kb)))
med = {e: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for e, v in runs.items()}
h, p = med["hipporag"], med["pagefind"]
print(f"hipporag / Pagefind: time {h[0]:.1f} s / {p[0]:.1f} s = {h[0] / p[0]:.1f}x; "
      f"peak {h[1] / 1024:.0f} MB / {p[1] / 1024:.0f} MB = {h[1] / p[1]:.2f}x")
PY
