package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An edited copy finds its original, verified; an unrelated text does not; keys and removal. */
class MinHashIndexTest {
  private static final String BASE =
      "the committee met on tuesday to review the annual budget and approved the new library hours for the summer";
  private static final String OTHER =
      "rain is expected across the region on friday with strong winds along the coast and snow inland";

  @Test
  void findsEditedCopiesOnly() {
    try (MinHashIndex index = MinHashIndex.create(0.7)) {
      index.add(1, BASE);
      index.add(2, OTHER);
      List<MinHashIndex.Match> matches = index.query(BASE.replace("summer", "winter"));
      assertEquals(1, matches.size(), matches.toString());
      assertEquals(1, matches.get(0).id());
      assertTrue(matches.get(0).similarity() >= 0.7);
      assertEquals("1@" + matches.get(0).similarity(), matches.get(0).toString());
      assertTrue(index.remove(1));
      assertFalse(index.remove(1));
      assertEquals(1, index.size());
      assertTrue(index.query(BASE).isEmpty());
    }
  }

  @Test
  void keysAndThresholdsAreChecked() {
    try (MinHashIndex keyed = MinHashIndex.createKeyed(0.8, "0123456789abcdef".getBytes())) {
      keyed.add(3, BASE);
      assertEquals(3, keyed.query(BASE).get(0).id());
    }
    assertEquals(Status.INVALID_ARGUMENT,
        assertThrows(SeenException.class, () -> MinHashIndex.create(1.5)).status());
    assertEquals(Status.INVALID_ARGUMENT,
        assertThrows(SeenException.class, () -> MinHashIndex.createKeyed(0.8, new byte[4])).status());
    MinHashIndex closed = MinHashIndex.create(0.8);
    closed.close();
    assertThrows(IllegalStateException.class, () -> closed.query(BASE));
  }

  @TempDir Path dir;

  @Test
  void savedIndexesAnswerAsTheOriginal() {
    String[] texts = new String[150];
    try (MinHashIndex index = MinHashIndex.create(0.7)) {
      for (int i = 0; i < texts.length; i++) {
        StringBuilder b = new StringBuilder();
        for (int w = 0; w < 40; w++) {
          b.append('w').append((i * 7919 + w * 104729) % 3001).append(' ');
        }
        texts[i] = b.toString();
        index.add(i, texts[i]);
      }
      index.remove(3);
      index.save(dir.resolve("m.seen"));
      byte[] bytes = index.toByteArray();
      try (MinHashIndex opened = MinHashIndex.open(dir.resolve("m.seen"), null);
          MinHashIndex copied = MinHashIndex.fromBytes(bytes, null)) {
        assertEquals(149, opened.size());
        for (String text : texts) {
          List<MinHashIndex.Match> want = index.query(text);
          // Equal matches: the same ids at the same similarities.
          assertEquals(want, opened.query(text));
          assertEquals(want, copied.query(text));
        }
        opened.add(3, texts[3]);
        assertEquals(List.of(3L), ids(opened.query(texts[3])));
      }
      bytes[bytes.length - 1] ^= 1;
      SeenException e = assertThrows(SeenException.class, () -> MinHashIndex.fromBytes(bytes, null));
      assertEquals(Status.BAD_CHECKSUM, e.status());
    }
    byte[] key = "a secret key of some 32 bytes...".getBytes(StandardCharsets.UTF_8);
    try (MinHashIndex keyed = MinHashIndex.createKeyed(0.8, key)) {
      keyed.add(1, texts[0]);
      byte[] secret = keyed.toByteArray();
      SeenException e = assertThrows(SeenException.class, () -> MinHashIndex.fromBytes(secret, null));
      assertEquals(Status.INCOMPATIBLE, e.status());
      try (MinHashIndex back = MinHashIndex.fromBytes(secret, key)) {
        assertEquals(List.of(1L), ids(back.query(texts[0])));
      }
    }
  }

  private static List<Long> ids(List<MinHashIndex.Match> matches) {
    return matches.stream().map(MinHashIndex.Match::id).collect(java.util.stream.Collectors.toList());
  }
}
