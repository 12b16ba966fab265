"""Bloom filters of big Spark DataFrames, byte-identical to `seen build` of the same keys.

Each partition builds its own filter, every one sized from the global expected count, so
they share one layout; treeReduce ORs them pairwise in the executors, and the driver gets
one filter back. The keys of a string column hash as their UTF-8 bytes, like the lines
that `seen build` reads; integer columns hash as u64 ids. Nulls are skipped. Spark's
executors must be able to import seen and pyarrow (the same Python environment as the
driver): the column reaches them as Arrow batches, not as one Python row object per key.

    from seen.spark import build_bloom
    f = build_bloom(spark.read.parquet("crawled/"), "url", expected_items=10**9, fpr=0.001)
    f.save("crawled.seen")
"""
import importlib
from typing import Any, Iterable, Iterator

from .bloom import BloomFilter


def _partition_filter(batches: Iterable[Any], expected_items: int, fpr: float,
                      seed: int) -> Iterator[Any]:
    """One partition's filter, from the Arrow record batches of its one column."""
    # Imported in the executor, where Spark hands over the column as Arrow batches.
    pyarrow = importlib.import_module("pyarrow")

    f = BloomFilter(expected_items, fpr, seed)
    for batch in batches:
        keys = [k for k in batch.column(0).to_pylist() if k is not None]
        if keys:
            f.add_many(keys)
    yield pyarrow.RecordBatch.from_pydict({"filter": [f.to_bytes()]})


def _or(a: bytes, b: bytes) -> bytes:
    merged = BloomFilter.from_bytes(a)
    merged |= BloomFilter.from_bytes(b)
    return merged.to_bytes()


def build_bloom(df: Any, column: str, expected_items: int, fpr: float, seed: int = 0,
                depth: int = 2) -> BloomFilter:
    """A BloomFilter of df[column], sized for expected_items at fpr: one filter per
    partition (built by mapInArrow), OR-merged by treeReduce (of the given depth)."""
    BloomFilter(expected_items, fpr, seed).close()  # bad arguments fail here, not in a task
    filters = df.select(column).mapInArrow(
        lambda batches: _partition_filter(batches, expected_items, fpr, seed),
        "filter binary").rdd.map(lambda row: bytes(row[0]))
    if filters.getNumPartitions() == 0:  # treeReduce of nothing fails; this is the empty filter
        return BloomFilter(expected_items, fpr, seed)
    return BloomFilter.from_bytes(filters.treeReduce(_or, depth))
