package io.seen;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * The behaviour cases of tests/vectors/conformance.cases (path in -Dseen.vectors), which the C
 * API tests and every binding run alike (the file's head says what each line means): the
 * rounding of approximateElementCount, an IllegalArgumentException for every bad argument,
 * merges and round trips.
 */
class ConformanceTest {
  @TestFactory
  List<DynamicTest> everyCase() throws IOException {
    Path file = Path.of(System.getProperty("seen.vectors", "tests/vectors"), "conformance.cases");
    Map<String, List<String[]>> cases = new LinkedHashMap<>();
    List<String[]> lines = null;
    for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String[] words = text.split("#", 2)[0].trim().split("\\s+");
      if (words[0].isEmpty()) {
        continue;
      }
      if (words[0].equals("case")) {
        lines = new ArrayList<>();
        cases.put(words[1], lines);
      } else {
        lines.add(words);
      }
    }
    assertTrue(cases.size() > 10);
    List<DynamicTest> tests = new ArrayList<>();
    cases.forEach((name, steps) -> tests.add(DynamicTest.dynamicTest(name, () -> run(steps))));
    return tests;
  }

  private static Filter<?> create(String[] w) {
    long capacity = Long.parseLong(w[2]);
    if (w[3].equals("default") && w[4].equals("0")) {
      return w[1].equals("counting") ? CountingFilter.create(capacity) : BloomFilter.create(capacity);
    }
    double fpr = Double.parseDouble(w[3]);
    long seed = Long.parseUnsignedLong(w[4]);
    return w[1].equals("counting") ? CountingFilter.create(capacity, fpr, seed) : BloomFilter.create(capacity, fpr, seed);
  }

  private static void put(Filter<?> f, long id) {
    if (f instanceof CountingFilter) {
      ((CountingFilter) f).put(id);
    } else {
      ((BloomFilter) f).put(id);
    }
  }

  private static void put(Filter<?> f, String key) {
    if (f instanceof CountingFilter) {
      ((CountingFilter) f).put(key);
    } else {
      ((BloomFilter) f).put(key);
    }
  }

  private static long count(Filter<?> f) {
    return f instanceof CountingFilter ? ((CountingFilter) f).approximateElementCount()
        : ((BloomFilter) f).approximateElementCount();
  }

  private static long bytes(Filter<?> f) {
    return f instanceof CountingFilter ? ((CountingFilter) f).sizeInBytes() : ((BloomFilter) f).sizeInBytes();
  }

  private static Filter<?> roundTrip(Filter<?> f) throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream(f.toByteArray());
    return f instanceof CountingFilter ? CountingFilter.readFrom(in) : BloomFilter.readFrom(in);
  }

  private static void run(List<String[]> steps) throws IOException {
    Filter<?> filter = null;
    Filter<?> other = null;
    RuntimeException failure = null;  // of the last create or sizing
    Sizing sizing = null;
    for (String[] w : steps) {
      List<String> args = Arrays.asList(w).subList(1, w.length);
      switch (w[0]) {
        case "create":
          try {
            filter = create(w);
          } catch (RuntimeException e) {
            failure = e;  // the next line, error, says what it must be
          }
          break;
        case "error":
          assertTrue(failure instanceof IllegalArgumentException, String.valueOf(failure));
          if (failure instanceof SeenException) {
            assertEquals(Status.valueOf(args.get(0)), ((SeenException) failure).status());
          } else {
            assertEquals("INVALID_ARGUMENT", args.get(0), "Java refuses only invalid arguments itself");
          }
          for (String word : args.subList(1, args.size())) {
            assertTrue(failure.getMessage().contains(word), failure.getMessage());
          }
          break;
        case "add_u64":
        case "other_add_u64":
          for (String id : args) {
            put(w[0].equals("add_u64") ? filter : other, Long.parseUnsignedLong(id));
          }
          break;
        case "add_u64_range":
          for (long id = Long.parseLong(args.get(0)); id < Long.parseLong(args.get(1)); id++) {
            put(filter, id);
          }
          break;
        case "add_str":
          for (String key : args) {
            put(filter, key);
          }
          break;
        case "len":
          assertEquals(Long.parseLong(args.get(0)), count(filter));
          break;
        case "has_u64":
        case "lacks_u64":
          for (String id : args) {
            assertEquals(w[0].equals("has_u64"), filter.mightContain(Long.parseUnsignedLong(id)), id);
          }
          break;
        case "has_str":
        case "lacks_str":
          for (String key : args) {
            assertEquals(w[0].equals("has_str"), filter.mightContain(key), key);
          }
          break;
        case "bytes":
          assertEquals(Long.parseLong(args.get(0)), bytes(filter));
          break;
        case "other":
          other = create(w);
          break;
        case "merge":
        case "intersect":
          BloomFilter dst = (BloomFilter) filter;
          BloomFilter src = (BloomFilter) other;
          Executable combine = w[0].equals("merge") ? () -> dst.putAll(src) : () -> dst.intersect(src);
          // No argument: it succeeds; else the status it fails with.
          if (args.isEmpty()) {
            assertDoesNotThrow(combine);
          } else {
            assertEquals(Status.valueOf(args.get(0)), assertThrows(SeenException.class, combine).status());
          }
          break;
        case "covers":
          BloomFilter a = (BloomFilter) filter;
          BloomFilter b = (BloomFilter) other;
          if (args.get(0).equals("true") || args.get(0).equals("false")) {
            assertEquals(Boolean.parseBoolean(args.get(0)), a.covers(b));
          } else {
            assertEquals(Status.valueOf(args.get(0)), assertThrows(SeenException.class, () -> a.covers(b)).status());
          }
          break;
        case "round_trip":
          filter = roundTrip(filter);
          break;
        case "size_for":
        case "predict_fpr":
          try {
            sizing = w[0].equals("size_for") ? Sizing.forRate(Long.parseLong(args.get(0)), Double.parseDouble(args.get(1)))
                : Sizing.forBytes(Long.parseLong(args.get(0)), Long.parseLong(args.get(1)));
          } catch (RuntimeException e) {
            failure = e;
          }
          break;
        case "sized":
          assertEquals(Long.parseLong(args.get(0)), sizing.bytes());
          assertEquals(Integer.parseInt(args.get(1)), sizing.k());
          if (args.size() > 2) {
            assertEquals(Double.parseDouble(args.get(2)), sizing.fpp());
          }
          break;
        default:
          throw new AssertionError("unknown line " + w[0]);
      }
    }
  }
}
