#!/usr/bin/env bash
# Site search in every language of ../shared/data/multilingual/ beside BM25 on the same passages
# (issue #50: a site's search should never rank under BM25 in any language it is written in).
# For each set (xquad_de, xquad_ar, xquad_th, xquad_ru, xquad_zh, jsquad, and musique as the
# English reference; xquad_vi too when named in SETS, with XQUAD_DIR a checkout of
# google-deepmind/xquad): `node bench/docs.mjs --site SET --split all` (the site's default search and
# Pagefind in headless Chromium, page-level hit@1 and recall@5 over every question it asks), and
# BM25 on the set's passages: `hipporag index --corpus CORPUS` + `hipporag eval --questions
# QUESTIONS`, bm25 mode, passage-level R@5 (one gold passage per question but musique's 2–4;
# jsquad keeps every 4th question, as its site does). Prints a markdown table and writes it
# beside OUT_DIR/languages.json; each set's docs.mjs JSON, index and eval JSON stay in OUT_DIR.
# HIPPORAG names the binary (default target/release/hipporag); SETS a subset ("xquad_de jsquad").
#
#   bench/languages.sh [OUT_DIR]      (default out/bench/languages)
#
# Needs the binary, the model files (./build.sh model), chromium and the npm packages.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath -e "${HIPPORAG:-$ROOT/target/release/hipporag}")
OUT=$(realpath -m "${1:-$ROOT/out/bench/languages}")
cd "$ROOT"
DATA=$(realpath -m "${HIPPORAG_DATA:-$ROOT/../shared/data}")
SETS=${SETS:-xquad_de xquad_ar xquad_th xquad_ru xquad_zh jsquad musique}
mkdir -p "$OUT"
rm -f "$OUT/.times"

# Each set: its language, question file and corpus, and which of its questions are asked (every Nth).
set_of() {
  local m=$DATA/multilingual
  case $1 in
    # Not in ../shared/data: docs.mjs converts $XQUAD_DIR/xquad.vi.json (google-deepmind/xquad) there.
    xquad_vi) echo "vi $ROOT/out/bench/xquad_vi-set/xquad_vi.json $ROOT/out/bench/xquad_vi-set/xquad_vi_corpus.json 1" ;;
    xquad_*) echo "${1#xquad_} $m/$1.json $m/$1_corpus.json 1" ;;
    jsquad) echo "ja $m/jsquad_valid.json $m/jsquad_valid_corpus.json 4" ;;
    musique) echo "en $DATA/musique_train/musique_train.json $DATA/musique_train/musique_train_corpus.json 1" ;;
    *) echo "unknown set $1" >&2; exit 1 ;;
  esac
}

for s in $SETS; do
  read -r lang questions corpus every <<<"$(set_of "$s")"
  [ -n "$lang" ] || exit 1
  echo "== $s ($lang)" >&2
  start=$(date +%s.%N)
  HIPPORAG=$BIN node bench/docs.mjs --site "$s" --split all --out "$OUT/$s.json" >"$OUT/$s.txt"
  mid=$(date +%s.%N)
  if [ "$every" != 1 ]; then
    python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))[::int(sys.argv[3])], open(sys.argv[2], "w"), ensure_ascii=False)' \
      "$questions" "$OUT/$s.questions.json" "$every"
    questions=$OUT/$s.questions.json
  fi
  "$BIN" index --corpus "$corpus" --out "$OUT/$s.hipporag" >"$OUT/$s.index.log" 2>&1
  "$BIN" eval "$OUT/$s.hipporag" --questions "$questions" --json >"$OUT/$s.eval.json" 2>"$OUT/$s.eval.log"
  end=$(date +%s.%N)
  echo "$s $lang $questions $mid $start $end" >>"$OUT/.times"
done

python3 - "$OUT" $SETS <<'EOF'
import json, sys
out, sets = sys.argv[1], sys.argv[2:]
times = {}
for line in open(f"{out}/.times"):
    s, lang, questions, mid, start, end = line.split()
    times[s] = (lang, questions, float(mid) - float(start), float(end) - float(mid))
rows = []
for s in sets:
    lang, questions, site_s, bm25_s = times[s]
    docs = json.load(open(f"{out}/{s}.json"))
    # Every question's scores: `all` when both splits ran, else the one split there is.
    split = lambda e: e.get("all") or e.get("test") or e.get("dev")
    h, p = (split(next(e for e in docs["engines"] if e["engine"] == n)) for n in ("hipporag", "pagefind"))
    bm25 = next(m for m in json.load(open(f"{out}/{s}.eval.json")) if m["mode"] == "bm25")
    rows.append({
        "set": s, "lang": lang, "questions": h["queries"], "questions_file": questions,
        "site_hit@1": h["hit@1"], "site_R@5": h["recall@5"],
        "pagefind_hit@1": p["hit@1"], "pagefind_R@5": p["recall@5"],
        "bm25_R@5": round(bm25["recall"][bm25["ks"].index(5)], 3),
        "site_seconds": round(site_s), "bm25_seconds": round(bm25_s, 1),
        "site_build_seconds": docs["engines"][0]["buildSeconds"], "pagefind": docs["pagefind"],
    })
head = "| set | lang | questions | site hit@1 | site R@5 | Pagefind hit@1 | Pagefind R@5 | BM25 R@5 (passages) | site − BM25 R@5 | time (site run + BM25) |"
lines = [head, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for r in rows:
    lines.append(
        f"| {r['set']} | {r['lang']} | {r['questions']} | {r['site_hit@1']:.3f} | {r['site_R@5']:.3f} | {r['pagefind_hit@1']:.3f} | "
        f"{r['pagefind_R@5']:.3f} | {r['bm25_R@5']:.3f} | {r['site_R@5'] - r['bm25_R@5']:+.3f} | {r['site_seconds']} s + {r['bm25_seconds']} s |"
    )
table = "\n".join(lines) + "\n"
open(f"{out}/languages.md", "w").write(table)
json.dump(rows, open(f"{out}/languages.json", "w"), indent=2)
print(table + f"\nwrote {out}/languages.md and {out}/languages.json")
EOF
rm -f "$OUT/.times"
