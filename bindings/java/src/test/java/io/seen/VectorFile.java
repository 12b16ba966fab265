package io.seen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One shared test vector, tests/vectors/NAME.vec: the parameters of a filter, the keys added
 * in order and the expected query answers. Its filter, serialized, is NAME.seen next to it.
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

  String kind;
  long expectedItems;
  double fpr;
  long seed;
  final List<Key> adds = new ArrayList<>();
  final List<Query> queries = new ArrayList<>();

  static VectorFile parse(Path path) throws IOException {
    VectorFile v = new VectorFile();
    int lineNo = 0;
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
        case "add_u64": v.adds.add(new Key(Long.parseUnsignedLong(f[1]), null)); break;
        case "add_key": v.adds.add(new Key(null, hex(f[1]))); break;
        case "query_u64":
          v.queries.add(new Query(new Key(Long.parseUnsignedLong(f[1]), null), answer(f[2])));
          break;
        case "query_key": v.queries.add(new Query(new Key(null, hex(f[1])), answer(f[2]))); break;
        default: throw new IOException(path + ":" + lineNo + ": unknown directive " + f[0]);
      }
    }
    return v;
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

  static void add(BloomFilter f, Key k) {
    if (k.id != null) {
      f.put(k.id);
    } else {
      f.put(k.bytes);
    }
  }

  static boolean mightContain(BloomFilter f, Key k) {
    return k.id != null ? f.mightContain(k.id) : f.mightContain(k.bytes);
  }
}
