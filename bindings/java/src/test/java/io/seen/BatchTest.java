package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Batches give the same answers as single calls, honour offsets, and span many chunks. */
class BatchTest {
  /** More than one native chunk of ids (16,384) and of keys (512). */
  private static final int MANY = 50_000;

  private static long[] randomIds(int n, long seed) {
    return new Random(seed).longs(n).toArray();
  }

  @Test
  void idBatchAddsOnlyItsRange() {
    long[] ids = randomIds(MANY, 2);
    try (BloomFilter f = BloomFilter.create(MANY, 0.001)) {
      f.putAll(ids, 100, MANY - 200);
      int outside = 0;
      for (int i = 0; i < MANY; i++) {
        boolean inRange = i >= 100 && i < MANY - 100;
        if (inRange) {
          assertTrue(f.mightContain(ids[i]), "lost id at " + i);
        } else if (f.mightContain(ids[i])) {
          outside++;
        }
      }
      assertTrue(outside <= 2, outside + " of 200 ids outside the range answer yes");
    }
  }

  @Test
  void idQueriesMatchSingleCalls() {
    long[] ids = randomIds(MANY, 3);
    try (BloomFilter f = BloomFilter.create(MANY, 0.3)) {
      for (int i = 0; i < MANY; i += 2) {
        f.put(ids[i]);
      }
      boolean[] out = new boolean[MANY - 7];
      f.mightContainAll(ids, 7, MANY - 7, out);
      for (int i = 0; i < out.length; i++) {
        assertEquals(f.mightContain(ids[7 + i]), out[i], "id at " + (7 + i));
      }
    }
  }

  @Test
  void keyBatchesMatchSingleCalls() {
    byte[][] keys = new byte[MANY][];
    for (int i = 0; i < MANY; i++) {
      keys[i] = ("key-" + i * 31).repeat(i % 4).getBytes(StandardCharsets.UTF_8);
    }
    try (BloomFilter batched = BloomFilter.create(MANY, 0.01);
        BloomFilter single = BloomFilter.create(MANY, 0.01)) {
      batched.putAll(keys);
      for (byte[] k : keys) {
        single.put(k);
      }
      assertArrayEquals(single.toByteArray(), batched.toByteArray());
      boolean[] out = new boolean[MANY];
      batched.mightContainAll(keys, out);
      for (int i = 0; i < MANY; i++) {
        assertTrue(out[i], "lost key " + i);
      }
    }
  }

  @Test
  void dataAndOffsetsHonourFirstAndCount() {
    byte[] data = "aaabbbbccccc".getBytes(StandardCharsets.UTF_8);
    int[] offsets = {0, 3, 7, 12};
    try (BloomFilter f = BloomFilter.create(100, 0.0001)) {
      f.putAll(data, offsets, 1, 2);
      boolean[] out = new boolean[3];
      f.mightContainAll(data, offsets, 0, 3, out);
      assertArrayEquals(new boolean[] {false, true, true}, out);
      assertTrue(f.mightContain("ccccc"));
    }
  }

  @Test
  void badOffsetsAndShortOutputsAreRejected() {
    byte[] data = new byte[10];
    try (BloomFilter f = BloomFilter.create(100, 0.01)) {
      assertThrows(IllegalArgumentException.class, () -> f.putAll(data, new int[] {0, 5, 3}, 0, 2));
      assertThrows(IllegalArgumentException.class, () -> f.putAll(data, new int[] {0, 11}, 0, 1));
      assertThrows(IllegalArgumentException.class, () -> f.putAll(data, new int[] {-1, 2}, 0, 1));
      assertThrows(IndexOutOfBoundsException.class, () -> f.putAll(data, new int[] {0, 2}, 1, 1));
      assertThrows(IndexOutOfBoundsException.class, () -> f.putAll(new long[4], 2, 3));
      assertThrows(IllegalArgumentException.class,
          () -> f.mightContainAll(new long[4], 0, 4, new boolean[3]));
    }
  }
}
