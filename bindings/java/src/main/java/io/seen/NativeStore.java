package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of store_jni.c, the calls only a store has (the rest are
 * {@link NativeKinds}'). Handles are {@code seen_store*}
 * pointers; callers guarantee they are live and that indices are in bounds. Methods return a
 * seen_status unless their comment says otherwise. {@code now} is in seconds.
 */
final class NativeStore {
  static {
    NativeLoader.load();
  }

  private NativeStore() {}

  /** The window is given as in {@link NativeWindow#create}; the handle goes to out[0]. */
  static native int create(int mode, int span, int expectedItems, double fpr, double maxSlack,
      long seed, long windowMaxBytes, byte[] key, long idleTimeout, long maxBytes,
      long expectedUsers, long[] out);

  /** out[outOff + i] is true if candidates[off + i] is unseen. */
  static native int filter(long h, long user, long[] candidates, int off, int len, long now,
      boolean[] out, int outOff);

  static native int mark(long h, long user, long[] items, int off, int len, long now);

  /** Up to want ids go to taken[takenOff ..]; returns how many, or the negated status. */
  static native long take(long h, long user, long[] candidates, int off, int len, int want,
      long now, long[] taken, int takenOff);

  /** Positions are in bytes from the start of each direct buffer. */
  static native int filterDirect(long h, long user, ByteBuffer candidates, long pos, long n,
      long now, ByteBuffer out, long outPos);

  static native int markDirect(long h, long user, ByteBuffer items, long pos, long n, long now);

  /** As {@link #take}, with taken holding room for want native-order ids from takenPos. */
  static native long takeDirect(long h, long user, ByteBuffer candidates, long pos, long n,
      long want, long now, ByteBuffer taken, long takenPos);

  /** The users dropped, or the negated status. */
  static native long expire(long h, long now);

  /** out: users, bytes, evictions, expirations. */
  static native int stats(long h, long[] out);

  /** out: the layout of {@link WindowInfo#of(long[])}. */
  static native int windowInfo(long h, long[] out);
}
