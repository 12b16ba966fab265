"""One local[2] Spark session for every Spark test (it takes seconds to start), with the Java
builder's jar when there is one, and the inputs both builders are held to."""
import os
import struct
import subprocess
import sys

import pytest
from pyspark.sql import SparkSession

SEEN_CLI = os.environ["SEEN_CLI"]
SEEN_SPARK_JAR = os.environ.get("SEEN_SPARK_JAR")  # set when the Java binding is built
# The Jedis adapter of the Java stream test and the jars of Jedis (comma-separated), set when
# Jedis is in the local Maven repository.
SEEN_SPARK_TEST_JARS = os.environ.get("SEEN_SPARK_TEST_JARS")

# Every line rule of `seen build` at once: a BOM, CRLF, a bare CR inside a line, empty lines,
# a line of only CR, invalid UTF-8, CR CR LF (one CR is dropped), a NUL and a last line
# without LF.
EDGE_LINES = (b"\xef\xbb\xbfbom-first\nplain\r\ncr\rinside\n\n\r\n\xff\xfe-invalid\n"
              b"last\r\r\n\x00nul\nx\r")


@pytest.fixture(scope="session")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable  # executors import seen from this env
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # blocks move over loopback, not the LAN
    builder = (SparkSession.builder.master("local[2]").appName("seen-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.sql.shuffle.partitions", "4"))
    if SEEN_SPARK_JAR:  # as spark-submit --jars
        jars = [SEEN_SPARK_JAR] + ([SEEN_SPARK_TEST_JARS] if SEEN_SPARK_TEST_JARS else [])
        builder = builder.config("spark.jars", ",".join(jars))
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def seen_build(tmp_path, *files, n=100, fpr=0.01, seed=0):
    """The bytes of the filter that `seen build` writes from files."""
    out = tmp_path / "cli.seen"
    subprocess.run([SEEN_CLI, "build", "--capacity", str(n), "--fpr", str(fpr), "--seed",
                    str(seed), *map(str, files), "-o", str(out)], check=True)
    return out.read_bytes()


def spread_longs():
    """Longs across the whole range, negatives too, whose 8 bytes hold no LF (so that they
    can be lines of a `seen build` input; a negative long's last byte is never CR)."""
    values = [-1, -2, 1, -(1 << 63), (1 << 63) - 1] + [i * -7_919_000_003 for i in range(1, 400)]
    return [v for v in values if b"\n" not in struct.pack("<q", v)]


def write_longs(path, values):
    """values as lines of their 8 little-endian bytes: how `seen build` takes u64 ids."""
    path.write_bytes(b"".join(struct.pack("<q", v) + b"\n" for v in values))
