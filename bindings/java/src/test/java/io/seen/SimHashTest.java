package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Text and feature fingerprints: the shared vectors, batches, IDF tables and bad input. */
class SimHashTest {
  /** One line of tests/vectors/simhash_texts.vec. */
  static final class Text {
    final int ngram;
    final byte[] bytes;
    final long simhash;
    final long exactHigh;
    final long exactLow;

    Text(String line) {
      String[] f = line.split("\\s+");
      ngram = Integer.parseInt(f[0]);
      bytes = hex(f[1]);
      simhash = Long.parseUnsignedLong(f[2], 16);
      exactHigh = Long.parseUnsignedLong(f[3], 16);
      exactLow = Long.parseUnsignedLong(f[4], 16);
    }

    SimHash.Options options() {
      return SimHash.Options.DEFAULT.ngram(ngram);
    }

    /** The text as a String, or null if its bytes are not valid UTF-8 (or hold NUL). */
    String string() {
      try {
        String s = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes))
            .toString();
        return s.indexOf('\0') >= 0 ? null : s;
      } catch (CharacterCodingException e) {
        return null;
      }
    }

    private static byte[] hex(String s) {
      if (s.equals("-")) {
        return new byte[0];
      }
      byte[] out = new byte[s.length() / 2];
      for (int i = 0; i < out.length; i++) {
        out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
      }
      return out;
    }
  }

  static List<Text> vectors() throws IOException {
    Path file = Path.of(System.getProperty("seen.vectors", "tests/vectors"), "simhash_texts.vec");
    List<Text> texts = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        texts.add(new Text(line.strip()));
      }
    }
    assertTrue(texts.size() >= 10, "the vector holds its texts");
    return texts;
  }

  @Test
  void everyVectorTextGivesItsRecordedFingerprints() throws IOException {
    int strings = 0;
    for (Text t : vectors()) {
      SimHash.Fingerprint fp = SimHash.fingerprints(t.bytes, 0, t.bytes.length, t.options());
      String what = "text " + Arrays.toString(t.bytes) + " ngram " + t.ngram;
      assertEquals(t.simhash, fp.simhash(), what);
      assertEquals(new SimHash.Exact(t.exactHigh, t.exactLow), fp.exact(), what);
      assertEquals(t.simhash, SimHash.fingerprint(t.bytes, 0, t.bytes.length, t.options()));
      String s = t.string();
      if (s != null) {
        strings++;
        assertEquals(fp, SimHash.fingerprints(s, t.options()), what + " as a String");
        assertEquals(t.simhash, SimHash.fingerprint(s, t.options()));
        if (t.ngram == SimHash.Options.DEFAULT.ngram()) {
          assertEquals(t.simhash, SimHash.fingerprint(s));
          assertEquals(fp.exact(), SimHash.exact(s));
        }
      }
    }
    assertTrue(strings >= 10, "most vector texts are valid UTF-8 strings");
  }

  @Test
  void vectorTextsInOneBatchPerNgram() throws IOException {
    List<Text> all = vectors();
    for (int ngram : all.stream().mapToInt(t -> t.ngram).distinct().toArray()) {
      List<Text> texts = new ArrayList<>();
      for (Text t : all) {
        if (t.ngram == ngram) {
          texts.add(t);
        }
      }
      byte[][] raw = new byte[texts.size()][];
      for (int i = 0; i < raw.length; i++) {
        raw[i] = texts.get(i).bytes;
      }
      int[] offsets = new int[raw.length + 2];
      byte[] data = pack(raw, offsets, 1);  // offsets[0] unused: a batch from first = 1
      long[] sims = new long[raw.length + 3];
      long[] exact = new long[2 * sims.length];
      SimHash.fingerprintAll(data, offsets, 1, raw.length, SimHash.Options.DEFAULT.ngram(ngram),
          sims, 3, exact);
      for (int i = 0; i < raw.length; i++) {
        assertEquals(texts.get(i).simhash, sims[3 + i]);
        assertEquals(texts.get(i).exactHigh, exact[2 * (3 + i)]);
        assertEquals(texts.get(i).exactLow, exact[2 * (3 + i) + 1]);
      }
    }
  }

  /** Packs byte strings from offsets[from]; offsets before it stay 0. */
  private static byte[] pack(byte[][] raw, int[] offsets, int from) {
    int total = 0;
    for (int i = 0; i < raw.length; i++) {
      offsets[from + i] = total;
      total += raw[i].length;
    }
    offsets[from + raw.length] = total;
    byte[] data = new byte[total];
    for (int i = 0; i < raw.length; i++) {
      System.arraycopy(raw[i], 0, data, offsets[from + i], raw[i].length);
    }
    return data;
  }

  @Test
  void bigBatchesCrossChunksAndAgreeWithSingleCalls() {
    Random rnd = new Random(5);
    String alphabet = "今天天气很好我们去公园散步吧新闻发布会介绍经济 the quick brown fox，。!";
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      int len = i % 100 == 7 ? 300_000 : rnd.nextInt(400);  // some texts past the 1 MiB chunk
      StringBuilder b = new StringBuilder();
      for (int j = 0; j < len; j++) {
        b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      texts.add(b.toString());
    }
    long[] batch = SimHash.fingerprintAll(texts);
    for (int i = 0; i < texts.size(); i++) {
      assertEquals(SimHash.fingerprint(texts.get(i)), batch[i], "text " + i);
    }
    SimHash.Options two = SimHash.Options.DEFAULT.ngram(2).seed(9);
    long[] other = SimHash.fingerprintAll(texts.subList(0, 50), two);
    for (int i = 0; i < 50; i++) {
      assertEquals(SimHash.fingerprint(texts.get(i), two), other[i]);
    }
  }

  @Test
  void nearDuplicatesAreCloseAndExactIgnoresCaseWidthAndPunctuation() {
    String base = "近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。".repeat(8);
    String edited = base.replaceFirst("总体", "整体");
    int d = SimHash.hamming(SimHash.fingerprint(base), SimHash.fingerprint(edited));
    assertTrue(d <= 8, "one edit moves a long text a few bits, not " + d);
    assertEquals(SimHash.exact("Hello, World!"), SimHash.exact("ＨＥＬＬＯ，ｗｏｒｌｄ！"));
    assertNotEquals(SimHash.exact("Hello, World!"), SimHash.exact("Hello, Word!"));
    SimHash.Fingerprint empty = SimHash.fingerprints("", SimHash.Options.DEFAULT);
    assertEquals(0, empty.simhash());
    assertEquals(0, empty.features());
    assertEquals(0, SimHash.fingerprint("!!! ... ???"));
  }

  @Test
  void hammingMatchesTheNativeDistance() {
    Random rnd = new Random(1);
    for (int i = 0; i < 1000; i++) {
      long a = rnd.nextLong();
      long b = i % 3 == 0 ? a ^ (1L << rnd.nextInt(64)) : rnd.nextLong();
      assertEquals(SimHash.nativeHamming(a, b), SimHash.hamming(a, b));
    }
    assertEquals(64, SimHash.hamming(0, -1));
    assertEquals(0, SimHash.hamming(42, 42));
  }

  @Test
  void featureFingerprints() {
    long[] hashes = {0x0123456789abcdefL, 0xfedcba9876543210L, 0x00ff00ff00ff00ffL};
    long unit = SimHash.ofHashes(hashes);
    assertEquals(unit, SimHash.ofHashes(hashes, new float[] {1, 1, 1}, 0, 3));
    assertEquals(hashes[0], SimHash.ofHashes(hashes, null, 0, 1), "one feature is its own hash");
    assertEquals(hashes[1], SimHash.ofHashes(hashes, new float[] {0, 5, 1}, 0, 3));
    assertEquals(0, SimHash.ofHashes(new long[0]));
    assertEquals(Status.INVALID_ARGUMENT, assertThrows(SeenException.class,
        () -> SimHash.ofHashes(hashes, new float[] {1, Float.NaN, 1}, 0, 3)).status());

    List<String> words = List.of("near", "duplicate", "detection");
    long fromStrings = SimHash.ofFeatures(words, null);
    byte[][] bytes = words.stream().map(w -> w.getBytes(StandardCharsets.UTF_8))
        .toArray(byte[][]::new);
    assertEquals(fromStrings, SimHash.ofFeatures(bytes, null, 0));
    assertEquals(fromStrings, SimHash.ofFeatures(bytes, new float[] {2, 2, 2}, 0));
    assertNotEquals(fromStrings, SimHash.ofFeatures(bytes, null, 77), "the seed changes hashes");
    // The Latin tokenizer's words are such features: "near duplicate detection" as text.
    assertEquals(SimHash.fingerprint("Near-duplicate detection!"), fromStrings);
  }

  @Test
  void idfTablesWeighTokens() {
    String text = "the cat sat on the mat with the hat";
    IdfTable heavy = IdfTable.of(Map.of("CAT", 50f), 1f);
    try (IdfTable none = IdfTable.of(Map.of(), 1f)) {
      assertEquals(0, none.size());
      assertEquals(1, heavy.size());
      assertEquals(SimHash.fingerprint(text),
          SimHash.fingerprint(text, SimHash.Options.DEFAULT.idf(none)));
      long weighted = SimHash.fingerprint(text, SimHash.Options.DEFAULT.idf(heavy));
      assertEquals(SimHash.fingerprint("cat"), weighted, "one dominant token decides every bit");
      SimHash.Options closed = SimHash.Options.DEFAULT.idf(heavy);
      heavy.close();
      heavy.close();
      assertThrows(IllegalStateException.class, () -> SimHash.fingerprint(text, closed));
    }
    assertThrows(IllegalArgumentException.class,
        () -> IdfTable.of(new byte[][] {{'a'}}, new float[0], 1f));
  }

  @Test
  void badArguments() {
    assertThrows(IllegalArgumentException.class, () -> SimHash.Options.DEFAULT.ngram(9));
    assertThrows(IllegalArgumentException.class, () -> SimHash.Options.DEFAULT.ngram(0));
    byte[] data = "abc".getBytes(StandardCharsets.UTF_8);
    assertThrows(IndexOutOfBoundsException.class,
        () -> SimHash.fingerprint(data, 2, 5, SimHash.Options.DEFAULT));
    assertThrows(IllegalArgumentException.class, () -> SimHash.fingerprintAll(
        data, new int[] {0, 2, 1}, 0, 2, SimHash.Options.DEFAULT, new long[2], 0, null));
    assertThrows(IllegalArgumentException.class, () -> SimHash.fingerprintAll(
        data, new int[] {0, 9}, 0, 1, SimHash.Options.DEFAULT, new long[1], 0, null));
    assertThrows(IndexOutOfBoundsException.class, () -> SimHash.fingerprintAll(
        data, new int[] {0, 3}, 0, 1, SimHash.Options.DEFAULT, new long[1], 1, null));
    assertThrows(IndexOutOfBoundsException.class, () -> SimHash.fingerprintAll(
        data, new int[] {0, 3}, 0, 1, SimHash.Options.DEFAULT, new long[1], 0, new long[1]));
    assertThrows(IllegalArgumentException.class,
        () -> SimHash.ofFeatures(data, new int[] {0, 1, 3}, 0, 2, new float[1], 0));
    // Invalid UTF-8 and NUL are separators, never errors.
    byte[] junk = {(byte) 0xff, 0, (byte) 0xc0, (byte) 0x80, 'o', 'k', (byte) 0xe4};
    assertEquals(SimHash.fingerprint("ok"), SimHash.fingerprint(junk));
    assertArrayEquals(new long[0], SimHash.fingerprintAll(List.of()));
  }
}
