"""seen.spark on a real local[2] Spark (pyspark from PyPI on the JDK), the session of conftest.py."""
import pytest

import seen
from seen.spark import build_bloom, lines

from conftest import EDGE_LINES, seen_build, spread_longs, write_longs


def test_a_million_keys_equal_seen_build_byte_for_byte(spark, tmp_path):
    n = 10**6
    keys = tmp_path / "keys.txt"
    keys.write_text("".join(f"user-{i}\n" for i in range(n)))
    df = spark.read.text(str(keys)).repartition(6)  # keys spread over 6 partitions, shuffled
    f = build_bloom(df, "value", expected_items=n, fpr=0.01, seed=5)
    assert f.to_bytes() == seen_build(tmp_path, keys, n=n, seed=5)


def test_lines_read_edge_input_as_seen_build_does(spark, tmp_path):
    (tmp_path / "edge.txt").write_bytes(EDGE_LINES)
    (tmp_path / "more.txt").write_bytes(b"no newline at the end")
    f = build_bloom(lines(spark, str(tmp_path / "*.txt")), "key", 100, 0.01, seed=2)
    assert f.to_bytes() == seen_build(tmp_path, tmp_path / "edge.txt", tmp_path / "more.txt",
                                      seed=2)


def test_a_string_column_hashes_its_bytes_even_when_they_are_not_utf8(spark, tmp_path):
    text = tmp_path / "keys.txt"
    text.write_bytes(b"caf\xc3\xa9\n\xff\xfe\n\xc3(\nplain\n")
    f = build_bloom(spark.read.text(str(text)), "value", 100, 0.01)  # a string column
    assert f.to_bytes() == seen_build(tmp_path, text)


def test_negative_longs_hash_as_their_twos_complement_bytes(spark, tmp_path):
    values = spread_longs()
    text = tmp_path / "longs.bin"
    write_longs(text, values)
    df = spark.createDataFrame([(v,) for v in values], "id long").repartition(2)
    expected = seen_build(tmp_path, text, n=1000)
    assert build_bloom(df, "id", 1000, 0.01).to_bytes() == expected
    assert build_bloom(df, "id", 1000, 0.01, slice_above=0, slice_bytes=128).to_bytes() == expected


def test_the_slices_take_bytes_that_are_not_utf8(spark, tmp_path):
    (tmp_path / "edge.txt").write_bytes(EDGE_LINES)
    keys = lines(spark, str(tmp_path / "edge.txt"))
    sliced = build_bloom(keys, "key", 1000, 0.01, slice_above=0, slice_bytes=128)
    assert sliced.to_bytes() == seen_build(tmp_path, tmp_path / "edge.txt", n=1000)


def test_other_column_types_are_refused_in_the_driver(spark):
    with pytest.raises(TypeError, match="double"):
        build_bloom(spark.createDataFrame([(1.5,)], "x double"), "x", 100, 0.01)


def test_nulls_are_skipped_and_every_key_is_found(spark):
    df = spark.createDataFrame([(f"k{i}" if i % 10 else None,) for i in range(5000)], ["key"])
    f = build_bloom(df.repartition(3), "key", expected_items=5000, fpr=0.01)
    direct = seen.BloomFilter(5000, 0.01)
    direct.add_many([f"k{i}" for i in range(5000) if i % 10])
    assert f.to_bytes() == direct.to_bytes()


def test_an_empty_frame_gives_the_empty_filter(spark):
    df = spark.createDataFrame([], "key string")
    assert build_bloom(df, "key", 100, 0.01).to_bytes() == seen.BloomFilter(100, 0.01).to_bytes()


def test_bad_sizes_fail_in_the_driver(spark):
    df = spark.createDataFrame([("a",)], ["key"])
    with pytest.raises(seen.InvalidArgumentError):
        build_bloom(df, "key", 100, 1.5)


def test_block_range_slices_equal_one_filter(spark):
    """The path of filters of 1 GiB and more, forced onto a small filter: 8 slices of 16 KiB."""
    n = 100_000
    strings = spark.range(n).selectExpr("concat('k', id) as key").repartition(3)
    sliced = build_bloom(strings, "key", n, 0.01, seed=3, slice_above=0, slice_bytes=16384)
    direct = seen.BloomFilter(n, 0.01, seed=3)
    direct.add_many([f"k{i}" for i in range(n)])
    assert direct.size_bytes > 7 * 16384
    assert sliced.to_bytes() == direct.to_bytes()


def test_integer_columns_hash_as_u64_ids_on_both_paths(spark):
    ids = spark.range(50_000).selectExpr("id * 7919 as id").repartition(2)
    direct = seen.BloomFilter(50_000, 0.001)
    direct.add_many([i * 7919 for i in range(50_000)])
    assert build_bloom(ids, "id", 50_000, 0.001).to_bytes() == direct.to_bytes()
    assert build_bloom(ids, "id", 50_000, 0.001, slice_above=0,
                       slice_bytes=8192).to_bytes() == direct.to_bytes()
