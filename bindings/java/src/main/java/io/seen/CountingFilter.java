package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongToIntFunction;

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
public final class CountingFilter extends Filter<CountingFilter> {
  private static final long serialVersionUID = 1L;

  /** Wraps the handle a native made (a native that failed has thrown already). */
  private CountingFilter(long handle, byte[] key) {
    super(Kind.COUNTING, handle, key, CountingFilter::new);
  }

  /** A new filter, keyed if {@code key} is not null (then with seed 0). */
  private static CountingFilter make(long expectedInsertions, double fpp, long seed, byte[] key) {
    long n = expected(expectedInsertions);
    return made(key, CountingFilter::new, out -> NativeCounting.create(n, fpp, seed, key, out));
  }

  /**
   * The rate {@link #create(long)} gives: the C library's SEEN_DEFAULT_FPR and {@code seen
   * build}'s default (Guava's {@code create(funnel, n)} takes 3%).
   */
  public static final double DEFAULT_FPP = 0.01;

  /** An empty filter for {@code expectedInsertions} keys at {@link #DEFAULT_FPP}, seed 0. */
  public static CountingFilter create(long expectedInsertions) {
    return create(expectedInsertions, DEFAULT_FPP);
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
    return make(expectedInsertions, fpp, seed, null);
  }

  /**
   * A keyed filter (docs/SECURITY.md): its keys hash with SipHash-1-3 under the secret {@code
   * key}, 16 to 64 bytes, so whoever chooses the keys cannot aim them at the filter without it.
   * No file holds the key: a keyed filter's file or bytes open only with it ({@link #open(Path,
   * Mode, byte[])}, {@link #readFrom(InputStream, byte[])}); a missing or wrong key throws
   * SeenException with INCOMPATIBLE.
   */
  public static CountingFilter createKeyed(long expectedInsertions, double fpp, byte[] key) {
    return make(expectedInsertions, fpp, 0, secret(key));
  }

  /** Maps a keyed filter's file, with its key. */
  public static CountingFilter open(Path path, Mode mode, byte[] key) {
    return open(Kind.COUNTING, path, mode.flags, secret(key), CountingFilter::new);
  }

  /** Reads a keyed filter's serialized form, with its key. */
  public static CountingFilter readFrom(InputStream in, byte[] key) throws IOException {
    return read(Kind.COUNTING, in, secret(key), CountingFilter::new);
  }

  /**
   * Maps a filter saved by {@link #save(Path)} (or by any other binding), verifying its
   * checksums. {@link Mode#READ_ONLY} is the query role: it only ever reads the presence part
   * of the file, and every put and remove throws READ_ONLY. {@link Mode#WRITE_IN_PLACE} maps it
   * shared: changes reach the file on {@link #sync()} and {@link #close()}.
   */
  public static CountingFilter open(Path path, Mode mode) {
    return open(Kind.COUNTING, path, mode.flags, null, CountingFilter::new);
  }

  /**
   * Reads a filter written by {@link #writeTo(OutputStream)} (or any binding's serialized
   * form), after full validation. Reads {@code in} to its end. Throws {@link SeenException}
   * with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, WRONG_KIND (a plain Bloom filter, say), ...
   */
  public static CountingFilter readFrom(InputStream in) throws IOException {
    return read(Kind.COUNTING, in, null, CountingFilter::new);
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
    oneKey(false, key, off, len);
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
    oneKey(true, key, off, len);
  }

  /** As {@link #remove(long)}, for the UTF-8 bytes of {@code key}. */
  public void remove(CharSequence key) {
    remove(Utf8.of(key));
  }

  private void oneKey(boolean remove, byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    handle.run(this, h -> NativeCounting.oneKey(h, remove, key, off, len));
  }

  /**
   * Runs a remove batch. Without {@code removed} flags a NOT_FOUND throws like any failure; with
   * them it is an answer (the flags say which keys were absent), and only other failures throw.
   */
  private void removeBatch(Object removed, LongToIntFunction call) {
    try {
      int status = call.applyAsInt(handle.get());
      if (removed == null || status != Status.NOT_FOUND.code()) {
        handle.check(status);
      }
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private void removeLongs(long[] ids, int off, int len, boolean[] removed) {
    Objects.checkFromIndexSize(off, len, ids.length);
    if (removed != null) {
      Batches.checkOut(len, removed);
    }
    removeBatch(removed, h -> NativeCounting.removeLongs(h, ids, off, len, removed, 0));
  }

  private void removeKeys(byte[] data, int[] offsets, int first, int count, boolean[] removed) {
    Batches.checkOffsets(data.length, offsets, first, count);
    if (removed != null) {
      Batches.checkOut(count, removed);
    }
    removeBatch(removed, h -> NativeCounting.removeKeys(h, data, offsets, first, count, removed, 0));
  }

  private static int trues(boolean[] flags, int n) {
    int count = 0;
    for (int i = 0; i < n; i++) {
      count += flags[i] ? 1 : 0;
    }
    return count;
  }

  private static long ones(ByteBuffer flags, long n) {
    long count = 0;
    for (int i = 0; i < n; i++) {
      count += flags.get(flags.position() + i);
    }
    return count;
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
    removeLongs(ids, off, len, null);
  }

  /**
   * As {@link #removeAll(long[], int, int)}, but reports instead of throwing: {@code removed[i]}
   * is true if {@code ids[off + i]} was removed, false if it was certainly absent and nothing
   * changed for it. Returns the number removed. Other failures (READ_ONLY) still throw.
   */
  public int removeAll(long[] ids, int off, int len, boolean[] removed) {
    removeLongs(ids, off, len, Objects.requireNonNull(removed, "removed"));
    return trues(removed, len);
  }

  /** Removes every key, as {@link #removeAll(long[], int, int)}: NOT_FOUND after the batch if any was absent. */
  public void removeAll(byte[][] keys) {
    PackedKeys packed = PackedKeys.of(keys);
    removeAll(packed.data, packed.offsets, 0, keys.length);
  }

  /** As {@link #removeAll(long[], int, int)}, for packed keys. */
  public void removeAll(byte[] data, int[] offsets, int first, int count) {
    removeKeys(data, offsets, first, count, null);
  }

  /** As {@link #removeAll(long[], int, int, boolean[])}, for packed keys; {@code removed[i]} is key {@code first + i}'s. */
  public int removeAll(byte[] data, int[] offsets, int first, int count, boolean[] removed) {
    removeKeys(data, offsets, first, count, Objects.requireNonNull(removed, "removed"));
    return trues(removed, count);
  }

  /** As {@link #putAll(ByteBuffer)}, removing: NOT_FOUND after the batch if any id was absent. */
  public void removeAll(ByteBuffer ids) {
    long n = Batches.longsIn(ids, "ids");
    removeBatch(null, h -> NativeCounting.removeLongsDirect(h, ids, ids.position(), n, null, 0));
  }

  /**
   * As {@link #removeAll(ByteBuffer)}, but reports instead of throwing NOT_FOUND: one byte per
   * id from removed's position, 1 if removed, 0 if certainly absent. Returns the number removed.
   */
  public long removeAll(ByteBuffer ids, ByteBuffer removed) {
    long n = Batches.longsIn(ids, "ids");
    Batches.checkOut(n, Objects.requireNonNull(removed, "removed"));
    removeBatch(removed, h -> NativeCounting.removeLongsDirect(h, ids, ids.position(), n,
        removed, removed.position()));
    return ones(removed, n);
  }

  /**
   * Removes the byte keys of direct buffers laid out as in {@link #putAll(ByteBuffer, ByteBuffer)},
   * reporting instead of throwing NOT_FOUND: one byte per key from removed's position, 1 if
   * removed, 0 if certainly absent. Returns the number removed. (There is no two-buffer form:
   * {@link #removeAll(ByteBuffer, ByteBuffer)} takes ids.)
   */
  public long removeAll(ByteBuffer data, ByteBuffer offsets, ByteBuffer removed) {
    long n = Batches.checkOffsets(data, offsets);
    Batches.checkOut(n, Objects.requireNonNull(removed, "removed"));
    removeBatch(removed, h -> NativeCounting.removeKeysDirect(h, data, data.position(), offsets,
        offsets.position(), n, removed, removed.position()));
    return ones(removed, n);
  }

  /** Resets every counter to zero. Needs exclusive access. */
  public void clear() {
    handle.run(this, NativeCounting::clear);
  }

  /**
   * The number of keys in the filter (puts minus removes): the sum of the counters over k,
   * exact while no counter saturated. Reads every counter.
   */
  public long approximateElementCount() {
    return Math.round(stats().approxItems);
  }

  /** Counters stuck at 15, which never decrement again; reads every counter. */
  public long saturatedCounters() {
    return stats().saturatedCounters;
  }

  /** The false-positive rate of the filter as it is now; reads every counter. */
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

  /** The payload size in bytes: 320 per 64-byte block (64 of presence, 256 of counters). */
  public long sizeInBytes() {
    return info().bytes;
  }

  /** The counters each key uses. */
  public int hashCount() {
    return info().k;
  }

  /** The bits of each counter (4). */
  public int counterBits() {
    return info().counterBits;
  }

  public long seed() {
    return info().seed;
  }

  /** True for a filter opened with {@link Mode#READ_ONLY}. */
  public boolean isReadOnly() {
    return info().readOnly;
  }

  private FilterInfo info() {
    return FilterInfo.read(handle, this, true);
  }

  private FilterStats stats() {
    return FilterStats.read(handle, this, true);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sizeInBytes(), hashCount(), seed());
  }

  /** For a {@link Mode#WRITE_IN_PLACE} mapping: updates the checksums and flushes to the file. */
  public void sync() {
    handle.run(this, NativeCounting::sync);
  }
}
