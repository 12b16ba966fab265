package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Streams, files and mappings keep every bit and parameter; merge ORs compatible filters. */
class PersistenceTest {
  @TempDir Path dir;

  private static BloomFilter filled(long seed) {
    BloomFilter f = BloomFilter.create(5000, 0.01, seed);
    for (long i = 0; i < 5000; i++) {
      f.put(i * 7);
    }
    return f;
  }

  @Test
  void streamRoundTripIsByteIdentical() throws IOException {
    try (BloomFilter f = filled(3)) {
      try (BloomFilter g = ReadBack.throughStream(f, BloomFilter::readFrom)) {
        assertEquals(3, g.seed());
        assertEquals(f.hashCount(), g.hashCount());
        assertTrue(g.mightContain(7 * 4999L));
        assertFalse(g.isReadOnly());
      }
    }
  }

  @Test
  void readOnlyOpenAnswersAndRejectsPut() {
    Path file = dir.resolve("f.seen");
    try (BloomFilter f = filled(4)) {
      f.save(file);
    }
    try (BloomFilter g = BloomFilter.open(file, Mode.READ_ONLY)) {
      assertTrue(g.isReadOnly());
      for (long i = 0; i < 5000; i++) {
        assertTrue(g.mightContain(i * 7));
      }
      SeenException e = assertThrows(SeenException.class, () -> g.put(1L));
      assertEquals(Status.READ_ONLY, e.status());
      assertEquals(Status.READ_ONLY, assertThrows(SeenException.class,
          () -> g.putAll(new long[] {1, 2})).status());
    }
  }

  @Test
  void readWriteOpenKeepsPutsAfterClose() {
    Path file = dir.resolve("rw.seen");
    try (BloomFilter f = BloomFilter.create(100, 0.001)) {
      f.save(file);
    }
    try (BloomFilter g = BloomFilter.open(file, Mode.WRITE_IN_PLACE)) {
      g.put("remembered");
    }
    try (BloomFilter h = BloomFilter.open(file, Mode.READ_ONLY)) {
      assertTrue(h.mightContain("remembered"));
      assertFalse(h.mightContain("forgotten"));
    }
  }

  @Test
  void mergeOrsCompatibleFilters() {
    try (BloomFilter a = BloomFilter.create(1000, 0.001, 9);
        BloomFilter b = BloomFilter.create(1000, 0.001, 9);
        BloomFilter other = BloomFilter.create(1000, 0.001, 10)) {
      a.put("a");
      b.put("b");
      assertTrue(a.isCompatible(b));
      a.putAll(b);
      assertTrue(a.mightContain("a") && a.mightContain("b"));
      assertFalse(a.isCompatible(other));
      assertEquals(Status.INCOMPATIBLE,
          assertThrows(SeenException.class, () -> a.putAll(other)).status());
    }
  }

  @Test
  void clearForgetsEverything() {
    try (BloomFilter f = filled(5)) {
      f.clear();
      assertFalse(f.mightContain(7L));
      assertEquals(0, f.approximateElementCount());
    }
  }
}
