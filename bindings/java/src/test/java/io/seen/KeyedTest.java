package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyed filters: every key put is found, keys never put read present at about the target rate,
 * and the bytes and file open only with the key (INCOMPATIBLE without it or with another).
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
}
