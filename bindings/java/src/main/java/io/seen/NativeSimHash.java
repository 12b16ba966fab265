package io.seen;

import java.nio.ByteBuffer;

/**
 * The native methods of simhash_jni.c, one per seen.h call. Handles are
 * {@code seen_simhash_idf*} and {@code seen_simhash_index*} pointers (an IDF handle of 0 means
 * none); callers guarantee they are live and that indices are in bounds. Methods return a
 * seen_status unless their comment says otherwise.
 */
final class NativeSimHash {
  static {
    NativeLoader.load();
  }

  private NativeSimHash() {}

  /** The message of the last failed call on handle h. */
  static native String lastError(long h);

  static native int distance(long a, long b);

  /** out: simhash, exact_high, exact_low, features. */
  static native int text(byte[] text, int off, int len, int ngram, long seed, long idf, long[] out);

  /** Text i is data[offsets[i] .. offsets[i + 1]); exact may be null (else 2 values a text). */
  static native int textBatch(byte[] data, int[] offsets, int first, int count, int ngram,
      long seed, long idf, long[] simhashes, int outOff, long[] exact);

  /** weights may be null (all 1), else read from the same offset; the fingerprint to out[0]. */
  static native int hashes(long[] hashes, float[] weights, int off, int len, long[] out);

  /**
   * weights may be null, else weights[0 .. count); hashed under key if it is not null, else
   * with seed; the fingerprint to out[0].
   */
  static native int strings(byte[] data, int[] offsets, int first, int count, float[] weights,
      long seed, byte[] key, long[] out);

  /** The handle goes to out[0]. */
  static native int idfCreate(byte[] data, int[] offsets, int count, float[] weights,
      float defaultWeight, long[] out);

  static native void idfFree(long h);

  /** The handle goes to out[0]. */
  static native int indexCreate(int maxK, long[] out);

  static native void indexFree(long h);

  static native int addOne(long h, long id, long fp);

  static native int add(long h, long[] ids, long[] fps, int off, int len);

  /** The pairs removed, or the negated status. */
  static native long remove(long h, long[] ids, int off, int len);

  static native int build(long h);

  /** The matches found (the first min(found, cap) written), or the negated status. */
  static native long query(long h, long fp, int k, long[] ids, int[] distances, int cap);

  /** 1 or 0, or below 0 the negated status. */
  static native int anyOne(long h, long fp, int k);

  static native int any(long h, long[] fps, int off, int len, int k, boolean[] out, int outOff);

  /** Positions are in bytes from the start of each direct buffer. */
  static native int addDirect(long h, ByteBuffer ids, long idsPos, ByteBuffer fps, long fpsPos,
      long n);

  static native int anyDirect(long h, ByteBuffer fps, long pos, long n, int k, ByteBuffer out,
      long outPos);

  /** out[0] = int[] offsets (len + 1), out[1] = long[] ids, out[2] = int[] distances. */
  static native int queryBatch(long h, long[] fps, int off, int len, int k, Object[] out);

  /** out[0] = long[] ids, out[1] = int[] groups. */
  static native int clusters(long h, int k, Object[] out);

  /** out: count, max_k, read_only, bytes. */
  static native int info(long h, long[] out);

  /** The serialized size in bytes, or the negated status. */
  static native long serializedSize(long h);

  static native int serialize(long h, byte[] out);

  /** The handle goes to out[0]. */
  static native int deserialize(byte[] buf, int len, long[] out);

  /** path is NUL-terminated UTF-8. */
  static native int save(long h, byte[] path);

  /** path is NUL-terminated UTF-8; the handle goes to out[0]. */
  static native int open(byte[] path, int flags, long[] out);
}
