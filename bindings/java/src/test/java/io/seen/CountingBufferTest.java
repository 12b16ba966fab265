package io.seen;

import static io.seen.DirectBuffers.direct;
import static io.seen.DirectBuffers.idBuffer;
import static io.seen.DirectBuffers.keyBuffers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Direct ByteBuffer batches of the counting and scalable filters (from the position, in native
 * order, positions unchanged), and the counting filter's one writer racing its readers.
 */
class CountingBufferTest {
  @Test
  void countingIdBuffers() {
    long[] ids = new Random(5).longs(3000).toArray();
    ByteBuffer buf = idBuffer(ids);
    try (CountingFilter f = CountingFilter.create(3000, 0.001, 1)) {
      f.putAll(buf);
      assertEquals(8, buf.position(), "positions are left unchanged");
      ByteBuffer out = direct(ids.length + 3).position(3);
      f.mightContainAll(buf, out);
      for (int i = 0; i < ids.length; i++) {
        assertEquals(1, out.get(3 + i), "id at " + i);
      }
      assertFalse(f.mightContain(-1L));
      f.removeAll(buf);
      assertEquals(0, f.approximateElementCount());
      ByteBuffer removed = direct(ids.length);
      assertEquals(0, f.removeAll(buf, removed));
      assertEquals(0, removed.get(0));
      assertEquals(Status.NOT_FOUND,
          assertThrows(SeenException.class, () -> f.removeAll(buf)).status());
      f.putAll(buf);
      assertEquals(ids.length, f.removeAll(buf, removed));
      assertEquals(1, removed.get(ids.length - 1));
      assertThrows(IllegalArgumentException.class,
          () -> f.putAll(ByteBuffer.allocate(16)), "heap buffers are refused");
    }
  }

  @Test
  void countingKeyBuffers() {
    String[] keys = {"", "alpha", "\u4e2d\u6587", "omega"};
    ByteBuffer[] b = keyBuffers(keys);
    try (CountingFilter f = CountingFilter.create(100, 0.001, 2)) {
      f.putAll(b[0], b[1]);
      for (String k : keys) {
        assertTrue(f.mightContain(k), k);
      }
      ByteBuffer out = direct(keys.length);
      f.mightContainAll(b[0], b[1], out);
      for (int i = 0; i < keys.length; i++) {
        assertEquals(1, out.get(i));
      }
      ByteBuffer removed = direct(keys.length);
      assertEquals(keys.length, f.removeAll(b[0], b[1], removed));
      assertFalse(f.mightContain("alpha"));
      assertEquals(0, f.removeAll(b[0], b[1], removed));
      assertEquals(0, removed.get(3));
    }
  }

  @Test
  void scalableBuffers() {
    long[] ids = new Random(6).longs(5000).toArray();
    ByteBuffer buf = idBuffer(ids);
    String[] keys = {"", "alpha", "\u4e2d\u6587", "omega"};
    ByteBuffer[] b = keyBuffers(keys);
    try (ScalableFilter f = ScalableFilter.create(100, 0.01, 2, 0.5, 3)) {
      f.putAll(buf);
      f.putAll(b[0], b[1]);
      assertTrue(f.subFilterCount() > 3);
      ByteBuffer out = direct(ids.length);
      f.mightContainAll(buf, out);
      for (int i = 0; i < ids.length; i++) {
        assertEquals(1, out.get(i), "id at " + i);
      }
      f.mightContainAll(b[0], b[1], out);
      for (int i = 0; i < keys.length; i++) {
        assertEquals(1, out.get(i));
      }
      assertFalse(f.mightContain(-1L));
    }
  }

  @Test
  void readersRacingTheOneWriterNeverMissACompletedPut() throws Exception {
    try (CountingFilter f = CountingFilter.create(200_000, 0.01, 4)) {
      AtomicLong completed = new AtomicLong(-1);  // every id up to this one is put
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread writer = new Thread(() -> {
        try {
          long[] batch = new long[1000];
          for (long start = 0; start < 200_000; start += batch.length) {
            for (int i = 0; i < batch.length; i++) {
              batch[i] = start + i;
            }
            f.putAll(batch);
            f.removeAll(new long[] {start}, 0, 1);  // removes of put keys, racing the reader
            f.put(start);
            completed.set(start + batch.length - 1);
          }
        } catch (Throwable t) {
          failure.set(t);
          completed.set(Long.MAX_VALUE);  // ends the reader
        }
      });
      Thread reader = new Thread(() -> {
        try {
          long[] probe = new long[256];
          boolean[] out = new boolean[probe.length];
          Random random = new Random(7);
          while (completed.get() < 199_999) {
            long upTo = completed.get();
            if (upTo < 0) {
              continue;
            }
            for (int i = 0; i < probe.length; i++) {
              probe[i] = (long) (random.nextDouble() * (upTo + 1));
            }
            f.mightContainAll(probe, out);
            for (int i = 0; i < probe.length; i++) {
              if (!out[i]) {
                throw new AssertionError("completed put of " + probe[i] + " missed");
              }
            }
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      writer.start();
      reader.start();
      writer.join();
      reader.join();
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      assertEquals(200_000, f.approximateElementCount());
    }
  }
}
