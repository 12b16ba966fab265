package io.seen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Puts from several threads at once, with queries racing them, lose no key. */
class ConcurrencyTest {
  private static final int THREADS = 4;
  private static final int PER_THREAD = 50_000;

  @Test
  void concurrentPutsLoseNothing() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (BloomFilter f = BloomFilter.create(THREADS * PER_THREAD, 0.01)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        long base = (long) t * PER_THREAD;
        done.add(pool.submit(() -> {
          long[] ids = new long[PER_THREAD];
          for (int i = 0; i < PER_THREAD; i++) {
            ids[i] = base + i;
          }
          f.putAll(ids, 0, PER_THREAD / 2);
          for (int i = PER_THREAD / 2; i < PER_THREAD; i++) {
            f.put(ids[i]);
            f.mightContain(ids[i] ^ 0x5555);  // a query racing the other threads' puts
          }
        }));
      }
      for (Future<?> d : done) {
        d.get();
      }
      boolean[] out = new boolean[THREADS * PER_THREAD];
      long[] all = new long[out.length];
      for (int i = 0; i < all.length; i++) {
        all[i] = i;
      }
      f.mightContainAll(all, 0, all.length, out);
      for (int i = 0; i < out.length; i++) {
        assertTrue(out[i], "lost id " + i);
      }
    } finally {
      pool.shutdown();
    }
  }
}
