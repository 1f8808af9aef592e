"""A question set with the Latin letters' accents typed away, as on a keyboard without them:
NFD, then each combining mark after a Latin letter dropped, then NFC. Every field named
`question` or `q` is folded; the rest is kept. It measures what `text::fold_latin_accents`
gives a reader who types without accents (docs/benchmarks.md, "Latin accents folded in
BM25's terms"): `hipporag eval INDEX --questions FOLDED`.

    python3 bench/fold_questions.py IN.json OUT.json
"""
import json, sys, unicodedata

def latin(c):
    return c.isascii() and c.isalpha() or 0xC0 <= ord(c) <= 0x24F or 0x1E00 <= ord(c) <= 0x1EFF

def fold(s):
    out, base = [], False
    for c in unicodedata.normalize("NFD", s):
        if unicodedata.combining(c):
            if not base:
                out.append(c)
            continue
        base = latin(c)
        out.append(c)
    return unicodedata.normalize("NFC", "".join(out))

qs = json.load(open(sys.argv[1]))
n = 0
for q in qs:
    for k in ("question", "q"):
        if k in q and isinstance(q[k], str):
            f = fold(q[k])
            n += f != q[k]
            q[k] = f
json.dump(qs, open(sys.argv[2], "w"), ensure_ascii=False)
print(f"{n} of {len(qs)} questions changed", file=sys.stderr)
