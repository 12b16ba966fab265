package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A Bloom filter that grows: blocked sub-filters, each {@code growth} times larger than the one
 * before it at {@code tightening} times its false-positive rate, so the total rate stays within
 * the bound it was created with however many keys arrive (the classic scalable Bloom filter,
 * docs/counting.md). A put of a key that already looks present changes nothing and does not
 * count.
 *
 * <p>Keys hash as in {@link BloomFilter}: a {@code long} as its 8 little-endian bytes, a
 * {@code CharSequence} as its UTF-8 bytes, with the filter's seed.
 *
 * <p>Queries ask every sub-filter, so their cost grows with {@link #subFilterCount()}: start
 * near the expected size. At most 64 sub-filters; a put past them throws TOO_LARGE (a batch
 * keeps the keys before it).
 *
 * <p>Thread safety: puts and {@link #close()} need exclusive access; queries, the getters,
 * {@link #toByteArray()} and {@link #save(Path)} may run concurrently with each other, not with
 * a put.
 *
 * <p>Lifetime: {@link #close()} frees the native memory or unmaps the file, or a
 * {@link Cleaner} does once the filter is unreachable. Closing twice is harmless; any other
 * call after close throws {@link IllegalStateException}.
 */
public final class ScalableFilter extends AddOnceFilter<ScalableFilter> {
  private static final long serialVersionUID = 1L;

  /** Wraps the handle a native made (a native that failed has thrown already). */
  private ScalableFilter(long handle, byte[] key) {
    super(Kind.SCALABLE, handle, key, ScalableFilter::new);
  }

  /** A new filter, keyed if {@code key} is not null (then with seed 0). */
  private static ScalableFilter make(long initialCapacity, double fpp, double growth,
      double tightening, long seed, byte[] key) {
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initialCapacity must be at least 1: " + initialCapacity);
    }
    return made(key, ScalableFilter::new,
        out -> NativeScalable.create(initialCapacity, fpp, growth, tightening, seed, key, out));
  }

  /**
   * An empty filter whose first sub-filter holds {@code initialCapacity} keys, with the total
   * false-positive rate bounded by {@code fpp}; growth 2, tightening 0.5, seed 0.
   */
  public static ScalableFilter create(long initialCapacity, double fpp) {
    return create(initialCapacity, fpp, 2, 0.5, 0);
  }

  /**
   * An empty filter with one sub-filter of {@code initialCapacity} (at least 1) keys. The total
   * false-positive rate stays at most {@code fpp}, in (0, 1), at any size. Each new sub-filter
   * holds {@code growth} (in [1, 64]) times the keys of the one before, at {@code tightening}
   * (in (0, 1)) times its rate. Pass a secret {@code seed} if adversaries choose the keys.
   * Out-of-range values throw {@link SeenException} INVALID_ARGUMENT naming the option.
   */
  public static ScalableFilter create(long initialCapacity, double fpp, double growth,
      double tightening, long seed) {
    return make(initialCapacity, fpp, growth, tightening, seed, null);
  }

  /** A keyed filter (see the next) with growth 2 and tightening 0.5. */
  public static ScalableFilter createKeyed(long initialCapacity, double fpp, byte[] key) {
    return createKeyed(initialCapacity, fpp, 2, 0.5, key);
  }

  /**
   * A keyed filter (docs/SECURITY.md), with the options of {@link #create(long, double, double,
   * double, long)} but no seed: its keys hash with SipHash-1-3 under the secret {@code key}, 16
   * to 64 bytes, so whoever chooses the keys cannot aim them at the filter without it. No file
   * holds the key: a keyed filter's file or bytes open only with it ({@link #open(Path, Mode,
   * byte[])}, {@link #readFrom(InputStream, byte[])}); a missing or wrong key throws
   * SeenException with INCOMPATIBLE.
   */
  public static ScalableFilter createKeyed(long initialCapacity, double fpp, double growth,
      double tightening, byte[] key) {
    return make(initialCapacity, fpp, growth, tightening, 0, secret(key));
  }

  /** Opens a keyed filter's file, with its key. */
  public static ScalableFilter open(Path path, Mode mode, byte[] key) {
    return open(Kind.SCALABLE, path, mode.flags, secret(key), ScalableFilter::new);
  }

  /** Reads a keyed filter's serialized form, with its key. */
  public static ScalableFilter readFrom(InputStream in, byte[] key) throws IOException {
    return read(Kind.SCALABLE, in, secret(key), ScalableFilter::new);
  }

  /**
   * Opens a filter saved by {@link #save(Path)} (or by any other binding), verifying its
   * checksums. {@link Mode#READ_ONLY} maps the file and queries it in place; puts throw
   * READ_ONLY. {@link Mode#PRIVATE_COPY} reads a private copy that may grow: the file changes
   * only on the next {@link #save(Path)}.
   */
  public static ScalableFilter open(Path path, Mode mode) {
    return open(Kind.SCALABLE, path, mode.flags, null, ScalableFilter::new);
  }

  /**
   * Reads a filter written by {@link #writeTo(OutputStream)} (or any binding's serialized
   * form), after full validation. Reads {@code in} to its end. Throws {@link SeenException}
   * with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, WRONG_KIND, ... on other input.
   */
  public static ScalableFilter readFrom(InputStream in) throws IOException {
    return read(Kind.SCALABLE, in, null, ScalableFilter::new);
  }

  /** Distinct keys put so far: the puts that changed the filter (low by the false positives met). */
  public long approximateElementCount() {
    return info()[0];
  }

  /** The number of sub-filters, 1 to 64. */
  public int subFilterCount() {
    return (int) info()[1];
  }

  /** True for a filter opened with {@link Mode#READ_ONLY}. */
  public boolean isReadOnly() {
    return info()[2] != 0;
  }

  /** The bytes of every sub-filter's blocks. */
  public long sizeInBytes() {
    return info()[3];
  }

  /** The false-positive rate now: the sum of the sub-filters' rates at their loads, at most {@link #fppBound()}. */
  public double expectedFpp() {
    return Double.longBitsToDouble(info()[4]);
  }

  /** The keys the first sub-filter holds. */
  public long initialCapacity() {
    return info()[5];
  }

  /** The bound on the total false-positive rate asked for at creation. */
  public double fppBound() {
    return Double.longBitsToDouble(info()[6]);
  }

  /** The capacity ratio of consecutive sub-filters. */
  public double growth() {
    return Double.longBitsToDouble(info()[7]);
  }

  /** The false-positive rate ratio of consecutive sub-filters. */
  public double tightening() {
    return Double.longBitsToDouble(info()[8]);
  }

  public long seed() {
    return info()[9];
  }

  private long[] info() {
    long[] out = new long[10];
    handle.run(this, h -> NativeScalable.info(h, out));
    return out;
  }

  @Override
  public int hashCode() {
    return Objects.hash(initialCapacity(), fppBound(), seed());
  }
}
