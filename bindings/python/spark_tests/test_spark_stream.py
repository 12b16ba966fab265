"""The foreachBatch helpers, seen.spark.mark_exposures (Python) and io.seen.spark.ExposureStream
(Java, driven through Spark's Py4J gateway over the Jedis adapter of seen-spark-tests.jar): a
file stream of exposures through local[2] into a real redis-server with seen's module. Every
exposure is found afterwards, and a micro-batch retried right after it ran leaves every count
window byte for byte as it was. Both helpers are held to the same test, so they cannot drift."""
import json
import os
import sys
from pathlib import Path

import pytest
from pyspark.errors import IllegalArgumentException

redis = pytest.importorskip("redis")
MODULE = os.environ.get("SEEN_REDIS_MODULE")
pytestmark = pytest.mark.skipif(not MODULE, reason="the Redis module is not built")

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "integrations" / "redis" / "tests"))
from servers import Server  # noqa: E402  (the Redis tests' server runner)

from seen.redis import RedisWindows  # noqa: E402
from seen.spark import mark_exposures  # noqa: E402

from conftest import SEEN_SPARK_TEST_JARS  # noqa: E402

USERS, ITEMS_PER_USER, FILES = 200, 100, 4


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "redis", module=MODULE, module_args=["COUNT", "500", "FPR", "0.01"])
    yield s
    s.stop()


def exposures():
    """(user, item, ts) rows: each user's items spread over the files, times rising."""
    return [(u, u * 1_000_003 + i, 1_700_000_000 + i) for u in range(USERS) for i in range(ITEMS_PER_USER)]


class PythonWriter:
    """mark_exposures, run as a Python job runs it."""

    def __init__(self, spark, port):
        self.write = mark_exposures(lambda: redis.Redis(host="127.0.0.1", port=port), time="ts")

    def run(self, stream, checkpoint):
        query = (stream.writeStream.foreachBatch(self.write)
                 .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
        assert query.awaitTermination(300), "the stream did not finish within 5 minutes"
        assert query.exception() is None

    def retry(self, batch, batch_id):
        self.write(batch, batch_id)


class JavaWriter:
    """ExposureStream, on the JVM's own DataStreamWriter, as a Java job runs it."""

    def __init__(self, spark, port):
        self.jvm = spark._jvm
        connector = self.jvm.io.seen.spark.JedisPipeline.node("127.0.0.1", port)
        self.write = self.jvm.io.seen.spark.ExposureStream.markExposures(connector).time("ts")

    def run(self, stream, checkpoint):
        query = (stream._jdf.writeStream().foreachBatch(self.write)
                 .option("checkpointLocation", checkpoint)
                 .trigger(self.jvm.org.apache.spark.sql.streaming.Trigger.AvailableNow()).start())
        assert query.awaitTermination(300_000), "the stream did not finish within 5 minutes"
        assert query.exception().isEmpty()

    def retry(self, batch, batch_id):
        self.write.call(batch._jdf, self.jvm.java.lang.Long(batch_id))


WRITERS = [PythonWriter, pytest.param(JavaWriter, marks=pytest.mark.skipif(
    not SEEN_SPARK_TEST_JARS, reason="the Java binding or Jedis is missing"))]


@pytest.mark.parametrize("writer", WRITERS)
def test_a_stream_marks_every_exposure_and_a_retry_changes_nothing(spark, server, tmp_path, writer):
    source = tmp_path / "exposures"
    source.mkdir()
    rows = exposures()
    for f in range(FILES):  # one micro-batch a file
        with open(source / f"part-{f}.json", "w") as out:
            for user, item, ts in rows[f::FILES]:
                out.write(json.dumps({"user": user, "item": item, "ts": ts}) + "\n")
    r = server.client()
    windows = RedisWindows(r)
    # A quarter of the users keep the last hour: their marks carry NOW, the latest time of
    # each user's rows in a batch, so every row of the batch is kept at least its hour.
    timed = range(0, USERS, 4)
    for u in timed:
        windows.reserve(f"exp:{{{u}}}", seconds=3600, items=1000)
    w = writer(spark, server.port)
    w.run(spark.readStream.schema("user LONG, item LONG, ts LONG")
          .option("maxFilesPerTrigger", 1).json(str(source)), str(tmp_path / "checkpoint"))
    by_user = {}
    for user, item, _ in rows:
        by_user.setdefault(user, []).append(item)
    last = 1_700_000_000 + ITEMS_PER_USER - 1
    lost = sum(len(windows.filter(f"exp:{{{u}}}", items, now=last)) for u, items in by_user.items())
    assert lost == 0, f"{lost} of {len(rows)} exposures not found"
    # One mark per user a partition, not one a row: a round trip's share per exposure.
    marks = r.info("commandstats")["cmdstat_seen.markb"]["calls"]
    assert marks <= USERS * FILES * 2, f"{marks} SEEN.MARKB calls for {len(rows)} rows"
    # Spark retries a failed micro-batch whole, before any later one: the same rows again.
    batch = spark.read.json(str(source / "part-2.json"), schema="user LONG, item LONG, ts LONG")
    w.retry(batch, FILES)
    before = {u: r.dump(f"exp:{{{u}}}") for u in by_user if u not in timed}
    w.retry(batch, FILES)
    assert all(r.dump(f"exp:{{{u}}}") == dump for u, dump in before.items())


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="pipeline_users"):
        mark_exposures(lambda: None, pipeline_users=0)


@pytest.mark.skipif(not SEEN_SPARK_TEST_JARS, reason="the Java binding or Jedis is missing")
def test_the_java_helper_refuses_bad_arguments_in_the_driver(spark):
    jvm = spark._jvm
    marks = jvm.io.seen.spark.ExposureStream.markExposures(
        jvm.io.seen.spark.JedisPipeline.node("127.0.0.1", 1))  # refused before any task connects
    with pytest.raises(IllegalArgumentException, match="pipelineUsers"):
        marks.pipelineUsers(0)
    floats = spark.createDataFrame([(1, 1.5)], "user long, item double")
    with pytest.raises(IllegalArgumentException, match="item is double"):
        marks.call(floats._jdf, jvm.java.lang.Long(0))
