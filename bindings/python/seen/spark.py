"""Bloom filters of big Spark DataFrames, byte-identical to `seen build` of the same keys.

Each partition builds its own filter, every one sized from the global expected count, so
they share one layout; treeReduce ORs them pairwise in the executors, and the driver gets
one filter back. Filters of 1 GiB and more are assembled from block ranges instead, so that
no task and no driver holds more than one whole filter (build_bloom says how).

Keys follow docs/distributed.md, as in every builder: a string or binary value is its bytes
(never decoded, so invalid UTF-8 is a key too), an integer is a u64 id (negatives as two's
complement), a null is no key. `lines` reads text files into keys exactly as `seen build`
does. Spark's executors must be able to import seen, pyarrow and numpy (the same Python
environment as the driver): the column reaches them as Arrow batches, and its buffers go to
the C batch calls as they are, with no Python object per key.

    from seen.spark import build_bloom, lines
    f = build_bloom(spark.read.parquet("crawled/"), "url", expected_items=10**9, fpr=0.001)
    f.save("crawled.seen")
    g = build_bloom(lines(spark, "emails/*.txt"), "key", 10**8, 0.01)  # == seen build

`mark_exposures` writes a stream of exposures into the windows of seen's Redis module:

    stream.writeStream.foreachBatch(mark_exposures(lambda: redis.Redis(host="r1"))).start()
"""
import importlib
from typing import Any, Iterable, Iterator

from . import _arrow_keys, _lines, _slices
from ._exposure_stream import mark_exposures
from .bloom import BloomFilter

__all__ = ["build_bloom", "lines", "mark_exposures"]


def lines(spark: Any, *paths: str) -> Any:
    """A DataFrame with one binary column, `key`: the keys of the text files at paths (globs
    as Spark's readers take them), each line as `seen build` reads it. Spark's own text
    reader would not do: it also ends lines at a bare \r and drops a byte order mark.

    Each file is read whole by one task (Spark's binaryFile), so a file must be below 2 GiB."""
    files = spark.read.format("binaryFile").load(list(paths)).select("content")
    return files.mapInArrow(_file_keys, "key binary")


def _file_keys(batches: Iterable[Any]) -> Iterator[Any]:
    pyarrow = importlib.import_module("pyarrow")
    for batch in batches:
        for content in batch.column(0):
            keys = _lines.split(content.as_buffer()).cast(pyarrow.binary())
            yield pyarrow.RecordBatch.from_arrays([keys], ["key"])


def _partition_filter(batches: Iterable[Any], expected_items: int, fpr: float,
                      seed: int) -> Iterator[Any]:
    """One partition's filter, from the Arrow record batches of its one column."""
    pyarrow = importlib.import_module("pyarrow")
    f = BloomFilter(expected_items, fpr, seed)
    for batch in batches:
        _arrow_keys.add_column(f, batch.column(0))
    yield pyarrow.RecordBatch.from_pydict({"filter": [f.to_bytes()]})


def _or(a: bytes, b: bytes) -> bytes:
    merged = BloomFilter.from_bytes(a)
    merged |= BloomFilter.from_bytes(b)
    return merged.to_bytes()


def _route(batches: Iterable[Any], expected_items: int, fpr: float, seed: int,
           per_slice: int) -> Iterator[Any]:
    """Each key of a partition with the slice its block falls in: a long key as a long, any
    other as binary."""
    pyarrow = importlib.import_module("pyarrow")
    compute = importlib.import_module("pyarrow.compute")
    # Never written: its memory is reserved, not resident, whatever the filter's size.
    router = BloomFilter(expected_items, fpr, seed)
    for batch in batches:
        keys = batch.column(0).drop_null()
        keys = keys.cast(pyarrow.int64() if pyarrow.types.is_integer(keys.type) else pyarrow.binary())
        if len(keys):
            blocks = _arrow_keys.blocks_of_column(router, keys)
            slices = compute.divide(blocks, per_slice).cast(pyarrow.int64())
            yield pyarrow.RecordBatch.from_arrays([slices, keys], ["slice", "key"])


def _build_slices(batches: Iterable[Any], expected_items: int, fpr: float, seed: int,
                  per_slice: int, blocks: int) -> Iterator[Any]:
    """The blocks of each slice of a partition whose rows are sorted by slice: a filter of
    the full size takes the slice's keys, and only the slice's pages of it become resident."""
    pyarrow = importlib.import_module("pyarrow")

    def finish(s: int, f: BloomFilter) -> Any:
        first = s * per_slice
        data = _slices.read_blocks(f, first, min(per_slice, blocks - first))
        f.close()
        return pyarrow.RecordBatch.from_pydict({"slice": [s], "blocks": [data]})

    current, f = -1, None
    for batch in batches:
        slices, keys = batch.column(0).to_pylist(), batch.column(1)
        start = 0
        for i in range(len(slices) + 1):
            if i < len(slices) and slices[i] == current:
                continue
            if f is not None and start < i:
                _arrow_keys.add_column(f, keys.slice(start, i - start))
            if i == len(slices):
                break
            if f is not None:
                yield finish(current, f)
            current, f, start = slices[i], BloomFilter(expected_items, fpr, seed), i
    if f is not None:
        yield finish(current, f)


def build_bloom(df: Any, column: str, expected_items: int, fpr: float, seed: int = 0,
                depth: int = 2, slice_above: int = 1 << 30,
                slice_bytes: int = 64 << 20) -> BloomFilter:
    """A BloomFilter of df[column], sized for expected_items at fpr, byte-identical to
    `seen build` of the same keys.

    Below slice_above bytes, each partition builds a whole filter (mapInArrow) and treeReduce
    (of the given depth) ORs them. From slice_above bytes on, the filter is assembled from
    block ranges of slice_bytes: the executors route each key to its range, build each range
    from its keys alone, and the driver ORs the ranges, one at a time, into the one filter it
    returns. No task and no driver then holds more than one whole filter."""
    probe = BloomFilter(expected_items, fpr, seed)  # bad arguments fail here, not in a task
    size, blocks = probe.size_bytes, probe.size_bytes // 64
    probe.close()
    key_type = df.schema[column].dataType
    if key_type.typeName() not in _arrow_keys.BYTE_TYPES + _arrow_keys.INTEGER_TYPES:
        raise TypeError(f"{column} is {key_type.simpleString()}: keys are strings, binaries "
                        "or integers")
    keys = df.select(column)
    if size >= slice_above:
        routed_type = "long" if key_type.typeName() in _arrow_keys.INTEGER_TYPES else "binary"
        return _assemble_slices(keys, routed_type, expected_items, fpr, seed,
                                max(1, slice_bytes // 64), blocks)
    filters = keys.mapInArrow(
        lambda batches: _partition_filter(batches, expected_items, fpr, seed),
        "filter binary").rdd.map(lambda row: bytes(row[0]))
    if filters.getNumPartitions() == 0:  # treeReduce of nothing fails; this is the empty filter
        return BloomFilter(expected_items, fpr, seed)
    return BloomFilter.from_bytes(filters.treeReduce(_or, depth))


def _assemble_slices(keys: Any, routed_type: str, expected_items: int, fpr: float, seed: int,
                     per_slice: int, blocks: int) -> BloomFilter:
    slices = -(-blocks // per_slice)
    routed = keys.mapInArrow(
        lambda batches: _route(batches, expected_items, fpr, seed, per_slice),
        f"slice long, key {routed_type}")
    built = routed.repartition(slices, "slice").sortWithinPartitions("slice").mapInArrow(
        lambda batches: _build_slices(batches, expected_items, fpr, seed, per_slice, blocks),
        "slice long, blocks binary")
    f = BloomFilter(expected_items, fpr, seed)
    for row in built.toLocalIterator():
        _slices.or_blocks(f, row[0] * per_slice, bytes(row[1]))
    return f
