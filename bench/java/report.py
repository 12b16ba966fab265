"""Turns JMH's JSON from bench/java/run into bench/results/java.md and java.png: the median
ns per key of each benchmark, its ratio to Guava and to the random-line-read floor."""
import datetime
import json
import os
import statistics
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {
    "seenMightContainAll": "seen mightContainAll (batch of 4096)",
    "seenMightContain": "seen mightContain (one key per call)",
    "guavaMightContain": "Guava mightContain",
    "floorRandomLineRead": "floor: one random 64-byte line read",
}


def medians(path):
    out = {}
    for run in json.load(open(path)):
        name = run["benchmark"].rsplit(".", 1)[1]
        samples = [v for fork in run["primaryMetric"]["rawData"] for v in fork]
        out[name] = (statistics.median(samples), min(samples), max(samples), len(samples))
    return out, run["warmupIterations"], run["measurementIterations"]


def cpu_model():
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def main(json_path, md_path, png_path):
    m, warmups, measured = medians(json_path)
    guava = m["guavaMightContain"][0]
    floor = m["floorRandomLineRead"][0]
    rows = []
    for name, label in LABELS.items():
        med, lo, hi, n = m[name]
        rows.append(f"| {label} | {med:.2f} | {lo:.2f} to {hi:.2f} | {guava / med:.2f}x |"
                    f" {med / floor:.2f} |")
    batch_ratio = guava / m["seenMightContainAll"][0]
    single_ratio = guava / m["seenMightContain"][0]
    verdict = (f"- batched `mightContainAll`: **{batch_ratio:.1f}x** Guava per key (target >= 5x):"
               f" {'met' if batch_ratio >= 5 else 'NOT met'}\n"
               f"- single `mightContain`: **{single_ratio:.2f}x** Guava (target >= 1x):"
               f" {'met' if single_ratio >= 1 else 'NOT met'}\n")
    with open(md_path, "w") as md:
        md.write(f"""# Java: seen against Guava's BloomFilter

10^7 random `long` ids at a 1% target, queried with a pool of 2^22 ids (32 MiB, half of them
present), in JMH (`bench/java/run`): average time mode, 1 fork, {warmups} warm-up and
{measured} measured iterations of 1 s, times per query key.
The median is over the measured iterations.

- Machine: {cpu_model()}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores shared with other jobs (5-minute load average
  {os.getloadavg()[1]:.1f} when the report was written, so the ranges are wide); OpenJDK 17
- Date: {datetime.datetime.fromtimestamp(os.path.getmtime(json_path), datetime.timezone.utc):%Y-%m-%d %H:%M} UTC

| benchmark | median ns/key | range | speed vs Guava | x floor |
|---|---|---|---|---|
""" + "\n".join(rows) + "\n\n" + verdict + """
The floor is one independent random read of a 64-byte line in an array as large as the seen
filter, the cost that no membership query can beat. Both filters (about 12 MB each) fit in
this machine's 32 MiB L3, so the floor is an L3 hit rather than a DRAM miss; on a machine with
a smaller cache every number grows and Guava, with k lines per query instead of one, grows most.

![ns per key](java.png)
""")
    names = list(LABELS)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    values = [m[n][0] for n in names]
    colors = ["#2a7", "#7c5", "#c55", "#999"]
    ax.barh([LABELS[n] for n in names], values, color=colors)
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:.1f} ns", va="center")
    ax.invert_yaxis()
    ax.set_xlabel("median ns per key (lower is better)")
    ax.set_title("10^7 ids at 1%: seen (JNI) vs Guava BloomFilter")
    ax.set_xlim(0, max(values) * 1.25)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    main(*sys.argv[1:4])
