#!/usr/bin/env python3
"""Writes bench/results/time_windows.md and .png from bench_time_windows' output (two rounds of
the default windows, tables, and two of growing windows, run alternately by
bench/time_windows_run): each figure of the growing-window issue beside its target, from the
first round of tables, and the two layouts side by side."""
import datetime
import json
import sys
from pathlib import Path

from page import machine, verdict

out = Path(sys.argv[1])


def load(name):
    runs = {}
    for line in (out / name).read_text().splitlines():
        record = json.loads(line)
        runs[record["bench"]] = record
    return runs


tables = [load(f"time_windows_{r}.jsonl") for r in (1, 2)]
growing = [load(f"time_windows_growing_{r}.jsonl") for r in (1, 2)]
runs = tables[0]
zipf, memory, expiry = runs["time_windows_zipf"], runs["time_windows_memory"], runs["time_windows_expiry"]
quantiles = runs["time_windows_bytes_quantiles"]["q"]
bands = runs["time_windows_by_rank"]["bands"]
top100_share = 100 * sum(b["requests"] for b in bands if b["last"] <= 100) / zipf["requests"]


def plot(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(quantiles, [q / 100 for q in range(len(quantiles))], drawstyle="steps-post")
    ax.axvline(1100, color="gray", linestyle="--", linewidth=1)
    ax.annotate("target for the median: 1.1 KB", (1100, 0.5), textcoords="offset points", xytext=(6, 0), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("bytes per user (window, its growth and 15 B of store)")
    ax.set_ylabel("share of users")
    ax.set_title(f"Memory per user, Zipf(1.1), {zipf['users']:,} users, {zipf['days']} days")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


plot(out / "time_windows.png")
live_ratio = expiry["rss_mib_live"] / max(expiry["store_mib_live"], 1e-9)
rows = [
    ("fpr, top 100 users", "≤ 1.0%", f"{100 * zipf['fpr_top100']:.2f}% ({zipf['probes_top100']:,} probes)",
     verdict(zipf["fpr_top100"] <= 0.01)),
    ("fpr, all users", "≤ 1.0%", f"{100 * zipf['fpr_all']:.2f}% ({zipf['probes_all']:,} probes)",
     verdict(zipf["fpr_all"] <= 0.01)),
    ("false negatives within the effective span", "0", f"{zipf['false_negatives']} of {zipf['recall_checks']:,} checks",
     verdict(zipf["false_negatives"] == 0)),
    ("memory per user, median", "≤ 1.1 KB", f"{memory['median_bytes']:,} B", verdict(memory["median_bytes"] <= 1100)),
    ("memory per user, p99 / max", "reported", f"{memory['p99_bytes']:,} B / {memory['max_bytes']:,} B", "reported"),
    ("a request, filter 1,000 + mark 20, p50 / p99 (all requests), each round", "≤ 10 / 50 µs",
     ", ".join(f"{t['time_windows_zipf']['request_median_us']:.1f} / {t['time_windows_zipf']['request_p99_us']:.1f} µs"
               for t in tables),
     verdict(all(t["time_windows_zipf"]["request_median_us"] <= 10 and t["time_windows_zipf"]["request_p99_us"] <= 50
                 for t in tables))),
    (f"the same, requests of users outside the top 100 ({100 - top100_share:.0f}% of requests)", "reported",
     f"{zipf['other_request_median_us']:.1f} / {zipf['other_request_p99_us']:.1f} µs", "reported"),
    ("a request of a top-100 user, p50", "reported", f"{zipf['top100_request_median_us']:.1f} µs", "reported"),
    ("RSS after idle users expire, per byte the live users hold", "≤ 2×",
     f"{live_ratio:.2f}× ({expiry['rss_mib_live']:.0f} MiB for {expiry['store_mib_live']:.0f} MiB of "
     f"{expiry['users_live']:,} users)", verdict(live_ratio <= 2)),
]


def side_by_side():
    """Each round of both layouts: the figures that differ between them."""
    header = ["| layout, round | request p50 / p99 | fpr, top 100 | bytes per user, median / p99 | "
              "users span-limited | store | RSS after expiry / held |", "|---|--:|--:|--:|--:|--:|--:|"]
    rows = []
    for name, rounds in (("table", tables), ("growing", growing)):
        for i, r in enumerate(rounds, 1):
            z, m, e = r["time_windows_zipf"], r["time_windows_memory"], r["time_windows_expiry"]
            rows.append(f"| {name}, {i} | {z['request_median_us']:.1f} / {z['request_p99_us']:.1f} µs "
                        f"| {100 * z['fpr_top100']:.3f}% | {m['median_bytes']:,} / {m['p99_bytes']:,} B "
                        f"| {m['users_span_limited']:,} | {m['store_mib']:.0f} MiB "
                        f"| {e['rss_mib_live'] / max(e['store_mib_live'], 1e-9):.2f}× |")
    return header + rows


lines = [
    "# Time windows under heavy-tailed activity",
    "",
    f"Measured {datetime.date.today().isoformat()} on {machine()}, by `bench/time_windows_run`"
    " (`bench/bench_time_windows.cc`).",
    "",
    f"{zipf['users']:,} users with Zipf(1.1) activity send {zipf['requests']:,} requests over {zipf['days']} "
    f"simulated days at an explicit clock. Each request filters {zipf['candidates']:,} fresh candidates (never shown "
    "to anyone: any \"seen\" is a false positive), plus up to 20 items the user was shown within their effective span "
    "(from an exact record of every user's history: any \"unseen\" is a false negative), against the user's "
    "30-day window (1%, `expected_items` 1,000, default cap 1 MiB). Then it marks 20 candidates shown.",
    "",
    "| figure | target | measured | |",
    "|---|---|---|---|",
] + [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows] + [
    "",
    f"- The windows are tables (layout 4, docs/exposure.md): each item a 32-bit fingerprint slot, a query one "
    f"cache line per candidate. They start at {memory['start_bytes']:,} B. The store holds the {memory['users']:,} "
    f"users who sent a request (a user appears on their first mark); the memory quantiles are over them. "
    f"{memory['users_grown']:,} outgrew their first table; {memory['users_span_limited']:,} reached the 1 MiB cap "
    f"(a table of 512 KiB) and gave up old time ({memory['span_drops']:,} segments). Their rate stayed under the "
    "target; their effective span is shorter.",
    f"- {memory['users_above_target']:,} users' rate predicted from their window's fill is above 1% (highest "
    f"{100 * memory['max_predicted_fpr']:.2f}%).",
    f"- The figure counts every request, and the top 100 users send {top100_share:.0f}% of them: the median request is "
    "a heavy user's. A growing window (layout 3, the time window before tables) must reject a fresh candidate in "
    "every growth level, a few cells in each, and a heavy user's window has many levels; a table reads one line.",
    "- The two layouts side by side, each run twice, alternately, on this machine. A table doubles when a line and "
    f"its buddy are full, about half way: the store of tables holds {memory['store_mib']:.0f} MiB against "
    f"{growing[0]['time_windows_memory']['store_mib']:.0f} for growing windows, and under the same cap more of the "
    f"heaviest users give up old time ({memory['users_span_limited']:,} against "
    f"{growing[0]['time_windows_memory']['users_span_limited']:,}).",
    "",
] + side_by_side() + [
    "",
    f"- Store: {memory['store_mib']:.0f} MiB by its own count at the end, process RSS {memory['rss_mib']:.0f} MiB "
    f"(with the benchmark's history of every user). After expiry: {expiry['store_mib_live']:.0f} MiB held, "
    f"RSS {expiry['rss_mib_live']:.0f} MiB; with every user gone, RSS {expiry['rss_mib_none']:.0f} MiB.",
    "",
    "By activity rank (users ordered by their Zipf weight; request times sampled on every 97th request):",
    "",
    "| users by rank | requests (share) | fpr of fresh candidates | request p50 / p99 (filter alone, p50) | users active | bytes per user, median / max |",
    "|---|--:|--:|--:|--:|--:|",
] + [
    f"| {b['first']:,}-{b['last']:,} | {b['requests']:,} ({100 * b['requests'] / zipf['requests']:.1f}%) "
    f"| {100 * b['fpr']:.2f}% | {b['request_p50_us']:.1f} / {b['request_p99_us']:.1f} µs ({b['filter_p50_us']:.1f}) "
    f"| {b['users_active']:,} "
    f"| {b['bytes_median']:,} / {b['bytes_max']:,} B |"
    for b in bands
] + [
    "",
    "![memory per user](time_windows.png)",
    "",
]
(out / "time_windows.md").write_text("\n".join(lines))
