"""One learned ranking in place of the hybrid rule stack (issue #70): trains LightGBM's LambdaMART
on the hybrid ranking's inputs that `hipporag eval --features F` writes (one JSON object per
question: each candidate passage's BM25 score, passage share b and graph share g, today's
hybrid score, the question's seeds and name factor), and reports each set's figure beside BM25's
and today's hybrid's, on the test halves, pooled and with each kind of corpus held out.

Usage: python bench/learn_ranking.py FEATURE_DIR
FEATURE_DIR holds NAME.SPLIT.jsonl (SPLIT dev, test, or all: halved by position, even = dev).
Needs numpy and lightgbm (pip install lightgbm numpy).

Every feature is one the page can compute from what `hybrid` already has (b, g, BM25, the seeds'
node specificity, the name factor, the question's counted terms, the index's language).
"""
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np

# Which kind of corpus each set is, for the leave-one-kind-out check.
KIND = {
    "pydocs": "docs",
    "musique": "multihop",
    "musique_file": "multihop",
    "rgb": "news",
}
# Languages read in units (characters, syllables) rather than words.
UNIT_LANGUAGES = {"chinese", "japanese", "thai", "korean", "lao", "khmer", "burmese"}
AGREEMENT_DEPTH = 50
FEATURES = [
    "b_rel", "b_inv_rank", "g_rel", "g_inv_rank", "g", "b", "bm25_rel",
    "agreement", "peak", "lead", "name_factor", "seeds", "specificity", "terms",
    "graph_total", "units",
]


def kind(name):
    return KIND.get(name, "languages")


def ranks(values, ids):
    """1-based rank of each positive value (ties by id), 0 for the others."""
    order = sorted((i for i in range(len(values)) if values[i] > 0), key=lambda i: (-values[i], ids[i]))
    r = [0] * len(values)
    for k, i in enumerate(order):
        r[i] = k + 1
    return r


def features(q):
    """(ids, pages, matrix of FEATURES, mix, bm25) of one question's candidates."""
    c = q.get("candidates") or []
    if not c:
        return None
    ids = [x["id"] for x in c]
    b = [x["b"] for x in c]
    g = [x["g"] for x in c]
    bm = [x["bm25"] for x in c]
    rb, rg = ranks(b, ids), ranks(g, ids)
    b1 = max(b) or 1.0
    g1 = max(g)
    bm1 = max(bm) or 1.0
    total = q.get("graph_total", 0.0)
    top_b = [i for i in range(len(c)) if 0 < rb[i] <= AGREEMENT_DEPTH]
    agreement = sum(g[i] for i in top_b) / total if total > 0 else 0.0
    peak = g1 / total if total > 0 else 0.0
    bs = sorted((v for v in b if v > 0), reverse=True)
    lead = 1.0 if len(bs) == 1 else (1 - bs[1] / bs[0] if len(bs) > 1 else 0.0)
    spec = q.get("seed_specificity") or []
    per_query = [
        agreement, peak, lead, q.get("name_factor", 1.0), len(spec),
        (sum(spec) / len(spec)) if spec else 0.0, q["terms"], total,
        1.0 if q["language"] in UNIT_LANGUAGES else 0.0,
    ]
    rows = []
    for i in range(len(c)):
        rows.append([
            b[i] / b1, 1 / rb[i] if rb[i] else 0.0, g[i] / g1 if g1 > 0 else 0.0,
            1 / rg[i] if rg[i] else 0.0, g[i], b[i], bm[i] / bm1,
        ] + per_query)
    return ids, [x["page"] for x in c], np.array(rows), [x["mix"] for x in c], bm


def load(directory):
    """{set: {split: [question]}} with each question's features and labels."""
    sets = defaultdict(lambda: defaultdict(list))
    for f in sorted(os.listdir(directory)):
        if not f.endswith(".jsonl"):
            continue
        name, split, _ = f.rsplit(".", 2)
        with open(os.path.join(directory, f)) as fh:
            lines = [json.loads(line) for line in fh]
        for pos, q in enumerate(lines):
            s = split if split != "all" else ("dev" if pos % 2 == 0 else "test")
            feats = features(q)
            gold = [set(g) for g in q["gold"]]
            entry = {"q": q, "gold": gold, "pages": name not in ("musique_file", "rgb")}
            if feats:
                ids, pages, x, mix, bm = feats
                entry.update(ids=ids, page=pages, x=x, mix=mix, bm25=bm,
                             y=np.array([1 if any(i in g for g in gold) else 0 for i in ids]))
            sets[name][s].append(entry)
    # A set with one split only (musique as a site: all `test`) is halved by position too.
    for splits in sets.values():
        if not splits["dev"]:
            whole = splits["test"]
            splits["dev"], splits["test"] = whole[0::2], whole[1::2]
    return sets


def ranking(entry, scores):
    """Passage ids best first (ties by id); the first of each page when ranking pages."""
    if "ids" not in entry:
        return []
    order = sorted(range(len(entry["ids"])), key=lambda i: (-scores[i], entry["ids"][i]))
    out, seen = [], set()
    for i in order:
        if entry["pages"]:
            if entry["page"][i] in seen:
                continue
            seen.add(entry["page"][i])
        out.append(entry["ids"][i])
    return out


def metrics(name, entries, scorer):
    """The set's figures: hit@1 and R@5 (and R@10 for the docs and the musique site)."""
    ks = {"hit@1": 1, "hit@5": 5, "hit@10": 10, "R@5": 5, "R@10": 10, "R@2": 2}
    sums = defaultdict(float)
    for e in entries:
        r = ranking(e, scorer(e)) if "ids" in e else []
        for label, k in ks.items():
            top = set(r[:k])
            found = [1 if g & top else 0 for g in e["gold"]]
            if label.startswith("hit") or name == "rgb":
                sums[label] += 1 if any(found) else 0
            else:
                sums[label] += sum(found) / len(found) if found else 0.0
    n = max(len(entries), 1)
    return {k: v / n for k, v in sums.items()}


SHOWN = {
    "pydocs": ["hit@10", "R@10"],
    "musique": ["R@5", "R@10"],
    "musique_file": ["R@2", "R@5"],
    "rgb": ["hit@1", "hit@5"],
}


ROUNDS = int(os.environ.get("ROUNDS", 200))
LEAVES = int(os.environ.get("LEAVES", 7))
# `kind`: each kind of corpus weighs the same in the objective, its sets sharing it; `set`:
# each set weighs the same.
WEIGHT = os.environ.get("WEIGHT", "kind")


def train(sets, names, rounds=None, leaves=None, seed=1):
    import lightgbm as lgb

    rounds, leaves = rounds or ROUNDS, leaves or LEAVES
    per_kind = defaultdict(int)
    for name in names:
        per_kind[kind(name)] += 1
    xs, ys, groups, weights = [], [], [], []
    for name in names:
        dev = [e for e in sets[name]["dev"] if "ids" in e and e["y"].any()]
        # Each set (or kind) weighs the same in the objective, whatever its size.
        w = 1.0 / max(len(dev), 1)
        if WEIGHT == "kind":
            w /= per_kind[kind(name)]
        for e in dev:
            xs.append(e["x"])
            ys.append(e["y"])
            groups.append(len(e["ids"]))
            weights.append(w)
    model = lgb.LGBMRanker(
        objective="lambdarank", n_estimators=rounds, num_leaves=leaves, learning_rate=0.05,
        min_child_samples=50, subsample=1.0, colsample_bytree=1.0, random_state=seed,
        deterministic=True, force_row_wise=True, verbose=-1, lambdarank_truncation_level=20,
    )
    group_w = np.repeat(np.array(weights), groups)
    model.fit(np.vstack(xs), np.concatenate(ys), group=groups, sample_weight=group_w)
    return model


def learned(model):
    return lambda e: model.predict(e["x"])


def main():
    import pickle

    cache = os.path.join(sys.argv[1], "features.pickle")
    if os.path.exists(cache) and all(
        os.path.getmtime(cache) >= os.path.getmtime(os.path.join(sys.argv[1], f))
        for f in os.listdir(sys.argv[1]) if f.endswith(".jsonl")
    ):
        with open(cache, "rb") as fh:
            sets = pickle.load(fh)
    else:
        sets = {k: dict(v) for k, v in load(sys.argv[1]).items()}
        with open(cache, "wb") as fh:
            pickle.dump(sets, fh)
    names = sorted(sets)
    pooled = train(sets, names)
    kinds = sorted({kind(n) for n in names})
    if os.environ.get("HELD", "1") == "1":
        held = {k: train(sets, [n for n in names if kind(n) != k]) for k in kinds}
    else:
        held = {k: pooled for k in kinds}
    print(f"{'set':14} {'metric':7} {'BM25':>7} {'today':>7} {'learned':>8} {'held out':>9}")
    for name in names:
        test = sets[name]["test"]
        figs = {
            "BM25": metrics(name, test, lambda e: e["bm25"]),
            "today": metrics(name, test, lambda e: e["mix"]),
            "learned": metrics(name, test, learned(pooled)),
            "held": metrics(name, test, learned(held[kind(name)])),
        }
        for m in SHOWN.get(name, ["hit@1", "R@5"]):
            print(f"{name:14} {m:7} {figs['BM25'][m]:7.3f} {figs['today'][m]:7.3f} "
                  f"{figs['learned'][m]:8.3f} {figs['held'][m]:9.3f}")
    imp = pooled.booster_.feature_importance("gain")
    print("gain:", ", ".join(f"{f} {v / imp.sum():.2f}" for f, v in sorted(zip(FEATURES, imp), key=lambda t: -t[1])))


if __name__ == "__main__":
    main()
