package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of bad input gets its own status and the library's message. */
class ErrorTest {
  @TempDir Path dir;

  private static byte[] valid() {
    try (BloomFilter f = BloomFilter.create(1000, 0.01)) {
      f.put(1L);
      return f.toByteArray();
    }
  }

  private static SeenException readError(byte[] bytes) {
    return assertThrows(SeenException.class,
        () -> BloomFilter.readFrom(new ByteArrayInputStream(bytes)).close());
  }

  @Test
  void garbageIsBadMagic() {
    SeenException e = readError("definitely not a filter, just text".repeat(10).getBytes());
    assertEquals(Status.BAD_MAGIC, e.status());
    assertFalse(e.getMessage().endsWith(": "), "carries the native detail: " + e.getMessage());
  }

  @Test
  void shortInputIsTruncated() {
    byte[] bytes = valid();
    assertEquals(Status.TRUNCATED, readError(Arrays.copyOf(bytes, bytes.length - 1)).status());
  }

  @Test
  void flippedPayloadByteIsBadChecksum() {
    byte[] bytes = valid();
    bytes[bytes.length - 10] ^= 0x40;
    assertEquals(Status.BAD_CHECKSUM, readError(bytes).status());
  }

  @Test
  void missingFileIsIo() {
    SeenException e = assertThrows(SeenException.class,
        () -> BloomFilter.open(dir.resolve("absent.seen"), Mode.READ_ONLY));
    assertEquals(Status.IO, e.status());
    assertEquals(3, e.code());
  }

  @Test
  void fppOutsideTheOpenIntervalIsInvalid() {
    assertEquals(Status.INVALID_ARGUMENT,
        assertThrows(SeenException.class, () -> BloomFilter.create(100, 1.5)).status());
    assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(-1, 0.01));
  }

  /** Guava's contract: one exception type for every invalid argument, Java's or the library's. */
  @Test
  void everyBadFppIsAnIllegalArgumentException() {
    for (double fpp : new double[] {0, 1, Double.NaN, 1e-80}) {
      assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(100, fpp));
      assertThrows(IllegalArgumentException.class, () -> CountingFilter.create(100, fpp));
    }
  }

  /** Numbers print as %g does: "fpr 1e-80", not "fpr 0.000000". */
  @Test
  void messagesPrintSmallRatesReadably() {
    String message = assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(100, 1e-80)).getMessage();
    assertTrue(message.contains("fpr 1e-80 "), message);
  }

  @Test
  void everyStatusNumberMapsBack() {
    for (Status s : Status.values()) {
      assertEquals(s, Status.of(s.code()));
    }
    assertEquals(Status.UNKNOWN, Status.of(99));
  }
}
