"""io.seen.spark (the Java builder, in seen-spark.jar) on the session of conftest.py, called
through Spark's own Py4J gateway as a Java job would call it: the same bytes as `seen build`
and as seen.spark.build_bloom."""
import pytest
from pyspark.errors import IllegalArgumentException

from seen.spark import build_bloom

from conftest import EDGE_LINES, SEEN_SPARK_JAR, seen_build, spread_longs, write_longs

pytestmark = pytest.mark.skipif(not SEEN_SPARK_JAR, reason="the Java binding is not built")


def java_build(spark, jdf, column, n, fpp, seed=0, slice_bytes=None):
    """SeenSpark.buildBloom's filter, as bytes; with slice_bytes, assembled from block ranges
    of that size whatever the filter's size (the path of filters of 1 GiB and more)."""
    builder = spark._jvm.io.seen.spark.SeenSpark
    if slice_bytes is None:
        f = builder.buildBloom(jdf, column, n, fpp, seed)
    else:
        f = builder.buildBloom(jdf, column, n, fpp, seed, 0, slice_bytes)
    try:
        return bytes(f.toByteArray())
    finally:
        f.close()


def java_lines(spark, *paths):
    gateway = spark.sparkContext._gateway
    array = gateway.new_array(gateway.jvm.java.lang.String, len(paths))
    for i, path in enumerate(paths):
        array[i] = path
    return spark._jvm.io.seen.spark.SeenSpark.lines(spark._jsparkSession, array)


def test_lines_read_edge_input_as_seen_build_does(spark, tmp_path):
    (tmp_path / "edge.txt").write_bytes(EDGE_LINES)
    (tmp_path / "more.txt").write_bytes(b"no newline at the end")
    keys = java_lines(spark, str(tmp_path / "*.txt"))
    assert java_build(spark, keys, "key", 100, 0.01, seed=2) == seen_build(
        tmp_path, tmp_path / "edge.txt", tmp_path / "more.txt", seed=2)


def test_a_string_column_hashes_its_bytes_even_when_they_are_not_utf8(spark, tmp_path):
    text = tmp_path / "keys.txt"
    text.write_bytes(b"caf\xc3\xa9\n\xff\xfe\n\xc3(\nplain\n")
    df = spark.read.text(str(text))
    assert java_build(spark, df._jdf, "value", 100, 0.01) == seen_build(tmp_path, text)


def test_negative_longs_and_ints_hash_as_their_twos_complement_bytes(spark, tmp_path):
    values = spread_longs()
    write_longs(tmp_path / "longs.bin", values)
    longs = spark.createDataFrame([(v,) for v in values], "id long").repartition(2)
    assert java_build(spark, longs._jdf, "id", 1000, 0.01) == seen_build(
        tmp_path, tmp_path / "longs.bin", n=1000)
    ints = [v for v in values if -(1 << 31) <= v < 1 << 31]
    as_int = spark.createDataFrame([(v,) for v in ints], "id int")
    as_long = spark.createDataFrame([(v,) for v in ints], "id long")
    assert java_build(spark, as_int._jdf, "id", 10, 0.01) == java_build(
        spark, as_long._jdf, "id", 10, 0.01)


def test_many_partitions_nulls_and_the_empty_key_give_the_python_builders_bytes(spark):
    df = spark.range(100_000).selectExpr(
        "case when id % 10 = 0 then null when id = 7 then '' else concat('k', id) end as key"
    ).repartition(3)
    assert java_build(spark, df._jdf, "key", 100_000, 0.01, seed=3) == build_bloom(
        df, "key", 100_000, 0.01, seed=3).to_bytes()


def test_an_empty_frame_gives_the_empty_filter(spark):
    empty = spark.createDataFrame([], "key binary")
    assert java_build(spark, empty._jdf, "key", 100, 0.01) == build_bloom(
        empty, "key", 100, 0.01).to_bytes()


def test_other_column_types_are_refused_in_the_driver(spark):
    df = spark.createDataFrame([(1.5,)], "x double")
    with pytest.raises(IllegalArgumentException, match="x is double"):
        java_build(spark, df._jdf, "x", 100, 0.01)


def test_block_ranges_give_seen_builds_bytes_for_every_key_type(spark, tmp_path):
    """The path of filters of 1 GiB and more, forced onto small filters of many ranges."""
    (tmp_path / "edge.txt").write_bytes(EDGE_LINES)
    edge = java_lines(spark, str(tmp_path / "edge.txt"))
    assert java_build(spark, edge, "key", 1000, 0.01, slice_bytes=128) == seen_build(
        tmp_path, tmp_path / "edge.txt", n=1000)
    values = spread_longs()
    write_longs(tmp_path / "longs.bin", values)
    longs = spark.createDataFrame([(v,) for v in values], "id long").repartition(2)
    assert java_build(spark, longs._jdf, "id", 1000, 0.01, slice_bytes=128) == seen_build(
        tmp_path, tmp_path / "longs.bin", n=1000)
    n = 100_000  # 8 ranges of 16 KiB, keys from three partitions, nulls among them
    strings = spark.range(n).selectExpr(
        "case when id % 10 = 0 then null else concat('k', id) end as key").repartition(3)
    sliced = java_build(spark, strings._jdf, "key", n, 0.01, seed=3, slice_bytes=16384)
    assert len(sliced) > 7 * 16384
    assert sliced == build_bloom(strings, "key", n, 0.01, seed=3).to_bytes()


def test_a_slice_size_below_one_block_is_refused(spark):
    df = spark.createDataFrame([("a",)], "key string")
    with pytest.raises(IllegalArgumentException, match="sliceBytes"):
        java_build(spark, df._jdf, "key", 100, 0.01, slice_bytes=63)
