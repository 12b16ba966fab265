package io.seen;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** close() is idempotent and every later call fails cleanly instead of touching freed memory. */
class LifecycleTest {
  /**
   * Closes {@code f} twice, then asserts that a query, a serialization and each of
   * {@code kindCalls} (calls of the filter's own kind) throw IllegalStateException: the check
   * every filter kind's test makes.
   */
  static void assertClosesTwiceThenRefuses(Filter<?> f, Executable... kindCalls) {
    f.close();
    assertDoesNotThrow(f::close);
    assertThrows(IllegalStateException.class, () -> f.mightContain(1L), "closed after the second close too");
    assertThrows(IllegalStateException.class, f::toByteArray);
    for (Executable call : kindCalls) {
      assertThrows(IllegalStateException.class, call);
    }
  }

  @Test
  void closeTwiceIsHarmless() {
    BloomFilter f = BloomFilter.create(10, 0.01);
    assertClosesTwiceThenRefuses(f, () -> f.put(1L));
  }

  @Test
  void useAfterCloseThrows() {
    BloomFilter f = BloomFilter.create(10, 0.01);
    BloomFilter open = BloomFilter.create(10, 0.01);
    f.close();
    assertThrows(IllegalStateException.class, () -> f.put(1L));
    assertThrows(IllegalStateException.class, () -> f.mightContain("x"));
    assertThrows(IllegalStateException.class, () -> f.mightContainAll(new long[1], new boolean[1]));
    assertThrows(IllegalStateException.class, f::toByteArray);
    assertThrows(IllegalStateException.class, f::approximateElementCount);
    assertThrows(IllegalStateException.class, () -> open.putAll(f));
    open.close();
  }
}
