package io.seen;

/**
 * The native methods of scalable_jni.c, the calls only a scalable filter has (the rest are
 * {@link NativeKinds}'). Handles are {@code seen_scalable*} pointers; callers guarantee they are
 * live. Methods return a seen_status.
 */
final class NativeScalable {
  static {
    NativeLoader.load();
  }

  private NativeScalable() {}

  /** Keyed under {@code key} (16 to 64 bytes, seed then 0) if it is not null; the handle goes to out[0]. */
  static native int create(long initialCapacity, double fpp, double growth, double tightening,
      long seed, byte[] key, long[] out);

  /**
   * out: items, subfilters, read_only, bytes, raw bits of predicted_fpr, initial_capacity, raw
   * bits of fpr, growth and tightening, seed.
   */
  static native int info(long h, long[] out);
}
