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
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scalable filter: growth within its bound, no false negatives, files and bad input. */
class ScalableTest {
  @TempDir Path dir;

  @Test
  void grows100TimesAndKeepsTheRateUnderItsBound() {
    SplittableRandom random = new SplittableRandom(23);
    Set<Long> added = new HashSet<>();
    try (ScalableFilter f = ScalableFilter.create(1000, 0.01, 2, 0.5, 23)) {
      long[] ids = new long[100_000];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = random.nextLong() | 1;  // odd: the probes below are even
        added.add(ids[i]);
      }
      f.putAll(ids, 0, ids.length);
      int subFilters = f.subFilterCount();
      assertTrue(subFilters >= 6 && subFilters <= 9, subFilters + " sub-filters");
      long items = f.approximateElementCount();
      assertTrue(items > 99_000 && items <= 100_000, items + " items");
      assertTrue(f.expectedFpp() <= f.fppBound(), f.expectedFpp() + " predicted");

      boolean[] out = new boolean[ids.length];
      f.mightContainAll(ids, 0, ids.length, out);
      for (int i = 0; i < ids.length; i++) {
        assertTrue(out[i], "no false negatives: " + ids[i]);
      }
      long[] probes = new long[200_000];
      for (int i = 0; i < probes.length; i++) {
        probes[i] = random.nextLong() & ~1L;
      }
      out = new boolean[probes.length];
      f.mightContainAll(probes, 0, probes.length, out);
      int falsePositives = 0;
      for (boolean b : out) {
        falsePositives += b ? 1 : 0;
      }
      double measured = falsePositives / (double) probes.length;
      // The bound is 1%; allow the sampling error of 200,000 probes (sd about 0.02%).
      assertTrue(measured <= 0.01 * 1.1, "measured rate " + measured);
    }
  }

  @Test
  void putSaysWhetherItChangedTheFilter() {
    try (ScalableFilter f = ScalableFilter.create(10, 0.001)) {
      assertTrue(f.put(42L));
      assertFalse(f.put(42L));
      assertTrue(f.put("alice@example.com"));
      assertFalse(f.put("alice@example.com".getBytes(StandardCharsets.UTF_8)));
      assertTrue(f.put(new byte[] {0, 1, 2, 3}, 1, 2));
      assertTrue(f.mightContain(new byte[] {1, 2}));
      assertTrue(f.mightContain("alice@example.com"));
      assertFalse(f.mightContain("bob@example.com"));
      assertEquals(3, f.approximateElementCount());
      for (long id = 0; id < 100; id++) {
        f.put(id);
      }
      assertTrue(f.subFilterCount() > 1);
      assertTrue(f.mightContain(42L));
    }
  }

  @Test
  void optionsAreKeptAndCheckedByTheLibrary() {
    try (ScalableFilter f = ScalableFilter.create(500, 0.02, 3, 0.8, 77)) {
      assertEquals(500, f.initialCapacity());
      assertEquals(0.02, f.fppBound());
      assertEquals(3.0, f.growth());
      assertEquals(0.8, f.tightening());
      assertEquals(77, f.seed());
      assertEquals(1, f.subFilterCount());
      assertTrue(f.sizeInBytes() > 0);
      assertFalse(f.isReadOnly());
    }
    try (ScalableFilter f = ScalableFilter.create(500, 0.02)) {
      assertEquals(2.0, f.growth());
      assertEquals(0.5, f.tightening());
    }
    thrown(Status.INVALID_ARGUMENT, () -> ScalableFilter.create(100, 1.5));
    thrown(Status.INVALID_ARGUMENT, () -> ScalableFilter.create(100, 0.01, 65, 0.5, 0));
    thrown(Status.INVALID_ARGUMENT, () -> ScalableFilter.create(100, 0.01, 2, 1.0, 0));
    assertThrows(IllegalArgumentException.class, () -> ScalableFilter.create(0, 0.01));
  }

  @Test
  void byteKeyBatches() {
    byte[][] keys = new byte[3000][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ("user:" + i).getBytes(StandardCharsets.UTF_8);
    }
    try (ScalableFilter f = ScalableFilter.create(100, 0.01, 2, 0.5, 8)) {
      f.putAll(keys);
      assertTrue(f.subFilterCount() > 3);
      boolean[] out = new boolean[keys.length];
      f.mightContainAll(keys, out);
      for (boolean b : out) {
        assertTrue(b);
      }
      assertThrows(IllegalArgumentException.class,
          () -> f.putAll(new byte[4], new int[] {0, 5}, 0, 1));
      assertThrows(IllegalArgumentException.class, () -> f.mightContainAll(keys, new boolean[1]));
    }
  }

  @Test
  void streamAndFileRoundTrips() throws IOException {
    Path file = dir.resolve("scalable.seen");
    try (ScalableFilter f = ScalableFilter.create(100, 0.01, 2, 0.5, 5)) {
      for (long id = 0; id < 1000; id++) {
        f.put(id * 3);
      }
      try (ScalableFilter g = ReadBack.throughStream(f, ScalableFilter::readFrom)) {
        assertEquals(f.subFilterCount(), g.subFilterCount());
        assertEquals(f.approximateElementCount(), g.approximateElementCount());
        assertEquals(5, g.seed());
      }
      f.save(file);
    }
    byte[] saved = Files.readAllBytes(file);
    try (ScalableFilter g = ScalableFilter.open(file, Mode.READ_ONLY)) {
      assertTrue(g.isReadOnly());
      for (long id = 0; id < 1000; id++) {
        assertTrue(g.mightContain(id * 3));
      }
      assertRefusesPuts(g, g::put, g::put);
      assertArrayEquals(saved, g.toByteArray());
    }
    // PRIVATE_COPY reads a private copy that may grow; the file changes only on save.
    try (ScalableFilter g = ScalableFilter.open(file, Mode.PRIVATE_COPY)) {
      int before = g.subFilterCount();
      for (long id = 0; id < 5000; id++) {
        g.put(id * 3 + 1);
      }
      assertTrue(g.subFilterCount() > before);
      assertArrayEquals(saved, Files.readAllBytes(file));
      g.save(file);
    }
    try (ScalableFilter g = ScalableFilter.open(file, Mode.READ_ONLY)) {
      assertTrue(g.mightContain(4999L * 3 + 1));
      assertTrue(g.mightContain(999L * 3));
    }
  }

  @Test
  void corruptInputGetsItsStatus() throws IOException {
    byte[] valid;
    try (ScalableFilter f = ScalableFilter.create(100, 0.01)) {
      for (long id = 0; id < 300; id++) {
        f.put(id);
      }
      valid = f.toByteArray();
    }
    try (CountingFilter counting = CountingFilter.create(100, 0.01)) {
      assertReadRefusesCorruption(ScalableFilter::readFrom, valid,
          counting.toByteArray());
    }
    Path file = dir.resolve("short.seen");
    Files.write(file, Arrays.copyOf(valid, valid.length / 2));
    SeenException e = assertThrows(SeenException.class,
        () -> ScalableFilter.open(file, Mode.READ_ONLY));
    assertTrue(e.status() == Status.TRUNCATED || e.status() == Status.INCONSISTENT, e.getMessage());
  }

  @Test
  void closeIsIdempotentAndLaterCallsThrow() {
    ScalableFilter f = ScalableFilter.create(10, 0.01);
    assertClosesTwiceThenRefuses(f, () -> f.put(1L), f::subFilterCount);
  }
}
