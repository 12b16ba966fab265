#!/usr/bin/env python3
"""Writes bench/results/exposure.md from the simulation table and CSV and the store run:
every figure of the exposure issue beside its target."""
import csv
import datetime
import json
import subprocess
import sys
from pathlib import Path

out = Path(sys.argv[1])


def plot(rows, path):
    """The CLI draws an SVG for people; bench plots are matplotlib PNGs, like every other page."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for index, (name, row) in enumerate(rows.items()):
        x, y = float(row["bytes_per_user"]), max(float(row["fpr"]), 1e-5)
        ax.scatter([x], [y], s=40)
        # Alternate above and below: neighbours (the chain and seen in its memory) stay legible.
        ax.annotate(name.split(",")[0], (x, y), textcoords="offset points",
                    xytext=(6, 4 if index % 2 == 0 else -12), fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("bytes per user")
    ax.set_ylabel("false-positive rate on never-shown items (0 shown at 1e-5)")
    ax.set_title("Exposure filtering, last 500 items: published designs and seen")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)

rows = {row["design"]: row for row in csv.DictReader((out / "exposure.csv").open())}
store = {}
for line in (out / "store_10m.jsonl").read_text().splitlines():
    record = json.loads(line)
    store[record["bench"] + ("_verify" if record.get("verify") else "")] = record
model = next((l.split(":", 1)[1].strip() for l in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
              if l.startswith("Model name:")), "unknown CPU")

plot(rows, out / "exposure.png")
ours = rows["seen 1%, window"]
chain = rows["chain, 5 x 100 B, k=6 (published)"]
at_chain = rows["seen at chain memory, 500 B + 12 B, span 400"]
fill = store["store_fill"]
figures = [
    ("N=500, 1%: measured fpr", float(ours["fpr"]) * 100, "≤ 1.0 %", float(ours["fpr"]) <= 0.01, "%"),
    ("N=500, 1%: recall of the last 500", float(ours["recall"]) * 100, "100 %", float(ours["recall"]) == 1.0, "%"),
    ("N=500, 1%: slack", float(ours["slack"]) * 100, "≤ 25 %", float(ours["slack"]) <= 0.25, "%"),
    ("N=500, 1%: bytes per user, store included (100k users)", float(ours["bytes_per_user"]), "≤ 1024", float(ours["bytes_per_user"]) <= 1024, " B"),
    ("chain's memory and span: seen's fpr vs the chain's", float(at_chain["fpr"]) * 100, f"≤ {float(chain['fpr']) * 100:.3f} %", float(at_chain["fpr"]) <= float(chain["fpr"]), "%"),
    ("10M users: store RSS", fill["rss_gib"] * 1.073741824, "≤ 11 GB", fill["rss_gib"] * 1.073741824 <= 11, " GB"),
    ("10M users: bytes per user", fill["bytes_per_user"], "≤ 1024", fill["bytes_per_user"] <= 1024, " B"),
    ("10M users: filter 10,000 + mark 20, median", store["store_request"]["median_us"], "≤ 50 µs", store["store_request"]["median_us"] <= 50, " µs"),
    ("10M users: save", store["store_save"]["seconds"], "≤ 30 s", store["store_save"]["seconds"] <= 30, " s"),
    ("10M users: reopen (payload checksum verified)", store["store_reopen_verify"]["seconds"], "≤ 2 s", store["store_reopen_verify"]["seconds"] <= 2, " s"),
    ("10M users: reopen (SEEN_OPEN_NO_VERIFY)", store["store_reopen"]["seconds"], "≤ 2 s", store["store_reopen"]["seconds"] <= 2, " s"),
]
lines = [
    "# Exposure filtering", "",
    f"Measured {datetime.date.today().isoformat()} on {model}, 2 cores, by `bench/exposure_run`. "
    "The simulation is `seen simulate exposure --users 100000` (N = 500; users read 50-400 items (80%), "
    "400-2,000 (18%) or 2,000-10,000 (2%); rates are measured on 100 never-shown items per user who read at least 2N).",
    "", "| figure | measured | target | met |", "|---|---:|---:|:---:|",
]
for name, value, target, met, unit in figures:
    lines.append(f"| {name} | {value:.4g}{unit} | {target} | {'yes' if met else '**no**'} |")
lines += ["", "## The published designs, reproduced", "", "```", (out / "exposure_table.txt").read_text().strip(), "```", "",
          "![false-positive rate against bytes per user](exposure.png)", "",
          f"The store at {fill['users']:,} users, {fill['marks_per_user']} items marked each: filled in {fill['seconds']:.0f} s; "
          f"request p99 {store['store_request']['p99_us']:.0f} µs (a shared 2-core VM: the tail is other work)."]
(out / "exposure.md").write_text("\n".join(lines) + "\n")
print(f"wrote {out / 'exposure.md'}")
