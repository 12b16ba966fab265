package io.seen;

/**
 * How {@link BloomFilter#open}, {@link CountingFilter#open}, {@link ScalableFilter#open}
 * and {@link ExposureStore#open} open a saved file: seen.h's SEEN_OPEN_* modes. Each means one
 * thing for every kind that takes it; a kind refuses the writable mode it does not take with
 * INVALID_ARGUMENT.
 */
public enum Mode {
  /**
   * The query role, for every kind: the file is mapped read-only and queried in place. A
   * filter's puts (and removes), and a store's marks and takes, throw READ_ONLY.
   */
  READ_ONLY(1),
  /**
   * Bloom and counting filters, whose size is fixed: the file is mapped shared and writable, and
   * puts (and removes) reach it on sync() and close().
   */
  WRITE_IN_PLACE(2),
  /**
   * Scalable filters and stores, which grow: writes go to a private copy in memory and reach a
   * file only through its next save().
   */
  PRIVATE_COPY(8);

  /** seen.h's SEEN_OPEN_NO_VERIFY, or-ed in by ExposureStore.open(path, mode, false). */
  static final int NO_VERIFY = 4;

  final int flags;

  Mode(int flags) {
    this.flags = flags;
  }
}
