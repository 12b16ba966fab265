package io.seen;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Argument checks for batch calls, done in Java before any native code runs: the C API trusts
 * its offsets, so a bad one here must become an exception, never an out-of-bounds read.
 */
final class Batches {
  private Batches() {}

  /** Offsets first .. first+count must rise and stay inside data. */
  static void checkOffsets(int dataLength, int[] offsets, int first, int count) {
    Objects.checkFromIndexSize(first, count + 1, offsets.length);
    int previous = offsets[first];
    if (previous < 0) {
      throw new IllegalArgumentException("offsets[" + first + "] is negative");
    }
    for (int i = first + 1; i <= first + count; i++) {
      int next = offsets[i];
      if (next < previous) {
        throw new IllegalArgumentException("offsets[" + i + "] is below offsets[" + (i - 1) + "]");
      }
      previous = next;
    }
    if (previous > dataLength) {
      throw new IllegalArgumentException(
          "offsets[" + (first + count) + "] = " + previous + " is past the data's end " + dataLength);
    }
  }

  static void checkOut(int needed, boolean[] out) {
    if (Objects.requireNonNull(out, "out").length < needed) {
      throw new IllegalArgumentException("out holds " + out.length + " answers, needs " + needed);
    }
  }

  static void checkDirect(ByteBuffer buf, String name) {
    if (!buf.isDirect()) {
      throw new IllegalArgumentException(name + " must be a direct ByteBuffer");
    }
  }

  /** The number of native-order 64-bit values between position and limit of a direct buffer. */
  static long longsIn(ByteBuffer buf, String name) {
    checkDirect(buf, name);
    if (buf.remaining() % Long.BYTES != 0) {
      throw new IllegalArgumentException(name + " must hold whole 8-byte values");
    }
    if (buf.remaining() > 0 && buf.alignmentOffset(buf.position(), Long.BYTES) != 0) {
      throw new IllegalArgumentException(name + " must start 8-byte aligned");
    }
    return buf.remaining() / Long.BYTES;
  }

  static void checkOut(long needed, ByteBuffer out) {
    checkDirect(Objects.requireNonNull(out, "out"), "out");
    if (out.isReadOnly()) {
      throw new IllegalArgumentException("out is read-only");
    }
    if (out.remaining() < needed) {
      throw new IllegalArgumentException("out holds " + out.remaining() + " bytes, needs " + needed);
    }
  }

  /** Checks n+1 native-order offsets into data's remaining bytes; returns n. */
  static long checkOffsets(ByteBuffer data, ByteBuffer offsets) {
    checkDirect(data, "data");
    long values = longsIn(offsets, "offsets");
    if (values == 0) {
      throw new IllegalArgumentException("offsets must hold n+1 values");
    }
    ByteBuffer view = offsets.duplicate().order(ByteOrder.nativeOrder());
    long previous = 0;
    for (int i = offsets.position(); i < offsets.limit(); i += Long.BYTES) {
      long next = view.getLong(i);
      if (next < previous || next > data.remaining()) {
        throw new IllegalArgumentException(
            "offset " + next + " at byte " + i + " is below the previous one or past the data");
      }
      previous = next;
    }
    return values - 1;
  }
}
