package io.seen;

/**
 * A failed call into the native library: the {@link Status} it returned and the library's
 * message for it (which file, which field, what was expected), read from the handle the call
 * was made on, or from the error the call filled when it had none (docs/errors.md).
 *
 * <p>An {@link IllegalArgumentException}, so that every invalid argument throws one, whether
 * Java or the library refused it: Guava's {@code BloomFilter} contract, which this binding
 * follows by name (a bad {@code fpp}, INVALID_ARGUMENT, and one no filter can reach, such as
 * 1e-80, TOO_LARGE, are refused by the library). Unchecked, like Guava's: most statuses mean
 * a programming error or corrupt input (the bytes or file given), not a condition callers
 * can retry.
 */
public class SeenException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final Status status;
  private final int code;

  public SeenException(int code, String detail) {
    super(Status.of(code) + " (" + code + "): " + detail);
    this.status = Status.of(code);
    this.code = code;
  }

  public Status status() {
    return status;
  }

  /** The raw {@code seen_status} value, meaningful even when {@link #status()} is UNKNOWN. */
  public int code() {
    return code;
  }
}
