"""Bloom filters of big Spark DataFrames, byte-identical to `seen build` of the same keys.

Each partition builds its own filter, every one sized from the global expected count, so
they share one layout; treeReduce ORs them pairwise in the executors, and the driver gets
one filter back. The keys of a string column hash as their UTF-8 bytes, like the lines
that `seen build` reads; integer columns hash as u64 ids. Nulls are skipped. Spark's
executors must be able to import seen (the same Python environment as the driver).

    from seen.spark import build_bloom
    f = build_bloom(spark.read.parquet("crawled/"), "url", expected_items=10**9, fpr=0.001)
    f.save("crawled.seen")
"""
from typing import Any, Iterable, Iterator

from .bloom import BloomFilter

# Keys handed to the filter per batch call: large enough to amortize the call, small enough
# to keep an executor's memory flat.
_BATCH = 1 << 16


def _partition_filter(rows: Iterable[Any], expected_items: int, fpr: float,
                      seed: int) -> Iterator[bytes]:
    f = BloomFilter(expected_items, fpr, seed)
    batch = []
    for row in rows:
        if row[0] is not None:
            batch.append(row[0])
            if len(batch) == _BATCH:
                f.add_many(batch)
                batch.clear()
    if batch:
        f.add_many(batch)
    yield f.to_bytes()


def _or(a: bytes, b: bytes) -> bytes:
    merged = BloomFilter.from_bytes(a)
    merged |= BloomFilter.from_bytes(b)
    return merged.to_bytes()


def build_bloom(df: Any, column: str, expected_items: int, fpr: float, seed: int = 0,
                depth: int = 2) -> BloomFilter:
    """A BloomFilter of df[column], sized for expected_items at fpr: one filter per
    partition, OR-merged by treeReduce (of the given depth) in the executors."""
    BloomFilter(expected_items, fpr, seed).close()  # bad arguments fail here, not in a task
    rows = df.select(column).rdd
    if rows.getNumPartitions() == 0:  # treeReduce of nothing fails; this is the empty filter
        return BloomFilter(expected_items, fpr, seed)
    data = rows.mapPartitions(
        lambda part: _partition_filter(part, expected_items, fpr, seed)).treeReduce(_or, depth)
    return BloomFilter.from_bytes(data)
