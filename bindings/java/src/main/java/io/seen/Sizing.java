package io.seen;

/**
 * What a blocked Bloom filter of some size delivers, computed without making one: the bytes
 * and bits per key (k) that {@link BloomFilter#create(long, double)} would choose for a rate,
 * or the rate a budget of bytes reaches. Guava sizes inside {@code create} only; seen's sizes
 * differ from the textbook formula (one block per key), so this is how to plan memory.
 */
public final class Sizing {
  private final long bytes;
  private final int k;
  private final double fpp;

  private Sizing(long bytes, int k, double fpp) {
    this.bytes = bytes;
    this.k = k;
    this.fpp = fpp;
  }

  /**
   * The bytes and k a filter needs to really deliver {@code fpp} after {@code
   * expectedInsertions} distinct keys ({@link #fpp()} is {@code fpp}). An fpp outside (0, 1)
   * or out of reach throws {@link SeenException}, an IllegalArgumentException.
   */
  public static Sizing forRate(long expectedInsertions, double fpp) {
    long[] out = new long[2];
    NativeBloom.sizeFor(Filter.expected(expectedInsertions), fpp, out);
    return new Sizing(out[0], (int) out[1], fpp);
  }

  /** The rate {@code expectedInsertions} keys give in {@code bytes} (rounded up to 64-byte blocks), with the best k. */
  public static Sizing forBytes(long expectedInsertions, long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes is negative: " + bytes);
    }
    long[] out = new long[2];
    NativeBloom.predictFpp(Filter.expected(expectedInsertions), bytes, out);
    return new Sizing(bytes, (int) out[1], Double.longBitsToDouble(out[0]));
  }

  public long bytes() {
    return bytes;
  }

  /** Bits set per key, all in one 64-byte block. */
  public int k() {
    return k;
  }

  public double fpp() {
    return fpp;
  }

  @Override
  public String toString() {
    return "Sizing[bytes=" + bytes + ", k=" + k + ", fpp=" + fpp + "]";
  }
}
