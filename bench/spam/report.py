#!/usr/bin/env python3
"""Writes bench/results/spam.md from bench_spam's JSON lines: the 1e9-address filter at 1 and
2 GiB beside the standard Bloom filter's published figures and the issue's targets."""
import datetime
import json
import subprocess
import sys
from pathlib import Path

runs = [json.loads(line) for path in sys.argv[1:-1] for line in Path(path).read_text().splitlines() if line.strip()]
out = Path(sys.argv[-1])
model = next((l.split(":", 1)[1].strip() for l in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
              if l.startswith("Model name:")), "unknown CPU")
standard = {1: ("2.16%", 6), 2: ("0.046%", 11)}
target_fpr = {1: 0.026, 2: 0.001}
lines = ["# The spam-address filter: 10^9 addresses", "",
         f"Measured {datetime.date.today().isoformat()} on {model}, 2 cores, by `bench/spam/run`. Addresses are "
         "generated on the fly (bench/spam/addresses.h: names, separators, numbers and 32 domains, about 26 bytes, "
         "all distinct); the false-positive rate is measured on addresses not in the set; queries are batched "
         "(4,096 keys a call, one thread) against the saved file mapped read-only and against a copy in memory, beside "
         "a random 64-byte read over the same bytes (the floor); each is the median of 5 passes, the mapping's and "
         "the copy's alternating. Both the mapping and the copy ask for 2 MiB pages; "
         "the column 'on 2 MiB pages' says how much of the mapping the kernel gave them (FilePmdMapped).", "",
         "| budget | build | threads | build s (≤ 60) | k | fpr measured | target | standard Bloom | query mapped ns | / floor (≤ 1.3) | on 2 MiB pages | copy in memory ns | / floor | save s | open s | read-only refuses adds |",
         "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|:---:|"]
for r in runs:
    gib = r["budget_gib"]
    std_fpr, std_k = standard[gib]
    lines.append(f"| {gib} GiB | {r['build']} | {r['build_threads']} | {r['build_s']:.1f} | {r['k']} | {100 * r['fpr']:.3f}% | "
                 f"≤ {100 * target_fpr[gib]:g}% | {std_fpr}, {std_k} cache misses | {r['query_mapped_ns']:.2f} | "
                 f"{r['query_mapped_ns'] / r['floor_ns']:.2f} | {r['mapped_huge_mib']} of {gib * 1024} MiB | "
                 f"{r['query_hugepages_ns']:.2f} | "
                 f"{r['query_hugepages_ns'] / r['floor_ns']:.2f} | {r['save_s']:.1f} | {r['open_s']:.2f} | "
                 f"{'yes' if r['read_only_refuses_adds'] else 'NO'} |")
mapped = [r["query_mapped_ns"] / r["floor_ns"] for r in runs]
huge = [r["query_hugepages_ns"] / r["floor_ns"] for r in runs]
verdict = "met" if max(mapped) <= 1.3 else "missed"
lines += ["", "seen's filter costs one cache line per lookup where the standard filter costs k. Its rate at "
          "1 GiB is below the standard filter's because sizing picks k for this blocked layout.", "",
          f"The mapped-query figure is {verdict}: mapped queries run at {min(mapped):.2f}-{max(mapped):.2f}x the "
          f"floor, and the same filter copied into memory at {min(huge):.2f}-{max(huge):.2f}x. Saves write 4 MiB "
          "chunks that end on 4 MiB file offsets, so the page cache holds the file in 2 MiB folios, and a mapping of "
          "2 MiB or more is 2 MiB aligned with MADV_HUGEPAGE (core/region.cc), so a random read walks no 4 KiB "
          "page table; before that change (the run of 2026-11-26, morning) mapped queries took 2.14-2.93x the "
          "floor. A one-off check the same day, 10^7 addresses in the 1 GiB filter, the library built with 1 MiB "
          "and with 4 MiB save chunks in turn: mapped queries took 47-50 ns with none of the mapping on 2 MiB pages, "
          "35 ns with 1022 MiB on them, and saves 1.1-1.5 s either way. What is left above the floor is work per key: a query of a 26-byte address hashes its bytes "
          "with scalar XXH3 (addresses of 17 to 64 bytes take two of its length paths), then probes its block, "
          "and on this machine that work adds to the memory time rather than hiding under it: a one-off floor loop "
          "over 124 MB went from 13.4 to 16.0 and 19.0 ns per read when each read fed 4 and 16 dependent "
          "multiplies (2026-11-26)."]
out.write_text("\n".join(lines) + "\n")
print(f"wrote {out}")
