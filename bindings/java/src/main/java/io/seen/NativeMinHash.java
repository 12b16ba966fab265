package io.seen;

/**
 * The native methods of minhash_jni.c, one per seen.h call. Handles are {@code
 * seen_minhash_index*} pointers; callers guarantee they are live. Methods return a seen_status
 * unless their comment says otherwise.
 */
final class NativeMinHash {
  static {
    NativeLoader.load();
  }

  private NativeMinHash() {}

  /** The message of the last failed call on handle h. */
  static native String lastError(long h);

  /** The handle goes to out[0]; key may be null (no key). */
  static native int create(double threshold, byte[] key, long[] out);

  static native void free(long h);

  static native int add(long h, long id, byte[] utf8);

  /** 1 if id was stored, 0 if not, below 0 the negated status. */
  static native int remove(long h, long id);

  /** How many matches there are (up to ids.length written), or below 0 the negated status. */
  static native long query(long h, byte[] utf8, long[] ids, double[] similarities);

  /** Texts stored, or below 0 the negated status. */
  static native long size(long h);

  /** Bytes the serialized index takes, or below 0 the negated status. */
  static native long serializedSize(long h);

  static native int serialize(long h, byte[] out);

  /** The handle goes to out[0]; key may be null (no key). */
  static native int deserialize(byte[] buf, byte[] key, long[] out);

  /** path is NUL-terminated UTF-8. */
  static native int save(long h, byte[] path);

  /** path is NUL-terminated UTF-8; the handle goes to out[0]; key may be null (no key). */
  static native int open(byte[] path, byte[] key, long[] out);
}
