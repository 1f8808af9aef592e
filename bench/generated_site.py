#!/usr/bin/env python3
"""A static site with one page of generated text, as a data dump or a log rendered to HTML gives
(issue #69: "a page of generated text can stall the build").

    python3 bench/generated_site.py OUT_DIR [WORDS] [DISTINCT]

Writes OUT_DIR/index.html (a short page of prose that links to the log) and OUT_DIR/log.html:
WORDS words (default 3,000,000; words as `\w+` splits them) in lines of a request log, about
DISTINCT of them distinct (default 1,000,000, which gives 941,182: request, user and trace ids,
item paths, hex digests), under `h2` headings every 2,000 lines, as a log viewer renders it.
Seeded: the same arguments give the same bytes.
`bench/build_time.sh OUT generated` builds it with both engines.
"""

import html
import os
import random
import re
import sys


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    words = int(sys.argv[2]) if len(sys.argv) > 2 else 3_000_000
    distinct = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    rng = random.Random(69)
    # Ten id fields a line, each drawn from its own pool (the first three labelled): 3 million
    # words make about 125,000 lines and 1.4 million ids; pools of DISTINCT / 6 each give about
    # DISTINCT distinct tokens, half of them seen more than once.
    fields = ["user", "request", "trace", "session", "digest", "parent", "span", "host", "shard", "key"]
    pool = max(distinct // 6, 1)
    pools = {name: [f"{name[0]}{rng.randrange(16**10):010x}" for _ in range(pool)] for name in fields}
    items = [f"item{n}" for n in rng.sample(range(10 * pool), pool)]
    verbs = ["GET", "POST", "PUT", "DELETE"]
    statuses = ["200", "201", "204", "301", "404", "500"]
    services = ["api", "auth", "billing", "search", "storage", "queue"]
    seen = set()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "log.html"), "w", encoding="utf-8") as f:
        f.write('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Request log</title></head>\n')
        f.write("<body><main><h1>Request log</h1>\n")
        written, line = 0, 0
        while written < words:
            if line % 2000 == 0:
                f.write("</pre>\n" if line else "")
                f.write(f"<h2>Lines {line + 1} to {line + 2000}</h2>\n<pre>")
            h, m, s = (line // 3600) % 24, (line // 60) % 60, line % 60
            ids = [rng.choice(pools[name]) for name in fields]
            item = rng.choice(items)
            text = (
                f"2026-12-07T{h:02}:{m:02}:{s:02}Z {rng.choice(services)} {rng.choice(verbs)} /v1/items/{item} "
                f"status {rng.choice(statuses)} " + " ".join(f"{n} {v}" if k < 3 else v for k, (n, v) in enumerate(zip(fields, ids)))
            )
            f.write(html.escape(text) + "\n")
            tokens = re.findall(r"\w+", text.lower())
            seen.update(tokens)
            written += len(tokens)
            line += 1
        f.write("</pre>\n</main></body></html>\n")
    print(f"{out}/log.html: {written:,} words, {len(seen):,} distinct, {line:,} lines", file=sys.stderr)
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Service status</title></head>\n'
            "<body><main><h1>Service status</h1>\n"
            "<p>Every service answered within its budget today. The full request log is on "
            '<a href="log.html">its own page</a>.</p>\n</main></body></html>\n'
        )


if __name__ == "__main__":
    main()
