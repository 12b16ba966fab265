package io.seen;

import java.lang.ref.Reference;
import java.util.List;
import java.util.Objects;

/**
 * SimHash fingerprints of text (Chinese and English) for near-duplicate detection: texts that
 * are the same article again with small edits get 64-bit fingerprints a few bits apart, and
 * {@link SimHashIndex} finds every stored fingerprint within Hamming distance k of a query.
 *
 * <pre>{@code
 * long a = SimHash.fingerprint("今天天气很好，我们去公园散步吧。");
 * long b = SimHash.fingerprint("今天天气很好，我们去公园散步。");
 * SimHash.hamming(a, b);  // a few bits
 * }</pre>
 *
 * <p>The built-in tokenizer (docs/simhash.md) folds width and case, cuts Latin text into words
 * and CJK text into character n-grams (2 by default, see {@link Options#ngram(int)}), and
 * weighs each token by its count, or by an {@link IdfTable}. Invalid UTF-8 and NUL bytes are
 * separators, never errors. A text with no tokens (empty, only punctuation) has fingerprint 0:
 * compare such texts by {@link #exact(CharSequence)}. A {@code CharSequence} is fingerprinted
 * as its UTF-8 bytes (an unpaired surrogate becomes '?'); pass the bytes to keep them exact.
 *
 * <p>Every fingerprint is computed by the native library, so it is the same in every binding,
 * the C API and {@code seen dedupe}. Every method is thread-safe.
 */
public final class SimHash {
  private SimHash() {}

  /**
   * How text is fingerprinted: the CJK shingle length, the feature hash seed and an optional
   * IDF table. Immutable; each setter returns a new Options.
   */
  public static final class Options {
    /** CJK 2-grams, seed 0, no IDF table: what {@code seen dedupe} uses. */
    public static final Options DEFAULT = new Options(2, 0, null);

    private final int ngram;
    private final long seed;
    private final IdfTable idf;

    private Options(int ngram, long seed, IdfTable idf) {
      this.ngram = ngram;
      this.seed = seed;
      this.idf = idf;
    }

    /** CJK characters per shingle, 1 to 8 (2 finds more edited copies of short texts). */
    public Options ngram(int n) {
      if (n < 1 || n > 8) {
        throw new IllegalArgumentException("ngram must be 1 to 8, not " + n);
      }
      return new Options(n, seed, idf);
    }

    /** The XXH3 seed of every feature hash; fingerprints of different seeds do not compare. */
    public Options seed(long seed) {
      return new Options(ngram, seed, idf);
    }

    /** Token weights; null for term frequency only. The table must stay open while in use. */
    public Options idf(IdfTable idf) {
      return new Options(ngram, seed, idf);
    }

    public int ngram() {
      return ngram;
    }

    public long seed() {
      return seed;
    }

    /** The IDF table, or null. */
    public IdfTable idf() {
      return idf;
    }

    long idfHandle() {
      return idf == null ? 0 : idf.h();
    }

    @Override
    public String toString() {
      return "SimHash.Options[ngram " + ngram + ", seed " + seed + (idf == null ? "" : ", " + idf)
          + "]";
    }
  }

  /**
   * The exact-duplicate fingerprint: XXH3-128 of the normalized text. Equal for texts that
   * differ only in case, character width, punctuation and whitespace.
   */
  public static final class Exact {
    private final long high;
    private final long low;

    public Exact(long high, long low) {
      this.high = high;
      this.low = low;
    }

    public long high() {
      return high;
    }

    public long low() {
      return low;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Exact && ((Exact) o).high == high && ((Exact) o).low == low;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(high * 31 + low);
    }

    /** 32 hex digits, high half first. */
    @Override
    public String toString() {
      return String.format("%016x%016x", high, low);
    }
  }

  /** Everything {@link #fingerprints} computes for one text in one pass. */
  public static final class Fingerprint {
    private final long simhash;
    private final Exact exact;
    private final long features;

    Fingerprint(long simhash, Exact exact, long features) {
      this.simhash = simhash;
      this.exact = exact;
      this.features = features;
    }

    /** The near-duplicate fingerprint. */
    public long simhash() {
      return simhash;
    }

    /** The exact-duplicate fingerprint. */
    public Exact exact() {
      return exact;
    }

    /** The tokens counted, with repeats; 0 means the simhash says nothing. */
    public long features() {
      return features;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Fingerprint)) {
        return false;
      }
      Fingerprint f = (Fingerprint) o;
      return f.simhash == simhash && f.exact.equals(exact) && f.features == features;
    }

    @Override
    public int hashCode() {
      return Objects.hash(simhash, exact, features);
    }

    @Override
    public String toString() {
      return String.format("Fingerprint[simhash %016x, exact %s, %d features]", simhash, exact,
          features);
    }
  }

  /** The Hamming distance: the number of bits in which a and b differ, 0 to 64. */
  public static int hamming(long a, long b) {
    return Long.bitCount(a ^ b);
  }

  /** The near-duplicate fingerprint of {@code text} with the default options. */
  public static long fingerprint(CharSequence text) {
    return fingerprints(text, Options.DEFAULT).simhash();
  }

  public static long fingerprint(CharSequence text, Options options) {
    return fingerprints(text, options).simhash();
  }

  /** The near-duplicate fingerprint of UTF-8 bytes with the default options. */
  public static long fingerprint(byte[] utf8) {
    return fingerprints(utf8, 0, utf8.length, Options.DEFAULT).simhash();
  }

  /** The near-duplicate fingerprint of {@code utf8[off .. off+len)}. */
  public static long fingerprint(byte[] utf8, int off, int len, Options options) {
    return fingerprints(utf8, off, len, options).simhash();
  }

  /** The exact-duplicate fingerprint of {@code text}. */
  public static Exact exact(CharSequence text) {
    return fingerprints(text, Options.DEFAULT).exact();
  }

  public static Exact exact(byte[] utf8) {
    return fingerprints(utf8, 0, utf8.length, Options.DEFAULT).exact();
  }

  /** Both fingerprints and the token count of one text, in one pass. */
  public static Fingerprint fingerprints(CharSequence text, Options options) {
    byte[] utf8 = Utf8.of(text);
    return fingerprints(utf8, 0, utf8.length, options);
  }

  /**
   * Both fingerprints and the token count of {@code utf8[off .. off+len)}. Throws
   * {@link IllegalStateException} if the options' IDF table is closed.
   */
  public static Fingerprint fingerprints(byte[] utf8, int off, int len, Options options) {
    Objects.checkFromIndexSize(off, len, utf8.length);
    long[] out = new long[4];
    try {
      NativeSimHash.text(
          utf8, off, len, options.ngram, options.seed, options.idfHandle(), out);
    } finally {
      Reference.reachabilityFence(options.idf);
    }
    return new Fingerprint(out[0], new Exact(out[1], out[2]), out[3]);
  }

  /** The fingerprints of many texts in one native call, with the default options. */
  public static long[] fingerprintAll(List<? extends CharSequence> texts) {
    return fingerprintAll(texts, Options.DEFAULT);
  }

  public static long[] fingerprintAll(List<? extends CharSequence> texts, Options options) {
    byte[][] utf8 = utf8(texts);
    PackedKeys packed = PackedKeys.of(utf8);
    long[] out = new long[utf8.length];
    fingerprintAll(packed.data, packed.offsets, 0, utf8.length, options, out, 0, null);
    return out;
  }

  /**
   * Fingerprints texts {@code first .. first+count}, where text i is
   * {@code data[offsets[i] .. offsets[i+1])} (Arrow's layout), in one native call:
   * {@code simhashes[outOff + i]} gets text {@code first + i}'s fingerprint, and, when
   * {@code exact} is not null, {@code exact[2 * (outOff + i)]} and the value after it the high
   * and low halves of its exact fingerprint.
   */
  public static void fingerprintAll(byte[] data, int[] offsets, int first, int count,
      Options options, long[] simhashes, int outOff, long[] exact) {
    Batches.checkOffsets(data.length, offsets, first, count);
    Objects.checkFromIndexSize(outOff, count, simhashes.length);
    if (exact != null && 2L * (outOff + (long) count) > exact.length) {
      throw new IndexOutOfBoundsException(
          "exact holds " + exact.length + " values, needs " + 2L * (outOff + (long) count));
    }
    try {
      NativeSimHash.textBatch(data, offsets, first, count, options.ngram,
          options.seed, options.idfHandle(), simhashes, outOff, exact);
    } finally {
      Reference.reachabilityFence(options.idf);
    }
  }

  /**
   * The fingerprint of caller-made features: {@code hashes[off + i]} weighing
   * {@code weights[off + i]} ({@code weights} null: all 1). Weights must be finite, else
   * {@link SeenException} INVALID_ARGUMENT. No features give 0.
   */
  public static long ofHashes(long[] hashes, float[] weights, int off, int len) {
    Objects.checkFromIndexSize(off, len, hashes.length);
    if (weights != null) {
      Objects.checkFromIndexSize(off, len, weights.length);
    }
    long[] out = new long[1];
    NativeSimHash.hashes(hashes, weights, off, len, out);
    return out[0];
  }

  /** {@link #ofHashes(long[], float[], int, int)} of every hash, all weighing 1. */
  public static long ofHashes(long[] hashes) {
    return ofHashes(hashes, null, 0, hashes.length);
  }

  /**
   * The fingerprint of features given as strings, each hashed (XXH3-64 of its UTF-8 bytes,
   * seed 0) and weighing {@code weights[i]} ({@code weights} null: all 1).
   */
  public static long ofFeatures(List<? extends CharSequence> features, float[] weights) {
    return ofFeatures(utf8(features), weights, 0);
  }

  /**
   * As {@link #ofFeatures(List, float[])}, each feature hashed with SipHash-1-3 under the
   * secret {@code key} (16 to 64 bytes, docs/SECURITY.md), so that nobody without it can choose
   * features that land near a given fingerprint. Fingerprints of different keys, or of a key
   * and none, do not compare.
   */
  public static long ofFeatures(List<? extends CharSequence> features, float[] weights,
      byte[] key) {
    return ofFeatures(utf8(features), weights, key);
  }

  /** The fingerprint of byte features, each hashed with XXH3-64 and {@code seed}. */
  public static long ofFeatures(byte[][] features, float[] weights, long seed) {
    PackedKeys packed = PackedKeys.of(features);
    return features(packed.data, packed.offsets, 0, features.length, weights, seed, null);
  }

  /** The fingerprint of byte features, each hashed under the secret {@code key}. */
  public static long ofFeatures(byte[][] features, float[] weights, byte[] key) {
    PackedKeys packed = PackedKeys.of(features);
    return features(packed.data, packed.offsets, 0, features.length, weights, 0,
        Objects.requireNonNull(key, "key"));
  }

  /**
   * The fingerprint of byte features {@code first .. first+count} of
   * {@code data[offsets[i] .. offsets[i+1])}; {@code weights[i]} weighs feature
   * {@code first + i} ({@code weights} null: all 1).
   */
  public static long ofFeatures(byte[] data, int[] offsets, int first, int count,
      float[] weights, long seed) {
    return features(data, offsets, first, count, weights, seed, null);
  }

  /** As the previous, each feature hashed under the secret {@code key}. */
  public static long ofFeatures(byte[] data, int[] offsets, int first, int count,
      float[] weights, byte[] key) {
    return features(data, offsets, first, count, weights, 0, Objects.requireNonNull(key, "key"));
  }

  private static byte[][] utf8(List<? extends CharSequence> texts) {
    byte[][] utf8 = new byte[texts.size()][];
    for (int i = 0; i < utf8.length; i++) {
      utf8[i] = Utf8.of(texts.get(i));
    }
    return utf8;
  }

  /** Hashed under key if it is not null, else with seed. */
  private static long features(byte[] data, int[] offsets, int first, int count,
      float[] weights, long seed, byte[] key) {
    Batches.checkOffsets(data.length, offsets, first, count);
    if (weights != null && weights.length < count) {
      throw new IllegalArgumentException(
          "weights holds " + weights.length + " values, needs " + count);
    }
    long[] out = new long[1];
    NativeSimHash.strings(data, offsets, first, count, weights, seed, key, out);
    return out[0];
  }

  /** The C library's own distance; package-private, for tests. */
  static int nativeHamming(long a, long b) {
    return NativeSimHash.distance(a, b);
  }
}
