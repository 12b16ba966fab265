package io.seen;

import static io.seen.VectorFile.check;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The filter vectors shared by every language (tests/vectors, path in -Dseen.vectors, the .vec
 * files of kinds bloom, counting and scalable): a filter built here from each .vec (adds,
 * removes with their expected outcome, queries, in order) must give every answer it expects and
 * serialize to its .seen byte for byte; the .seen, read back and mapped read-only, must answer
 * every query too, one by one and in batches. Windows are WindowVectorTest's.
 */
class VectorTest {
  @TestFactory
  List<DynamicTest> filterVectors() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    tests.addAll(filterVectors("bloom",
        v -> addAll(BloomFilter.create(v.expectedItems, v.fpr, v.seed), v),
        BloomFilter::readFrom, BloomFilter::open));
    tests.addAll(filterVectors("counting",
        v -> replay(CountingFilter.create(v.expectedItems, v.fpr, v.seed), v),
        CountingFilter::readFrom, CountingFilter::open));
    tests.addAll(filterVectors("scalable", v -> {
      ScalableFilter f = ScalableFilter.create(v.capacity, v.fpr, v.growth, v.tightening, v.seed);
      assertTrue(addAll(f, v).subFilterCount() > 1, "the vector grows");
      return f;
    }, ScalableFilter::readFrom, ScalableFilter::open));
    return tests;
  }

  /** A filter built from a script, with every check on the way. */
  interface Builder {
    Filter<?> build(VectorFile v);
  }

  /** The two checks of every filter vector of {@code kind}. */
  private static List<DynamicTest> filterVectors(String kind, Builder builder,
      ReadBack.Reader<Filter<?>> reader, ReadBack.Opener<Filter<?>> opener) throws IOException {
    return VectorFile.tests(kind,
        check("builds byte-identical", (v, seen) -> {
          try (Filter<?> f = builder.build(v)) {
            assertArrayEquals(Files.readAllBytes(seen), f.toByteArray());
          }
        }),
        check("answers every query, read and mapped", (v, seen) ->
            assertAnswersEveryQuery(v, seen, reader, opener)));
  }

  /** {@code f} after every add of the script. */
  private static <F extends AddOnceFilter<?>> F addAll(F f, VectorFile v) {
    for (VectorFile.Key k : v.adds) {
      VectorFile.add(f, k);
    }
    return f;
  }

  /**
   * {@code f} after a counting script's steps in order: adds, removes (absent ones must throw),
   * queries.
   */
  private static CountingFilter replay(CountingFilter f, VectorFile v) {
    for (VectorFile.Step step : v.steps) {
      VectorFile.Key k = step.key;
      if (step.isQuery) {
        assertEquals(step.expected, VectorFile.mightContain(f, k), "query " + k);
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
    return f;
  }

  private static void remove(CountingFilter f, VectorFile.Key k) {
    if (k.id != null) {
      f.remove(k.id);
    } else {
      f.remove(k.bytes);
    }
  }

  /**
   * The .seen read back and mapped read-only: both answer every query as the script expects,
   * one by one and in batches, and serialize to the .seen again. With no removes in the script
   * every added key answers true.
   */
  private static void assertAnswersEveryQuery(VectorFile v, Path seen,
      ReadBack.Reader<Filter<?>> reader, ReadBack.Opener<Filter<?>> opener) throws IOException {
    byte[] bytes = Files.readAllBytes(seen);
    boolean removes = v.steps.stream().anyMatch(s -> s.isRemove);
    try (Filter<?> read = ReadBack.fromBytes(reader, bytes);
        Filter<?> mapped = opener.open(seen, Mode.READ_ONLY)) {
      for (Filter<?> f : List.of(read, mapped)) {
        for (VectorFile.Key k : removes ? List.<VectorFile.Key>of() : v.adds) {
          assertTrue(VectorFile.mightContain(f, k), "added key " + k);
        }
        for (VectorFile.Query q : v.queries) {
          assertEquals(q.expected, VectorFile.mightContain(f, q.key), "query " + q.key);
        }
        assertBatchAnswers(v, f);
        assertArrayEquals(bytes, f.toByteArray());
      }
    }
  }

  /** The id queries and the byte-key queries, each as one batch, give the script's answers. */
  private static void assertBatchAnswers(VectorFile v, Filter<?> f) {
    List<VectorFile.Query> idQueries = new ArrayList<>();
    List<VectorFile.Query> keyQueries = new ArrayList<>();
    for (VectorFile.Query q : v.queries) {
      (q.key.id != null ? idQueries : keyQueries).add(q);
    }
    boolean[] out = new boolean[idQueries.size()];
    f.mightContainAll(idQueries.stream().mapToLong(q -> q.key.id).toArray(), out);
    for (int i = 0; i < out.length; i++) {
      assertEquals(idQueries.get(i).expected, out[i], "batch query " + idQueries.get(i).key);
    }
    out = new boolean[keyQueries.size()];
    f.mightContainAll(keyQueries.stream().map(q -> q.key.bytes).toArray(byte[][]::new), out);
    for (int i = 0; i < out.length; i++) {
      assertEquals(keyQueries.get(i).expected, out[i], "batch query " + keyQueries.get(i).key);
    }
  }
}
