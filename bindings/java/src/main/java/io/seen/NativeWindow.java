package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of window_jni.c, the calls only a window has (the rest are
 * {@link NativeKinds}'). Handles are {@code seen_window*}
 * pointers; callers guarantee they are live and that indices are in bounds. Methods return a
 * seen_status unless their comment says otherwise. {@code now} is in seconds.
 */
final class NativeWindow {
  static {
    NativeLoader.load();
  }

  private NativeWindow() {}

  /** Keyed under {@code key} if it is not null; the handle goes to out[0]. */
  static native int create(int mode, int span, int expectedItems, double fpr, double maxSlack,
      long seed, long maxBytes, byte[] key, long now, long[] out);

  /** out: the layout of {@link WindowInfo#of(long[])}. */
  static native int info(long h, long[] out);

  static native int putLong(long h, long id, long now);

  /** 1 if the id may be in the window, 0 if not, below 0 the negated status. */
  static native int testLong(long h, long id, long now);

  static native int putBytes(long h, byte[] key, int off, int len, long now);

  /** As {@link #testLong}. */
  static native int testBytes(long h, byte[] key, int off, int len, long now);

  static native int addLongs(long h, long[] ids, int off, int len, long now);

  static native int testLongs(
      long h, long[] ids, int off, int len, long now, boolean[] out, int outOff);

  /** Key i is data[offsets[i] .. offsets[i + 1]) for i in first .. first + count. */
  static native int addKeys(long h, byte[] data, int[] offsets, int first, int count, long now);

  static native int testKeys(long h, byte[] data, int[] offsets, int first, int count, long now,
      boolean[] out, int outOff);

  /** Positions are in bytes from the start of each direct buffer. */
  static native int addLongsDirect(long h, ByteBuffer ids, long pos, long n, long now);

  static native int testLongsDirect(long h, ByteBuffer ids, long pos, long n, long now,
      ByteBuffer out, long outPos);
}
