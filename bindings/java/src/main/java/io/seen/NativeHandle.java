package io.seen;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.function.LongToIntFunction;
import java.util.function.LongUnaryOperator;

/**
 * The native handle behind a public object, released by {@link #close()} or, once the owner is
 * unreachable, by a {@link Cleaner}. The handle is a plain long, so every native call that uses
 * {@link #get()} is followed by reachabilityFence(owner): without the fence the owner could
 * become unreachable mid-call and the Cleaner free the memory under the native code.
 */
final class NativeHandle {
  private static final Cleaner CLEANER = Cleaner.create();

  private final String owner;
  private volatile long handle;
  private final LongFunction<String> lastError;
  private final Cleaner.Cleanable cleanable;

  /**
   * {@code free} must not reference the owner, or the owner would never be cleaned.
   * {@code lastError} reads the message of the last failed call on a handle of this kind
   * (seen_<kind>_last_error), or is null for a kind whose calls cannot fail.
   */
  NativeHandle(Object owner, long handle, LongConsumer free, LongFunction<String> lastError) {
    this.owner = owner.getClass().getSimpleName();
    this.handle = handle;
    this.lastError = lastError;
    this.cleanable = CLEANER.register(owner, () -> free.accept(handle));
  }

  /** The handle of a {@link Kind}, freed and read through kinds_jni.c. */
  NativeHandle(Object owner, long handle, Kind kind) {
    this(owner, handle, h -> NativeKinds.free(kind.code, h),
        h -> NativeKinds.lastError(kind.code, h));
  }

  /**
   * Throws for a failed status of a call on this handle, with the message the handle keeps:
   * it does not depend on the calling thread (docs/errors.md).
   */
  void check(int code) {
    if (code != 0) {
      throw new SeenException(code, lastError.apply(handle));
    }
  }

  /** The live handle, or an exception if closed. */
  long get() {
    long h = handle;
    if (h == 0) {
      throw new IllegalStateException(owner + " is closed");
    }
    return h;
  }

  boolean isClosed() {
    return handle == 0;
  }

  /**
   * Calls {@code call} with the live handle and checks the status it returns. {@code owner},
   * the object this handle belongs to, stays reachable until the call returns, so that the
   * Cleaner cannot free the handle while native code uses it.
   */
  void run(Object owner, LongToIntFunction call) {
    try {
      check(call.applyAsInt(get()));
    } finally {
      Reference.reachabilityFence(owner);
    }
  }

  /**
   * As {@link #run}, for a native that returns a count (0 or more) or below 0 the negated
   * status; returns the count.
   */
  long count(Object owner, LongUnaryOperator call) {
    try {
      long result = call.applyAsLong(get());
      if (result < 0) {
        check((int) -result);
      }
      return result;
    } finally {
      Reference.reachabilityFence(owner);
    }
  }

  /** As {@link #count}, for a native that returns an int answer (0 or more) or -status. */
  int answer(Object owner, LongToIntFunction call) {
    return (int) count(owner, call::applyAsInt);
  }

  /**
   * As {@link #check}, for a call the owner's constructor makes: a failure frees the handle
   * before it throws, since no object will hold it.
   */
  void checkOrFree(int code) {
    if (code != 0) {
      try {
        check(code);
      } finally {
        close();
      }
    }
  }

  /** Frees the handle at most once; later get() calls throw. */
  void close() {
    handle = 0;
    cleanable.clean();
  }
}
