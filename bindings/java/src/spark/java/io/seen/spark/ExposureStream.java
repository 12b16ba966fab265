package io.seen.spark;

import io.seen.RedisWindows;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.api.java.function.ForeachPartitionFunction;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;

/**
 * Exposure windows from a Structured Streaming query: a {@code foreachBatch} function that
 * marks each micro-batch's (user, item[, time]) rows into the users' windows in seen's Redis
 * module, as Python's {@code seen.spark.mark_exposures} does.
 *
 * <p>Each partition of a micro-batch goes from its executor straight to Redis: its rows
 * grouped by user, one {@code SEEN.MARKB <prefix>{user} [NOW t] packed} per user, pipelined.
 * With a time column, a user's mark carries the latest of its rows' seconds as NOW: an
 * earlier row then lands in a segment at least as new as its own, so it is kept at least as
 * long, never less (a mark per row would cost a pipeline slot per exposure).
 *
 * <p>Spark retries a failed micro-batch whole, with the same rows. The retry marks the same
 * ids again: that loses nothing, and a count window takes no new place for an id it holds, so
 * it pushes no other id out (docs/distributed.md, "Streams"). NOW comes from the rows, so a
 * replay lands where the first attempt did, whatever the clock says then.
 *
 * <pre>{@code
 * exposures.writeStream()
 *     .foreachBatch(ExposureStream.markExposures(connector).time("ts"))
 *     .option("checkpointLocation", "/checkpoints/exposures")
 *     .start();
 * }</pre>
 *
 * <p>Instances are immutable: each setter returns a changed copy.
 */
public final class ExposureStream implements VoidFunction2<Dataset<Row>, Long> {
  private static final long serialVersionUID = 1L;

  private final RedisPipeline.Connector connector;
  private final String user;
  private final String item;
  private final String time;  // null: each mark takes the server's clock
  private final String keyPrefix;
  private final int pipelineUsers;

  private ExposureStream(RedisPipeline.Connector connector, String user, String item,
      String time, String keyPrefix, int pipelineUsers) {
    this.connector = connector;
    this.user = user;
    this.item = item;
    this.time = time;
    this.keyPrefix = keyPrefix;
    this.pipelineUsers = pipelineUsers;
  }

  /**
   * Marks every row's {@code item} (an integer id) in the window of
   * {@code "exp:{" + user + "}"} (braces keep a user's keys on one cluster slot), without a
   * time column, over pipelines that {@code connector} opens on the executors, 500 users a
   * round trip.
   */
  public static ExposureStream markExposures(RedisPipeline.Connector connector) {
    if (connector == null) throw new IllegalArgumentException("connector is null");
    return new ExposureStream(connector, "user", "item", null, "exp:", 500);
  }

  /** The user column: a string or an integer. */
  public ExposureStream user(String column) {
    return new ExposureStream(connector, nonNull(column, "user"), item, time, keyPrefix,
        pipelineUsers);
  }

  /** The item column: integer ids. */
  public ExposureStream item(String column) {
    return new ExposureStream(connector, user, nonNull(column, "item"), time, keyPrefix,
        pipelineUsers);
  }

  /** An integer column of Unix seconds: each user's mark carries the latest as NOW. */
  public ExposureStream time(String column) {
    return new ExposureStream(connector, user, item, nonNull(column, "time"), keyPrefix,
        pipelineUsers);
  }

  /** What comes before {@code {user}} in each key. */
  public ExposureStream keyPrefix(String prefix) {
    return new ExposureStream(connector, user, item, time, nonNull(prefix, "keyPrefix"),
        pipelineUsers);
  }

  /** Users marked per pipeline round trip, at least 1. */
  public ExposureStream pipelineUsers(int users) {
    if (users < 1) {
      throw new IllegalArgumentException("pipelineUsers must be at least 1, not " + users);
    }
    return new ExposureStream(connector, user, item, time, keyPrefix, users);
  }

  /**
   * Marks one micro-batch. Column types are checked here, in the driver. A null item or time
   * fails its task, as in Python; so does a null user, which has no window (Python would mark
   * the key {@code exp:{None}}).
   */
  @Override
  public void call(Dataset<Row> batch, Long batchId) {
    Column[] columns = time == null
        ? new Column[] {userColumn(batch), integer(batch, item)}
        : new Column[] {userColumn(batch), integer(batch, item), integer(batch, time)};
    batch.select(columns).foreachPartition((ForeachPartitionFunction<Row>) this::write);
  }

  private void write(Iterator<Row> rows) {
    Map<String, Marks> byUser = new LinkedHashMap<>();
    while (rows.hasNext()) {
      Row row = rows.next();
      if (row.anyNull()) {
        throw new IllegalArgumentException("a null user, item or time in the row " + row);
      }
      Marks marks = byUser.computeIfAbsent(row.get(0).toString(), who -> new Marks());
      marks.add(row.getLong(1), time == null ? 0 : row.getLong(2));
    }
    if (byUser.isEmpty()) return;
    try (RedisPipeline pipeline = connector.open()) {
      int queued = 0;
      for (Map.Entry<String, Marks> e : byUser.entrySet()) {
        pipeline.send(markCommand(keyPrefix + "{" + e.getKey() + "}", e.getValue()));
        if (++queued % pipelineUsers == 0) pipeline.sync();
      }
      pipeline.sync();
    }
  }

  private byte[][] markCommand(String key, Marks marks) {
    byte[] packed = RedisWindows.packIds(Arrays.copyOf(marks.ids, marks.n));
    byte[] name = ascii("SEEN.MARKB");
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    if (time == null) return new byte[][] {name, k, packed};
    return new byte[][] {name, k, ascii("NOW"), ascii(Long.toString(marks.latest)), packed};
  }

  /** One user's ids in a partition, and the latest time of their rows. */
  private static final class Marks {
    long[] ids = new long[4];
    int n;
    long latest = Long.MIN_VALUE;

    void add(long id, long at) {
      if (n == ids.length) ids = Arrays.copyOf(ids, 2 * n);
      ids[n++] = id;
      latest = Math.max(latest, at);
    }
  }

  private Column userColumn(Dataset<Row> batch) {
    DataType type = batch.schema().apply(user).dataType();
    if (type instanceof StringType) return batch.col(user);
    if (isInteger(type)) return batch.col(user).cast(DataTypes.LongType);
    throw new IllegalArgumentException(user + " is " + type.simpleString()
        + ": users are strings or integers");
  }

  private static Column integer(Dataset<Row> batch, String column) {
    DataType type = batch.schema().apply(column).dataType();
    if (isInteger(type)) return batch.col(column).cast(DataTypes.LongType);
    throw new IllegalArgumentException(column + " is " + type.simpleString()
        + ": items and times are integers");
  }

  private static boolean isInteger(DataType type) {
    return type instanceof LongType || type instanceof IntegerType || type instanceof ShortType
        || type instanceof ByteType;
  }

  private static String nonNull(String value, String what) {
    if (value == null) throw new IllegalArgumentException(what + " is null");
    return value;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
