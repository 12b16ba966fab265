"""The foreachBatch helpers, seen.spark.mark_exposures (Python) and io.seen.spark.ExposureStream
(Java, driven through Spark's Py4J gateway over the Jedis adapter of seen-spark-tests.jar): a
file stream of exposures through local[2] into a real redis-server with seen's module. Every
exposure is found afterwards, and a micro-batch retried right after it ran leaves every count
window byte for byte as it was; into a Redis Cluster of three primaries, each user's marks reach
its slot's node. Both helpers are held to the same tests, so they cannot drift."""
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
from servers import Server, start_cluster  # noqa: E402  (the Redis tests' server runner)

from seen.redis import RedisWindows  # noqa: E402
from seen.spark import mark_exposures  # noqa: E402

from conftest import SEEN_SPARK_TEST_JARS  # noqa: E402

USERS, ITEMS_PER_USER, FILES = 200, 100, 4


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "redis", module=MODULE, module_args=["COUNT", "500", "FPR", "0.01"])
    yield s
    s.stop()


@pytest.fixture
def nodes(tmp_path):
    """Three primaries with the module, each serving a third of the slots."""
    with start_cluster(tmp_path, 3, module=MODULE,
                       module_args=["COUNT", "500", "FPR", "0.01"]) as servers:
        yield servers


def write_files(source, rows, files):
    """One micro-batch a file: rows[f::files] in file f."""
    source.mkdir()
    for f in range(files):
        with open(source / f"part-{f}.json", "w") as out:
            for user, item, ts in rows[f::files]:
                out.write(json.dumps({"user": user, "item": item, "ts": ts}) + "\n")


def stream(spark, source):
    return (spark.readStream.schema("user LONG, item LONG, ts LONG")
            .option("maxFilesPerTrigger", 1).json(str(source)))


def exposures():
    """(user, item, ts) rows: each user's items spread over the files, times rising."""
    return [(u, u * 1_000_003 + i, 1_700_000_000 + i) for u in range(USERS) for i in range(ITEMS_PER_USER)]


def lost(windows, rows):
    """The exposures among rows that the windows do not hold at the last row's time: every
    row is held to the exact model of what was marked."""
    by_user = {}
    for user, item, _ in rows:
        by_user.setdefault(user, []).append(item)
    last = max(ts for _, _, ts in rows)
    return sum(len(windows.filter(f"exp:{{{u}}}", items, now=last)) for u, items in by_user.items())


class PythonWriter:
    """mark_exposures, run as a Python job runs it."""

    def __init__(self, spark, port, cluster=False):
        client = redis.RedisCluster if cluster else redis.Redis
        self.write = mark_exposures(lambda: client(host="127.0.0.1", port=port), time="ts")

    def run(self, stream, checkpoint):
        query = (stream.writeStream.foreachBatch(self.write)
                 .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
        assert query.awaitTermination(300), "the stream did not finish within 5 minutes"
        assert query.exception() is None

    def retry(self, batch, batch_id):
        self.write(batch, batch_id)


class JavaWriter:
    """ExposureStream, on the JVM's own DataStreamWriter, as a Java job runs it."""

    def __init__(self, spark, port, cluster=False):
        self.jvm = spark._jvm
        jedis = self.jvm.io.seen.spark.JedisPipeline
        connector = (jedis.cluster if cluster else jedis.node)("127.0.0.1", port)
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
    rows = exposures()
    write_files(source, rows, FILES)
    r = server.client()
    windows = RedisWindows(r)
    # A quarter of the users keep the last hour: their marks carry NOW, the latest time of
    # each user's rows in a batch, so every row of the batch is kept at least its hour.
    timed = range(0, USERS, 4)
    for u in timed:
        windows.reserve(f"exp:{{{u}}}", seconds=3600, items=1000)
    w = writer(spark, server.port)
    w.run(stream(spark, source), str(tmp_path / "checkpoint"))
    missing = lost(windows, rows)
    assert missing == 0, f"{missing} of {len(rows)} exposures not found"
    # One mark per user a partition, not one a row: a round trip's share per exposure.
    marks = r.info("commandstats")["cmdstat_seen.markb"]["calls"]
    assert marks <= USERS * FILES * 2, f"{marks} SEEN.MARKB calls for {len(rows)} rows"
    # Spark retries a failed micro-batch whole, before any later one: the same rows again.
    batch = spark.read.json(str(source / "part-2.json"), schema="user LONG, item LONG, ts LONG")
    w.retry(batch, FILES)
    before = {u: r.dump(f"exp:{{{u}}}") for u in range(USERS) if u not in timed}
    w.retry(batch, FILES)
    assert all(r.dump(f"exp:{{{u}}}") == dump for u, dump in before.items())


@pytest.mark.parametrize("writer", WRITERS)
def test_a_stream_into_a_cluster_marks_each_user_on_its_slots_node(spark, nodes, tmp_path,
                                                                   writer):
    source = tmp_path / "exposures"
    rows = exposures()
    write_files(source, rows, 2)
    writer(spark, nodes[0].port, cluster=True).run(stream(spark, source),
                                                   str(tmp_path / "checkpoint"))
    windows = RedisWindows(redis.RedisCluster(host="127.0.0.1", port=nodes[0].port))
    missing = lost(windows, rows)
    assert missing == 0, f"{missing} of {len(rows)} exposures not found"
    # Every node holds its share: a mark sent to the wrong node would have been refused (MOVED).
    assert all(s.client().dbsize() > USERS // 6 for s in nodes)


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
