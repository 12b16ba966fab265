package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of scalable_jni.c, one per seen.h call. Handles are
 * {@code seen_scalable*} pointers; callers guarantee they are live and that indices are in
 * bounds. Methods return a seen_status unless their comment says otherwise.
 */
final class NativeScalable {
  static {
    NativeLoader.load();
  }

  private NativeScalable() {}

  /** The message of the last failed call on handle h. */
  static native String lastError(long h);

  /** The handle goes to out[0]. */
  static native int create(long initialCapacity, double fpp, double growth, double tightening,
      long seed, long[] out);

  /** Keyed mode: the filter's keys hash under {@code key} (16 to 64 bytes). */
  static native int createKeyed(long initialCapacity, double fpp, double growth,
      double tightening, byte[] key, long[] out);

  static native int openKeyed(byte[] path, int flags, byte[] key, long[] out);

  static native int deserializeKeyed(byte[] buf, int len, byte[] key, long[] out);

  static native void free(long h);

  /** 1 if the id already looked present (nothing changed), 0 if not, below 0 the negated status. */
  static native int putLong(long h, long id);

  /** 1 if the id may have been added, else 0. */
  static native int testLong(long h, long id);

  /** As {@link #putLong}. */
  static native int putBytes(long h, byte[] key, int off, int len);

  /** As {@link #testLong}. */
  static native int testBytes(long h, byte[] key, int off, int len);

  /** Adds ids[off .. off+len) when out is null, else queries them into out from outOff. */
  static native int longs(long h, long[] ids, int off, int len, boolean[] out, int outOff);

  /** As {@link #longs}, for key i = data[offsets[i] .. offsets[i + 1]), i in first .. first + count. */
  static native int keys(long h, byte[] data, int[] offsets, int first, int count, boolean[] out,
      int outOff);

  /** As {@link #longs}, over direct buffers; positions are in bytes from each buffer's start. */
  static native int longsDirect(long h, ByteBuffer ids, long pos, long n, ByteBuffer out,
      long outPos);

  /** As {@link #keys}, over direct buffers of bytes and n+1 native-order 64-bit offsets. */
  static native int keysDirect(long h, ByteBuffer data, long dataPos, ByteBuffer offsets,
      long offsetsPos, long n, ByteBuffer out, long outPos);

  /**
   * out: items, subfilters, read_only, bytes, raw bits of predicted_fpr, initial_capacity, raw
   * bits of fpr, growth and tightening, seed.
   */
  static native int info(long h, long[] out);

  /** The serialized size in bytes, or the negated status. */
  static native long serializedSize(long h);

  static native int serialize(long h, byte[] out);

  /** The handle goes to out[0]. */
  static native int deserialize(byte[] buf, int len, long[] out);

  /** path is NUL-terminated UTF-8; the handle goes to out[0]. */
  static native int open(byte[] path, int flags, long[] out);

  static native int save(long h, byte[] path);
}
