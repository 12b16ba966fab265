package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The counting and scalable vectors shared by every language (tests/vectors, kinds counting
 * and scalable): replaying each .vec here (adds, removes with their expected outcome, queries,
 * in order) must give every answer it expects and serialize to its .seen byte for byte; the
 * .seen, read back and mapped read-only, must answer every query too.
 */
class CountingVectorTest {
  @TestFactory
  List<DynamicTest> countingVectors() throws IOException {
    List<Path> vecs = VectorTest.vectors("counting");
    assertFalse(vecs.isEmpty(), "no tests/vectors/*.vec of kind counting");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path vec : vecs) {
      String name = vec.getFileName().toString().replace(".vec", "");
      Path seen = vec.resolveSibling(name + ".seen");
      tests.add(DynamicTest.dynamicTest(name + " replays and builds byte-identical", () -> {
        VectorFile v = VectorFile.parse(vec);
        assertEquals("counting", v.kind);
        try (CountingFilter f = CountingFilter.create(v.expectedItems, v.fpr, v.seed)) {
          for (VectorFile.Step step : v.steps) {
            VectorFile.Key k = step.key;
            if (step.isQuery) {
              assertEquals(step.expected, mightContain(f, k), "query " + k);
            } else if (step.isRemove && step.expected) {
              remove(f, k);
            } else if (step.isRemove) {
              SeenException e = assertThrows(SeenException.class, () -> remove(f, k), "remove " + k);
              assertEquals(Status.NOT_FOUND, e.status());
            } else if (k.id != null) {
              f.put(k.id);
            } else {
              f.put(k.bytes);
            }
          }
          assertArrayEquals(Files.readAllBytes(seen), f.toByteArray());
        }
      }));
      tests.add(DynamicTest.dynamicTest(name + " answers every query, read and mapped", () -> {
        VectorFile v = VectorFile.parse(vec);
        byte[] bytes = Files.readAllBytes(seen);
        try (CountingFilter f = CountingFilter.readFrom(new ByteArrayInputStream(bytes));
            CountingFilter mapped = CountingFilter.open(seen, Mode.READ_ONLY)) {
          for (VectorFile.Query q : v.queries) {
            assertEquals(q.expected, mightContain(f, q.key), "query " + q.key);
            assertEquals(q.expected, mightContain(mapped, q.key), "mapped query " + q.key);
          }
          assertBatchAnswers(v, (ids, out) -> mapped.mightContainAll(ids, out),
              (keys, out) -> mapped.mightContainAll(keys, out));
          assertArrayEquals(bytes, f.toByteArray());
          assertArrayEquals(bytes, mapped.toByteArray());
        }
      }));
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> scalableVectors() throws IOException {
    List<Path> vecs = VectorTest.vectors("scalable");
    assertFalse(vecs.isEmpty(), "no tests/vectors/*.vec of kind scalable");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path vec : vecs) {
      String name = vec.getFileName().toString().replace(".vec", "");
      Path seen = vec.resolveSibling(name + ".seen");
      tests.add(DynamicTest.dynamicTest(name + " builds byte-identical", () -> {
        VectorFile v = VectorFile.parse(vec);
        assertEquals("scalable", v.kind);
        try (ScalableFilter f = ScalableFilter.create(
            v.capacity, v.fpr, v.growth, v.tightening, v.seed)) {
          for (VectorFile.Key k : v.adds) {
            if (k.id != null) {
              f.put(k.id);
            } else {
              f.put(k.bytes);
            }
          }
          assertTrue(f.subFilterCount() > 1, "the vector grows");
          assertArrayEquals(Files.readAllBytes(seen), f.toByteArray());
        }
      }));
      tests.add(DynamicTest.dynamicTest(name + " answers every query, read and mapped", () -> {
        VectorFile v = VectorFile.parse(vec);
        byte[] bytes = Files.readAllBytes(seen);
        try (ScalableFilter f = ScalableFilter.readFrom(new ByteArrayInputStream(bytes));
            ScalableFilter mapped = ScalableFilter.open(seen, Mode.READ_ONLY)) {
          for (VectorFile.Key k : v.adds) {
            assertTrue(mightContain(f, k), "added key " + k);
          }
          for (VectorFile.Query q : v.queries) {
            assertEquals(q.expected, mightContain(f, q.key), "query " + q.key);
            assertEquals(q.expected, mightContain(mapped, q.key), "mapped query " + q.key);
          }
          assertBatchAnswers(v, (ids, out) -> f.mightContainAll(ids, out),
              (keys, out) -> f.mightContainAll(keys, out));
          assertArrayEquals(bytes, f.toByteArray());
        }
      }));
    }
    return tests;
  }

  interface Batch<T> {
    void answer(T keys, boolean[] out);
  }

  /** The id queries and the byte-key queries, each as one batch, give the script's answers. */
  private static void assertBatchAnswers(VectorFile v, Batch<long[]> ids, Batch<byte[][]> keys) {
    List<VectorFile.Query> idQueries = new ArrayList<>();
    List<VectorFile.Query> keyQueries = new ArrayList<>();
    for (VectorFile.Query q : v.queries) {
      (q.key.id != null ? idQueries : keyQueries).add(q);
    }
    long[] idArray = idQueries.stream().mapToLong(q -> q.key.id).toArray();
    boolean[] out = new boolean[idArray.length];
    ids.answer(idArray, out);
    for (int i = 0; i < out.length; i++) {
      assertEquals(idQueries.get(i).expected, out[i], "batch query " + idQueries.get(i).key);
    }
    byte[][] keyArray = keyQueries.stream().map(q -> q.key.bytes).toArray(byte[][]::new);
    out = new boolean[keyArray.length];
    keys.answer(keyArray, out);
    for (int i = 0; i < out.length; i++) {
      assertEquals(keyQueries.get(i).expected, out[i], "batch query " + keyQueries.get(i).key);
    }
  }

  private static boolean mightContain(CountingFilter f, VectorFile.Key k) {
    return k.id != null ? f.mightContain(k.id) : f.mightContain(k.bytes);
  }

  private static boolean mightContain(ScalableFilter f, VectorFile.Key k) {
    return k.id != null ? f.mightContain(k.id) : f.mightContain(k.bytes);
  }

  private static void remove(CountingFilter f, VectorFile.Key k) {
    if (k.id != null) {
      f.remove(k.id);
    } else {
      f.remove(k.bytes);
    }
  }
}
