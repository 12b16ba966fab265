#!/usr/bin/env python3
"""Writes bench/results/split_block.md and .png from bench_split_block's split_block.jsonl:
seen's single-key finds (exported and inline) and batches (u64 ids and 16-byte keys) against
the split-block reference loop (hash inline, or given) and the read and read-modify-write
floors, beside the targets of issue 29.

usage: bench/split_block_report.py bench/results"""
import datetime
import json
import sys
from pathlib import Path

from page import machine, verdict

STEPS = [
    ("floor_read", "read floor: one random 64-byte read per key, no hash"),
    ("floor_rmw", "read-modify-write floor: one random 64-byte read and write per key, no hash"),
    ("seen_find_batched", "seen find, batched (seen_bloom_contains_u64)"),
    ("seen_insert_batched", "seen insert, batched (seen_bloom_add_u64)"),
    ("seen_find_batched_16_byte", "seen find, batched, 16-byte keys (seen_bloom_contains_keys)"),
    ("seen_insert_batched_16_byte", "seen insert, batched, 16-byte keys (seen_bloom_add_keys)"),
    ("seen_find_single_exported", "seen find, single key, exported (seen_bloom_contains_one_u64)"),
    ("seen_find_single_inline", "seen find, single key, inline (seen_inline.h)"),
    ("seen_insert_single_exported", "seen insert, single key, exported (seen_bloom_add_one_u64)"),
    ("split_block_find", "split-block reference find, single key"),
    ("split_block_find_prehashed", "split-block reference find, single key, hashes computed beforehand"),
    ("split_block_insert", "split-block reference insert, single key"),
]
# Issue 29's targets: (what, step, the step it is divided by, limit, the sizes it is stated for:
# "small" is in cache, 10^6 keys; "big" is beyond it, 10^8).
TARGETS = [
    ("seen find, single key, inline / reference find", "seen_find_single_inline", "split_block_find", 1.3, "all"),
    ("seen find, single key, exported / reference find", "seen_find_single_exported", "split_block_find", 2.0, "all"),
    ("seen find, batched / reference find", "seen_find_batched", "split_block_find", 1.0, "small"),
    ("seen insert, batched / reference insert", "seen_insert_batched", "split_block_insert", 1.0, "small"),
    ("seen find, batched / read floor", "seen_find_batched", "floor_read", 1.2, "big"),
    ("seen find, batched / reference find given its hashes", "seen_find_batched", "split_block_find_prehashed", 1.0, "big"),
    ("seen insert, batched / read-modify-write floor", "seen_insert_batched", "floor_rmw", 1.15, "big"),
    ("16-byte keys / u64 ids, find, batched", "seen_find_batched_16_byte", "seen_find_batched", 1.2, "all"),
    ("16-byte keys / u64 ids, insert, batched", "seen_insert_batched_16_byte", "seen_insert_batched", 1.2, "all"),
]


def plot(ns, sizes, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 4.8))
    height = 0.8 / len(sizes)
    for j, keys in enumerate(sizes):
        values = [ns[(keys, step)] for step, _ in STEPS]
        ax.barh([i + j * height for i in range(len(STEPS))], values, height, label=f"{keys:.0e} keys")
    ax.set_yticks([i + height * (len(sizes) - 1) / 2 for i in range(len(STEPS))],
                  [label.split(" (")[0].split(":")[0] for _, label in STEPS], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("CPU ns per key (median of the rounds, log scale; lower is better)")
    ax.set_title("seen, a split-block reference loop and the floors")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    out = Path(sys.argv[1])
    records = [json.loads(line) for line in (out / "split_block.jsonl").read_text().splitlines()]
    ns = {(r["keys"], r["bench"]): r["cpu_ns_per_key"] for r in records if "cpu_ns_per_key" in r}
    fpr = {(r["keys"], r["bench"]): r["fpr"] for r in records if "fpr" in r}
    first = {r["keys"]: r for r in records}
    sizes = sorted(first)
    plot(ns, sizes, out / "split_block.png")
    lines = [
        "# Single keys against a split-block reference loop",
        "",
        f"Machine: {machine()} (shared), SIMD target {records[0]['target']}. "
        f"Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "Run: `bench/split_block_run` (`build/bench/bench_split_block`, bench/bench_split_block.cc): "
        "every step once per round, in turn, in one process; each figure is the median thread "
        "CPU time per key over the rounds.",
        "",
        "seen's filter is sized for N keys at 1%; the reference (bench/split_block.h, written from "
        "Parquet's split-block Bloom filter specification: 256-bit blocks, eight salts, XXH64 "
        "inline, one key at a time, no prefetch) gets the same bytes. Both hold N keys for the "
        "finds, half of which are present, in random order; inserts go into empty twins. The "
        "read floor reads one word of each find's own block of seen's filter, the offsets computed "
        "beforehand: one random read per key, none waiting for another. The read-modify-write "
        "floor ORs a bit into one word of each insert's block, in a buffer as big as the filter, "
        "offsets computed beforehand. The reference also runs given its keys' hashes (its probe "
        "loop alone). The 16-byte keys are the same ids followed by a second word (data + "
        "offsets); for the finds they are all absent.",
        "",
        "| CPU ns per key (x read floor) | " + " | ".join(
            f"{keys:,} keys, {first[keys]['bytes'] / 2**20:.1f} MiB, {first[keys]['queries']:,} keys timed"
            for keys in sizes) + " |",
        "|---" + "|--:" * len(sizes) + "|",
    ]
    for step, label in STEPS:
        cells = [f"{ns[(keys, step)]:.1f} ({ns[(keys, step)] / ns[(keys, 'floor_read')]:.1f}x)" for keys in sizes]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("| false-positive rate, seen / split-block | " + " | ".join(
        f"{fpr[(keys, 'seen_fpr')]:.4f} / {fpr[(keys, 'split_block_fpr')]:.4f}" for keys in sizes) + " |")
    lines += ["", "| target (issue 29) | " + " | ".join(f"{keys:,} keys" for keys in sizes) + " |",
              "|---" + "|---" * len(sizes) + "|"]
    small, big = sizes[0], sizes[-1]
    for label, step, base, limit, stated in TARGETS:
        cells = []
        for keys in sizes:
            ratio = ns[(keys, step)] / ns[(keys, base)]
            applies = stated == "all" or keys == (small if stated == "small" else big)
            cells.append(f"{ratio:.2f}x, {verdict(ratio <= limit)}" if applies else f"{ratio:.2f}x (no target)")
        lines.append(f"| {label} ≤ {limit}x | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Reading the numbers:",
        "",
        f"- At {big:,} keys a single-key find waits for its block: the exported call costs "
        f"{ns[(big, 'seen_find_single_exported')] / ns[(big, 'floor_read')]:.1f}x the floor, a "
        f"batch {ns[(big, 'seen_find_batched')] / ns[(big, 'floor_read')]:.1f}x, because a batch "
        "hashes ahead and prefetches, so many blocks are on their way at once. Batches remain "
        "the way to query many keys.",
        f"- Batches are placed and hashed in the same vectors, 64 ids a step; byte keys of one "
        "length (9 to 128 bytes, found from their offsets step by step) are hashed in the step "
        "too, 16-byte ones four to a vector, others by inlined scalar XXH3, 64 a step where the "
        "filter fits in a last-level cache and 16 beyond; byte keys of mixed lengths go 16 a step "
        f"by one call a step. At {big:,} keys a batched find costs "
        f"{ns[(big, 'seen_find_batched')] / ns[(big, 'floor_read')]:.2f}x the read floor and a batched "
        f"insert {ns[(big, 'seen_insert_batched')] / ns[(big, 'floor_rmw')]:.2f}x the read-modify-write "
        "floor. The floors take no hash and no prefetch: their loops are so short that the core's "
        "window alone keeps many reads in flight. On this shared machine these ratios move by "
        "about 0.1 from run to run (the batched find's, with one build, from 1.16x to 1.34x over "
        "eight runs on 2026-11-27), so a target within that band of 1.2x is met in some runs only.",
        f"- At {small:,} keys the filter is larger than this CPU's L2 (AMD Zen 3: 512 KiB), so it "
        "is read from L3. There a 16-byte key costs more than an id by its input (24 bytes read, "
        "its bytes and its offset, against 8) and its hash (a 128-bit product, from four 32-bit "
        "ones, where an id's XXH3 needs 64-bit ones): a 16-byte batched find costs "
        f"{ns[(small, 'seen_find_batched_16_byte')] / ns[(small, 'seen_find_batched')]:.2f}x the ids' "
        "in this run. The ratio moves from run to run: over six runs of one build on 2026-11-27, "
        "find 1.15x to 1.29x (median 1.22x) and insert 1.09x to 1.24x (median 1.19x), so the 1.2x "
        "target is met in some runs only; before byte keys of one length were hashed in the "
        "kernels both were 1.41x to 1.67x.",
        "- The reference loop given its hashes is the same scalar probe, about 75 instructions a key "
        "with no prefetch: few keys' reads fit in the core's window at once, so beyond the caches it "
        "waits on memory nearly key by key, and that target is met by a wide margin. It is not a "
        "tuned peer: the issue's libfilter figures came from another machine.",
        "- The inline probe is plain C, the same on every CPU, and tests the key's k words one by "
        "one; the exported call tests the block with the library's SIMD kernel, with fewer "
        "instructions per key, so more keys' reads fit in the core's window at once. The inline "
        "probe is for callers who cannot make a call per key, or want one loop the compiler sees "
        "whole; it answers exactly as the library does (tests/test_capi_inline.c, and "
        "tests/test_simd_targets.cc on every SIMD target).",
        "- A single insert through the C API takes a stripe lock (adds are thread-safe by "
        "default) and reports to the handle's error slot; the reference takes neither.",
        "- At the same bytes the reference's false-positive rate is higher: its 256-bit blocks "
        "fill less evenly than 512-bit ones, and it sets 8 bits per key where seen chooses k "
        "for the rate.",
        "- The machine's cores were shared with other jobs during the run: compare figures of one "
        "run, not across runs.",
        "",
        "![CPU ns per key](split_block.png)",
        "",
    ]
    (out / "split_block.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
