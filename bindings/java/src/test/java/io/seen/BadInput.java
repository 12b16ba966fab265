package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** The checks every kind's tests make of bad input: each failure carries its own status. */
final class BadInput {
  private BadInput() {}

  /** A kind's {@code readFrom}, which closes what it read. */
  interface Reader {
    void readAndClose(InputStream in) throws IOException;
  }

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
  static void assertReadRefusesCorruption(Reader read, byte[] valid, byte[] otherKind) {
    thrown(Status.BAD_MAGIC, () -> read(read, "not a seen object at all".repeat(20).getBytes()));
    thrown(Status.TRUNCATED, () -> read(read, Arrays.copyOf(valid, valid.length - 1)));
    byte[] flipped = valid.clone();
    flipped[flipped.length - 10] ^= 0x40;
    thrown(Status.BAD_CHECKSUM, () -> read(read, flipped));
    thrown(Status.WRONG_KIND, () -> read(read, otherKind));
  }

  private static void read(Reader read, byte[] bytes) {
    try {
      read.readAndClose(new ByteArrayInputStream(bytes));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
