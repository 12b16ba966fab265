package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyed filters of each kind: every key put is found, keys never put read present at about the
 * target rate, the bytes and file open only with the key (INCOMPATIBLE without it or with
 * another), and the key itself is nowhere in the bytes.
 */
class KeyedTest {
  @TempDir Path dir;

  private static final byte[] KEY = "0123456789abcdef".getBytes();
  private static final byte[] OTHER = "0123456789abcdeg".getBytes();

  private static BloomFilter filled() {
    BloomFilter f = BloomFilter.createKeyed(20_000, 0.01, KEY);
    for (long i = 0; i < 20_000; i++) {
      f.put(i);
    }
    return f;
  }

  @Test
  void findsEveryKeyAtTheTargetRate() {
    try (BloomFilter f = filled()) {
      int present = 0;
      for (long i = 0; i < 20_000; i++) {
        assertTrue(f.mightContain(i));
        present += f.mightContain(1_000_000_000L + i) ? 1 : 0;
      }
      // 1% of 20,000 is 200 +- 14: 260 is four standard deviations.
      assertTrue(present < 260, present + " false positives");
    }
  }

  @Test
  void bytesAndFilesNeedTheKey() throws IOException {
    try (BloomFilter f = filled()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      f.writeTo(out);
      byte[] bytes = out.toByteArray();
      SeenException missing =
          assertThrows(SeenException.class, () -> BloomFilter.readFrom(new ByteArrayInputStream(bytes)));
      assertEquals(Status.INCOMPATIBLE, missing.status());
      assertThrows(SeenException.class, () -> BloomFilter.readFrom(new ByteArrayInputStream(bytes), OTHER));
      try (BloomFilter g = BloomFilter.readFrom(new ByteArrayInputStream(bytes), KEY)) {
        assertTrue(g.mightContain(19_999L));
      }
      Path path = dir.resolve("keyed.seen");
      f.save(path);
      assertThrows(SeenException.class, () -> BloomFilter.open(path, Mode.READ_ONLY));
      try (BloomFilter g = BloomFilter.open(path, Mode.READ_ONLY, KEY)) {
        assertTrue(g.mightContain(7L));
        assertTrue(g.isReadOnly());
      }
    }
  }

  @Test
  void shortKeysAreRefused() {
    SeenException e =
        assertThrows(SeenException.class, () -> BloomFilter.createKeyed(10, 0.01, new byte[8]));
    assertEquals(Status.INVALID_ARGUMENT, e.status());
  }

  /** A missing or wrong key fails with INCOMPATIBLE and a message saying why. */
  private static void assertIncompatible(Executable open) {
    SeenException e = assertThrows(SeenException.class, open);
    assertEquals(Status.INCOMPATIBLE, e.status());
    assertFalse(e.getMessage().isBlank(), "no message");
  }

  /** The file records a check value of the key, never the key. */
  private static void assertKeyAbsent(byte[] bytes) {
    for (int at = 0; at + KEY.length <= bytes.length; at++) {
      assertFalse(
          Arrays.equals(bytes, at, at + KEY.length, KEY, 0, KEY.length), "key at byte " + at);
    }
  }

  @Test
  void keyNeverReachesTheBloomBytes() {
    try (BloomFilter f = filled()) {
      assertKeyAbsent(f.toByteArray());
    }
  }

  /** The ids 0..4,999 that the keyed tests add are all found. */
  static void assertFindsTheIds(LongPredicate mightContain) {
    for (long i = 0; i < 5_000; i++) {
      assertTrue(mightContain.test(i), "id " + i);
    }
  }

  /** 5,000 ids never added read seen at about 1%: 50 +- 7, so 80 is four standard deviations. */
  static void assertRateOnFreshIds(LongPredicate mightContain) {
    int present = 0;
    for (long i = 0; i < 5_000; i++) {
      present += mightContain.test(1_000_000_000L + i) ? 1 : 0;
    }
    assertTrue(present < 80, present + " false positives");
  }

  @Test
  void keyedCountingFilterNeedsItsKey() throws IOException {
    try (CountingFilter f = CountingFilter.createKeyed(5_000, 0.01, KEY)) {
      for (long i = 0; i < 5_000; i++) {
        f.put(i);
      }
      assertFindsTheIds(f::mightContain);
      assertRateOnFreshIds(f::mightContain);
      byte[] bytes = f.toByteArray();
      assertKeyAbsent(bytes);
      assertIncompatible(() -> CountingFilter.readFrom(new ByteArrayInputStream(bytes)));
      assertIncompatible(() -> CountingFilter.readFrom(new ByteArrayInputStream(bytes), OTHER));
      try (CountingFilter g = CountingFilter.readFrom(new ByteArrayInputStream(bytes), KEY)) {
        assertFindsTheIds(g::mightContain);
      }
      Path path = dir.resolve("keyed-counting.seen");
      f.save(path);
      assertIncompatible(() -> CountingFilter.open(path, Mode.READ_ONLY));
      assertIncompatible(() -> CountingFilter.open(path, Mode.READ_ONLY, OTHER));
      try (CountingFilter g = CountingFilter.open(path, Mode.READ_ONLY, KEY)) {
        assertFindsTheIds(g::mightContain);
      }
    }
  }

  @Test
  void keyedScalableFilterNeedsItsKey() throws IOException {
    // 100 keys per first sub-filter: 5,000 keys make it grow, so every sub-filter is keyed.
    try (ScalableFilter f = ScalableFilter.createKeyed(100, 0.01, KEY)) {
      for (long i = 0; i < 5_000; i++) {
        f.put(i);
      }
      assertTrue(f.subFilterCount() > 1);
      assertFindsTheIds(f::mightContain);
      assertRateOnFreshIds(f::mightContain);
      byte[] bytes = f.toByteArray();
      assertKeyAbsent(bytes);
      assertIncompatible(() -> ScalableFilter.readFrom(new ByteArrayInputStream(bytes)));
      assertIncompatible(() -> ScalableFilter.readFrom(new ByteArrayInputStream(bytes), OTHER));
      try (ScalableFilter g = ScalableFilter.readFrom(new ByteArrayInputStream(bytes), KEY)) {
        assertFindsTheIds(g::mightContain);
      }
      Path path = dir.resolve("keyed-scalable.seen");
      f.save(path);
      assertIncompatible(() -> ScalableFilter.open(path, Mode.READ_ONLY));
      assertIncompatible(() -> ScalableFilter.open(path, Mode.READ_ONLY, OTHER));
      try (ScalableFilter g = ScalableFilter.open(path, Mode.READ_ONLY, KEY)) {
        assertFindsTheIds(g::mightContain);
      }
    }
  }
}
