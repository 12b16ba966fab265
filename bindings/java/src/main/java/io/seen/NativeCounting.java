package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of counting_jni.c, the calls only a counting filter has (the rest are
 * {@link NativeKinds}'). Handles are {@code seen_counting*} pointers; callers guarantee they are
 * live and that indices are in bounds. Methods return a seen_status unless their comment says
 * otherwise. A remove batch processes every key and returns NOT_FOUND if any was certainly
 * absent; its removed flags may be null.
 */
final class NativeCounting {
  static {
    NativeLoader.load();
  }

  private NativeCounting() {}

  /** Keyed under {@code key} (16 to 64 bytes) if it is not null; the handle goes to out[0]. */
  static native int create(long expectedItems, double fpp, long seed, byte[] key, long[] out);

  static native int putLong(long h, long id);

  /** NOT_FOUND (nothing changed) if the id was certainly absent. */
  static native int removeLong(long h, long id);

  /** Adds or removes key[off .. off+len). */
  static native int oneKey(long h, boolean remove, byte[] key, int off, int len);

  static native int removeLongs(long h, long[] ids, int off, int len, boolean[] removed,
      int outOff);

  /** Key i = data[offsets[i] .. offsets[i + 1]), i in first .. first + count. */
  static native int removeKeys(long h, byte[] data, int[] offsets, int first, int count,
      boolean[] removed, int outOff);

  /** Positions are in bytes from each direct buffer's start. */
  static native int removeLongsDirect(long h, ByteBuffer ids, long pos, long n,
      ByteBuffer removed, long removedPos);

  /** Offsets are n+1 native-order 64-bit values. */
  static native int removeKeysDirect(long h, ByteBuffer data, long dataPos, ByteBuffer offsets,
      long offsetsPos, long n, ByteBuffer removed, long removedPos);

  static native int clear(long h);

  /** out: 8 values in FilterInfo's order (jni_common.h, JNI_BLOCKED_FIGURES). */
  static native int params(long h, long[] out);

  /** out: 4 values in FilterStats' order (jni_common.h, JNI_BLOCKED_FIGURES). */
  static native int stats(long h, double[] out);

  static native int sync(long h);
}
