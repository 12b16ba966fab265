package io.seen;

/** The outcome codes of the C API, mirroring {@code seen_status} number for number. */
public enum Status {
  OK(0),
  INVALID_ARGUMENT(1),
  NO_MEMORY(2),
  IO(3),
  BAD_MAGIC(4),
  UNSUPPORTED_VERSION(5),
  TRUNCATED(6),
  BAD_CHECKSUM(7),
  INCONSISTENT(8),
  WRONG_KIND(9),
  TOO_LARGE(10),
  READ_ONLY(11),
  INCOMPATIBLE(12),
  BUFFER_TOO_SMALL(13),
  INTERNAL(14),
  /** A remove of a key that was certainly never added (a counting filter's). */
  NOT_FOUND(15),
  /** A code added by a newer native library than this binding knows. */
  UNKNOWN(-1);

  private final int code;

  Status(int code) {
    this.code = code;
  }

  /** The numeric value of the C enum; it never changes. */
  public int code() {
    return code;
  }

  /** The status with this numeric value, or {@link #UNKNOWN}. */
  public static Status of(int code) {
    for (Status s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return UNKNOWN;
  }
}
