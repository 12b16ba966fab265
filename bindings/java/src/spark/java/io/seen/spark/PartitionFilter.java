package io.seen.spark;

import io.seen.BloomFilter;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One partition's filter: its keys are gathered into chunks in the Arrow layout (one data
 * array and offsets, or a long array) and each chunk goes to the binding in one batch call,
 * which hashes, prefetches and probes it, rather than one native call per key.
 */
final class PartitionFilter {
  /** Keys per batch call: enough to hide the native call's cost and the cache misses. */
  static final int CHUNK_KEYS = 4096;

  private PartitionFilter() {}

  /** The serialized filter of the keys in field 0 of the rows (nulls skipped). */
  static byte[] build(Iterator<InternalRow> rows, KeyColumn.Kind kind, long expectedItems,
      double fpp, long seed) {
    try (BloomFilter f = BloomFilter.create(expectedItems, fpp, seed)) {
      if (kind == KeyColumn.Kind.LONG) {
        addLongs(f, rows);
      } else {
        addBytes(f, rows, kind == KeyColumn.Kind.STRING);
      }
      return f.toByteArray();
    }
  }

  private static void addLongs(BloomFilter f, Iterator<InternalRow> rows) {
    long[] ids = new long[CHUNK_KEYS];
    int n = 0;
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      if (row.isNullAt(0)) {
        continue;
      }
      ids[n++] = row.getLong(0);  // its bits are the two's complement u64 id
      if (n == CHUNK_KEYS) {
        f.putAll(ids, 0, n);
        n = 0;
      }
    }
    f.putAll(ids, 0, n);
  }

  private static void addBytes(BloomFilter f, Iterator<InternalRow> rows, boolean strings) {
    byte[] data = new byte[1 << 16];
    int[] offsets = new int[CHUNK_KEYS + 1];
    int n = 0;
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      if (row.isNullAt(0)) {
        continue;
      }
      int start = offsets[n];
      int end;
      if (strings) {  // the string's bytes as Spark holds them, copied without decoding
        UTF8String s = row.getUTF8String(0);
        end = Math.addExact(start, s.numBytes());
        data = room(data, end);
        s.writeToMemory(data, Platform.BYTE_ARRAY_OFFSET + start);
      } else {
        byte[] b = row.getBinary(0);
        end = Math.addExact(start, b.length);
        data = room(data, end);
        System.arraycopy(b, 0, data, start, b.length);
      }
      offsets[++n] = end;
      if (n == CHUNK_KEYS) {
        f.putAll(data, offsets, 0, n);
        n = 0;
      }
    }
    f.putAll(data, offsets, 0, n);
  }

  /** data, or a copy at least twice as big when it holds fewer than needed bytes. */
  private static byte[] room(byte[] data, int needed) {
    return needed <= data.length ? data : Arrays.copyOf(data, Math.max(needed, 2 * data.length));
  }
}
