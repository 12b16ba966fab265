package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/** The checks every kind's tests make of bad input: each failure carries its own status. */
final class BadInput {
  private BadInput() {}

  /** Asserts that {@code call} throws a SeenException with {@code expected}, and returns it. */
  static SeenException thrown(Status expected, Runnable call) {
    SeenException e = assertThrows(SeenException.class, call::run);
    assertEquals(expected, e.status(), e.getMessage());
    return e;
  }

  /**
   * Asserts that {@code read} refuses text (BAD_MAGIC), {@code valid} one byte short
   * (TRUNCATED), {@code valid} with a bit flipped (BAD_CHECKSUM) and another kind's bytes
   * (WRONG_KIND).
   */
  static void assertReadRefusesCorruption(ReadBack.Reader<? extends NativeObject<?>> read,
      byte[] valid, byte[] otherKind) {
    thrown(Status.BAD_MAGIC, () -> read(read, "not a seen object at all".repeat(20).getBytes()));
    thrown(Status.TRUNCATED, () -> read(read, Arrays.copyOf(valid, valid.length - 1)));
    byte[] flipped = valid.clone();
    flipped[flipped.length - 10] ^= 0x40;
    thrown(Status.BAD_CHECKSUM, () -> read(read, flipped));
    thrown(Status.WRONG_KIND, () -> read(read, otherKind));
  }

  private static void read(ReadBack.Reader<? extends NativeObject<?>> read, byte[] bytes) {
    ReadBack.fromBytes(read, bytes).close();
  }

  /**
   * Asserts that a read-only filter refuses every put: one id, one key, and batches of ids and
   * of byte keys. Single puts are not on {@link Filter} (a counting put returns nothing), so
   * the caller passes its own, as {@code g::put, g::put}.
   */
  static void assertRefusesPuts(Filter<?> readOnly, LongConsumer putId,
      Consumer<CharSequence> putKey) {
    thrown(Status.READ_ONLY, () -> putId.accept(1L));
    thrown(Status.READ_ONLY, () -> putKey.accept("key"));
    thrown(Status.READ_ONLY, () -> readOnly.putAll(new long[] {1, 2}));
    thrown(Status.READ_ONLY, () -> readOnly.putAll(new byte[][] {{1}}));
  }
}
