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
 * A blocked Bloom filter that can forget: every bit of {@link BloomFilter}'s layout becomes a
 * 4-bit saturating counter, so keys can be removed. Same blocks, k, answers and
 * false-positive rate as a {@code BloomFilter} of the same {@code expectedInsertions} and
 * {@code fpp}, in 5 times the memory (docs/counting.md).
 *
 * <p>The remove rule: remove only keys that were put. Removing a key that is certainly absent
 * (a counter at zero) changes nothing and throws {@link SeenException} with
 * {@link Status#NOT_FOUND}. Removing a never-put key that looks present (a false positive)
 * can make another key a false negative: the filter cannot tell, so that is the caller's
 * hazard. A saturated counter never changes again, so puts and removes of put keys never make
 * a false negative. A key put twice must be removed twice to disappear.
 *
 * <p>Keys hash as in {@link BloomFilter}: a {@code long} as its 8 little-endian bytes, a
 * {@code CharSequence} as its UTF-8 bytes, with the filter's seed.
 *
 * <p>Thread safety differs from {@code BloomFilter}: puts, removes, {@link #clear()},
 * {@link #sync()} and {@link #close()} need exclusive access (one writer at a time).
 * {@code mightContain*} may run from any number of threads, also while that one writer works,
 * and never miss a completed put. {@link #approximateElementCount()}, {@link #expectedFpp()},
 * {@link #saturatedCounters()}, {@link #toByteArray()} and {@link #save(Path)} read the
 * counters: run them with no writer active.
 *
 * <p>Lifetime: {@link #close()} frees the native memory or unmaps the file, or a
 * {@link Cleaner} does once the filter is unreachable. Closing twice is harmless; any other
 * call after close throws {@link IllegalStateException}.
 */
public final class CountingFilter implements AutoCloseable {
  private final NativeHandle handle;

  private CountingFilter(long handle) {
    this.handle = new NativeHandle(this, handle, NativeCounting::free, NativeCounting::lastError);
  }

  /** Wraps the handle a native made; a native that failed has thrown already. */
  private static CountingFilter adopt(long[] out) {
    return new CountingFilter(out[0]);
  }

  /** An empty filter for {@code expectedInsertions} keys at false-positive rate {@code fpp}, seed 0. */
  public static CountingFilter create(long expectedInsertions, double fpp) {
    return create(expectedInsertions, fpp, 0);
  }

  /**
   * An empty filter with the blocks and k of {@code BloomFilter.create(expectedInsertions, fpp,
   * seed)}: after {@code expectedInsertions} keys the false-positive rate is {@code fpp}, in
   * (0, 1). Pass a secret {@code seed} if adversaries choose the keys; it is stored in the
   * filter.
   */
  public static CountingFilter create(long expectedInsertions, double fpp, long seed) {
    if (expectedInsertions < 0) {
      throw new IllegalArgumentException("expectedInsertions is negative: " + expectedInsertions);
    }
    long[] out = new long[1];
    NativeCounting.create(expectedInsertions, fpp, seed, out);
    return adopt(out);
  }

  /**
   * A keyed filter (docs/SECURITY.md): its keys hash with SipHash-1-3 under the secret {@code
   * key}, 16 to 64 bytes, so whoever chooses the keys cannot aim them at the filter without it.
   * No file holds the key: a keyed filter's file or bytes open only with it ({@link #open(Path,
   * Mode, byte[])}, {@link #readFrom(InputStream, byte[])}); a missing or wrong key throws
   * SeenException with INCOMPATIBLE.
   */
  public static CountingFilter createKeyed(long expectedInsertions, double fpp, byte[] key) {
    if (expectedInsertions < 0) {
      throw new IllegalArgumentException("expectedInsertions is negative: " + expectedInsertions);
    }
    long[] out = new long[1];
    NativeCounting.createKeyed(expectedInsertions, fpp, key.clone(), out);
    return adopt(out);
  }

  /** Maps a keyed filter's file, with its key. */
  public static CountingFilter open(Path path, Mode mode, byte[] key) {
    long[] out = new long[1];
    NativeCounting.openKeyed(Utf8.nulTerminated(path), mode.flags, key.clone(), out);
    return adopt(out);
  }

  /** Reads a keyed filter's serialized form, with its key. */
  public static CountingFilter readFrom(InputStream in, byte[] key) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeCounting.deserializeKeyed(bytes, bytes.length, key.clone(), out);
    return adopt(out);
  }

  /**
   * Maps a filter saved by {@link #save(Path)} (or by any other binding), verifying its
   * checksums. {@link Mode#READ_ONLY} is the query role: it only ever reads the presence part
   * of the file, and every put and remove throws READ_ONLY. {@link Mode#WRITE_IN_PLACE} maps it
   * shared: changes reach the file on {@link #sync()} and {@link #close()}.
   */
  public static CountingFilter open(Path path, Mode mode) {
    long[] out = new long[1];
    NativeCounting.open(Utf8.nulTerminated(path), mode.flags, out);
    return adopt(out);
  }

  /**
   * Reads a filter written by {@link #writeTo(OutputStream)} (or any binding's serialized
   * form), after full validation. Reads {@code in} to its end. Throws {@link SeenException}
   * with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, WRONG_KIND (a plain Bloom filter, say), ...
   */
  public static CountingFilter readFrom(InputStream in) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeCounting.deserialize(bytes, bytes.length, out);
    return adopt(out);
  }

  /** Adds an id (once more, if it was put before). */
  public void put(long id) {
    handle.run(this, h -> NativeCounting.putLong(h, id));
  }

  public void put(byte[] key) {
    put(key, 0, key.length);
  }

  /** Adds the key {@code key[off .. off+len)}. */
  public void put(byte[] key, int off, int len) {
    handle.check(oneKey(NativeCounting.ADD, key, off, len));
  }

  /** Adds the UTF-8 bytes of {@code key}. */
  public void put(CharSequence key) {
    put(Utf8.of(key));
  }

  /**
   * Removes one put of an id. Throws {@link SeenException} with {@link Status#NOT_FOUND}, and
   * changes nothing, if the id was certainly never put (or already removed as often as put).
   * See the remove rule above: remove only ids that were put.
   */
  public void remove(long id) {
    handle.run(this, h -> NativeCounting.removeLong(h, id));
  }

  public void remove(byte[] key) {
    remove(key, 0, key.length);
  }

  /** As {@link #remove(long)}, for the key {@code key[off .. off+len)}. */
  public void remove(byte[] key, int off, int len) {
    handle.check(oneKey(NativeCounting.REMOVE, key, off, len));
  }

  /** As {@link #remove(long)}, for the UTF-8 bytes of {@code key}. */
  public void remove(CharSequence key) {
    remove(Utf8.of(key));
  }

  /** False means the id is certainly not in the filter; true means it probably is. */
  public boolean mightContain(long id) {
    try {
      return NativeCounting.testLong(handle.get(), id) == 1;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public boolean mightContain(byte[] key) {
    return mightContain(key, 0, key.length);
  }

  public boolean mightContain(byte[] key, int off, int len) {
    return oneKey(NativeCounting.CONTAINS, key, off, len) == 1;
  }

  public boolean mightContain(CharSequence key) {
    return mightContain(Utf8.of(key));
  }

  private int oneKey(int op, byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    try {
      return NativeCounting.oneKey(handle.get(), op, key, off, len);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private int longs(int op, long[] ids, int off, int len, boolean[] out) {
    Objects.checkFromIndexSize(off, len, ids.length);
    if (out != null) {
      Batches.checkOut(len, out);
    }
    try {
      return NativeCounting.longs(handle.get(), op, ids, off, len, out, 0);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private int keys(int op, byte[] data, int[] offsets, int first, int count, boolean[] out) {
    Batches.checkOffsets(data.length, offsets, first, count);
    if (out != null) {
      Batches.checkOut(count, out);
    }
    try {
      return NativeCounting.keys(handle.get(), op, data, offsets, first, count, out, 0);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public void putAll(long[] ids) {
    putAll(ids, 0, ids.length);
  }

  /** Adds {@code ids[off .. off+len)} in order, in one native call (a repeated id counts each time). */
  public void putAll(long[] ids, int off, int len) {
    handle.check(longs(NativeCounting.ADD, ids, off, len, null));
  }

  public void removeAll(long[] ids) {
    removeAll(ids, 0, ids.length);
  }

  /**
   * Removes {@code ids[off .. off+len)} in order, in one native call. Every id is processed;
   * if any was certainly absent (nothing changed for it) this throws {@link SeenException}
   * with {@link Status#NOT_FOUND} afterwards. To learn which, use
   * {@link #removeAll(long[], int, int, boolean[])}.
   */
  public void removeAll(long[] ids, int off, int len) {
    handle.check(longs(NativeCounting.REMOVE, ids, off, len, null));
  }

  /**
   * As {@link #removeAll(long[], int, int)}, but reports instead of throwing: {@code removed[i]}
   * is true if {@code ids[off + i]} was removed, false if it was certainly absent and nothing
   * changed for it. Returns the number removed. Other failures (READ_ONLY) still throw.
   */
  public int removeAll(long[] ids, int off, int len, boolean[] removed) {
    Objects.requireNonNull(removed, "removed");
    return removedCount(longs(NativeCounting.REMOVE, ids, off, len, removed), removed, len);
  }

  public void mightContainAll(long[] ids, boolean[] out) {
    mightContainAll(ids, 0, ids.length, out);
  }

  /** Sets {@code out[i] = mightContain(ids[off + i])} for i in 0 .. len, in one native call. */
  public void mightContainAll(long[] ids, int off, int len, boolean[] out) {
    Objects.requireNonNull(out, "out");
    handle.check(longs(NativeCounting.CONTAINS, ids, off, len, out));
  }

  /** Adds every key; they are packed into one buffer first, so prefer the offsets form when hot. */
  public void putAll(byte[][] keys) {
    PackedKeys packed = PackedKeys.of(keys);
    putAll(packed.data, packed.offsets, 0, keys.length);
  }

  /** Removes every key, as {@link #removeAll(long[], int, int)}: NOT_FOUND after the batch if any was absent. */
  public void removeAll(byte[][] keys) {
    PackedKeys packed = PackedKeys.of(keys);
    removeAll(packed.data, packed.offsets, 0, keys.length);
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
    handle.check(keys(NativeCounting.ADD, data, offsets, first, count, null));
  }

  /** As {@link #removeAll(long[], int, int)}, for packed keys. */
  public void removeAll(byte[] data, int[] offsets, int first, int count) {
    handle.check(keys(NativeCounting.REMOVE, data, offsets, first, count, null));
  }

  /** As {@link #removeAll(long[], int, int, boolean[])}, for packed keys; {@code removed[i]} is key {@code first + i}'s. */
  public int removeAll(byte[] data, int[] offsets, int first, int count, boolean[] removed) {
    Objects.requireNonNull(removed, "removed");
    return removedCount(
        keys(NativeCounting.REMOVE, data, offsets, first, count, removed), removed, count);
  }

  /** As {@link #putAll(byte[], int[], int, int)}; {@code out[i]} answers key {@code first + i}. */
  public void mightContainAll(byte[] data, int[] offsets, int first, int count, boolean[] out) {
    Objects.requireNonNull(out, "out");
    handle.check(keys(NativeCounting.CONTAINS, data, offsets, first, count, out));
  }

  private int longsDirect(int op, ByteBuffer ids, ByteBuffer out) {
    long n = Batches.longsIn(ids, "ids");
    if (out != null) {
      Batches.checkOut(n, out);
    }
    try {
      return NativeCounting.longsDirect(
          handle.get(), op, ids, ids.position(), n, out, out == null ? 0 : out.position());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private int keysDirect(int op, ByteBuffer data, ByteBuffer offsets, ByteBuffer out) {
    long n = Batches.checkOffsets(data, offsets);
    if (out != null) {
      Batches.checkOut(n, out);
    }
    try {
      return NativeCounting.keysDirect(handle.get(), op, data, data.position(), offsets,
          offsets.position(), n, out, out == null ? 0 : out.position());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Adds the 64-bit ids between the position and limit of a direct buffer, read in native byte
   * order (fill it through {@code order(ByteOrder.nativeOrder())}); the position must be 8-byte
   * aligned. Positions are left unchanged.
   */
  public void putAll(ByteBuffer ids) {
    handle.check(longsDirect(NativeCounting.ADD, ids, null));
  }

  /** As {@link #putAll(ByteBuffer)}, removing: NOT_FOUND after the batch if any id was absent. */
  public void removeAll(ByteBuffer ids) {
    handle.check(longsDirect(NativeCounting.REMOVE, ids, null));
  }

  /**
   * As {@link #removeAll(ByteBuffer)}, but reports instead of throwing NOT_FOUND: one byte per
   * id from removed's position, 1 if removed, 0 if certainly absent. Returns the number removed.
   */
  public long removeAll(ByteBuffer ids, ByteBuffer removed) {
    Objects.requireNonNull(removed, "removed");
    int status = longsDirect(NativeCounting.REMOVE, ids, removed);
    return removedCount(status, removed, ids.remaining() / Long.BYTES);
  }

  /** As {@link #putAll(ByteBuffer)}; writes one byte per id (1 = might contain, 0 = not) from out's position. */
  public void mightContainAll(ByteBuffer ids, ByteBuffer out) {
    Objects.requireNonNull(out, "out");
    handle.check(longsDirect(NativeCounting.CONTAINS, ids, out));
  }

  /**
   * Adds byte keys from direct buffers: offsets holds n+1 native-order 64-bit values between its
   * position and limit, and key i is the bytes {@code offsets[i] .. offsets[i+1]} counted from
   * data's position. Positions are left unchanged.
   */
  public void putAll(ByteBuffer data, ByteBuffer offsets) {
    handle.check(keysDirect(NativeCounting.ADD, data, offsets, null));
  }

  /**
   * Removes the byte keys of direct buffers laid out as in {@link #putAll(ByteBuffer, ByteBuffer)},
   * reporting instead of throwing NOT_FOUND: one byte per key from removed's position, 1 if
   * removed, 0 if certainly absent. Returns the number removed. (There is no two-buffer form:
   * {@link #removeAll(ByteBuffer, ByteBuffer)} takes ids.)
   */
  public long removeAll(ByteBuffer data, ByteBuffer offsets, ByteBuffer removed) {
    Objects.requireNonNull(removed, "removed");
    long n = Batches.checkOffsets(data, offsets);
    return removedCount(keysDirect(NativeCounting.REMOVE, data, offsets, removed), removed, n);
  }

  /** As {@link #putAll(ByteBuffer, ByteBuffer)}; writes one byte per key from out's position. */
  public void mightContainAll(ByteBuffer data, ByteBuffer offsets, ByteBuffer out) {
    Objects.requireNonNull(out, "out");
    handle.check(keysDirect(NativeCounting.CONTAINS, data, offsets, out));
  }

  private long removedCount(int status, ByteBuffer removed, long n) {
    if (status != Status.NOT_FOUND.code()) {
      handle.check(status);
    }
    long count = 0;
    for (int i = 0; i < n; i++) {
      count += removed.get(removed.position() + i);
    }
    return count;
  }

  private int removedCount(int status, boolean[] removed, int n) {
    if (status != Status.NOT_FOUND.code()) {
      handle.check(status);
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (removed[i]) {
        count++;
      }
    }
    return count;
  }

  /** Resets every counter to zero. Needs exclusive access. */
  public void clear() {
    handle.run(this, h -> NativeCounting.clear(h));
  }

  /**
   * The number of keys in the filter (puts minus removes): the sum of the counters over k,
   * exact while no counter saturated. Reads every counter.
   */
  public long approximateElementCount() {
    return Math.round(stats()[0]);
  }

  /** Counters stuck at 15, which never decrement again; reads every counter. */
  public long saturatedCounters() {
    return (long) stats()[1];
  }

  /** The false-positive rate of the filter as it is now; reads every counter. */
  public double expectedFpp() {
    return stats()[3];
  }

  /** The false-positive rate asked for at creation. */
  public double targetFpp() {
    return Double.longBitsToDouble(params()[6]);
  }

  public long expectedInsertions() {
    return params()[5];
  }

  /** The payload size in bytes: 320 per 64-byte block (64 of presence, 256 of counters). */
  public long sizeInBytes() {
    return params()[0];
  }

  /** The counters each key uses. */
  public int hashCount() {
    return (int) params()[2];
  }

  /** The bits of each counter (4). */
  public int counterBits() {
    return (int) params()[7];
  }

  public long seed() {
    return params()[4];
  }

  /** True for a filter opened with {@link Mode#READ_ONLY}. */
  public boolean isReadOnly() {
    return params()[3] != 0;
  }

  private long[] params() {
    long[] out = new long[8];
    handle.run(this, h -> NativeCounting.params(h, out));
    return out;
  }

  private double[] stats() {
    double[] out = new double[4];
    handle.run(this, h -> NativeCounting.stats(h, out));
    return out;
  }

  /** The serialized form (kind 2 of docs/FORMAT.md), the same bytes every binding writes. */
  public byte[] toByteArray() {
    try {
      return Serialized.toByteArray(
          handle, NativeCounting::serializedSize, NativeCounting::serialize,
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
    handle.run(this, h -> NativeCounting.save(h, Utf8.nulTerminated(path)));
  }

  /** For a {@link Mode#WRITE_IN_PLACE} mapping: updates the checksums and flushes to the file. */
  public void sync() {
    handle.run(this, h -> NativeCounting.sync(h));
  }

  /** Releases the native memory (a read-write mapping is synced first). Idempotent. */
  @Override
  public void close() {
    handle.close();
  }
}
