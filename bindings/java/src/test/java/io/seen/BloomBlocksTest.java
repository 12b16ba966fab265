package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A filter assembled from block ranges, each built from the keys routed to it alone, is byte
 * for byte the filter of every key: the contract io.seen.spark's big builds rest on.
 */
class BloomBlocksTest {
  private static final int N = 20_000;
  private static final int PER_RANGE = 37;  // ranges that do not divide the block count

  @Test
  void rangesOfRoutedIdsAssembleTheWholeFilter() {
    long[] ids = new Random(5).longs(N).toArray();
    try (BloomFilter whole = BloomFilter.create(N, 0.01, 9);
        BloomFilter router = BloomFilter.create(N, 0.01, 9);
        BloomFilter assembled = BloomFilter.create(N, 0.01, 9)) {
      whole.putAll(ids, 0, N);
      long blocks = whole.sizeInBytes() / 64;
      long[] to = new long[N];
      BloomBlocks.blocksOf(router, ids, 0, N, to);
      for (long first = 0; first < blocks; first += PER_RANGE) {
        try (BloomFilter range = BloomFilter.create(N, 0.01, 9)) {
          for (int i = 0; i < N; i++) {
            if (to[i] / PER_RANGE == first / PER_RANGE) range.put(ids[i]);
          }
          BloomBlocks.or(assembled, first, BloomBlocks.read(range, first,
              (int) Math.min(PER_RANGE, blocks - first)));
        }
      }
      assertArrayEquals(whole.toByteArray(), assembled.toByteArray());
    }
  }

  @Test
  void aKeySetsItsBitsInTheBlockItIsRoutedTo() {
    byte[] data = "alphabetagamma".getBytes(StandardCharsets.UTF_8);
    int[] offsets = {0, 5, 9, 14};
    long[] to = new long[2];
    try (BloomFilter router = BloomFilter.create(1000, 0.01)) {
      BloomBlocks.blocksOf(router, data, offsets, 1, 2, to);  // beta and gamma, not from 0
    }
    for (int key = 1; key <= 2; key++) {
      try (BloomFilter f = BloomFilter.create(1000, 0.01)) {
        f.putAll(data, offsets, key, 1);
        int set = 0;
        for (byte b : BloomBlocks.read(f, to[key - 1], 1)) set += Integer.bitCount(b & 0xff);
        assertEquals(f.hashCount(), set, "key " + key + "'s bits are not all in its block");
      }
    }
  }

  @Test
  void badRangesAndArraysAreRefused() {
    try (BloomFilter f = BloomFilter.create(1000, 0.01)) {
      long blocks = f.sizeInBytes() / 64;
      assertThrows(SeenException.class, () -> BloomBlocks.read(f, blocks, 1));
      assertThrows(SeenException.class, () -> BloomBlocks.or(f, blocks - 1, new byte[128]));
      assertThrows(IllegalArgumentException.class, () -> BloomBlocks.or(f, 0, new byte[65]));
      assertThrows(IllegalArgumentException.class, () -> BloomBlocks.read(f, 0, -1));
      assertThrows(IllegalArgumentException.class,
          () -> BloomBlocks.blocksOf(f, new long[4], 0, 4, new long[3]));
      assertThrows(IndexOutOfBoundsException.class,
          () -> BloomBlocks.blocksOf(f, new long[4], 2, 3, new long[3]));
      assertThrows(IllegalArgumentException.class,
          () -> BloomBlocks.blocksOf(f, new byte[2], new int[] {0, 3}, 0, 1, new long[1]));
    }
  }
}
