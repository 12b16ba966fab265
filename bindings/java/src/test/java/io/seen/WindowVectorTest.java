package io.seen;

import static io.seen.VectorFile.check;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The window vectors shared by every language (tests/vectors/*.vec of kind window): replaying
 * each script here, one call per step or in batches, answers every query as the .vec says and
 * leaves a window that serializes to the .seen byte for byte; the .seen read back answers every
 * query too.
 */
class WindowVectorTest {
  /** One call per step, in order. */
  private static Window replayOneByOne(VectorFile v) {
    Window w = v.window();
    for (VectorFile.Step s : v.steps) {
      if (s.isQuery) {
        assertEquals(s.expected, VectorFile.mightContain(w, s.key, s.now),
            "query " + s.key + " at " + s.now);
      } else {
        VectorFile.add(w, s.key, s.now);
      }
    }
    return w;
  }

  /** Runs of steps of one sort (id add, key add, id query, key query) and one clock, batched. */
  private static Window replayInBatches(VectorFile v) {
    Window w = v.window();
    List<VectorFile.Step> steps = v.steps;
    for (int i = 0; i < steps.size();) {
      VectorFile.Step first = steps.get(i);
      int j = i;
      while (j < steps.size() && sameRun(first, steps.get(j))) {
        j++;
      }
      List<VectorFile.Step> run = steps.subList(i, j);
      long now = first.now;
      if (first.key.id != null) {
        long[] ids = new long[run.size()];
        for (int k = 0; k < ids.length; k++) {
          ids[k] = run.get(k).key.id;
        }
        if (first.isQuery) {
          boolean[] out = new boolean[ids.length];
          w.mightContainAll(ids, 0, ids.length, now, out);
          for (int k = 0; k < out.length; k++) {
            assertEquals(run.get(k).expected, out[k], "batched query " + run.get(k).key);
          }
        } else {
          w.putAll(ids, 0, ids.length, now);
        }
      } else {
        byte[][] keys = new byte[run.size()][];
        for (int k = 0; k < keys.length; k++) {
          keys[k] = run.get(k).key.bytes;
        }
        if (first.isQuery) {
          boolean[] out = new boolean[keys.length];
          w.mightContainAll(keys, now, out);
          for (int k = 0; k < out.length; k++) {
            assertEquals(run.get(k).expected, out[k], "batched query " + run.get(k).key);
          }
        } else {
          w.putAll(keys, now);
        }
      }
      i = j;
    }
    return w;
  }

  private static boolean sameRun(VectorFile.Step a, VectorFile.Step b) {
    return a.isQuery == b.isQuery && (a.key.id == null) == (b.key.id == null) && a.now == b.now;
  }

  @TestFactory
  List<DynamicTest> sharedWindowVectors() throws IOException {
    return VectorFile.tests("window",
        check("replays one by one, byte-identical", (v, seen) -> {
          try (Window w = replayOneByOne(v)) {
            assertArrayEquals(Files.readAllBytes(seen), w.toByteArray());
          }
        }),
        check("replays in batches, byte-identical", (v, seen) -> {
          try (Window w = replayInBatches(v)) {
            assertArrayEquals(Files.readAllBytes(seen), w.toByteArray());
          }
        }),
        check("read back answers every query", (v, seen) -> {
          byte[] bytes = Files.readAllBytes(seen);
          try (Window w = Window.readFrom(new ByteArrayInputStream(bytes))) {
            assertTrue(w.span() >= v.span, "span " + w.span());
            assertEquals(v.seed, w.seed());
            assertEquals(v.mode.equals("time") ? WindowSpec.Unit.SECONDS : WindowSpec.Unit.ITEMS,
                w.unit());
            for (VectorFile.Step s : v.steps) {
              if (s.isQuery) {
                assertEquals(s.expected, VectorFile.mightContain(w, s.key, s.now), "query " + s.key);
              }
            }
            assertArrayEquals(bytes, w.toByteArray());
          }
        }));
  }
}
