"""Wall time of the Spark builders on local[2], one interleaved run over the same DataFrame
of 10^7 text lines: Java's SeenSpark.buildBloom, Python's seen.spark.build_bloom, Spark's own
df.stat.bloomFilter, and the floors of reading the column (in the JVM, and into Python as
Arrow batches without a filter), beside `seen build` of the same file. The seen filters are
checked byte for byte against `seen build`'s. Writes bench/results/spark.md.

usage: bench_spark.py SEEN_CLI SEEN_SPARK_JAR [--keys 10000000] [--rounds 2]"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyspark.sql import functions

from seen.spark import build_bloom

from local_spark import session

REPO = Path(__file__).resolve().parents[2]
JVM_FLOOR = "read floor (JVM): the internal rows the Java builder reads, counted"
PYTHON_FLOOR = "read floor (Python): the column to Python as Arrow, counted"
SPARK_OWN = "Spark's own `df.stat.bloomFilter` (1%)"
JAVA = "`SeenSpark.buildBloom` (Java)"
PYTHON = "`seen.spark.build_bloom` (Python)"


def count_arrow(batches):
    """The Python path without a filter: every batch crosses into Python, nothing more."""
    import pyarrow
    n = 0
    for batch in batches:
        n += batch.num_rows
    yield pyarrow.RecordBatch.from_pydict({"n": [n]})


def candidates(spark, df, a):
    """name -> a function that runs one build (or floor) over df and returns the bytes of a
    seen filter it built (checked after the clock stops), or None."""
    jvm = spark._jvm

    def java():
        f = jvm.io.seen.spark.SeenSpark.buildBloom(df._jdf, "value", a.keys, 0.01, 0)
        return lambda: close_after(f, lambda: bytes(f.toByteArray()))

    def python():
        f = build_bloom(df, "value", a.keys, 0.01)
        return f.to_bytes

    return {
        JVM_FLOOR: lambda: df._jdf.queryExecution().toRdd().count() and None,
        PYTHON_FLOOR: lambda: df.mapInArrow(count_arrow, "n long").agg(
            functions.sum("n")).collect() and None,
        SPARK_OWN: lambda: df._jdf.stat().bloomFilter("value", a.keys, 0.01) and None,
        JAVA: java,
        PYTHON: python,
    }


def close_after(f, read):
    try:
        return read()
    finally:
        f.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("jar")
    ap.add_argument("--keys", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "spark.md"))
    a = ap.parse_args()
    load = os.getloadavg()[0]  # the machine is shared: say how busy it was
    with tempfile.TemporaryDirectory() as t:
        keys = Path(t) / "keys.txt"
        with keys.open("w") as f:
            for start in range(0, a.keys, 1_000_000):
                f.write("".join(f"user-{i}\n" for i in range(start, min(a.keys, start + 1_000_000))))
        spark = session("seen-bench", a.jar)
        out = Path(t) / "cli.seen"
        cli = [a.cli, "build", "--capacity", str(a.keys), "--fpr", "0.01", str(keys), "-o", str(out)]
        subprocess.run(cli, check=True, capture_output=True)
        df = spark.read.text(str(keys))
        expected = out.read_bytes()
        runs = dict(candidates(spark, df, a))
        runs["`seen build` (2 threads)"] = lambda: subprocess.run(cli, check=True,
                                                                 capture_output=True) and None
        times = {name: [] for name in runs}
        for _ in range(a.rounds):
            for name, run in runs.items():
                started = time.perf_counter()
                built = run()
                times[name].append(time.perf_counter() - started)
                print(f"{name}: {times[name][-1]:.2f} s", file=sys.stderr)
                assert built is None or built() == expected, f"{name} and seen build disagree"
        partitions = df.rdd.getNumPartitions()
        spark.stop()
    write(a, times, partitions, load)


def write(a, times, partitions, load):
    median = {name: statistics.median(ts) for name, ts in times.items()}
    spark_own = median[SPARK_OWN]
    lines = ["# Spark: the builders against Spark's own Bloom filter and `seen build`", "",
             f"By `bench/spark/run`: {a.keys:,} keys (`user-<i>` lines, "
             f"{a.keys * 13 / 1e6:.0f} MB of text) at 1%, one DataFrame (`spark.read.text`, "
             f"{partitions} partitions) on local[2], {a.rounds} interleaved rounds, medians; "
             "each round runs every line once, in this order. Both seen builders' filters "
             "are checked byte for byte against `seen build`'s, every round. The 2-core VM "
             f"is shared: its load average was {load:.1f} at the start.", "",
             "| build | wall time | rounds, fastest to slowest | keys/s | vs Spark's own |",
             "|---|---:|---:|---:|---:|"]
    for name, s in median.items():
        spread = f"{min(times[name]):.2f} to {max(times[name]):.2f} s"
        lines.append(f"| {name} | {s:.2f} s | {spread} | {a.keys / s / 1e6:.2f} M | "
                     f"{s / spark_own:.2f}x |")
    java, python = median[JAVA], median[PYTHON]
    jvm_floor, python_floor = median[JVM_FLOOR], median[PYTHON_FLOOR]
    lines += ["", f"Java's builder takes {java / spark_own:.2f}x the time of Spark's own filter, "
              f"and {java / jvm_floor:.2f}x its floor, the same internal rows read without a "
              "filter: it copies each key's bytes into a chunk and hands 4,096 keys to each "
              "batch call. Python's takes "
              f"{python / spark_own:.2f}x Spark's own; {python_floor / python:.0%} of its time "
              "is the floor of handing the column to Python workers as Arrow batches at all "
              "(the JVM turns rows into Arrow, the worker reads them), and the filter and the "
              f"reduce take the remaining {python - python_floor:.2f} s. Spark's own filter "
              "is another structure (a classic Bloom filter of Spark's format), not a seen "
              "file."]
    lines.append("")
    Path(a.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
