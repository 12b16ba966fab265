package io.seen;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * What the filters share (Bloom, counting, scalable): queries, batch puts and queries in every
 * layout, saving, and predicate views. Keys: a {@code long} hashes as its 8 little-endian bytes,
 * a {@code CharSequence} as its UTF-8 bytes, so {@code put(7L)} and a Go or Python filter's add
 * of 7 set the same bits.
 *
 * <p>Batches: each native call costs tens of nanoseconds, so hot paths should use the
 * {@code putAll} and {@code mightContainAll} forms of arrays, offsets and direct
 * {@link ByteBuffer}s, which hash, prefetch and probe a whole chunk per call, in order (a key
 * repeated in a batch counts each time).
 */
abstract class Filter<T extends Filter<T>> extends NativeObject<T> {
  private static final long serialVersionUID = 1L;

  Filter(Kind kind, long handle, byte[] key, Maker<T> maker) {
    super(kind, handle, key, maker);
  }

  /** Checks the expectedInsertions of a blocked filter (Bloom, counting). */
  static long expected(long expectedInsertions) {
    if (expectedInsertions < 0) {
      throw new IllegalArgumentException("expectedInsertions is negative: " + expectedInsertions);
    }
    return expectedInsertions;
  }

  /** False means the id is certainly not in the filter; true means it probably is. */
  public boolean mightContain(long id) {
    return handle.answer(this, h -> NativeKinds.testLong(kind.code, h, id)) == 1;
  }

  public boolean mightContain(byte[] key) {
    return mightContain(key, 0, key.length);
  }

  /** As {@link #mightContain(long)}, for the key {@code key[off .. off+len)}. */
  public boolean mightContain(byte[] key, int off, int len) {
    return slice(NativeKinds::testBytes, key, off, len) == 1;
  }

  /** A native call on one key, {@code key[off .. off+len)}. */
  interface SliceCall {
    int call(int kind, long handle, byte[] key, int off, int len);
  }

  /** The answer of a native call on the key {@code key[off .. off+len)}, after a bounds check. */
  final int slice(SliceCall call, byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    return handle.answer(this, h -> call.call(kind.code, h, key, off, len));
  }

  /** As {@link #mightContain(long)}, for the UTF-8 bytes of {@code key}. */
  public boolean mightContain(CharSequence key) {
    return mightContain(Utf8.of(key));
  }

  /** {@link #mightContain(CharSequence)} as a {@link Predicate}, e.g. for stream filters. */
  public Predicate<CharSequence> asPredicate() {
    return this::mightContain;
  }

  /** {@link #mightContain(long)} as a {@link LongPredicate}, e.g. for {@code LongStream}s. */
  public LongPredicate asLongPredicate() {
    return this::mightContain;
  }

  public void putAll(long[] ids) {
    putAll(ids, 0, ids.length);
  }

  /** Adds {@code ids[off .. off+len)} in one native call. */
  public void putAll(long[] ids, int off, int len) {
    Objects.checkFromIndexSize(off, len, ids.length);
    handle.run(this, h -> NativeKinds.longs(kind.code, h, ids, off, len, null, 0));
  }

  public void mightContainAll(long[] ids, boolean[] out) {
    mightContainAll(ids, 0, ids.length, out);
  }

  /** Sets {@code out[i] = mightContain(ids[off + i])} for i in 0 .. len, in one native call. */
  public void mightContainAll(long[] ids, int off, int len, boolean[] out) {
    Objects.checkFromIndexSize(off, len, ids.length);
    Batches.checkOut(len, out);
    handle.run(this, h -> NativeKinds.longs(kind.code, h, ids, off, len, out, 0));
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
    handle.run(this, h -> NativeKinds.keys(kind.code, h, data, offsets, first, count, null, 0));
  }

  /** As {@link #putAll(byte[], int[], int, int)}; {@code out[i]} answers key {@code first + i}. */
  public void mightContainAll(byte[] data, int[] offsets, int first, int count, boolean[] out) {
    Batches.checkOffsets(data.length, offsets, first, count);
    Batches.checkOut(count, out);
    handle.run(this, h -> NativeKinds.keys(kind.code, h, data, offsets, first, count, out, 0));
  }

  /**
   * Adds the 64-bit ids between the position and limit of a direct buffer, read in native byte
   * order (fill it through {@code order(ByteOrder.nativeOrder())}); the position must be 8-byte
   * aligned. Positions are left unchanged.
   */
  public void putAll(ByteBuffer ids) {
    long n = Batches.longsIn(ids, "ids");
    handle.run(this, h -> NativeKinds.longsDirect(kind.code, h, ids, ids.position(), n, null, 0));
  }

  /** As {@link #putAll(ByteBuffer)}; writes one byte per id (1 = might contain, 0 = not) from out's position. */
  public void mightContainAll(ByteBuffer ids, ByteBuffer out) {
    long n = Batches.longsIn(ids, "ids");
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeKinds.longsDirect(kind.code, h, ids, ids.position(), n, out,
        out.position()));
  }

  /**
   * Adds byte keys from direct buffers: offsets holds n+1 native-order 64-bit values between its
   * position and limit, and key i is the bytes {@code offsets[i] .. offsets[i+1]} counted from
   * data's position. Positions are left unchanged.
   */
  public void putAll(ByteBuffer data, ByteBuffer offsets) {
    long n = Batches.checkOffsets(data, offsets);
    handle.run(this, h -> NativeKinds.keysDirect(kind.code, h, data, data.position(), offsets,
        offsets.position(), n, null, 0));
  }

  /** As {@link #putAll(ByteBuffer, ByteBuffer)}; writes one byte per key from out's position. */
  public void mightContainAll(ByteBuffer data, ByteBuffer offsets, ByteBuffer out) {
    long n = Batches.checkOffsets(data, offsets);
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeKinds.keysDirect(kind.code, h, data, data.position(), offsets,
        offsets.position(), n, out, out.position()));
  }

  /**
   * Saves crash-safely: a temporary file, fsync, then a rename over {@code path}. A keyed
   * filter's file holds only a check value of its key.
   */
  public void save(Path path) {
    handle.run(this, h -> NativeKinds.save(kind.code, h, Utf8.nulTerminated(path)));
  }
}
