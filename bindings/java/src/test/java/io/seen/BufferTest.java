package io.seen;

import static io.seen.DirectBuffers.direct;
import static io.seen.DirectBuffers.idBuffer;
import static io.seen.DirectBuffers.keyBuffers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Direct ByteBuffer batches: they read from the position, in native order, like the arrays. */
class BufferTest {
  @Test
  void idBuffersMatchSingleCalls() {
    long[] ids = new Random(4).longs(1000).toArray();
    ByteBuffer buf = idBuffer(ids);  // -1 skipped: the batch starts at the position
    try (BloomFilter f = BloomFilter.create(2000, 0.2)) {
      for (int i = 0; i < ids.length; i += 3) {
        f.put(ids[i]);
      }
      ByteBuffer out = direct(ids.length + 5).position(5);
      f.mightContainAll(buf, out);
      assertEquals(8, buf.position(), "positions are left unchanged");
      for (int i = 0; i < ids.length; i++) {
        assertEquals(f.mightContain(ids[i]) ? 1 : 0, out.get(5 + i), "id at " + i);
      }
      try (BloomFilter g = BloomFilter.create(2000, 0.2)) {
        g.putAll(buf);
        for (long id : ids) {
          assertEquals(true, g.mightContain(id));
        }
        assertEquals(false, g.mightContain(-1L));
      }
    }
  }

  @Test
  void keyBuffersUseArrowLayout() {
    String[] keys = {"", "alpha", "\u4e2d\u6587", "omega"};
    ByteBuffer[] buffers = keyBuffers(keys);  // 'z' skipped: data starts at its position
    ByteBuffer data = buffers[0];
    ByteBuffer offsets = buffers[1];
    try (BloomFilter f = BloomFilter.create(100, 0.0001)) {
      f.putAll(data, offsets);
      ByteBuffer out = direct(keys.length);
      f.mightContainAll(data, offsets, out);
      for (int i = 0; i < keys.length; i++) {
        assertEquals(1, out.get(i), "key " + i);
        assertEquals(true, f.mightContain(keys[i]));
      }
      assertEquals(false, f.mightContain("z"));
    }
  }

  @Test
  void unusableBuffersAreRejected() {
    try (BloomFilter f = BloomFilter.create(100, 0.01)) {
      assertThrows(IllegalArgumentException.class, () -> f.putAll(ByteBuffer.allocate(16)));
      assertThrows(IllegalArgumentException.class, () -> f.putAll(direct(12)));
      assertThrows(IllegalArgumentException.class, () -> f.putAll(direct(24).position(4).limit(20)));
      assertThrows(IllegalArgumentException.class, () -> f.mightContainAll(direct(16), direct(1)));
      ByteBuffer backwards = direct(16).putLong(5).putLong(2).flip();
      assertThrows(IllegalArgumentException.class, () -> f.putAll(direct(8), backwards));
      ByteBuffer pastEnd = direct(16).putLong(0).putLong(9).flip();
      assertThrows(IllegalArgumentException.class, () -> f.putAll(direct(8), pastEnd));
    }
  }
}
