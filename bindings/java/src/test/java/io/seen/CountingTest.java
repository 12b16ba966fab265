package io.seen;

import static io.seen.BadInput.assertReadRefusesCorruption;
import static io.seen.BadInput.assertRefusesPuts;
import static io.seen.BadInput.thrown;
import static io.seen.LifecycleTest.assertClosesTwiceThenRefuses;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The counting filter: no false negatives, the remove rule, saturation, files and bad input. */
class CountingTest {
  @TempDir Path dir;

  @Test
  void noFalseNegativesAgainstAMultiset() {
    SplittableRandom random = new SplittableRandom(17);
    Map<Long, Integer> counts = new HashMap<>();
    try (CountingFilter f = CountingFilter.create(20_000, 0.01, 5)) {
      long[] batch = new long[20_000];
      for (int i = 0; i < batch.length; i++) {
        batch[i] = random.nextLong(30_000);  // repeats: some ids count twice or more
        counts.merge(batch[i], 1, Integer::sum);
      }
      f.putAll(batch, 0, batch.length);
      // Remove a third of the puts (all of them put), singly and as one batch.
      long[] removes = new long[3000];
      int n = 0;
      for (Map.Entry<Long, Integer> e : counts.entrySet()) {
        if (n < removes.length && e.getKey() % 3 == 0) {
          removes[n++] = e.getKey();
        }
      }
      for (int i = 0; i < n; i++) {
        if (i % 2 == 0) {
          f.remove(removes[i]);
        } else {
          f.removeAll(removes, i, 1);
        }
        counts.merge(removes[i], -1, Integer::sum);
      }
      long[] present = counts.entrySet().stream()
          .filter(e -> e.getValue() > 0).mapToLong(Map.Entry::getKey).toArray();
      boolean[] out = new boolean[present.length];
      f.mightContainAll(present, 0, present.length, out);
      for (int i = 0; i < present.length; i++) {
        assertTrue(out[i], "id " + present[i] + " put " + counts.get(present[i]) + " more times");
        assertTrue(f.mightContain(present[i]));
      }
      long live = counts.values().stream().mapToLong(Integer::longValue).sum();
      assertEquals(live, f.approximateElementCount(), "exact while nothing saturated");
      assertEquals(0, f.saturatedCounters());
      // Never-put ids are rarely found.
      int falsePositives = 0;
      for (long id = 1_000_000; id < 1_100_000; id++) {
        falsePositives += f.mightContain(id) ? 1 : 0;
      }
      assertTrue(falsePositives < 100_000 * 0.02, falsePositives + " false positives");
    }
  }

  @Test
  void aKeyPutTwiceIsRemovedTwice() {
    try (CountingFilter f = CountingFilter.create(1000, 0.0001, 1)) {
      f.put("alice@example.com");
      f.put("alice@example.com");
      f.remove("alice@example.com");
      assertTrue(f.mightContain("alice@example.com"));
      f.remove("alice@example.com");
      assertFalse(f.mightContain("alice@example.com"));
      thrown(Status.NOT_FOUND, () -> f.remove("alice@example.com"));
      assertEquals(0, f.approximateElementCount());
    }
  }

  @Test
  void removingAnAbsentKeyIsNotFoundAndChangesNothing() {
    try (CountingFilter f = CountingFilter.create(1000, 0.001, 2)) {
      for (long id = 0; id < 500; id++) {
        f.put(id);
      }
      f.put(new byte[] {1, 2, 3});
      f.put(new byte[0]);
      byte[] before = f.toByteArray();
      long absent = 10_000;
      while (f.mightContain(absent)) {
        absent++;
      }
      final long id = absent;
      SeenException e = thrown(Status.NOT_FOUND, () -> f.remove(id));
      assertEquals(15, e.code());
      thrown(Status.NOT_FOUND, () -> f.remove(new byte[] {9, 9, 9, 9, 9, 9, 9}));
      thrown(Status.NOT_FOUND, () -> f.remove("never put"));
      assertArrayEquals(before, f.toByteArray());
      f.remove(new byte[] {0, 1, 2, 3, 4}, 1, 3);  // the slice {1, 2, 3}
      f.remove(new byte[0]);
      assertFalse(f.mightContain(new byte[] {1, 2, 3}));
    }
  }

  @Test
  void batchRemovesProcessEveryKeyAndSayWhich() {
    try (CountingFilter f = CountingFilter.create(100_000, 0.001, 3)) {
      long[] ids = new long[50_000];  // more than one native chunk of 16,384
      for (int i = 0; i < ids.length; i++) {
        ids[i] = i * 2L;
      }
      f.putAll(ids);
      long[] mixed = new long[ids.length];
      for (int i = 0; i < mixed.length; i++) {
        mixed[i] = i < 10 ? 1_000_000_001L + 2 * i : ids[i];  // absent ones first
      }
      boolean[] removed = new boolean[mixed.length];
      int count = f.removeAll(mixed, 0, mixed.length, removed);
      assertEquals(mixed.length - 10, count);
      for (int i = 0; i < 10; i++) {
        assertFalse(removed[i]);
      }
      assertTrue(removed[10] && removed[mixed.length - 1]);
      assertEquals(10, f.approximateElementCount());
      // Without removed[]: the later chunks are still processed, then NOT_FOUND.
      f.putAll(ids, 10, ids.length - 10);
      thrown(Status.NOT_FOUND, () -> f.removeAll(mixed));
      assertEquals(10, f.approximateElementCount());
      assertFalse(f.mightContain(ids[ids.length - 1]));
      assertTrue(f.mightContain(ids[0]));
    }
  }

  @Test
  void byteKeyBatches() {
    byte[][] keys = new byte[2000][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ("sender" + i + "@example.org").getBytes(StandardCharsets.UTF_8);
    }
    try (CountingFilter f = CountingFilter.create(2000, 0.001, 4)) {
      f.putAll(keys);
      boolean[] out = new boolean[keys.length];
      f.mightContainAll(keys, out);
      for (int i = 0; i < keys.length; i++) {
        assertTrue(out[i]);
        assertTrue(f.mightContain(new String(keys[i], StandardCharsets.UTF_8)));
      }
      byte[][] half = Arrays.copyOf(keys, 1000);
      f.removeAll(half);
      f.mightContainAll(keys, out);
      int stillThere = 0;
      for (int i = 0; i < 1000; i++) {
        stillThere += out[i] ? 1 : 0;
      }
      assertTrue(stillThere < 20, stillThere + " removed keys still found");
      for (int i = 1000; i < keys.length; i++) {
        assertTrue(out[i]);
      }
      thrown(Status.NOT_FOUND, () -> f.removeAll(half));
      assertThrows(IllegalArgumentException.class,
          () -> f.putAll(new byte[4], new int[] {0, 3, 2}, 0, 2));
      assertThrows(IndexOutOfBoundsException.class, () -> f.putAll(new long[3], 2, 2));
    }
  }

  @Test
  void saturatedCountersNeverDecrement() {
    try (CountingFilter f = CountingFilter.create(100, 0.01, 6)) {
      assertEquals(4, f.counterBits());
      for (int i = 0; i < 40; i++) {
        f.put(7L);
      }
      assertEquals(f.hashCount(), f.saturatedCounters());
      for (int i = 0; i < 40; i++) {
        f.remove(7L);  // each remove finds every counter non-zero
      }
      assertTrue(f.mightContain(7L), "a saturated key is never forgotten");
      assertEquals(f.hashCount(), f.saturatedCounters());
    }
  }

  @Test
  void parametersMatchTheBloomFilter() {
    try (CountingFilter c = CountingFilter.create(100_000, 0.01, 9);
        BloomFilter b = BloomFilter.create(100_000, 0.01, 9)) {
      assertEquals(b.hashCount(), c.hashCount());
      assertEquals(5 * b.sizeInBytes(), c.sizeInBytes());
      assertEquals(9, c.seed());
      assertEquals(100_000, c.expectedInsertions());
      assertEquals(0.01, c.targetFpp());
      assertFalse(c.isReadOnly());
      for (long id = 0; id < 100_000; id += 3) {
        c.put(id);
        b.put(id);
      }
      for (long id = 0; id < 20_000; id++) {
        assertEquals(b.mightContain(id), c.mightContain(id), "same answers as the Bloom filter");
      }
      assertTrue(c.expectedFpp() > 0 && c.expectedFpp() < 0.01);
      c.clear();
      assertEquals(0, c.approximateElementCount());
      assertFalse(c.mightContain(3L));
    }
  }

  @Test
  void streamAndFileRoundTrips() throws IOException {
    Path file = dir.resolve("counting.seen");
    try (CountingFilter f = CountingFilter.create(5000, 0.01, 11)) {
      for (long id = 0; id < 5000; id++) {
        f.put(id * 7);
      }
      f.remove(0L);
      try (CountingFilter g = ReadBack.throughStream(f, CountingFilter::readFrom)) {
        assertEquals(11, g.seed());
        assertEquals(4999, g.approximateElementCount());
        g.remove(7L);  // a copy: writable
      }
      f.save(file);
    }
    try (CountingFilter g = CountingFilter.open(file, Mode.READ_ONLY)) {
      assertTrue(g.isReadOnly());
      for (long id = 1; id < 5000; id++) {
        assertTrue(g.mightContain(id * 7));
      }
      assertRefusesPuts(g, g::put, g::put);
      thrown(Status.READ_ONLY, () -> g.remove(7L));
      thrown(Status.READ_ONLY, () -> g.removeAll(new long[] {7, 14}));
      thrown(Status.READ_ONLY, () -> g.removeAll(new long[] {7}, 0, 1, new boolean[1]));
      thrown(Status.READ_ONLY, g::clear);
      assertTrue(g.mightContain(7L));
    }
    try (CountingFilter g = CountingFilter.open(file, Mode.WRITE_IN_PLACE)) {
      g.remove(7L);
      g.put("remembered");
    }
    try (CountingFilter g = CountingFilter.open(file, Mode.READ_ONLY)) {
      assertTrue(g.mightContain("remembered"));
      assertFalse(g.mightContain(7L));
      assertTrue(g.mightContain(14L));
    }
  }

  @Test
  void corruptInputGetsItsStatus() throws IOException {
    byte[] valid;
    try (CountingFilter f = CountingFilter.create(1000, 0.01)) {
      f.put(1L);
      valid = f.toByteArray();
    }
    try (BloomFilter bloom = BloomFilter.create(1000, 0.01)) {
      assertReadRefusesCorruption(CountingFilter::readFrom, valid,
          bloom.toByteArray());
    }
    thrown(Status.IO, () -> CountingFilter.open(dir.resolve("absent.seen"), Mode.READ_ONLY));
    // A cut file is refused at open, in either role, never a SIGBUS on a later query.
    Path cut = dir.resolve("cut.seen");
    Files.write(cut, Arrays.copyOf(valid, valid.length - 64));
    thrown(Status.TRUNCATED, () -> CountingFilter.open(cut, Mode.READ_ONLY));
    thrown(Status.TRUNCATED, () -> CountingFilter.open(cut, Mode.WRITE_IN_PLACE));
    thrown(Status.INVALID_ARGUMENT, () -> CountingFilter.create(100, 1.5));
    assertThrows(IllegalArgumentException.class, () -> CountingFilter.create(-1, 0.01));
  }

  @Test
  void closeIsIdempotentAndLaterCallsThrow() {
    CountingFilter f = CountingFilter.create(10, 0.01);
    assertClosesTwiceThenRefuses(f, () -> f.put(1L), () -> f.remove(1L));
  }
}
