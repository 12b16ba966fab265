package io.seen;

/** How {@link BloomFilter#open} maps a saved filter. */
public enum Mode {
  /** The query role: the file is mapped read-only and every put throws READ_ONLY. */
  READ_ONLY(1),
  /** The add role: the file is mapped shared; puts reach it on sync() and close(). */
  READ_WRITE(2);

  final int flags;

  Mode(int flags) {
    this.flags = flags;
  }
}
