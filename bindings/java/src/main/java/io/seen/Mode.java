package io.seen;

/**
 * How {@link BloomFilter#open}, {@link CountingBloomFilter#open}, {@link ScalableBloomFilter#open}
 * and {@link ExposureStore#open} map a saved file.
 */
public enum Mode {
  /**
   * The query role: the file is mapped read-only. A filter's puts (and removes), and a store's
   * marks and takes, throw READ_ONLY.
   */
  READ_ONLY(1),
  /**
   * The add role. A Bloom or counting filter's file is mapped shared: puts (and removes) reach
   * it on sync() and close(). A scalable filter and a store take writes in a private copy; they
   * reach a file only through its next save().
   */
  READ_WRITE(2);

  /** seen.h's SEEN_OPEN_NO_VERIFY, or-ed in by ExposureStore.open(path, mode, false). */
  static final int NO_VERIFY = 4;

  final int flags;

  Mode(int flags) {
    this.flags = flags;
  }
}
