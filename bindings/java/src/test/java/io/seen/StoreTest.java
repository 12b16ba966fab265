package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exposure store: filter, mark and take per user, atomic takes across threads, idle
 * expiry, the memory bound, save and open, corrupt files and read-only stores.
 */
class StoreTest {
  @TempDir Path dir;

  private static ExposureStore store(int span, double fpr) {
    return ExposureStore.builder(WindowSpec.lastItems(span).fpr(fpr).seed(11))
        .expectedUsers(1000).build();
  }

  private static long[] ids(int n, long stream) {
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = WindowTest.mix(stream * 1_000_003L + i);
    }
    return ids;
  }

  private static int unseen(ExposureStore s, long user, long[] items, long now) {
    int c = 0;
    for (boolean u : s.filter(user, items, now)) {
      c += u ? 1 : 0;
    }
    return c;
  }

  @Test
  void unknownUsersHaveSeenNothing() {
    try (ExposureStore s = store(500, 0.01)) {
      long[] items = ids(1000, 0);
      assertEquals(1000, unseen(s, 1, items, 0));
      assertEquals(0, s.stats().users());
      assertFalse(s.isReadOnly());
    }
  }

  /** Several users' streams, marked in ragged batches, each checked against an exact queue. */
  @Test
  void everyUserKeepsTheirLastItems() {
    int span = 200;
    try (ExposureStore s = store(span, 0.01)) {
      List<ArrayDeque<Long>> last = new ArrayList<>();
      long[][] streams = new long[30][];
      for (int u = 0; u < streams.length; u++) {
        streams[u] = ids(4 * span, u + 1);
        last.add(new ArrayDeque<>());
      }
      int[] at = new int[streams.length];
      boolean[] out = new boolean[span];
      long[] recent = new long[span];
      for (int round = 0; round < 60; round++) {
        for (int u = 0; u < streams.length; u++) {
          int batch = Math.min(1 + (round * 7 + u) % 23, streams[u].length - at[u]);
          s.mark(u, streams[u], at[u], batch, 1000);
          for (int i = at[u]; i < at[u] + batch; i++) {
            last.get(u).addLast(streams[u][i]);
            if (last.get(u).size() > span) {
              last.get(u).removeFirst();
            }
          }
          at[u] += batch;
          int k = 0;
          for (long id : last.get(u)) {
            recent[k++] = id;
          }
          s.filter(u, recent, 0, k, 1000, out);
          for (int i = 0; i < k; i++) {
            assertFalse(out[i], "user " + u + " lost a recent item");
          }
        }
      }
      assertEquals(streams.length, s.stats().users());
      assertTrue(unseen(s, 5, ids(10_000, 99), 1000) >= 9800);
    }
  }

  @Test
  void filterWritesOneAnswerPerCandidateFromItsOffset() {
    try (ExposureStore s = store(500, 0.001)) {
      long[] items = {10, 11, 12, 13, 14, 15};
      s.mark(7, items, 1, 2, 0);  // 11, 12
      s.mark(7, 14L, 0);
      boolean[] unseen = new boolean[5];
      s.filter(7, items, 1, 5, 0, unseen);  // 11 .. 15
      assertArrayEquals(new boolean[] {false, false, true, false, true}, unseen);
      assertThrows(IndexOutOfBoundsException.class, () -> s.filter(7, items, 3, 4, 0, unseen));
      assertThrows(IllegalArgumentException.class, () -> s.filter(7, items, 0, 6, 0, unseen));
      s.filter(7, items, 0, 0, 0, new boolean[0]);
    }
  }

  @Test
  void takePicksUnseenInOrderAndMarksThem() {
    try (ExposureStore s = store(500, 0.001)) {
      long[] candidates = {10, 11, 12, 10, 13, 14, 15, 16};
      s.mark(7, 11L, 0);  // 11 was shown already
      assertArrayEquals(new long[] {10, 12, 13}, s.take(7, candidates, 0, candidates.length, 3, 0));
      long[] page = new long[12];
      Arrays.fill(page, -1);
      assertEquals(3, s.take(7, candidates, 0, candidates.length, 10, 0, page, 2));
      assertArrayEquals(new long[] {-1, -1, 14, 15, 16, -1}, Arrays.copyOf(page, 6));
      assertEquals(0, s.take(7, candidates, 0, candidates.length, 10, 0).length);
      assertEquals(0, s.take(8, candidates, 0, candidates.length, 0, 0).length);
      assertArrayEquals(new long[] {12, 10}, s.take(9, candidates, 2, 2, 5, 0));
      assertThrows(IndexOutOfBoundsException.class,
          () -> s.take(7, candidates, 0, 8, 10, 0, new long[12], 3));
      assertThrows(IllegalArgumentException.class, () -> s.take(7, candidates, 0, 8, -1, 0));
    }
  }

  @Test
  void directBuffersNeedNoCopy() {
    try (ExposureStore s = store(500, 0.001)) {
      ByteBuffer candidates = ByteBuffer.allocateDirect(8 * 8).order(ByteOrder.nativeOrder());
      for (long c : new long[] {10, 11, 12, 10, 13, 14, 15, 16}) {
        candidates.putLong(c);
      }
      candidates.flip();
      ByteBuffer mark = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
      mark.putLong(0, 11);
      s.mark(7, mark, 0);
      ByteBuffer taken = ByteBuffer.allocateDirect(8 * 4).order(ByteOrder.nativeOrder());
      assertEquals(3, s.take(7, candidates, 3, 0, taken));
      assertEquals(10, taken.getLong(0));
      assertEquals(12, taken.getLong(8));
      assertEquals(13, taken.getLong(16));
      ByteBuffer unseen = ByteBuffer.allocateDirect(8);
      s.filter(7, candidates, 0, unseen);
      byte[] answers = new byte[8];
      unseen.get(answers);
      assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 1, 1, 1}, answers);
      assertEquals(0, candidates.position());
      assertThrows(IllegalArgumentException.class,
          () -> s.take(7, candidates, 5, 0, ByteBuffer.allocateDirect(32)));
      assertThrows(IllegalArgumentException.class,
          () -> s.filter(7, ByteBuffer.allocate(64), 0, ByteBuffer.allocateDirect(8)));
    }
  }

  /** Two threads paging one user's feed at once never get the same item. */
  @Test
  void concurrentTakesNeverShareAnItem() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (ExposureStore s = store(5000, 0.001)) {
      long[] candidates = ids(4000, 3);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Long>>> pages = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        pages.add(pool.submit(() -> {
          List<Long> got = new ArrayList<>();
          long[] taken = new long[20];
          go.await();
          for (int i = 0; i < 100; i++) {
            int n = s.take(42, candidates, 0, candidates.length, 20, 0, taken, 0);
            for (int j = 0; j < n; j++) {
              got.add(taken[j]);
            }
          }
          return got;
        }));
      }
      go.countDown();
      List<Long> a = pages.get(0).get();
      List<Long> b = pages.get(1).get();
      Set<Long> all = new HashSet<>(a);
      assertEquals(a.size(), all.size(), "one thread got an item twice");
      for (long item : b) {
        assertTrue(all.add(item), "both threads got " + item);
      }
      assertTrue(a.size() + b.size() > 3500, "only " + (a.size() + b.size()) + " taken");
    } finally {
      pool.shutdown();
    }
  }

  /** Marks and filters for different users from several threads lose nothing. */
  @Test
  void concurrentMarksLoseNothing() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (ExposureStore s = store(300, 0.01)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long first = t * 1000L;
        done.add(pool.submit(() -> {
          for (long user = first; user < first + 200; user++) {
            long[] items = ids(300, user);
            s.mark(user, items, 0, 150, 0);
            s.filter(user + 1, items, 0);  // racing another thread's user
            s.mark(user, items, 150, 150, 0);
          }
        }));
      }
      for (Future<?> d : done) {
        d.get();
      }
      assertEquals(800, s.stats().users());
      for (int t = 0; t < 4; t++) {
        for (long user = t * 1000L; user < t * 1000L + 200; user++) {
          assertEquals(0, unseen(s, user, ids(300, user), 0), "user " + user);
        }
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void idleUsersExpire() {
    try (ExposureStore s = ExposureStore.builder(WindowSpec.lastItems(500))
        .idleTimeout(Duration.ofHours(24)).build()) {
      s.mark(1, 99L, 0);
      s.mark(2, 99L, 0);
      s.mark(2, 99L, 20 * 3600);
      assertEquals(1, s.expire(26 * 3600));  // user 1 idle 26 h; user 2 only 6 h
      ExposureStore.Stats stats = s.stats();
      assertEquals(1, stats.users());
      assertEquals(1, stats.expirations());
      assertEquals(0, unseen(s, 2, new long[] {99}, 26 * 3600));
      // Idle past the timeout reads as a new user even before a sweep.
      assertEquals(1, unseen(s, 2, new long[] {99}, 50 * 3600));
    }
    try (ExposureStore s = ExposureStore.builder(WindowSpec.lastItems(500)).neverExpire().build()) {
      s.mark(1, 99L, 0);
      assertEquals(0, s.expire(4_000_000_000L));
      assertEquals(0, unseen(s, 1, new long[] {99}, 4_000_000_000L));
    }
    assertThrows(IllegalArgumentException.class,
        () -> ExposureStore.builder(WindowSpec.lastItems(5)).idleTimeout(Duration.ZERO));
  }

  @Test
  void memoryBoundEvictsTheIdleFirstAndCounts() {
    long perUser;
    try (ExposureStore probe = store(100, 0.01)) {
      perUser = probe.windowInfo().stateBytes() + 10;
    }
    long bound = 64 * (50 * perUser + 4096);  // about 50 users a shard, beside the index
    try (ExposureStore s = ExposureStore.builder(WindowSpec.lastItems(100).seed(11))
        .maxBytes(bound).expectedUsers(1000).build()) {
      long[] items = ids(100, 0);
      for (long user = 0; user < 20_000; user++) {
        s.mark(user, items, 0, 10, user * 60);
      }
      ExposureStore.Stats stats = s.stats();
      assertTrue(stats.evictions() > 0, stats.toString());
      assertTrue(stats.bytes() <= bound, stats + " over " + bound);
      assertEquals(20_000, stats.users() + stats.evictions());
      for (long user = 19_990; user < 20_000; user++) {
        assertEquals(0, unseen(s, user, new long[] {items[3]}, 20_000 * 60), "user " + user);
      }
    }
  }

  private Path saved(int users) {
    Path file = dir.resolve("store.seen");
    try (ExposureStore s = store(300, 0.01)) {
      long[] items = ids(3000, 0);
      for (long user = 0; user < users; user++) {
        s.mark(user * 7919, items, (int) (user % 2000), 300, 5000);
      }
      s.save(file);
    }
    return file;
  }

  @Test
  void saveAndOpenRoundTrip() {
    Path file = saved(1000);
    long[] items = ids(3000, 0);
    for (Mode mode : new Mode[] {Mode.READ_ONLY, Mode.PRIVATE_COPY}) {
      for (boolean verify : new boolean[] {true, false}) {
        try (ExposureStore back = ExposureStore.open(file, mode, verify)) {
          assertEquals(1000, back.stats().users());
          assertEquals(300, back.windowInfo().span());
          assertEquals(11, back.windowInfo().seed());
          assertEquals(mode == Mode.READ_ONLY, back.isReadOnly());
          for (long user = 0; user < 1000; user += 37) {
            long[] mine = Arrays.copyOfRange(items, (int) (user % 2000), (int) (user % 2000) + 300);
            assertEquals(0, unseen(back, user * 7919, mine, 5000), "user " + user);
          }
          if (mode == Mode.PRIVATE_COPY) {
            back.mark(3, 123456789L, 5000);
            assertEquals(0, unseen(back, 3, new long[] {123456789L}, 5000));
          }
        }
      }
    }
    // A write to the reopened store did not reach the file: only save writes.
    try (ExposureStore again = ExposureStore.open(file, Mode.READ_ONLY)) {
      assertEquals(1, unseen(again, 3, new long[] {123456789L}, 5000));
      Path copy = dir.resolve("copy.seen");
      again.save(copy);
      try (ExposureStore third = ExposureStore.open(copy, Mode.PRIVATE_COPY)) {
        assertEquals(1000, third.stats().users());
      }
    }
  }

  @Test
  void storeIsNeverWrittenInPlace() {
    Path file = saved(10);
    SeenException e = assertThrows(SeenException.class, () -> ExposureStore.open(file, Mode.WRITE_IN_PLACE));
    assertEquals(Status.INVALID_ARGUMENT, e.status());
  }

  @Test
  void readOnlyStoreRefusesMarksAndTakes() {
    Path file = saved(10);
    try (ExposureStore s = ExposureStore.open(file, Mode.READ_ONLY)) {
      assertTrue(s.isReadOnly());
      assertEquals(Status.READ_ONLY, assertThrows(SeenException.class,
          () -> s.mark(1, 5L, 5000)).status());
      assertEquals(Status.READ_ONLY, assertThrows(SeenException.class,
          () -> s.take(1, new long[] {5, 6}, 0, 2, 1, 5000)).status());
      assertEquals(2, unseen(s, 1, new long[] {5, 6}, 5000));
    }
  }

  private SeenException openError(Path file) {
    return assertThrows(SeenException.class, () -> ExposureStore.open(file, Mode.READ_ONLY).close());
  }

  @Test
  void corruptFilesAreRefusedWithTheirOwnStatus() throws IOException {
    Path file = saved(200);
    byte[] bytes = Files.readAllBytes(file);
    byte[] flipped = bytes.clone();
    flipped[bytes.length / 2] ^= 4;
    Files.write(file, flipped);
    assertEquals(Status.BAD_CHECKSUM, openError(file).status());
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 100));
    assertEquals(Status.TRUNCATED, openError(file).status());
    Files.write(file, Arrays.copyOf(bytes, 10));
    assertEquals(Status.TRUNCATED, openError(file).status());
    byte[] magic = bytes.clone();
    magic[0] = 'x';
    Files.write(file, magic);
    SeenException e = openError(file);
    assertEquals(Status.BAD_MAGIC, e.status());
    assertTrue(e.getMessage().length() > "BAD_MAGIC (4): ".length(), e.getMessage());
    assertEquals(Status.IO, openError(dir.resolve("absent.seen")).status());
    try (BloomFilter f = BloomFilter.create(100, 0.01)) {
      f.save(file);
    }
    assertEquals(Status.WRONG_KIND, openError(file).status());
  }

  @Test
  void failedSaveLeavesThePreviousFileIntact() throws IOException {
    Path file = saved(50);
    byte[] before = Files.readAllBytes(file);
    try (ExposureStore s = store(300, 0.01)) {
      s.mark(1, 2L, 0);
      Path noDir = dir.resolve("missing").resolve("store.seen");
      assertEquals(Status.IO, assertThrows(SeenException.class, () -> s.save(noDir)).status());
    }
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void closeIsIdempotentAndLaterCallsThrow() {
    ExposureStore s = store(10, 0.01);
    s.close();
    s.close();
    assertThrows(IllegalStateException.class, () -> s.mark(1, 1L, 0));
    assertThrows(IllegalStateException.class, () -> s.filter(1, new long[1], 0));
    assertThrows(IllegalStateException.class, () -> s.take(1, new long[1], 0, 1, 1, 0));
    assertThrows(IllegalStateException.class, s::stats);
    assertThrows(IllegalStateException.class, s::isReadOnly);
  }
}
