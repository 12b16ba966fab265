package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of kinds_jni.c: the calls that the kinds of {@link Kind} share, each taking
 * the kind's code first. Handles are that kind's seen.h pointer; callers guarantee they are live,
 * that the kind has the call and that indices are in bounds. Methods return a seen_status unless
 * their comment says otherwise. A key of null means an unkeyed form or file.
 */
final class NativeKinds {
  static {
    NativeLoader.load();
  }

  private NativeKinds() {}

  static native void free(int kind, long h);

  /** The message of the last failed call on handle h. */
  static native String lastError(int kind, long h);

  /** The serialized size in bytes, or the negated status. */
  static native long serializedSize(int kind, long h);

  static native int serialize(int kind, long h, byte[] out);

  /** The handle goes to out[0]; a failure throws. */
  static native int deserialize(int kind, byte[] buf, byte[] key, long[] out);

  /** path is NUL-terminated UTF-8; the handle goes to out[0]; a failure throws. */
  static native int open(int kind, byte[] path, int flags, byte[] key, long[] out);

  static native int save(int kind, long h, byte[] path);

  /** Bloom and scalable: 1 if the id already looked present, 0 if not, below 0 the negated status. */
  static native int putLong(int kind, long h, long id);

  /** As {@link #putLong}, for key[off .. off+len). */
  static native int putBytes(int kind, long h, byte[] key, int off, int len);

  /** 1 if the id may be present, else 0. */
  static native int testLong(int kind, long h, long id);

  /** As {@link #testLong}, for key[off .. off+len). */
  static native int testBytes(int kind, long h, byte[] key, int off, int len);

  /** Adds ids[off .. off+len) when out is null, else queries them into out from outOff. */
  static native int longs(int kind, long h, long[] ids, int off, int len, boolean[] out,
      int outOff);

  /** As {@link #longs}, for key i = data[offsets[i] .. offsets[i + 1]), i in first .. first + count. */
  static native int keys(int kind, long h, byte[] data, int[] offsets, int first, int count,
      boolean[] out, int outOff);

  /** As {@link #longs}, over direct buffers; positions are in bytes from each buffer's start. */
  static native int longsDirect(int kind, long h, ByteBuffer ids, long pos, long n,
      ByteBuffer out, long outPos);

  /** As {@link #keys}, over direct buffers of bytes and n+1 native-order 64-bit offsets. */
  static native int keysDirect(int kind, long h, ByteBuffer data, long dataPos,
      ByteBuffer offsets, long offsetsPos, long n, ByteBuffer out, long outPos);
}
