package io.seen;

import java.util.function.LongUnaryOperator;

/** The serialized form of a native object, which must fit one Java array. */
final class Serialized {
  /** The largest byte[] a JVM allocates. */
  static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
  /** Ends the too-large message of the kinds that can save to a file instead. */
  static final String USE_SAVE = ": use save(Path)";

  private Serialized() {}

  /** A native serialize call: fills out, returns a status. */
  interface Writer {
    int write(long handle, byte[] out);
  }

  /**
   * Sizes the form ({@code sizeOf} returns bytes, or -status), then writes it. The caller fences
   * the owner of {@code handle} until this returns.
   */
  static byte[] toByteArray(NativeHandle handle, LongUnaryOperator sizeOf, Writer writer, String hint) {
    long size = sizeOf.applyAsLong(handle.get());
    if (size < 0) {
      handle.check((int) -size);
    }
    if (size > MAX_ARRAY) {
      throw new IllegalStateException(size + " bytes do not fit a Java array" + hint);
    }
    byte[] bytes = new byte[(int) size];
    handle.check(writer.write(handle.get(), bytes));
    return bytes;
  }

  /** As above, for a handle of {@code kind}, through kinds_jni.c. */
  static byte[] toByteArray(NativeHandle handle, Kind kind) {
    return toByteArray(handle, h -> NativeKinds.serializedSize(kind.code, h),
        (h, out) -> NativeKinds.serialize(kind.code, h, out), kind.saves ? USE_SAVE : "");
  }
}
