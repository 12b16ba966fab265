package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A filter as a value, as Guava's is: copy, equals and hashCode, and predicate views. */
class ValueTest {
  @Test
  void aCopyIsEqualAndIndependent() {
    try (BloomFilter f = BloomFilter.create(1000, 0.01, 3);
        BloomFilter g = BloomFilter.create(1000, 0.01, 3)) {
      f.put("a");
      g.put("a");
      try (BloomFilter copy = f.copy()) {
        assertEquals(f, copy);
        assertEquals(f.hashCode(), copy.hashCode());
        assertEquals(f, g);
        copy.put("b");
        assertNotEquals(f, copy);
        assertFalse(f.mightContain("b"), "the copy's put does not reach the original");
      }
      try (BloomFilter otherSeed = BloomFilter.create(1000, 0.01, 4)) {
        otherSeed.put("a");
        assertNotEquals(f, otherSeed);
      }
      assertNotEquals(f, "a");
    }
  }

  @Test
  void predicatesFilterStreams() {
    try (BloomFilter f = BloomFilter.create(1000, 0.01)) {
      f.put("seen-1");
      f.put(42L);
      List<String> fresh =
          List.of("seen-1", "new-1", "new-2").stream()
              .filter(f.asPredicate().negate())
              .collect(Collectors.toList());
      assertEquals(List.of("new-1", "new-2"), fresh);
      assertTrue(LongStream.of(1, 42, 43).anyMatch(f.asLongPredicate()));
      assertEquals(1, LongStream.of(1, 42, 43).filter(f.asLongPredicate()).count());
    }
  }
}
