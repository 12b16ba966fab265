package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

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
public final class BloomFilter implements AutoCloseable {
  private final NativeHandle handle;

  private BloomFilter(long handle) {
    this.handle = new NativeHandle(this, handle, NativeBloom::free, NativeBloom::lastError);
  }

  /** Wraps the handle a native made; a native that failed has thrown already. */
  private static BloomFilter adopt(long[] out) {
    return new BloomFilter(out[0]);
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
    if (expectedInsertions < 0) {
      throw new IllegalArgumentException("expectedInsertions is negative: " + expectedInsertions);
    }
    long[] out = new long[1];
    NativeBloom.create(expectedInsertions, fpp, seed, out);
    return adopt(out);
  }

  /**
   * A keyed filter (docs/SECURITY.md): its keys hash with SipHash-1-3 under the secret {@code
   * key}, 16 to 64 bytes, so whoever chooses the keys cannot aim them at the filter without it.
   * No file holds the key: a keyed filter's file or bytes open only with it ({@link #open(Path,
   * Mode, byte[])}, {@link #readFrom(InputStream, byte[])}); a missing or wrong key throws
   * SeenException with INCOMPATIBLE.
   */
  public static BloomFilter createKeyed(long expectedInsertions, double fpp, byte[] key) {
    if (expectedInsertions < 0) {
      throw new IllegalArgumentException("expectedInsertions is negative: " + expectedInsertions);
    }
    long[] out = new long[1];
    NativeBloom.createKeyed(expectedInsertions, fpp, key.clone(), out);
    return adopt(out);
  }

  /** Maps a keyed filter's file, with its key. */
  public static BloomFilter open(Path path, Mode mode, byte[] key) {
    long[] out = new long[1];
    NativeBloom.openKeyed(Utf8.nulTerminated(path), mode.flags, key.clone(), out);
    return adopt(out);
  }

  /** Reads a keyed filter's serialized form, with its key. */
  public static BloomFilter readFrom(InputStream in, byte[] key) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeBloom.deserializeKeyed(bytes, bytes.length, key.clone(), out);
    return adopt(out);
  }

  /**
   * Maps a filter saved by {@link #save(Path)} (or by any other binding), verifying its checksums.
   * {@link Mode#READ_ONLY} shares the page cache between processes and rejects puts.
   */
  public static BloomFilter open(Path path, Mode mode) {
    long[] out = new long[1];
    NativeBloom.open(Utf8.nulTerminated(path), mode.flags, out);
    return adopt(out);
  }

  /**
   * Reads a filter written by {@link #writeTo(OutputStream)} (or any binding's serialized form).
   * Reads {@code in} to its end, so pass a stream that holds just the filter. Throws
   * {@link SeenException} with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, ... on malformed input.
   */
  public static BloomFilter readFrom(InputStream in) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeBloom.deserialize(bytes, bytes.length, out);
    return adopt(out);
  }

  private boolean changed(int putResult) {
    if (putResult < 0) {
      handle.check(-putResult);
    }
    return putResult == 0;
  }

  /** Adds an id; returns true if that changed the filter (Guava's meaning). */
  public boolean put(long id) {
    try {
      return changed(NativeBloom.putLong(handle.get(), id));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public boolean put(byte[] key) {
    return put(key, 0, key.length);
  }

  /** Adds the key {@code key[off .. off+len)}; returns true if that changed the filter. */
  public boolean put(byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    try {
      return changed(NativeBloom.putBytes(handle.get(), key, off, len));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Adds the UTF-8 bytes of {@code key}. */
  public boolean put(CharSequence key) {
    return put(Utf8.of(key));
  }

  /** False means the id was certainly never put; true means it probably was. */
  public boolean mightContain(long id) {
    try {
      return NativeBloom.testLong(handle.get(), id) == 1;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public boolean mightContain(byte[] key) {
    return mightContain(key, 0, key.length);
  }

  public boolean mightContain(byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    try {
      return NativeBloom.testBytes(handle.get(), key, off, len) == 1;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public boolean mightContain(CharSequence key) {
    return mightContain(Utf8.of(key));
  }

  public void putAll(long[] ids) {
    putAll(ids, 0, ids.length);
  }

  /** Adds {@code ids[off .. off+len)} in one native call. */
  public void putAll(long[] ids, int off, int len) {
    Objects.checkFromIndexSize(off, len, ids.length);
    handle.run(this, h -> NativeBloom.addLongs(h, ids, off, len));
  }

  public void mightContainAll(long[] ids, boolean[] out) {
    mightContainAll(ids, 0, ids.length, out);
  }

  /** Sets {@code out[i] = mightContain(ids[off + i])} for i in 0 .. len, in one native call. */
  public void mightContainAll(long[] ids, int off, int len, boolean[] out) {
    Objects.checkFromIndexSize(off, len, ids.length);
    Batches.checkOut(len, out);
    handle.run(this, h -> NativeBloom.testLongs(h, ids, off, len, out, 0));
  }

  /** Adds every key; they are packed into one buffer first, so prefer the offsets form when hot. */
  public void putAll(byte[][] keys) {
    PackedKeys packed = PackedKeys.of(keys);
    putAll(packed.data, packed.offsets, 0, keys.length);
  }

  /** Sets {@code out[i] = mightContain(keys[i])}. */
  public void mightContainAll(byte[][] keys, boolean[] out) {
    PackedKeys packed = PackedKeys.of(keys);
    mightContainAll(packed.data, packed.offsets, 0, keys.length, out);
  }

  /**
   * Adds keys {@code first .. first+count}, where key i is {@code data[offsets[i] .. offsets[i+1])}
   * (Arrow's layout): the offsets must not decrease and must stay inside data.
   */
  public void putAll(byte[] data, int[] offsets, int first, int count) {
    Batches.checkOffsets(data.length, offsets, first, count);
    handle.run(this, h -> NativeBloom.addKeys(h, data, offsets, first, count));
  }

  /** As {@link #putAll(byte[], int[], int, int)}; {@code out[i]} answers key {@code first + i}. */
  public void mightContainAll(byte[] data, int[] offsets, int first, int count, boolean[] out) {
    Batches.checkOffsets(data.length, offsets, first, count);
    Batches.checkOut(count, out);
    handle.run(this, h -> NativeBloom.testKeys(h, data, offsets, first, count, out, 0));
  }

  /**
   * Adds the 64-bit ids between the position and limit of a direct buffer, read in native byte
   * order (fill it through {@code order(ByteOrder.nativeOrder())}); the position must be 8-byte
   * aligned. Positions are left unchanged.
   */
  public void putAll(ByteBuffer ids) {
    long n = Batches.longsIn(ids, "ids");
    handle.run(this, h -> NativeBloom.addLongsDirect(h, ids, ids.position(), n));
  }

  /** As {@link #putAll(ByteBuffer)}; writes one byte per id (1 = might contain, 0 = not) from out's position. */
  public void mightContainAll(ByteBuffer ids, ByteBuffer out) {
    long n = Batches.longsIn(ids, "ids");
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeBloom.testLongsDirect(h, ids, ids.position(), n, out,
        out.position()));
  }

  /**
   * Adds byte keys from direct buffers: offsets holds n+1 native-order 64-bit values between its
   * position and limit, and key i is the bytes {@code offsets[i] .. offsets[i+1]} counted from
   * data's position. Positions are left unchanged.
   */
  public void putAll(ByteBuffer data, ByteBuffer offsets) {
    long n = Batches.checkOffsets(data, offsets);
    handle.run(this, h -> NativeBloom.addKeysDirect(h, data, data.position(), offsets,
        offsets.position(), n));
  }

  /** As {@link #putAll(ByteBuffer, ByteBuffer)}; writes one byte per key from out's position. */
  public void mightContainAll(ByteBuffer data, ByteBuffer offsets, ByteBuffer out) {
    long n = Batches.checkOffsets(data, offsets);
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeBloom.testKeysDirect(h, data, data.position(), offsets,
        offsets.position(), n, out, out.position()));
  }

  /**
   * Adds every key of {@code other} (bitwise OR). Both must have the same size, k and seed
   * (see {@link #isCompatible}), else INCOMPATIBLE. Needs exclusive access to this filter.
   */
  public void putAll(BloomFilter other) {
    try {
      handle.check(NativeBloom.merge(handle.get(), other.handle.get()));
    } finally {
      Reference.reachabilityFence(this);
      Reference.reachabilityFence(other);
    }
  }

  /** Whether {@link #putAll(BloomFilter)} accepts {@code other}. */
  public boolean isCompatible(BloomFilter other) {
    long[] mine = params();
    long[] theirs = other.params();
    return mine[1] == theirs[1] && mine[2] == theirs[2] && mine[4] == theirs[4];
  }

  /** Resets every bit. Needs exclusive access. */
  public void clear() {
    try {
      handle.check(NativeBloom.clear(handle.get()));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** The number of distinct keys put so far, estimated from the fill; reads the whole filter. */
  public long approximateElementCount() {
    return Math.round(stats()[1]);
  }

  /** The false-positive rate of the filter as it is now; reads the whole filter. */
  public double expectedFpp() {
    return stats()[2];
  }

  /** The false-positive rate asked for at creation. */
  public double targetFpp() {
    return Double.longBitsToDouble(params()[6]);
  }

  public long expectedInsertions() {
    return params()[5];
  }

  /** The size of the bit array in bytes (whole 64-byte blocks). */
  public long sizeInBytes() {
    return params()[0];
  }

  /** The bits each key sets. */
  public int hashCount() {
    return (int) params()[2];
  }

  public long seed() {
    return params()[4];
  }

  /** True for a filter opened with {@link Mode#READ_ONLY}. */
  public boolean isReadOnly() {
    return params()[3] != 0;
  }

  private long[] params() {
    long[] out = new long[7];
    handle.run(this, h -> NativeBloom.params(h, out));
    return out;
  }

  private double[] stats() {
    double[] out = new double[3];
    handle.run(this, h -> NativeBloom.stats(h, out));
    return out;
  }

  /** A writable copy in native memory, also of a read-only or mapped filter (Guava's copy). */
  public BloomFilter copy() {
    byte[] bytes = toByteArray();
    long[] out = new long[1];
    NativeBloom.deserialize(bytes, bytes.length, out);
    return adopt(out);
  }

  /** {@link #mightContain(CharSequence)} as a {@link Predicate}, e.g. for stream filters. */
  public Predicate<CharSequence> asPredicate() {
    return this::mightContain;
  }

  /** {@link #mightContain(long)} as a {@link LongPredicate}, e.g. for {@code LongStream}s. */
  public LongPredicate asLongPredicate() {
    return this::mightContain;
  }

  /**
   * Equal filters have the same parameters and the same bits: they answer every query alike
   * and serialize to the same bytes. Reads both filters (O(size)), as Guava's equals does.
   */
  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    return other instanceof BloomFilter
        && Arrays.equals(toByteArray(), ((BloomFilter) other).toByteArray());
  }

  /** From the parameters only, so it stays put while keys go in (equal filters share them). */
  @Override
  public int hashCode() {
    return Objects.hash(sizeInBytes(), hashCount(), seed());
  }

  /** The serialized form (docs/FORMAT.md), the same bytes every binding writes. */
  public byte[] toByteArray() {
    try {
      return Serialized.toByteArray(
          handle, NativeBloom::serializedSize, NativeBloom::serialize,
          Serialized.USE_SAVE);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Writes {@link #toByteArray()} to {@code out}; read it back with {@link #readFrom}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(toByteArray());
  }

  /** Saves crash-safely: a temporary file, fsync, then a rename over {@code path}. */
  public void save(Path path) {
    handle.run(this, h -> NativeBloom.save(h, Utf8.nulTerminated(path)));
  }

  /** For a {@link Mode#WRITE_IN_PLACE} mapping: updates the checksums and flushes to the file. */
  public void sync() {
    handle.run(this, h -> NativeBloom.sync(h));
  }

  /** Releases the native memory (a read-write mapping is synced first). Idempotent. */
  @Override
  public void close() {
    handle.close();
  }

  /** The version of the native library loaded, as major * 10000 + minor * 100 + patch. */
  public static int nativeVersion() {
    return NativeBloom.versionNumber();
  }
}
