package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of counting_jni.c, one per seen.h call or batch operation. Handles are
 * {@code seen_counting*} pointers; callers guarantee they are live and that indices are in
 * bounds. Methods return a seen_status unless their comment says otherwise.
 */
final class NativeCounting {
  static {
    NativeLoader.load();
  }

  /** The batch and single-key operations of {@link #oneKey}, {@link #longs} and {@link #keys}. */
  static final int ADD = 0;
  static final int REMOVE = 1;
  static final int CONTAINS = 2;

  private NativeCounting() {}

  /** The message of the last failed call on handle h. */
  static native String lastError(long h);

  /** The handle goes to out[0]. */
  static native int create(long expectedItems, double fpp, long seed, long[] out);

  /** Keyed mode: the filter's keys hash under {@code key} (16 to 64 bytes). */
  static native int createKeyed(long expectedItems, double fpp, byte[] key, long[] out);

  static native int openKeyed(byte[] path, int flags, byte[] key, long[] out);

  static native int deserializeKeyed(byte[] buf, int len, byte[] key, long[] out);

  static native void free(long h);

  static native int putLong(long h, long id);

  /** NOT_FOUND (nothing changed) if the id was certainly absent. */
  static native int removeLong(long h, long id);

  /** 1 if the id may be present, else 0. */
  static native int testLong(long h, long id);

  /** key[off .. off+len) through op: a status for ADD and REMOVE, 1 or 0 for CONTAINS. */
  static native int oneKey(long h, int op, byte[] key, int off, int len);

  /**
   * ids[off .. off+len) through op. out: the answers of CONTAINS, the removed flags of REMOVE
   * (may be null), null for ADD. A REMOVE processes every id and returns NOT_FOUND if any was
   * certainly absent.
   */
  static native int longs(long h, int op, long[] ids, int off, int len, boolean[] out, int outOff);

  /** As {@link #longs}, for key i = data[offsets[i] .. offsets[i + 1]), i in first .. first + count. */
  static native int keys(long h, int op, byte[] data, int[] offsets, int first, int count,
      boolean[] out, int outOff);

  /** As {@link #longs}, over direct buffers; positions are in bytes from each buffer's start. */
  static native int longsDirect(long h, int op, ByteBuffer ids, long pos, long n, ByteBuffer out,
      long outPos);

  /** As {@link #keys}, over direct buffers of bytes and n+1 native-order 64-bit offsets. */
  static native int keysDirect(long h, int op, ByteBuffer data, long dataPos, ByteBuffer offsets,
      long offsetsPos, long n, ByteBuffer out, long outPos);

  static native int clear(long h);

  /** out: bytes, blocks, k, read_only, seed, expected_items, raw bits of target_fpr, counter_bits. */
  static native int params(long h, long[] out);

  /** out: approx_items, saturated, fill_ratio, predicted_fpr. */
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
