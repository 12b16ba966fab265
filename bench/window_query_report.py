#!/usr/bin/env python3
"""Writes bench/results/window_query.md from bench_window_query's rounds (window_query.jsonl)
beside those of the same benchmark built at an earlier commit (window_query_before.jsonl, the
commit named by the second argument): each case's median ns per fresh candidate."""
import datetime
import json
import statistics
import sys
from pathlib import Path

from page import machine, verdict


def load(path):
    """Each case's first record, with the median ns over every round."""
    cases = {}
    for r in map(json.loads, path.read_text().splitlines()):
        cases.setdefault(r["case"], []).append(r)
    return {case: {**rounds[0], "ns_per_candidate": statistics.median(r["ns_per_candidate"] for r in rounds),
                   "rounds": len(rounds)}
            for case, rounds in cases.items()}


out, before_commit = Path(sys.argv[1]), sys.argv[2]
now, before = load(out / "window_query.jsonl"), load(out / "window_query_before.jsonl")
lines = [
    "# Window batch queries",
    "",
    f"Measured {datetime.date.today()} on {machine()}, by `bench/window_query_run` (`bench/bench_window_query.cc`): "
    "the median over 2,001 batches of 1,000 fresh candidates (never added: every segment and level must reject "
    "them; each batch new, so the branch predictor cannot learn them), hashes computed beforehand; each figure "
    f"the median of {min(r['rounds'] for r in now.values())} rounds. \"Before\" is the same benchmark source built "
    f"at commit {before_commit} and run alternately with this one (`window_query_before.jsonl`). Time windows "
    "take their items evenly over 30 days (5 segments).",
    "",
    "| window | bytes before | bytes now | ns/candidate before | now | speed-up | fresh answered seen, before / now |",
    "|---|---:|---:|---:|---:|---:|---:|",
]
for case, r in now.items():
    b = before.get(case)
    lines.append(f"| {case} | {b['bytes']:,} | {r['bytes']:,} | {b['ns_per_candidate']:.2f} | {r['ns_per_candidate']:.2f} | "
                 f"{b['ns_per_candidate'] / r['ns_per_candidate']:.1f}x | "
                 f"{100 * b['false_positive_share']:.2f}% / {100 * r['false_positive_share']:.2f}% |")
lines.append("")
for case, r in now.items():
    if case.startswith("sliced"):
        ns = r["ns_per_candidate"]
        lines.append(f"- Issue 15's figure, sliced batch query ≤ 5 ns per candidate, {case}: {ns:.2f} ns, {verdict(ns <= 5)}.")
lines += [
    "- Count windows (ring, sliced): each array takes a chunk of 1,024 candidates probe by probe, one per 32-bit "
    "lane; once at most a third are left the survivors are packed together and only they go on, so a fresh "
    "candidate costs about as many gathered cells as probes it takes to reject (a handful, of k up to 15), with "
    "no branch per candidate.",
    "- Time windows: where \"before\" is a commit before tables (layout 4), its time rows are growing windows "
    "(layout 3), which must reject a fresh candidate in every growth level; a table reads one cache line per "
    "candidate, whatever its size.",
]
(out / "window_query.md").write_text("\n".join(lines) + "\n")
print(f"wrote {out / 'window_query.md'}")
