package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One key per call: every key type, and no false negatives against an exact set. */
class SingleKeyTest {
  @Test
  void noFalseNegativesAgainstHashSet() {
    Random random = new Random(1);
    Set<Long> ids = new HashSet<>();
    Set<String> strings = new HashSet<>();
    try (BloomFilter f = BloomFilter.create(40_000, 0.01, 99)) {
      for (int i = 0; i < 20_000; i++) {
        long id = random.nextLong();
        String s = "user:" + random.nextInt() + ":\u00e9\u4e2d";
        ids.add(id);
        strings.add(s);
        f.put(id);
        f.put(s);
      }
      for (long id : ids) {
        assertTrue(f.mightContain(id), "lost id " + id);
      }
      for (String s : strings) {
        assertTrue(f.mightContain(s), "lost string " + s);
        assertTrue(f.mightContain(s.getBytes(StandardCharsets.UTF_8)), "UTF-8 bytes of " + s);
      }
    }
  }

  @Test
  void putReportsWhetherTheFilterChanged() {
    try (BloomFilter f = BloomFilter.create(1000, 0.01)) {
      assertFalse(f.mightContain(42L));
      assertTrue(f.put(42L));
      assertFalse(f.put(42L));
      assertTrue(f.mightContain(42L));
    }
  }

  @Test
  void idHashesAsItsLittleEndianBytes() {
    try (BloomFilter f = BloomFilter.create(1000, 0.001)) {
      long id = 0x0102030405060708L;
      f.put(id);
      byte[] le = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(id).array();
      assertTrue(f.mightContain(le));
      assertFalse(f.put(le), "same bits as the id");
    }
  }

  @Test
  void sliceOfAnArrayIsTheSameKeyAsACopy() {
    try (BloomFilter f = BloomFilter.create(1000, 0.001)) {
      byte[] buf = "xxhello-worldyy".getBytes(StandardCharsets.UTF_8);
      f.put(buf, 2, 11);
      assertTrue(f.mightContain("hello-world"));
      assertFalse(f.put("hello-world"));
    }
  }

  @Test
  void emptyKeyIsAKey() {
    try (BloomFilter f = BloomFilter.create(1000, 0.001)) {
      assertFalse(f.mightContain(""));
      f.put(new byte[0]);
      assertTrue(f.mightContain(""));
    }
  }

  @Test
  void parametersAreReported() {
    try (BloomFilter f = BloomFilter.create(10_000, 0.02, 77)) {
      assertEquals(77, f.seed());
      assertEquals(10_000, f.expectedInsertions());
      assertEquals(0.02, f.targetFpp());
      assertEquals(0, f.sizeInBytes() % 64);
      assertTrue(f.hashCount() > 0);
      assertFalse(f.isReadOnly());
      assertEquals(100, BloomFilter.nativeVersion());
    }
  }
}
