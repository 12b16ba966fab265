package io.seen.spark;

import io.seen.BloomBlocks;
import io.seen.BloomFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Bloom filters of Spark Datasets, byte for byte the file that {@code seen build} writes from
 * the same keys, and the filter that Python's {@code seen.spark.build_bloom} builds.
 *
 * <p>Keys follow docs/distributed.md: a string or binary value is its bytes (a string is never
 * decoded, so invalid UTF-8 is a key too), an integer is a u64 id whose 8 little-endian bytes
 * are its two's complement, a null is no key. {@link #lines} reads text files into keys
 * exactly as {@code seen build} does.
 *
 * <p>Each partition batches its keys into one filter sized from the global expected count, so
 * every partition has the same layout; {@code treeReduce} ORs their serialized forms pairwise
 * in the executors, and the driver gets one filter back; every task and each reduce step holds
 * one or two whole filters. Filters of 1 GiB and more are assembled from block ranges instead
 * (BlockRanges), so that no task and no driver holds more than one whole filter, as Python's
 * builder does.
 *
 * <pre>{@code
 * try (BloomFilter f = SeenSpark.buildBloom(spark.read().parquet("urls/"), "url", 1_000_000_000L, 0.001)) {
 *   f.save(Path.of("urls.seen"));
 * }
 * }</pre>
 *
 * <p>The jar carries the natives and the binding, so {@code spark-submit --jars seen-spark.jar}
 * is all that executors need.
 */
public final class SeenSpark {
  private SeenSpark() {}

  /** From this filter size on, {@link #buildBloom} assembles the filter from block ranges. */
  public static final long SLICE_ABOVE = 1L << 30;
  /** The bytes of each block range that a big filter is assembled from. */
  public static final long SLICE_BYTES = 64L << 20;

  /** As {@link #buildBloom(Dataset, String, long, double, long)} with seed 0. */
  public static BloomFilter buildBloom(Dataset<Row> df, String column, long expectedItems,
      double fpp) {
    return buildBloom(df, column, expectedItems, fpp, 0);
  }

  /**
   * A filter of every non-null value of {@code df}'s {@code column} (string, binary, long, int,
   * short or byte), sized for {@code expectedItems} distinct keys at false-positive rate
   * {@code fpp}. Bad sizes and other column types throw {@link IllegalArgumentException} here,
   * in the driver, before any task runs. The caller closes the filter.
   */
  public static BloomFilter buildBloom(Dataset<Row> df, String column, long expectedItems,
      double fpp, long seed) {
    return buildBloom(df, column, expectedItems, fpp, seed, SLICE_ABOVE, SLICE_BYTES);
  }

  /**
   * As {@link #buildBloom(Dataset, String, long, double, long)}, with the filter assembled
   * from block ranges of {@code sliceBytes} (rounded down to whole 64-byte blocks, at least
   * one) when it takes {@code sliceAbove} bytes or more. The bytes are the same either way.
   */
  public static BloomFilter buildBloom(Dataset<Row> df, String column, long expectedItems,
      double fpp, long seed, long sliceAbove, long sliceBytes) {
    if (sliceBytes < 64 || sliceBytes / 64 > BloomBlocks.MAX_RANGE) {
      throw new IllegalArgumentException("sliceBytes must be in 64 .. "
          + 64L * BloomBlocks.MAX_RANGE + ", not " + sliceBytes);
    }
    long size;
    try (BloomFilter probe = BloomFilter.create(expectedItems, fpp, seed)) {
      size = probe.sizeInBytes();
    }
    KeyColumn keys = KeyColumn.of(df, column);
    if (size >= sliceAbove) {
      return BlockRanges.build(keys, expectedItems, fpp, seed, (int) (sliceBytes / 64));
    }
    KeyColumn.Kind kind = keys.kind();  // the tasks take the kind, not the Dataset
    JavaRDD<byte[]> filters = keys.rows().toJavaRDD().mapPartitions(
        rows -> Collections.singletonList(
            PartitionFilter.build(rows, kind, expectedItems, fpp, seed)).iterator());
    if (filters.getNumPartitions() == 0) {  // treeReduce of nothing fails: the empty filter
      return BloomFilter.create(expectedItems, fpp, seed);
    }
    return fromBytes(filters.treeReduce(SeenSpark::or, 2));
  }

  /**
   * A Dataset with one binary column, {@code key}: the keys of the text files at {@code paths}
   * (globs as Spark's readers take them), each line as {@code seen build} reads it. Spark's own
   * text reader would not do: it also ends lines at a bare CR and drops a byte order mark. Each
   * file is read whole by one task (Spark's binaryFile), so a file must be below 2 GiB.
   */
  public static Dataset<Row> lines(SparkSession spark, String... paths) {
    Dataset<Row> files = spark.read().format("binaryFile").load(paths).select("content");
    return files.flatMap(
        (FlatMapFunction<Row, byte[]>) row -> Lines.split(row.<byte[]>getAs(0)).iterator(),
        Encoders.BINARY()).toDF("key");
  }

  private static byte[] or(byte[] a, byte[] b) {
    try (BloomFilter merged = fromBytes(a); BloomFilter other = fromBytes(b)) {
      merged.putAll(other);
      return merged.toByteArray();
    }
  }

  private static BloomFilter fromBytes(byte[] serialized) {
    try {
      return BloomFilter.readFrom(new ByteArrayInputStream(serialized));
    } catch (IOException e) {  // a byte array does not fail to read
      throw new UncheckedIOException(e);
    }
  }
}
