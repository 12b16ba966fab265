"""Checks that BloomFilter.open maps a big file rather than copying it: saves a 1 GiB filter,
then opens it and watches this process's anonymous (private) and file-backed resident memory.
A copy would add the whole filter to RssAnon; a mapping adds at most page tables to it, while
the file's pages count in RssFile and stay shared with the page cache and other processes."""
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict

import numpy

import seen

GIB = 2**30


def rss() -> Dict[str, int]:
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("RssAnon", "RssFile"):
            fields[name] = int(value.split()[0]) * 1024
    return fields


def items_for(size_bytes: int, fpr: float) -> int:
    """The expected_items whose filter at fpr takes about size_bytes."""
    probe = 10_000_000
    return int(probe * size_bytes / seen.BloomFilter(probe, fpr).size_bytes)


def measure(directory: str) -> Dict[str, float]:
    path = os.path.join(directory, "big.seen")
    with seen.BloomFilter(items_for(GIB, 0.01), 0.01) as big:
        big.add_many(numpy.arange(1_000_000, dtype=numpy.uint64))
        size = big.size_bytes
        big.save(path)
    queries = numpy.arange(2_000_000, dtype=numpy.uint64)
    result: Dict[str, float] = {"file_bytes": os.path.getsize(path), "filter_bytes": size}
    for verify in (False, True):
        before = rss()
        start = time.perf_counter()
        with seen.BloomFilter.open(path, verify=verify) as mapped:
            opened = time.perf_counter() - start
            after_open = rss()
            assert mapped.contains_many(queries[:1_000_000]).all()
            after_queries = rss()
        tag = "verify" if verify else "no_verify"
        result[f"{tag}_open_seconds"] = opened
        result[f"{tag}_anon_delta_open"] = after_open["RssAnon"] - before["RssAnon"]
        result[f"{tag}_file_delta_open"] = after_open["RssFile"] - before["RssFile"]
        result[f"{tag}_anon_delta_queries"] = after_queries["RssAnon"] - before["RssAnon"]
    os.remove(path)
    return result


def measure_in_subprocess() -> Dict[str, float]:
    """measure() in a fresh process, so that no earlier allocation blurs its RSS."""
    done = subprocess.run([sys.executable, __file__], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="seen-rss-") as d:
        print(json.dumps(measure(d)))
