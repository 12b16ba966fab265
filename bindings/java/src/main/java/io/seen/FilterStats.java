package io.seen;

/**
 * What a Bloom or counting filter holds now (seen_bloom_stats, seen_counting_stats), by name:
 * the JNI stats calls of both kinds fill a double[4] in this order (jni_common.h,
 * JNI_BLOCKED_FIGURES), and only this class reads it.
 */
final class FilterStats {
  final double fillRatio;
  final double approxItems;
  final double predictedFpr;
  /** Counters stuck at their maximum; 0 for a Bloom filter, which has none. */
  final long saturatedCounters;

  private FilterStats(double[] raw) {
    fillRatio = raw[0];
    approxItems = raw[1];
    predictedFpr = raw[2];
    saturatedCounters = (long) raw[3];
  }

  /** Reads a Bloom filter's stats or a counting filter's. */
  static FilterStats read(NativeHandle handle, Object owner, boolean counting) {
    double[] raw = new double[4];
    handle.run(owner, h -> counting ? NativeCounting.stats(h, raw) : NativeBloom.stats(h, raw));
    return new FilterStats(raw);
  }
}
