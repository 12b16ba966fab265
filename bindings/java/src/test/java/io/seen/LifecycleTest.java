package io.seen;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** close() is idempotent and every later call fails cleanly instead of touching freed memory. */
class LifecycleTest {
  @Test
  void closeTwiceIsHarmless() {
    BloomFilter f = BloomFilter.create(10, 0.01);
    f.close();
    assertDoesNotThrow(f::close);
    assertThrows(IllegalStateException.class, () -> f.mightContain(1L), "closed after the second close too");
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
