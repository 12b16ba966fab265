package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Named;

/**
 * One shared test vector, tests/vectors/NAME.vec: the parameters of a filter or a window, the
 * keys added in order and the expected query answers. Its filter or window, serialized after
 * the script, is NAME.seen next to it. For a window the script is also kept as {@link #steps}:
 * adds and queries in order, each at the clock of the latest {@code now} before it; the window
 * is created at the first {@code now} ({@link #start}). Counting filter scripts also remove
 * keys; their steps replay in order.
 */
final class VectorFile {
  /** A key that is either a u64 id or bytes. */
  static final class Key {
    final Long id;
    final byte[] bytes;

    Key(Long id, byte[] bytes) {
      this.id = id;
      this.bytes = bytes;
    }

    @Override
    public String toString() {
      if (id != null) {
        return Long.toUnsignedString(id);
      }
      StringBuilder hex = new StringBuilder();
      for (byte b : bytes) {
        hex.append(String.format("%02x", b));
      }
      return hex.length() == 0 ? "-" : hex.toString();
    }
  }

  static final class Query {
    final Key key;
    final boolean expected;

    Query(Key key, boolean expected) {
      this.key = key;
      this.expected = expected;
    }
  }

  /**
   * One add, query or (counting filters) remove of a script, at clock {@code now}. A remove's
   * {@code expected} is whether it removed the key (false: certainly absent).
   */
  static final class Step {
    final Key key;
    final boolean isQuery;
    final boolean isRemove;
    final boolean expected;
    final long now;

    Step(Key key, boolean isQuery, boolean expected, long now) {
      this(key, isQuery, false, expected, now);
    }

    Step(Key key, boolean isQuery, boolean isRemove, boolean expected, long now) {
      this.key = key;
      this.isQuery = isQuery;
      this.isRemove = isRemove;
      this.expected = expected;
      this.now = now;
    }
  }

  String kind;
  String mode;
  int span;
  double maxSlack;
  long start = -1;
  final List<Step> steps = new ArrayList<>();
  long expectedItems;
  double fpr;
  long seed;
  long capacity;
  double growth;
  double tightening;
  final List<Key> adds = new ArrayList<>();
  final List<Query> queries = new ArrayList<>();

  static VectorFile parse(Path path) throws IOException {
    VectorFile v = new VectorFile();
    int lineNo = 0;
    long now = 0;
    for (String raw : Files.readAllLines(path)) {
      lineNo++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+");
      switch (f[0]) {
        case "kind": v.kind = f[1]; break;
        case "expected_items": v.expectedItems = Long.parseUnsignedLong(f[1]); break;
        case "fpr": v.fpr = Double.parseDouble(f[1]); break;
        case "seed": v.seed = Long.parseUnsignedLong(f[1]); break;
        case "mode": v.mode = f[1]; break;
        case "span": v.span = Integer.parseUnsignedInt(f[1]); break;
        case "max_slack": v.maxSlack = Double.parseDouble(f[1]); break;
        case "capacity": v.capacity = Long.parseUnsignedLong(f[1]); break;
        case "growth": v.growth = Double.parseDouble(f[1]); break;
        case "tightening": v.tightening = Double.parseDouble(f[1]); break;
        case "remove_u64":
          v.steps.add(new Step(new Key(Long.parseUnsignedLong(f[1]), null), false, true,
              answer(f[2]), now));
          break;
        case "remove_key":
          v.steps.add(new Step(new Key(null, hex(f[1])), false, true, answer(f[2]), now));
          break;
        case "now":
          now = Long.parseUnsignedLong(f[1]);
          if (v.start < 0) {
            v.start = now;
          }
          break;
        case "add_u64": v.add(new Key(Long.parseUnsignedLong(f[1]), null), now); break;
        case "add_key": v.add(new Key(null, hex(f[1])), now); break;
        case "query_u64":
          v.query(new Query(new Key(Long.parseUnsignedLong(f[1]), null), answer(f[2])), now);
          break;
        case "query_key": v.query(new Query(new Key(null, hex(f[1])), answer(f[2])), now); break;
        default: throw new IOException(path + ":" + lineNo + ": unknown directive " + f[0]);
      }
    }
    return v;
  }

  /** The .vec files whose kind is {@code kind}, in name order. */
  static List<Path> vectors(String kind) throws IOException {
    Path dir = Path.of(System.getProperty("seen.vectors", "tests/vectors"));
    List<Path> all;
    try (Stream<Path> files = Files.list(dir)) {
      all = files.filter(p -> p.toString().endsWith(".vec")).sorted().collect(Collectors.toList());
    }
    List<Path> matching = new ArrayList<>();
    for (Path p : all) {
      if (kind.equals(kindOf(p))) {
        matching.add(p);
      }
    }
    return matching;
  }

  /** What a check asserts of one vector: its parsed .vec and its .seen file. */
  interface Check {
    void check(VectorFile v, Path seen) throws Throwable;
  }

  static Named<Check> check(String name, Check body) {
    return Named.of(name, body);
  }

  /** For every .vec of {@code kind}, one test per check, named after the vector and the check. */
  @SafeVarargs
  static List<DynamicTest> tests(String kind, Named<Check>... checks) throws IOException {
    List<Path> vecs = vectors(kind);
    assertFalse(vecs.isEmpty(),
        "no tests/vectors/*.vec of kind " + kind + ": the directory is missing or wrong");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path vec : vecs) {
      String name = vec.getFileName().toString().replace(".vec", "");
      Path seen = vec.resolveSibling(name + ".seen");
      for (Named<Check> c : checks) {
        tests.add(DynamicTest.dynamicTest(name + " " + c.getName(), () -> {
          VectorFile v = parse(vec);
          assertEquals(kind, v.kind);
          c.getPayload().check(v, seen);
        }));
      }
    }
    return tests;
  }

  private void add(Key k, long now) {
    adds.add(k);
    steps.add(new Step(k, false, false, now));
  }

  private void query(Query q, long now) {
    queries.add(q);
    steps.add(new Step(q.key, true, q.expected, now));
  }

  /** The argument of the file's {@code kind} line, or null if it has none (not a filter vector). */
  static String kindOf(Path path) throws IOException {
    for (String line : Files.readAllLines(path)) {
      String[] f = line.strip().split("\\s+");
      if (f.length == 2 && f[0].equals("kind")) {
        return f[1];
      }
    }
    return null;
  }

  private static byte[] hex(String s) {
    if (s.equals("-")) {
      return new byte[0];
    }
    if (s.length() % 2 != 0) {
      throw new IllegalArgumentException("odd hex length: " + s);
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }

  private static boolean answer(String s) {
    if (!s.equals("0") && !s.equals("1")) {
      throw new IllegalArgumentException("answer must be 0 or 1, not " + s);
    }
    return s.equals("1");
  }

  static void add(AddOnceFilter<?> f, Key k) {
    if (k.id != null) {
      f.put(k.id);
    } else {
      f.put(k.bytes);
    }
  }

  static boolean mightContain(Filter<?> f, Key k) {
    return k.id != null ? f.mightContain(k.id) : f.mightContain(k.bytes);
  }

  static void add(Window w, Key k, long now) {
    if (k.id != null) {
      w.put(k.id, now);
    } else {
      w.put(k.bytes, now);
    }
  }

  static boolean mightContain(Window w, Key k, long now) {
    return k.id != null ? w.mightContain(k.id, now) : w.mightContain(k.bytes, now);
  }

  /** The window the parameters describe, created at {@link #start}. */
  Window window() {
    WindowSpec spec = mode.equals("time")
        ? WindowSpec.lastSeconds(span, (int) expectedItems)
        : WindowSpec.lastItems(span);
    return Window.create(spec.fpr(fpr).seed(seed).maxSlack(maxSlack), start);
  }
}
