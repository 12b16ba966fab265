"""seen.spark on a real local[2] Spark (pyspark from PyPI on the JDK): one session for all."""
import os
import subprocess
import sys

import pytest
from pyspark.sql import SparkSession

import seen
from seen.spark import build_bloom

SEEN_CLI = os.environ["SEEN_CLI"]


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable  # executors import seen from this env
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # blocks move over loopback, not the LAN
    session = (SparkSession.builder.master("local[2]").appName("seen-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_a_million_keys_equal_seen_build_byte_for_byte(spark, tmp_path):
    n = 10**6
    keys = tmp_path / "keys.txt"
    keys.write_text("".join(f"user-{i}\n" for i in range(n)))
    out = tmp_path / "cli.seen"
    subprocess.run([SEEN_CLI, "build", "--capacity", str(n), "--fpr", "0.01", "--seed", "5",
                    str(keys), "-o", str(out)], check=True)
    df = spark.read.text(str(keys)).repartition(6)  # keys spread over 6 partitions, shuffled
    f = build_bloom(df, "value", expected_items=n, fpr=0.01, seed=5)
    assert f.to_bytes() == out.read_bytes()


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
