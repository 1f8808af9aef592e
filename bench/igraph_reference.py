#!/usr/bin/env python3
"""Side-by-side reference: our PPR (Rust, wasm) against HippoRAG's exact igraph call.

For each case (an index, a question file, a mode) this script

1. runs `hipporag-bench export-graph` (our graph, the reset vector `Retriever::retrieve` used for
   every question, our PPR vector and top-5 passages; format in src/export.rs);
2. builds the same undirected weighted graph in igraph and runs HippoRAG's call
       g.personalized_pagerank(vertices=range(V), damping=0.5, directed=False,
                               weights="weight", reset=reset, implementation="prpack")
   for every reset vector, then ranks passages the same way (hipporag1: Pᵀ·ppr; hipporag2: the
   passage nodes' own probabilities; score descending, passage id ascending on ties);
3. checks max |ours − igraph| ≤ 1e-6 per question and the top-5 lists (a difference is only
   accepted where igraph's own scores tie within 1e-9), and on the dangling probes (extra reset
   mass on zero-degree nodes) also reports how far the other common convention — a dangling
   walker jumps uniformly — would be from igraph, so the probe really tells the two apart;
4. times igraph (PPR + ranking, per query) and runs tests/js/bench.mjs (our wasm in Node,
   linking + PPR + ranking per query) as a subprocess, twice: with the exact solver (Gauss–Seidel) at the
   export's tolerance (the like-for-like comparison; its top-5 must equal the export's, i.e.
   wasm = native) and with the library's default PPR method (`auto`: forward push in hipporag1
   mode), whose top-5 agreement with igraph is reported too; prints the table with the ratios.

Exit status 1 if any check fails.

    python bench/igraph_reference.py --hipporag-bench target/release/hipporag-bench \
        --case musique:hipporag1:out/musique_train.hipporag:../shared/data/musique_train/musique_train.json
"""

import argparse
import json
import os
import subprocess
import sys
import time

import igraph as ig
import numpy as np
import scipy.sparse as sp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOL = 1e-6
TIE = 1e-9


def load_export(path):
    z = np.load(path)
    meta = json.loads(bytes(z["meta"]).decode("utf-8"))
    if meta.get("format") != "hipporag-graph-export-v1":
        sys.exit(f"{path}: meta.format {meta.get('format')!r}, expected 'hipporag-graph-export-v1'")
    return meta, {k: z[k] for k in z.files if k != "meta"}


def igraph_graph(meta, a):
    edges = np.column_stack([a["edge_src"], a["edge_dst"]]).astype(np.int64)
    g = ig.Graph(n=meta["nodes"], edges=edges.tolist(), directed=False)
    g.es["weight"] = a["edge_weight"].tolist()
    return g


def ranker(meta, a):
    """Passage scores from a PPR vector, as HippoRAG ranks them."""
    if meta["ranking"] == "passage_nodes":
        off = meta["passage_offset"]
        return lambda ppr: ppr[off:]
    pt = sp.csr_matrix(
        (a["pt_data"], a["pt_indices"].astype(np.int64), a["pt_indptr"].astype(np.int64)),
        shape=(meta["passages"], meta["phrases"]),
    )
    n = meta["phrases"]
    return lambda ppr: pt @ ppr[:n]


def top_k(scores, k):
    ids = np.arange(len(scores))
    return np.lexsort((ids, -scores))[:k]


def reset_row(meta, a, r):
    lo, hi = a["reset_indptr"][r], a["reset_indptr"][r + 1]
    v = np.zeros(meta["nodes"])
    v[a["reset_indices"][lo:hi]] = a["reset_values"][lo:hi]
    return v


def uniform_dangling_ppr(meta, a, reset, damping):
    """PPR where a walker on a dangling node jumps uniformly (the other usual convention)."""
    n = meta["nodes"]
    src, dst, w = a["edge_src"], a["edge_dst"], a["edge_weight"]
    W = sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([src, dst]), np.concatenate([dst, src]))), shape=(n, n))
    d = np.asarray(W.sum(axis=1)).ravel()
    dangling = d == 0
    inv = np.where(dangling, 0.0, 1.0 / np.where(dangling, 1.0, d))
    r = reset / reset.sum()
    p = r.copy()
    for _ in range(10_000):
        nxt = damping * (W @ (p * inv)) + damping * p[dangling].sum() / n + (1 - damping) * r
        if np.abs(nxt - p).sum() < 1e-14:
            p = nxt
            break
        p = nxt
    return p


def run_igraph(meta, a, g, repeats):
    V, k = meta["nodes"], meta["top_k"]
    score = ranker(meta, a)
    rows = len(a["kind"])
    diffs, agree, explained, bad, times, probe_diffs, probe_alt = [], 0, 0, [], [], [], []
    tops = {}
    for r in range(rows):
        reset = reset_row(meta, a, r)
        ours = a["ppr"][r]
        for _ in range(repeats if a["kind"][r] == 0 else 1):
            t = time.perf_counter()
            ppr = np.asarray(
                g.personalized_pagerank(
                    vertices=range(V), damping=meta["damping"], directed=False,
                    weights="weight", reset=reset, implementation="prpack",
                )
            )
            s = score(ppr)
            top = top_k(s, k)
            dt = (time.perf_counter() - t) * 1e3
            if a["kind"][r] == 0:
                times.append(dt)
        diff = float(np.abs(ours - ppr).max())
        if a["kind"][r] == 1:
            probe_diffs.append(diff)
            alt = uniform_dangling_ppr(meta, a, reset, meta["damping"])
            probe_alt.append(float(np.abs(alt - ppr).max()))
            continue
        diffs.append(diff)
        tops[int(a["question"][r])] = (top, s)
        mine = a["top"][r]
        if np.array_equal(mine, top):
            agree += 1
        else:
            # Accept an order change only among passages whose igraph scores tie within TIE.
            gap = max(abs(s[x] - s[y]) for x, y in zip(mine, top) if x != y)
            if gap <= TIE:
                explained += 1
            else:
                bad.append((int(a["question"][r]), mine.tolist(), top.tolist(), float(gap)))
    return dict(
        diffs=diffs, agree=agree, tie=explained, bad=bad, times=times,
        probe_diffs=probe_diffs, probe_alt=probe_alt, tops=tops,
    )


def agreement(node_tops, tops):
    """(exact, tie-order, differing) counts of the Node top-5 lists against igraph's."""
    exact = tie = other = 0
    for qi, (top, s) in tops.items():
        mine = node_tops[qi]
        if mine is None:
            other += 1
        elif list(mine) == top.tolist():
            exact += 1
        elif len(mine) == len(top) and max(abs(s[x] - s[y]) for x, y in zip(mine, top)) <= TIE:
            tie += 1
        else:
            other += 1
    return exact, tie, other


def node_bench(index, questions, mode, meta, repeats):
    cmd = [
        "node", os.path.join(ROOT, "tests", "js", "bench.mjs"), "--json", "--modes", mode, "--ppr", "exact,auto",
        "--repeats", str(repeats), "--tolerance", repr(meta["tolerance"]),
        "--max-iterations", str(meta["max_iterations"]), index, questions,
    ]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def q(a, p):
    return float(np.quantile(np.asarray(a), p, method="lower")) if len(a) else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hipporag-bench", default=os.path.join(ROOT, "target", "release", "hipporag-bench"))
    ap.add_argument("--case", action="append", required=True,
                    help="LABEL:MODE:INDEX:QUESTIONS[:REPEATS] (mode hipporag1 or hipporag2; "
                         "REPEATS overrides --repeats and --node-repeats for this case)")
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "out", "reference"))
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per question (igraph)")
    ap.add_argument("--node-repeats", type=int, default=5, help="timed runs per question (wasm)")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    print(f"igraph {ig.__version__}, numpy {np.__version__}; HippoRAG's call: personalized_pagerank("
          "damping=0.5, directed=False, weights='weight', implementation='prpack')", flush=True)
    results, failed = [], False
    for case in args.case:
        parts = case.split(":")
        if len(parts) not in (4, 5):
            sys.exit(f"--case {case!r}: expected LABEL:MODE:INDEX:QUESTIONS[:REPEATS]")
        label, mode, index, questions = parts[:4]
        repeats = int(parts[4]) if len(parts) == 5 else args.repeats
        node_repeats = int(parts[4]) if len(parts) == 5 else args.node_repeats
        npz = os.path.join(args.out_dir, f"{label}.{mode}.npz")
        subprocess.run([args.hipporag_bench, "export-graph", index, "--questions", questions,
                        "--out", npz, "--mode", mode], check=True,
                       env={**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")})
        meta, a = load_export(npz)
        t = time.perf_counter()
        g = igraph_graph(meta, a)
        build_s = time.perf_counter() - t
        ref = run_igraph(meta, a, g, repeats)
        node = node_bench(index, questions, mode, meta, node_repeats)
        ours, auto = node["modes"][mode]["exact"], node["modes"][mode]["auto"]
        wasm_exact = agreement(ours["top"], ref["tops"])
        auto_agree = agreement(auto["top"], ref["tops"])
        # Same problem, same exact method: the wasm top-5 must be the exported (native) one.
        wasm_native_same = all(
            ours["top"][int(qi)] is not None and list(ours["top"][int(qi)]) == a["top"][r].tolist()
            for r, qi in enumerate(a["question"]) if a["kind"][r] == 0)
        row = dict(
            label=label, mode=mode, nodes=meta["nodes"], edges=meta["edges"],
            questions=len(ref["diffs"]), fallbacks=meta["fallbacks"],
            dangling=meta["dangling_nodes"], max_abs_diff=max(ref["diffs"]),
            top5_exact=ref["agree"], top5_ties=ref["tie"], top5_bad=ref["bad"],
            probes=len(ref["probe_diffs"]),
            probe_max_abs_diff=max(ref["probe_diffs"], default=float("nan")),
            probe_uniform_dangling_diff=min(ref["probe_alt"], default=float("nan")),
            igraph_median_ms=q(ref["times"], 0.5), igraph_p90_ms=q(ref["times"], 0.9),
            ours_native_median_ms=q(a["time_ms"][a["kind"] == 0], 0.5),
            ours_wasm_median_ms=ours["medianMs"], ours_wasm_p90_ms=ours["p90Ms"],
            ours_wasm_timed=ours["timed"], ours_iterations=ours["meanIterations"],
            wasm_top5_equals_native=wasm_native_same, wasm_exact_top5=wasm_exact,
            auto_median_ms=auto["medianMs"], auto_p90_ms=auto["p90Ms"], auto_top5=auto_agree,
            auto_iterations=auto["meanIterations"],
            igraph_build_s=build_s, load_ms=node["load"]["medianMs"], memory=node["memory"],
        )
        row["ratio"] = row["igraph_median_ms"] / row["ours_wasm_median_ms"]
        row["auto_ratio"] = row["igraph_median_ms"] / row["auto_median_ms"]
        ok = row["max_abs_diff"] <= TOL and not row["top5_bad"] and wasm_native_same and (
            row["probes"] == 0 or row["probe_max_abs_diff"] <= TOL)
        row["ok"] = ok
        failed |= not ok
        results.append(row)
        print(f"{label} {mode}: {meta['nodes']} nodes, {meta['edges']} edges, {row['questions']} questions "
              f"({row['fallbacks']} dense fallbacks), {row['dangling']} dangling nodes; "
              f"max |ours − igraph| {row['max_abs_diff']:.2e}; top-5 {row['top5_exact']} exact, "
              f"{row['top5_ties']} tie-order; wasm top-5 = native: {wasm_native_same}; igraph "
              f"{row['igraph_median_ms']:.2f} ms, wasm exact {row['ours_wasm_median_ms']:.3f} ms, "
              f"wasm default {row['auto_median_ms']:.3f} ms (top-5 vs igraph {auto_agree[0]} exact, "
              f"{auto_agree[1]} tie-order, {auto_agree[2]} differ){'' if ok else '  FAILED'}", flush=True)
        for qi, mine, theirs, gap in row["top5_bad"]:
            print(f"  question {qi}: ours {mine} igraph {theirs} (score gap {gap:.2e})")

    print()
    print("| graph | mode | nodes | edges | questions | max abs diff | top-5 agree | igraph median (p90) ms "
          "| ours exact: wasm/Node median (p90) ms | ratio | ours default PPR: median (p90) ms | ratio "
          "| default top-5 = igraph | dangling probes: ours / uniform-jump vs igraph |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        probes = (f"{r['probe_max_abs_diff']:.1e} / {r['probe_uniform_dangling_diff']:.1e} ({r['probes']})"
                  if r["probes"] else "no dangling node")
        ties = f" (+{r['top5_ties']} tie order)" if r["top5_ties"] else ""
        ae, at, _ = r["auto_top5"]
        print(f"| {r['label']} | {r['mode']} | {r['nodes']:,} | {r['edges']:,} | {r['questions']} "
              f"| {r['max_abs_diff']:.1e} | {r['top5_exact']}/{r['questions']}{ties} "
              f"| {r['igraph_median_ms']:.2f} ({r['igraph_p90_ms']:.2f}) "
              f"| {r['ours_wasm_median_ms']:.2f} ({r['ours_wasm_p90_ms']:.2f}) | {r['ratio']:.1f}× "
              f"| {r['auto_median_ms']:.2f} ({r['auto_p90_ms']:.2f}) | {r['auto_ratio']:.1f}× "
              f"| {ae}/{r['questions']}{f' (+{at} tie order)' if at else ''} | {probes} |")
    print()
    print("| graph | wasm in Node: Retriever.fromBytes median ms | wasm memory after first load / after queries (peak) |")
    print("|---|---|---|")
    seen = set()
    for r in results:
        if r["label"] in seen:
            continue
        seen.add(r["label"])
        m = r["memory"]
        print(f"| {r['label']} | {r['load_ms']:.1f} | {m['afterFirstLoadBytes'] / 2**20:.1f} MiB / "
              f"{m['afterQueriesBytes'] / 2**20:.1f} MiB |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    if failed:
        print("FAILED: a PPR vector differs from igraph by more than 1e-6, a top-5 differs beyond ties, "
              "or the wasm top-5 differs from the native export")
        sys.exit(1)


if __name__ == "__main__":
    main()
