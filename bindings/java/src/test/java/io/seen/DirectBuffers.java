package io.seen;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** The direct buffers the batch tests fill: native order, data after a skipped first value. */
final class DirectBuffers {
  private DirectBuffers() {}

  static ByteBuffer direct(int bytes) {
    return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
  }

  /** The ids after one skipped value (-1), with the position at the first id. */
  static ByteBuffer idBuffer(long[] ids) {
    ByteBuffer buf = direct(8 * (ids.length + 1));
    buf.putLong(-1L);
    for (long id : ids) {
      buf.putLong(id);
    }
    buf.flip().position(8);
    return buf;
  }

  /**
   * The UTF-8 keys in Arrow's layout: {data, offsets}, where data's position is after one
   * skipped byte ('z') and offsets counts from there.
   */
  static ByteBuffer[] keyBuffers(String[] keys) {
    ByteBuffer data = direct(1024).put((byte) 'z');
    ByteBuffer offsets = direct(8 * (keys.length + 1));
    long at = 0;
    offsets.putLong(at);
    for (String k : keys) {
      byte[] b = k.getBytes(StandardCharsets.UTF_8);
      data.put(b);
      at += b.length;
      offsets.putLong(at);
    }
    data.flip().position(1);
    offsets.flip();
    return new ByteBuffer[] {data, offsets};
  }
}
