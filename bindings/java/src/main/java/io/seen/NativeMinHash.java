package io.seen;

/**
 * The native methods of minhash_jni.c, one per seen.h call that is a MinHash index's alone (the
 * rest are {@link NativeKinds}'). Handles are {@code seen_minhash_index*} pointers; callers
 * guarantee they are live. Methods return a seen_status unless their comment says otherwise.
 */
final class NativeMinHash {
  static {
    NativeLoader.load();
  }

  private NativeMinHash() {}

  /** The handle goes to out[0]; key may be null (no key). */
  static native int create(double threshold, byte[] key, long[] out);

  static native int add(long h, long id, byte[] utf8);

  /** 1 if id was stored, 0 if not, below 0 the negated status. */
  static native int remove(long h, long id);

  /** How many matches there are (up to ids.length written), or below 0 the negated status. */
  static native long query(long h, byte[] utf8, long[] ids, double[] similarities);

  /** Texts stored, or below 0 the negated status. */
  static native long size(long h);
}
