package io.seen;

/**
 * What a Bloom or counting filter is (seen_bloom_info, seen_counting_info), by name: the JNI
 * params calls of both kinds fill a long[8] in this order (jni_common.h, JNI_BLOCKED_FIGURES),
 * and only this class reads it.
 */
final class FilterInfo {
  final long bytes;
  final long blocks;
  final int k;
  final boolean readOnly;
  final long seed;
  final long expectedItems;
  final double targetFpr;
  /** The bits of each counter; 0 for a Bloom filter. */
  final int counterBits;

  private FilterInfo(long[] raw) {
    bytes = raw[0];
    blocks = raw[1];
    k = (int) raw[2];
    readOnly = raw[3] != 0;
    seed = raw[4];
    expectedItems = raw[5];
    targetFpr = Double.longBitsToDouble(raw[6]);
    counterBits = (int) raw[7];
  }

  /** Reads a Bloom filter's info or a counting filter's. */
  static FilterInfo read(NativeHandle handle, Object owner, boolean counting) {
    long[] raw = new long[8];
    handle.run(owner, h -> counting ? NativeCounting.params(h, raw) : NativeBloom.params(h, raw));
    return new FilterInfo(raw);
  }

  /** Whether two filters' blocks can be merged: same blocks, k and seed. */
  boolean mergesWith(FilterInfo other) {
    return blocks == other.blocks && k == other.k && seed == other.seed;
  }
}
