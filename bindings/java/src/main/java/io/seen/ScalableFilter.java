package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
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
 * near the expected size. At most 64 sub-filters; a put past them throws TOO_LARGE.
 *
 * <p>Thread safety: puts and {@link #close()} need exclusive access; queries, the getters,
 * {@link #toByteArray()} and {@link #save(Path)} may run concurrently with each other, not with
 * a put.
 *
 * <p>Lifetime: {@link #close()} frees the native memory or unmaps the file, or a
 * {@link Cleaner} does once the filter is unreachable. Closing twice is harmless; any other
 * call after close throws {@link IllegalStateException}.
 */
public final class ScalableFilter implements AutoCloseable {
  private final NativeHandle handle;

  private ScalableFilter(long handle) {
    this.handle = new NativeHandle(this, handle, NativeScalable::free, NativeScalable::lastError);
  }

  /** Wraps the handle a native made; a native that failed has thrown already. */
  private static ScalableFilter adopt(long[] out) {
    return new ScalableFilter(out[0]);
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
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initialCapacity must be at least 1: " + initialCapacity);
    }
    long[] out = new long[1];
    NativeScalable.create(initialCapacity, fpp, growth, tightening, seed, out);
    return adopt(out);
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
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initialCapacity must be at least 1: " + initialCapacity);
    }
    long[] out = new long[1];
    NativeScalable.createKeyed(initialCapacity, fpp, growth, tightening, key.clone(), out);
    return adopt(out);
  }

  /** Opens a keyed filter's file, with its key. */
  public static ScalableFilter open(Path path, Mode mode, byte[] key) {
    long[] out = new long[1];
    NativeScalable.openKeyed(Utf8.nulTerminated(path), mode.flags, key.clone(), out);
    return adopt(out);
  }

  /** Reads a keyed filter's serialized form, with its key. */
  public static ScalableFilter readFrom(InputStream in, byte[] key) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeScalable.deserializeKeyed(bytes, bytes.length, key.clone(), out);
    return adopt(out);
  }

  /**
   * Opens a filter saved by {@link #save(Path)} (or by any other binding), verifying its
   * checksums. {@link Mode#READ_ONLY} maps the file and queries it in place; puts throw
   * READ_ONLY. {@link Mode#PRIVATE_COPY} reads a private copy that may grow: the file changes
   * only on the next {@link #save(Path)}.
   */
  public static ScalableFilter open(Path path, Mode mode) {
    long[] out = new long[1];
    NativeScalable.open(Utf8.nulTerminated(path), mode.flags, out);
    return adopt(out);
  }

  /**
   * Reads a filter written by {@link #writeTo(OutputStream)} (or any binding's serialized
   * form), after full validation. Reads {@code in} to its end. Throws {@link SeenException}
   * with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, WRONG_KIND, ... on other input.
   */
  public static ScalableFilter readFrom(InputStream in) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeScalable.deserialize(bytes, bytes.length, out);
    return adopt(out);
  }

  private boolean changed(int putResult) {
    if (putResult < 0) {
      handle.check(-putResult);
    }
    return putResult == 0;
  }

  /** Adds an id; returns true if that changed the filter (false: it already looked present). */
  public boolean put(long id) {
    try {
      return changed(NativeScalable.putLong(handle.get(), id));
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
      return changed(NativeScalable.putBytes(handle.get(), key, off, len));
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
      return NativeScalable.testLong(handle.get(), id) == 1;
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
      return NativeScalable.testBytes(handle.get(), key, off, len) == 1;
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

  /**
   * Adds {@code ids[off .. off+len)} in order, in one native call, growing as needed. Past 64
   * sub-filters it throws TOO_LARGE; the ids before that stay added.
   */
  public void putAll(long[] ids, int off, int len) {
    Objects.checkFromIndexSize(off, len, ids.length);
    handle.run(this, h -> NativeScalable.longs(h, ids, off, len, null, 0));
  }

  public void mightContainAll(long[] ids, boolean[] out) {
    mightContainAll(ids, 0, ids.length, out);
  }

  /** Sets {@code out[i] = mightContain(ids[off + i])} for i in 0 .. len, over every sub-filter, in one native call. */
  public void mightContainAll(long[] ids, int off, int len, boolean[] out) {
    Objects.checkFromIndexSize(off, len, ids.length);
    Batches.checkOut(len, out);
    handle.run(this, h -> NativeScalable.longs(h, ids, off, len, out, 0));
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
    handle.run(this, h -> NativeScalable.keys(h, data, offsets, first, count, null, 0));
  }

  /** As {@link #putAll(byte[], int[], int, int)}; {@code out[i]} answers key {@code first + i}. */
  public void mightContainAll(byte[] data, int[] offsets, int first, int count, boolean[] out) {
    Batches.checkOffsets(data.length, offsets, first, count);
    Batches.checkOut(count, out);
    handle.run(this, h -> NativeScalable.keys(h, data, offsets, first, count, out, 0));
  }

  /**
   * Adds the 64-bit ids between the position and limit of a direct buffer, read in native byte
   * order (fill it through {@code order(ByteOrder.nativeOrder())}); the position must be 8-byte
   * aligned. Positions are left unchanged.
   */
  public void putAll(ByteBuffer ids) {
    long n = Batches.longsIn(ids, "ids");
    handle.run(this, h -> NativeScalable.longsDirect(h, ids, ids.position(), n, null, 0));
  }

  /** As {@link #putAll(ByteBuffer)}; writes one byte per id (1 = might contain, 0 = not) from out's position. */
  public void mightContainAll(ByteBuffer ids, ByteBuffer out) {
    long n = Batches.longsIn(ids, "ids");
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeScalable.longsDirect(h, ids, ids.position(), n, out,
        out.position()));
  }

  /**
   * Adds byte keys from direct buffers: offsets holds n+1 native-order 64-bit values between its
   * position and limit, and key i is the bytes {@code offsets[i] .. offsets[i+1]} counted from
   * data's position. Positions are left unchanged.
   */
  public void putAll(ByteBuffer data, ByteBuffer offsets) {
    long n = Batches.checkOffsets(data, offsets);
    handle.run(this, h -> NativeScalable.keysDirect(h, data, data.position(), offsets,
        offsets.position(), n, null, 0));
  }

  /** As {@link #putAll(ByteBuffer, ByteBuffer)}; writes one byte per key from out's position. */
  public void mightContainAll(ByteBuffer data, ByteBuffer offsets, ByteBuffer out) {
    long n = Batches.checkOffsets(data, offsets);
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeScalable.keysDirect(h, data, data.position(), offsets,
        offsets.position(), n, out, out.position()));
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

  /** The serialized form (kind 3 of docs/FORMAT.md), the same bytes every binding writes. */
  public byte[] toByteArray() {
    try {
      return Serialized.toByteArray(
          handle, NativeScalable::serializedSize, NativeScalable::serialize,
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
    handle.run(this, h -> NativeScalable.save(h, Utf8.nulTerminated(path)));
  }

  /** Releases the native memory or the mapping. Idempotent. */
  @Override
  public void close() {
    handle.close();
  }
}
