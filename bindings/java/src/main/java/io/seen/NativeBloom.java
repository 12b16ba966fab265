package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of bloom_jni.c, one per seen.h call. Handles are {@code seen_bloom*}
 * pointers; callers guarantee they are live and that indices are in bounds. Methods return a
 * seen_status unless their comment says otherwise.
 */
final class NativeBloom {
  static {
    NativeLoader.load();
  }

  private NativeBloom() {}

  /** The message of the last failed call on handle h. */
  static native String lastError(long h);

  static native int versionNumber();

  /** The handle goes to out[0]. */
  static native int create(long expectedItems, double fpp, long seed, long[] out);

  /** Keyed mode: the filter's keys hash under {@code key} (16 to 64 bytes). */
  static native int createKeyed(long expectedItems, double fpp, byte[] key, long[] out);

  static native int openKeyed(byte[] path, int flags, byte[] key, long[] out);

  static native int deserializeKeyed(byte[] buf, int len, byte[] key, long[] out);

  static native void free(long h);

  /** 1 if every bit was already set, 0 if not, below 0 the negated status. */
  static native int putLong(long h, long id);

  /** 1 if the id may have been added, else 0. */
  static native int testLong(long h, long id);

  /** As {@link #putLong}. */
  static native int putBytes(long h, byte[] key, int off, int len);

  /** As {@link #testLong}. */
  static native int testBytes(long h, byte[] key, int off, int len);

  static native int addLongs(long h, long[] ids, int off, int len);

  static native int testLongs(long h, long[] ids, int off, int len, boolean[] out, int outOff);

  /** Key i is data[offsets[i] .. offsets[i + 1]) for i in first .. first + count. */
  static native int addKeys(long h, byte[] data, int[] offsets, int first, int count);

  static native int testKeys(
      long h, byte[] data, int[] offsets, int first, int count, boolean[] out, int outOff);

  /** Positions are in bytes from the start of each direct buffer. */
  static native int addLongsDirect(long h, ByteBuffer ids, long pos, long n);

  static native int testLongsDirect(
      long h, ByteBuffer ids, long pos, long n, ByteBuffer out, long outPos);

  static native int addKeysDirect(
      long h, ByteBuffer data, long dataPos, ByteBuffer offsets, long offsetsPos, long n);

  static native int testKeysDirect(
      long h, ByteBuffer data, long dataPos, ByteBuffer offsets, long offsetsPos, long n,
      ByteBuffer out, long outPos);

  static native int merge(long dst, long src);

  static native int clear(long h);

  /** out: bytes, blocks, k, read_only, seed, expected_items, raw bits of target_fpr. */
  static native int params(long h, long[] out);

  /** out: fill_ratio, approx_items, predicted_fpr. */
  static native int stats(long h, double[] out);

  /** The serialized size in bytes, or the negated status. */
  static native long serializedSize(long h);

  static native int serialize(long h, byte[] out);

  /** The handle goes to out[0]. */
  static native int deserialize(byte[] buf, int len, long[] out);

  /** path is NUL-terminated UTF-8; the handle goes to out[0]. */
  static native int open(byte[] path, int flags, long[] out);

  static native int save(long h, byte[] path);

  static native int sync(long h);
}
