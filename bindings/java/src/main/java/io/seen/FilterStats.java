package io.seen;

/**
 * What a Bloom or counting filter holds now (seen_bloom_stats, seen_counting_stats), by name:
 * the JNI stats calls fill a double[] in this order (bloom_jni.c, counting_jni.c, the same for
 * both kinds, a counting filter's saturated counters last), and only this class reads it.
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
    saturatedCounters = raw.length > 3 ? (long) raw[3] : 0;
  }

  /** Reads a Bloom filter's stats (3 values) or a counting filter's (4). */
  static FilterStats read(NativeHandle handle, Object owner, boolean counting) {
    double[] raw = new double[counting ? 4 : 3];
    handle.run(owner, h -> counting ? NativeCounting.stats(h, raw) : NativeBloom.stats(h, raw));
    return new FilterStats(raw);
  }
}
