"""The Python peer benchmark: seen against rbloom, pybloomfiltermmap3 and pybloom-live in one
run, on a filter of 10^7 random u64 ids at 1% (and 10^6 and 10^8 for seen and rbloom): batches,
single `x in f` and single `f.add(x)`. Writes bench/results/python.md and .png.

usage (from the repo root, after building build-py with -Dpython=enabled):
    bench/python/install-peers
    PYTHONPATH=build-py/bindings/python .venv/bin/python bench/python/bench.py
"""
import glob
import statistics
import time
from typing import Callable, Dict, List, Tuple

import numpy

import peers
import report
import rss
import seen

ITEMS = 10_000_000
# The single-key lookups again at a filter of 1.2 MiB (inside the L2) and one of 119 MiB.
OTHER_SIZES = [(1_000_000, "10^6"), (100_000_000, "10^8")]
FPR = 0.01
BATCH_QUERIES = 1_000_000
SINGLE_QUERIES = 200_000
REPEATS = 7

Row = Tuple[str, str, float]  # library, operation, median ns per key


def median_ns_per_key(timed: Dict[Tuple[str, str], Tuple[Callable[[], object], int]]
                      ) -> List[Row]:
    """Runs every timed operation once per round, REPEATS rounds, so that the load of this
    shared machine falls on all libraries alike; the median time of each, per key. The time is
    this thread's CPU time, which leaves out the waits for a core that other jobs cause."""
    times: Dict[Tuple[str, str], List[int]] = {name: [] for name in timed}
    for _ in range(REPEATS):
        for name, (run, _) in timed.items():
            start = time.thread_time_ns()
            run()
            times[name].append(time.thread_time_ns() - start)
    return [(lib, op, statistics.median(times[(lib, op)]) / keys)
            for (lib, op), (_, keys) in timed.items()]


def loop_in(f: object, keys: List[object]) -> Callable[[], None]:
    """One `key in f` per key, in the plain loop a user writes."""
    def run() -> None:
        for key in keys:
            key in f
    return run


def loop_add(f: object, keys: List[object]) -> Callable[[], None]:
    """One `f.add(key)` per key, the method looked up each time, as a user's loop does. From
    the second round on the keys are present: an add costs the same either way."""
    def run() -> None:
        for key in keys:
            f.add(key)  # type: ignore[attr-defined]
    return run


def main() -> None:
    rng = numpy.random.default_rng(2026)
    ids = rng.integers(0, 2**64, size=ITEMS, dtype=numpy.uint64)
    absent = rng.integers(0, 2**64, size=BATCH_QUERIES, dtype=numpy.uint64)
    queries = numpy.concatenate([rng.choice(ids, BATCH_QUERIES // 2), absent[:BATCH_QUERIES // 2]])
    rng.shuffle(queries)
    singles = queries[:SINGLE_QUERIES].tolist()
    # Adds take ids of their own, so that the queries' absent half stays absent.
    fresh = rng.integers(0, 2**64, size=SINGLE_QUERIES, dtype=numpy.uint64).tolist()
    words = [f"user{i}@example.com" for i in range(SINGLE_QUERIES)]

    timed: Dict[Tuple[str, str], Tuple[Callable[[], object], int]] = {}
    notes: List[str] = []
    filters = []  # every filter stays alive until all are timed
    for peer in peers.available().values():
        f = peer.make(ITEMS, FPR)
        filters.append(f)
        filled = peer.fill_limit or ITEMS
        start = time.perf_counter()
        peer.fill(f, ids[:filled])
        print(f"{peer.name}: filled {filled:,} keys in {time.perf_counter() - start:.1f} s")
        fp = sum(int(x) in f for x in absent[:100_000]) / 100_000
        notes.append(f"{peer.name}: {filled:,} keys added, measured fpr {fp:.4f}")
        timed[(peer.name, "single `x in f` (int)")] = (loop_in(f, singles), SINGLE_QUERIES)
        timed[(peer.name, "single `x in f` (str)")] = (loop_in(f, words), SINGLE_QUERIES)
        timed[(peer.name, "single `f.add(x)` (int)")] = (loop_add(f, fresh), SINGLE_QUERIES)
        if isinstance(f, seen.BloomFilter):
            bare, handle, size = seen.bloom._test_u64, f._h, f.size_bytes
            timed[(peer.name, "contains_many (numpy u64)")] = (
                lambda f=f: f.contains_many(queries), BATCH_QUERIES)
            timed[(peer.name, "contains_many (list of str)")] = (
                lambda f=f: f.contains_many(words), SINGLE_QUERIES)
            # The cffi call alone, without the method around it: the single-key floor here.
            timed[(peer.name, "bare cffi call (int)")] = (
                lambda: [bare(handle, x) for x in singles], SINGLE_QUERIES)

    # The floor: random 8-byte reads from memory as large as the filter, in bulk (numpy take).
    memory = numpy.ones(size // 8, dtype=numpy.uint64)
    where = rng.integers(0, len(memory), size=BATCH_QUERIES)
    timed[("numpy", "random read floor (take)")] = (lambda: memory.take(where), BATCH_QUERIES)

    rows = median_ns_per_key(timed)
    del filters, timed
    rows += other_sizes(rng)
    rows += installed_paths(rng)
    for lib, op, ns in rows:
        print(f"{lib:>20}  {op:<30} {ns:8.1f} ns/key")
    mapped = rss.measure_in_subprocess()
    report.write(rows, notes, mapped, ITEMS, FPR, size)


def other_sizes(rng: numpy.random.Generator) -> List[Row]:
    """The single-key lookups of seen and rbloom, and seen's batch, again on filters of
    OTHER_SIZES keys, with queries drawn as in the main run (half present, in random order)."""
    available = peers.available()
    rows: List[Row] = []
    for size, label in OTHER_SIZES:
        ids = rng.integers(0, 2**64, size=size, dtype=numpy.uint64)
        queries = numpy.concatenate([rng.choice(ids, BATCH_QUERIES // 2),
                                     rng.integers(0, 2**64, size=BATCH_QUERIES // 2, dtype=numpy.uint64)])
        rng.shuffle(queries)
        singles = queries[:SINGLE_QUERIES].tolist()
        fresh = rng.integers(0, 2**64, size=SINGLE_QUERIES, dtype=numpy.uint64).tolist()
        timed: Dict[Tuple[str, str], Tuple[Callable[[], object], int]] = {}
        filters = []
        for name in ("seen", "rbloom"):
            if name not in available:
                continue
            f = available[name].make(size, FPR)
            filters.append(f)
            available[name].fill(f, ids)
            timed[(f"{name} @ {label}", "single `x in f` (int)")] = (loop_in(f, singles), SINGLE_QUERIES)
            timed[(f"{name} @ {label}", "single `f.add(x)` (int)")] = (loop_add(f, fresh), SINGLE_QUERIES)
            if isinstance(f, seen.BloomFilter):
                timed[(f"{name} @ {label}", "contains_many (numpy u64)")] = (
                    lambda f=f: f.contains_many(queries), BATCH_QUERIES)
        rows += median_ns_per_key(timed)
        del filters, timed
    return rows


def installed_paths(rng: numpy.random.Generator) -> List[Row]:
    """Single str lookups of seen and rbloom on keys nobody wrote for this benchmark: the file
    paths Debian's package lists name (/var/lib/dpkg/info/*.list, as bench/go does), half of
    them added, all of them asked in random order."""
    paths = sorted({line for name in glob.glob("/var/lib/dpkg/info/*.list")
                    for line in open(name, encoding="utf-8", errors="replace").read().splitlines() if line})
    if len(paths) < 1000:
        return []
    order = rng.permutation(len(paths))
    queries = [paths[i] for i in order]
    added = queries[: len(queries) // 2]
    rng.shuffle(order)
    queries = [paths[i] for i in order]
    available = peers.available()
    timed: Dict[Tuple[str, str], Tuple[Callable[[], object], int]] = {}
    filters = []
    for name in ("seen", "rbloom"):
        if name not in available:
            continue
        f = available[name].make(len(added), FPR)
        filters.append(f)
        f.update(added)
        timed[(name, f"single `x in f` (str, {len(paths):,} Debian file paths)")] = (loop_in(f, queries), len(queries))
    return median_ns_per_key(timed)


if __name__ == "__main__":
    main()
