package io.seen.spark;

import io.seen.BloomBlocks;
import io.seen.BloomFilter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import scala.Tuple2;

/**
 * A filter of 1 GiB and more, assembled from ranges of its blocks (io.seen.BloomBlocks says
 * why that is byte-identical), so that no task and no driver holds more than one whole filter:
 * the executors route each key to its range, Spark shuffles the keys by range, each range is
 * built from its own keys and read back, and the driver ORs the ranges into the filter it
 * returns, one at a time. Python's seen.spark.build_bloom does the same.
 */
final class BlockRanges {
  private BlockRanges() {}

  static BloomFilter build(KeyColumn keys, long expectedItems, double fpp, long seed,
      int perRange) {
    long blocks;
    try (BloomFilter probe = BloomFilter.create(expectedItems, fpp, seed)) {
      blocks = probe.sizeInBytes() / 64;
    }
    int ranges = Math.toIntExact((blocks + perRange - 1) / perRange);
    KeyColumn.Kind kind = keys.kind();  // the tasks take the kind, not the KeyColumn
    JavaPairRDD<Long, byte[]> routed = keys.rows().toJavaRDD().mapPartitionsToPair(
        rows -> route(rows, kind, expectedItems, fpp, seed, perRange));
    // Range r goes to partition r (a Long's hash is itself below 2^31): one range a task.
    JavaPairRDD<Long, byte[]> built = routed.partitionBy(new HashPartitioner(ranges))
        .mapPartitionsToPair(range -> buildRange(range, expectedItems, fpp, seed, perRange,
            blocks));
    BloomFilter f = BloomFilter.create(expectedItems, fpp, seed);
    try {
      for (Iterator<Tuple2<Long, byte[]>> it = built.toLocalIterator(); it.hasNext(); ) {
        Tuple2<Long, byte[]> range = it.next();
        BloomBlocks.or(f, range._1() * perRange, range._2());
      }
      return f;
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
  }

  /**
   * Each key of a partition with its range, as its bytes, a chunk at a time. A long goes as its
   * 8 little-endian bytes, which is how a u64 id hashes (DESIGN.md, "Hash"), so one path
   * serves every column.
   */
  private static Iterator<Tuple2<Long, byte[]>> route(Iterator<InternalRow> rows,
      KeyColumn.Kind kind, long expectedItems, double fpp, long seed, int perRange) {
    // Never written: its memory is reserved, not resident, whatever the filter's size. Closed
    // when the rows run out (its Cleaner if the task stops early).
    BloomFilter router = BloomFilter.create(expectedItems, fpp, seed);
    return new Iterator<Tuple2<Long, byte[]>>() {
      private Iterator<Tuple2<Long, byte[]>> routed = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!routed.hasNext() && rows.hasNext()) {
          Chunk chunk = new Chunk();
          while (!chunk.full() && rows.hasNext()) {
            InternalRow row = rows.next();
            if (!row.isNullAt(0)) chunk.add(key(row, kind));
          }
          routed = chunk.route(router, perRange).iterator();
        }
        if (!routed.hasNext()) router.close();
        return routed.hasNext();
      }

      @Override
      public Tuple2<Long, byte[]> next() {
        if (!hasNext()) throw new NoSuchElementException();
        return routed.next();
      }
    };
  }

  private static byte[] key(InternalRow row, KeyColumn.Kind kind) {
    switch (kind) {
      case STRING: {
        UTF8String s = row.getUTF8String(0);
        return s.getBytes();  // the bytes Spark holds, not decoded
      }
      case BINARY:
        return row.getBinary(0);
      default:
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(row.getLong(0))
            .array();
    }
  }

  /** The blocks of one range, from its keys alone, in a filter of the full size. */
  private static Iterator<Tuple2<Long, byte[]>> buildRange(Iterator<Tuple2<Long, byte[]>> keys,
      long expectedItems, double fpp, long seed, int perRange, long blocks) {
    if (!keys.hasNext()) return Collections.emptyIterator();
    try (BloomFilter f = BloomFilter.create(expectedItems, fpp, seed)) {
      Chunk chunk = new Chunk();
      long range = -1;
      while (keys.hasNext()) {
        Tuple2<Long, byte[]> key = keys.next();
        range = key._1();
        chunk.add(key._2());
        if (chunk.full()) chunk.putInto(f);
      }
      chunk.putInto(f);
      long first = range * perRange;
      byte[] data = BloomBlocks.read(f, first, (int) Math.min(perRange, blocks - first));
      return Collections.singletonList(new Tuple2<>(range, data)).iterator();
    }
  }

  /** Up to CHUNK_KEYS keys in the layout of one batch call: one data array and offsets. */
  private static final class Chunk {
    private final List<byte[]> keys = new ArrayList<>(PartitionFilter.CHUNK_KEYS);

    void add(byte[] key) {
      keys.add(key);
    }

    boolean full() {
      return keys.size() == PartitionFilter.CHUNK_KEYS;
    }

    List<Tuple2<Long, byte[]>> route(BloomFilter router, int perRange) {
      int[] offsets = new int[keys.size() + 1];
      byte[] data = pack(offsets);
      long[] blocks = new long[keys.size()];
      BloomBlocks.blocksOf(router, data, offsets, 0, keys.size(), blocks);
      List<Tuple2<Long, byte[]>> out = new ArrayList<>(blocks.length);
      for (int i = 0; i < blocks.length; i++) {
        out.add(new Tuple2<>(blocks[i] / perRange, keys.get(i)));
      }
      return out;
    }

    void putInto(BloomFilter f) {
      int[] offsets = new int[keys.size() + 1];
      f.putAll(pack(offsets), offsets, 0, keys.size());
      keys.clear();
    }

    private byte[] pack(int[] offsets) {
      for (int i = 0; i < keys.size(); i++) {
        offsets[i + 1] = Math.addExact(offsets[i], keys.get(i).length);
      }
      byte[] data = new byte[offsets[keys.size()]];
      for (int i = 0; i < keys.size(); i++) {
        System.arraycopy(keys.get(i), 0, data, offsets[i], keys.get(i).length);
      }
      return data;
    }
  }
}
