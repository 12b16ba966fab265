package io.seen;

/**
 * The native methods of bloom_jni.c, the calls only a Bloom filter has (the rest are
 * {@link NativeKinds}'). Handles are {@code seen_bloom*} pointers; callers guarantee they are
 * live. Methods return a seen_status unless their comment says otherwise.
 */
final class NativeBloom {
  static {
    NativeLoader.load();
  }

  private NativeBloom() {}

  static native int versionNumber();

  /** Keyed under {@code key} (16 to 64 bytes) if it is not null; the handle goes to out[0]. */
  static native int create(long expectedItems, double fpp, long seed, byte[] key, long[] out);

  /** out: bytes, k. Throws SeenException itself. */
  static native int sizeFor(long expectedItems, double fpp, long[] out);

  /** out: raw bits of the fpr, k. Throws SeenException itself. */
  static native int predictFpp(long expectedItems, long bytes, long[] out);

  static native int merge(long dst, long src);

  static native int intersect(long dst, long src);

  /** 1 if a covers b, 0 if not, below 0 minus a failed status. */
  static native int covers(long a, long b);

  static native int clear(long h);

  /** out: 8 values in FilterInfo's order (jni_common.h, JNI_BLOCKED_FIGURES). */
  static native int params(long h, long[] out);

  /** out: 4 values in FilterStats' order (jni_common.h, JNI_BLOCKED_FIGURES). */
  static native int stats(long h, double[] out);

  static native int sync(long h);

  /** blocks[0 .. len) = the block of each of ids[off .. off+len) (BloomBlocks checked them). */
  static native int blocksOfLongs(long h, long[] ids, int off, int len, long[] blocks);

  /** blocks[0 .. count) = the block of each key first .. first+count (offsets checked). */
  static native int blocksOfKeys(long h, byte[] data, int[] offsets, int first, int count,
      long[] blocks);

  /** out[0 .. 64 * count) = blocks [first, first + count). */
  static native int readBlocks(long h, long first, int count, byte[] out);

  /** ORs blocks (64 * count bytes) into the filter from block first on. */
  static native int orBlocks(long h, long first, int count, byte[] blocks);
}
