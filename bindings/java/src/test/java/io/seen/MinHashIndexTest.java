package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

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
}
