package io.seen;

/** How {@link BloomFilter#open} and {@link ExposureStore#open} map a saved file. */
public enum Mode {
  /**
   * The query role: the file is mapped read-only. A filter's puts, and a store's marks and
   * takes, throw READ_ONLY.
   */
  READ_ONLY(1),
  /**
   * The add role. A filter's file is mapped shared: puts reach it on sync() and close(). A
   * store takes writes in memory; they reach a file only through its next save().
   */
  READ_WRITE(2);

  /** seen.h's SEEN_OPEN_NO_VERIFY, or-ed in by ExposureStore.open(path, mode, false). */
  static final int NO_VERIFY = 4;

  final int flags;

  Mode(int flags) {
    this.flags = flags;
  }
}
