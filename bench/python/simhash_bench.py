"""SimHash index queries, seen against the PyPI `simhash` package's SimhashIndex, side by side
in one run on the same 10^6 random fingerprints at k = 3. Checks that both give the same
answers, measures memory, and writes bench/results/python_simhash.md and .png.

usage (from the repo root, after building build-py with -Dpython=enabled):
    bench/python/install-peers
    PYTHONPATH=build-py/bindings/python .venv/bin/python bench/python/simhash_bench.py [N]
"""
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List

import numpy

import rss
import seen

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
K = 3
QUERIES = 20_000  # seen: per round
PEER_QUERIES = 1_000  # the peer: per round (about 0.3 ms each)
REPEATS = 5
RESULTS = Path(__file__).resolve().parents[1] / "results"


def queries_near(rng: numpy.random.Generator, fps: numpy.ndarray, n: int) -> numpy.ndarray:
    """Half stored fingerprints with 0..4 random bits flipped, half random ones."""
    picked = fps[rng.choice(len(fps), n // 2)].copy()
    for row in range(len(picked)):
        for bit in rng.choice(64, row % 5, replace=False):
            picked[row] ^= numpy.uint64(1) << numpy.uint64(bit)
    out = numpy.concatenate([picked, rng.integers(0, 2**64, size=n - n // 2, dtype=numpy.uint64)])
    rng.shuffle(out)
    return out


def timed_rounds(runs: Dict[str, Callable[[], object]]) -> Dict[str, List[int]]:
    """Every operation once per round, REPEATS rounds, so the shared machine's load falls on
    all alike."""
    times: Dict[str, List[int]] = {name: [] for name in runs}
    for _ in range(REPEATS):
        for name, run in runs.items():
            start = time.perf_counter_ns()
            run()
            times[name].append(time.perf_counter_ns() - start)
    return times


def main() -> None:
    import simhash as peer  # the PyPI package; bench/python/install-peers installs it

    load = os.getloadavg()
    rng = numpy.random.default_rng(2026)
    fps = rng.integers(0, 2**64, size=N, dtype=numpy.uint64)
    ids = numpy.arange(N, dtype=numpy.uint64)
    queries = queries_near(rng, fps, QUERIES)
    query_list = queries.tolist()
    peer_list = query_list[:PEER_QUERIES]

    base = rss.rss()["RssAnon"]
    start = time.perf_counter()
    index = seen.SimHashIndex(k=K)
    index.add_many(ids, fps)
    index.build()
    seen_build = time.perf_counter() - start
    seen_rss = rss.rss()["RssAnon"] - base
    seen_bytes = index.memory_bytes
    print(f"seen: built {N:,} in {seen_build:.2f} s, {seen_bytes / N:.1f} B/fingerprint")

    base = rss.rss()["RssAnon"]
    start = time.perf_counter()
    other = peer.SimhashIndex([], k=K)
    for i, fp in enumerate(fps.tolist()):
        other.add(str(i), peer.Simhash(fp))
    peer_build = time.perf_counter() - start
    peer_rss = rss.rss()["RssAnon"] - base
    print(f"simhash (PyPI): built {N:,} in {peer_build:.1f} s, {peer_rss / 2**20:.0f} MiB")
    peer_objs = [peer.Simhash(q) for q in peer_list]

    # Same answers: every peer query against seen's.
    mismatches = 0
    for q, obj in zip(peer_list, peer_objs):
        mine = sorted(str(i) for i, _ in index.query(q))
        mismatches += mine != sorted(other.get_near_dups(obj))
    found = sum(1 for q in peer_list if index.any(q))
    print(f"answers compared on {len(peer_list)} queries: {mismatches} mismatches")

    query, any_ = index.query, index.any
    # The C call alone, without the method around it: the floor of a single query from Python.
    bare, handle = seen._native.lib.seen_simhash_index_query, index._h
    ids_out = seen._native.ffi.new("uint64_t[]", 64)
    distances_out = seen._native.ffi.new("uint32_t[]", 64)
    found_out = seen._native.ffi.new("size_t*")
    times = timed_rounds({
        "seen bare cffi call (`seen_simhash_index_query`)": lambda: [
            bare(handle, q, K, ids_out, distances_out, 64, found_out) for q in query_list],
        "seen `query(fp)` (one call per query)": lambda: [query(q) for q in query_list],
        "seen `any(fp)` (one call per query)": lambda: [any_(q) for q in query_list],
        "seen `query_many(fps)` (one call, numpy)": lambda: index.query_many(queries),
        "seen `any_many(fps)` (one call, numpy)": lambda: index.any_many(queries),
        "simhash (PyPI) `get_near_dups`": lambda: [other.get_near_dups(o) for o in peer_objs],
    })
    per_query = {name: statistics.median(t) / (PEER_QUERIES if name.startswith("simhash") else
                                               QUERIES) / 1000 for name, t in times.items()}
    for name, us in per_query.items():
        print(f"{name:<45} {us:10.3f} us/query")
    write(per_query, seen_build, peer_build, seen_rss, peer_rss, seen_bytes, mismatches,
          len(peer_list), found, load + os.getloadavg())


def cpu_model() -> str:
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def write(per_query: Dict[str, float], seen_build: float, peer_build: float, seen_rss: int,
          peer_rss: int, seen_bytes: int, mismatches: int, compared: int, found: int,
          load: tuple) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    RESULTS.mkdir(exist_ok=True)
    peer_us = per_query["simhash (PyPI) `get_near_dups`"]
    names = list(per_query)
    fig, ax = plt.subplots(figsize=(9, 3.2))
    ax.barh(range(len(names)), [per_query[n] for n in names],
            color=["tab:orange" if n.startswith("simhash") else "tab:blue" for n in names])
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("µs per query (median, log scale; lower is better)")
    ax.set_title(f"SimHash index queries at k = {K}, {N:,} fingerprints")
    for i, n in enumerate(names):
        ax.text(per_query[n], i, f" {per_query[n]:.3g}", va="center", fontsize=7)
    fig.tight_layout()
    fig.savefig(RESULTS / "python_simhash.png", dpi=110)

    mib = 2**20
    single = per_query["seen `query(fp)` (one call per query)"]
    floor = per_query["seen bare cffi call (`seen_simhash_index_query`)"]
    batch = per_query["seen `query_many(fps)` (one call, numpy)"]
    lines = [
        "# Python binding: SimHash index against the `simhash` PyPI package",
        "",
        f"Machine: {cpu_model()}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} "
        f"cores (shared with other builds), Python {platform.python_version()}. "
        f"Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "Run: `bench/python/simhash_bench.py` (peer installed by `bench/python/install-peers`), "
        "both libraries in one process. Load average (1, 5, 15 min) at the start: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; at the end: {load[3]:.2f} {load[4]:.2f} "
        f"{load[5]:.2f} (other jobs share the 2 cores, so every time is an upper bound).",
        "",
        f"Data: {N:,} random 64-bit fingerprints with ids 0..{N - 1}, k = {K}, in seen's "
        "`SimHashIndex(k=3)` and in `simhash.SimhashIndex(k=3)` (its 4 blocks of 16 bits, "
        "also exact). Queries: half stored fingerprints with 0 to 4 bits flipped, half random; "
        f"seen runs {QUERIES:,} per round, the peer the first {PEER_QUERIES:,}. Each figure is the "
        f"median of {REPEATS} rounds, the rounds interleaved.",
        "",
        "| operation | µs per query (median) | peer / this |",
        "|---|---:|---:|",
    ]
    for name, us in per_query.items():
        lines.append(f"| {name} | {us:.3f} | {peer_us / us:,.0f}x |")
    lines += [
        "",
        f"- **Per query, one Python call each: {peer_us / single:,.0f}x faster** than the peer "
        f"(target >= 100x: {'met' if peer_us / single >= 100 else '**missed**'}); with "
        f"`query_many`, {peer_us / batch:,.0f}x.",
        f"- Same answers: the id sets of seen and the peer agree on all {compared:,} compared "
        f"queries ({mismatches} mismatches; {found} of them have a match within k).",
        "",
        "| | seen | simhash (PyPI) | ratio |",
        "|---|---:|---:|---:|",
        f"| build {N:,} fingerprints | {seen_build:.2f} s | {peer_build:.1f} s | "
        f"{peer_build / seen_build:,.0f}x |",
        f"| memory (process RssAnon growth) | {seen_rss / mib:.1f} MiB | {peer_rss / mib:.0f} MiB | "
        f"{peer_rss / max(seen_rss, 1):,.0f}x |",
        f"| memory per fingerprint | {seen_rss / N:.1f} B ({seen_bytes / N:.1f} B of tables) | "
        f"{peer_rss / N:.0f} B | |",
        "",
        "seen's build includes `add_many` from numpy (one C call) and the table build; the peer's "
        "is a Python loop of `add(str(id), Simhash(fp))`, as its API takes one object at a time. "
        f"A single `query` costs {single / floor:.1f}x the bare cffi call into the same C "
        "function (argument conversion, releasing and retaking the GIL, the lookup); the rest is "
        "the method and the Python list of (id, distance) pairs it returns. The batch calls pay "
        "the crossing once. Compare rows of one run, not absolute figures across runs.",
        "",
        "![µs per query](python_simhash.png)",
        "",
    ]
    (RESULTS / "python_simhash.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
