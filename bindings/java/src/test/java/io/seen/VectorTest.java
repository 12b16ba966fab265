package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The Bloom filter vectors shared by every language (tests/vectors, path in -Dseen.vectors,
 * the .vec files of kind bloom): a filter built here from each .vec must serialize to its .seen
 * byte for byte, and the .seen must give every answer the .vec expects. Windows are
 * WindowVectorTest's.
 */
class VectorTest {
  /** The .vec files whose kind is {@code kind}, in name order. */
  static List<Path> vectors(String kind) throws IOException {
    Path dir = Path.of(System.getProperty("seen.vectors", "tests/vectors"));
    List<Path> all;
    try (Stream<Path> files = Files.list(dir)) {
      all = files.filter(p -> p.toString().endsWith(".vec")).sorted().collect(Collectors.toList());
    }
    List<Path> matching = new ArrayList<>();
    for (Path p : all) {
      if (kind.equals(VectorFile.kindOf(p))) {
        matching.add(p);
      }
    }
    return matching;
  }

  @TestFactory
  List<DynamicTest> sharedVectors() throws IOException {
    List<Path> vecs = vectors("bloom");
    assertFalse(vecs.isEmpty(), "no tests/vectors/*.vec of kind bloom: the directory is missing or wrong");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path vec : vecs) {
      String name = vec.getFileName().toString().replace(".vec", "");
      Path seen = vec.resolveSibling(name + ".seen");
      tests.add(DynamicTest.dynamicTest(name + " builds byte-identical", () -> {
        VectorFile v = VectorFile.parse(vec);
        assertEquals("bloom", v.kind);
        try (BloomFilter f = BloomFilter.create(v.expectedItems, v.fpr, v.seed)) {
          for (VectorFile.Key k : v.adds) {
            VectorFile.add(f, k);
          }
          assertArrayEquals(Files.readAllBytes(seen), f.toByteArray());
        }
      }));
      tests.add(DynamicTest.dynamicTest(name + " answers every query", () -> {
        VectorFile v = VectorFile.parse(vec);
        try (BloomFilter f = BloomFilter.readFrom(new ByteArrayInputStream(Files.readAllBytes(seen)));
            BloomFilter mapped = BloomFilter.open(seen, Mode.READ_ONLY)) {
          for (VectorFile.Key k : v.adds) {
            assertEquals(true, VectorFile.mightContain(f, k), "added key " + k);
          }
          for (VectorFile.Query q : v.queries) {
            assertEquals(q.expected, VectorFile.mightContain(f, q.key), "query " + q.key);
            assertEquals(q.expected, VectorFile.mightContain(mapped, q.key), "mapped query " + q.key);
          }
        }
      }));
    }
    return tests;
  }
}
