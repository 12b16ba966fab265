package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongBinaryOperator;

/**
 * A blocked Bloom filter held in native memory: every key sets k bits in one 64-byte block,
 * so a query costs one cache miss. The method names follow Guava's {@code BloomFilter}.
 *
 * <p>Keys: a {@code long} hashes as its 8 little-endian bytes, a {@code CharSequence} as its
 * UTF-8 bytes, so {@code put(7L)} and a Go or Python filter's add of 7 set the same bits.
 *
 * <p>Batches: each native call costs tens of nanoseconds, so hot paths should use
 * {@link #putAll(long[], int, int)}, {@link #mightContainAll(long[], int, int, boolean[])} and
 * their byte-key and direct {@link ByteBuffer} variants, which hash, prefetch and probe a whole
 * chunk per call.
 *
 * <p>Thread safety: {@code put*}, {@code mightContain*} and the read-only queries may run
 * concurrently from any number of threads; concurrent puts never lose a bit, and a query
 * racing a put may miss that in-flight put but never a completed one. {@link #putAll(BloomFilter)},
 * {@link #clear()}, {@link #sync()} and {@link #close()} need exclusive access: no other call
 * on this filter may run at the same time.
 *
 * <p>Lifetime: the native memory (or mapping) is released by {@link #close()}, or by a
 * {@link Cleaner} once the filter is unreachable. Closing twice is harmless; any other call
 * after close throws {@link IllegalStateException}.
 */
public final class BloomFilter extends AddOnceFilter<BloomFilter> {
  private static final long serialVersionUID = 1L;

  /** Wraps the handle a native made (a native that failed has thrown already). */
  private BloomFilter(long handle, byte[] key) {
    super(Kind.BLOOM, handle, key, BloomFilter::new);
  }

  /** A new filter, keyed if {@code key} is not null (then with seed 0). */
  private static BloomFilter make(long expectedInsertions, double fpp, long seed, byte[] key) {
    long n = expected(expectedInsertions);
    return made(key, BloomFilter::new, out -> NativeBloom.create(n, fpp, seed, key, out));
  }

  /**
   * The rate {@link #create(long)} gives: the C library's SEEN_DEFAULT_FPR and {@code seen
   * build}'s default (Guava's {@code create(funnel, n)} takes 3%).
   */
  public static final double DEFAULT_FPP = 0.01;

  /** An empty filter for {@code expectedInsertions} keys at {@link #DEFAULT_FPP}, seed 0. */
  public static BloomFilter create(long expectedInsertions) {
    return create(expectedInsertions, DEFAULT_FPP);
  }

  /** An empty filter for {@code expectedInsertions} keys at false-positive rate {@code fpp}, seed 0. */
  public static BloomFilter create(long expectedInsertions, double fpp) {
    return create(expectedInsertions, fpp, 0);
  }

  /**
   * An empty filter sized so that after {@code expectedInsertions} distinct keys the
   * false-positive rate is {@code fpp}, in (0, 1). Pass a secret {@code seed} if adversaries
   * choose the keys; it is stored in the filter.
   */
  public static BloomFilter create(long expectedInsertions, double fpp, long seed) {
    return make(expectedInsertions, fpp, seed, null);
  }

  /**
   * A keyed filter (docs/SECURITY.md): its keys hash with SipHash-1-3 under the secret {@code
   * key}, 16 to 64 bytes, so whoever chooses the keys cannot aim them at the filter without it.
   * No file holds the key: a keyed filter's file or bytes open only with it ({@link #open(Path,
   * Mode, byte[])}, {@link #readFrom(InputStream, byte[])}); a missing or wrong key throws
   * SeenException with INCOMPATIBLE.
   */
  public static BloomFilter createKeyed(long expectedInsertions, double fpp, byte[] key) {
    return make(expectedInsertions, fpp, 0, secret(key));
  }

  /** Maps a keyed filter's file, with its key. */
  public static BloomFilter open(Path path, Mode mode, byte[] key) {
    return open(Kind.BLOOM, path, mode.flags, secret(key), BloomFilter::new);
  }

  /** Reads a keyed filter's serialized form, with its key. */
  public static BloomFilter readFrom(InputStream in, byte[] key) throws IOException {
    return read(Kind.BLOOM, in, secret(key), BloomFilter::new);
  }

  /**
   * Maps a filter saved by {@link #save(Path)} (or by any other binding), verifying its checksums.
   * {@link Mode#READ_ONLY} shares the page cache between processes and rejects puts.
   */
  public static BloomFilter open(Path path, Mode mode) {
    return open(Kind.BLOOM, path, mode.flags, null, BloomFilter::new);
  }

  /**
   * Reads a filter written by {@link #writeTo(OutputStream)} (or any binding's serialized form).
   * Reads {@code in} to its end, so pass a stream that holds just the filter. Throws
   * {@link SeenException} with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, ... on malformed input.
   */
  public static BloomFilter readFrom(InputStream in) throws IOException {
    return read(Kind.BLOOM, in, null, BloomFilter::new);
  }

  /**
   * Adds every key of {@code other} (bitwise OR). Both must have the same size, k and seed
   * (see {@link #isCompatible}), else INCOMPATIBLE. Needs exclusive access to this filter.
   */
  public void putAll(BloomFilter other) {
    withOther(other, (h, o) -> -NativeBloom.merge(h, o));
  }

  /** Whether {@link #putAll(BloomFilter)} accepts {@code other}. */
  public boolean isCompatible(BloomFilter other) {
    return info().mergesWith(other.info());
  }

  /**
   * Keeps the bits this filter and {@code other} both have (this &amp;= other), with the rules of
   * {@link #putAll(BloomFilter)}. Every key put into both still looks present; a key of one alone
   * may too, more often than in a filter built from the common keys (approximate upward). Needs
   * exclusive access to this filter.
   */
  public void intersect(BloomFilter other) {
    withOther(other, (h, o) -> -NativeBloom.intersect(h, o));
  }

  /**
   * Whether every bit of {@code other} is set here, so that every key other holds looks present
   * here: false is certain, true may be wrong, as {@code mightContain} may be. The rules of
   * {@link #putAll(BloomFilter)}. Reads both filters.
   */
  public boolean covers(BloomFilter other) {
    return withOther(other, NativeBloom::covers) == 1;
  }

  /**
   * The answer of a native call on this filter's handle and other's, which returns 0 or more,
   * or below 0 the negated status (then this throws). Both filters stay reachable until it
   * returns, so that neither Cleaner frees a handle the native code uses.
   */
  private int withOther(BloomFilter other, LongBinaryOperator call) {
    try {
      return handle.answer(this, h -> (int) call.applyAsLong(h, other.handle.get()));
    } finally {
      Reference.reachabilityFence(other);
    }
  }

  /** Resets every bit. Needs exclusive access. */
  public void clear() {
    handle.run(this, NativeBloom::clear);
  }

  /** The number of distinct keys put so far, estimated from the fill; reads the whole filter. */
  public long approximateElementCount() {
    return Math.round(stats().approxItems);
  }

  /** The false-positive rate of the filter as it is now; reads the whole filter. */
  public double expectedFpp() {
    return stats().predictedFpr;
  }

  /** The false-positive rate asked for at creation. */
  public double targetFpp() {
    return info().targetFpr;
  }

  public long expectedInsertions() {
    return info().expectedItems;
  }

  /** The size of the bit array in bytes (whole 64-byte blocks). */
  public long sizeInBytes() {
    return info().bytes;
  }

  /** The bits each key sets. */
  public int hashCount() {
    return info().k;
  }

  public long seed() {
    return info().seed;
  }

  /** True for a filter opened with {@link Mode#READ_ONLY}. */
  public boolean isReadOnly() {
    return info().readOnly;
  }

  private FilterInfo info() {
    return FilterInfo.read(handle, this, false);
  }

  private FilterStats stats() {
    return FilterStats.read(handle, this, false);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sizeInBytes(), hashCount(), seed());
  }

  /** For a {@link Mode#WRITE_IN_PLACE} mapping: updates the checksums and flushes to the file. */
  public void sync() {
    handle.run(this, h -> NativeBloom.sync(h));
  }

  /** The version of the native library loaded, as major * 10000 + minor * 100 + patch. */
  public static int nativeVersion() {
    return NativeBloom.versionNumber();
  }
}
