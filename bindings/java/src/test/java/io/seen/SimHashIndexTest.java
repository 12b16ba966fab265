package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index against brute force, its multiset semantics, clusters, persistence and misuse. */
class SimHashIndexTest {
  @TempDir Path dir;

  /** Random fingerprints, a share of them a few bits from an earlier one, so matches exist. */
  private static long[] fingerprints(Random rnd, int n) {
    long[] fps = new long[n];
    for (int i = 0; i < n; i++) {
      if (i > 0 && rnd.nextInt(3) == 0) {
        fps[i] = flip(rnd, fps[rnd.nextInt(i)], rnd.nextInt(9));
      } else {
        fps[i] = rnd.nextLong();
      }
    }
    return fps;
  }

  private static long flip(Random rnd, long fp, int bits) {
    for (int b = 0; b < bits; b++) {
      fp ^= 1L << rnd.nextInt(64);
    }
    return fp;
  }

  private static List<SimHashIndex.Match> bruteForce(long[] ids, long[] fps, long query, int k) {
    List<SimHashIndex.Match> out = new ArrayList<>();
    for (int i = 0; i < fps.length; i++) {
      int d = Long.bitCount(fps[i] ^ query);
      if (d <= k) {
        out.add(new SimHashIndex.Match(ids[i], d));
      }
    }
    out.sort(Comparator.comparingInt(SimHashIndex.Match::distance)
        .thenComparing(SimHashIndex.Match::id, Long::compareUnsigned));
    return out;
  }

  private static long[] ids(int n) {
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = 1000 + i;
    }
    return ids;
  }

  /** Queries: stored fingerprints moved 0..maxK+1 bits, and random ones. */
  private static long[] queries(Random rnd, long[] stored, int n, int maxK) {
    long[] q = new long[n];
    for (int i = 0; i < n; i++) {
      q[i] = i % 4 == 3 ? rnd.nextLong()
          : flip(rnd, stored[rnd.nextInt(stored.length)], rnd.nextInt(maxK + 2));
    }
    return q;
  }

  private void agreesWithBruteForce(int maxK, int n, int queryCount, long seed) {
    Random rnd = new Random(seed);
    long[] fps = fingerprints(rnd, n);
    long[] ids = ids(n);
    long[] q = queries(rnd, fps, queryCount, maxK);
    int mismatches = 0;
    long matches = 0;
    try (SimHashIndex index = SimHashIndex.create(maxK)) {
      index.addAll(ids, fps, 0, n / 2);
      for (int i = n / 2; i < n; i++) {
        index.add(ids[i], fps[i]);
      }
      assertEquals(n, index.size());
      for (int k = 0; k <= maxK; k++) {
        SimHashIndex.BatchMatches batch = index.queryAll(q, 0, q.length, k);
        boolean[] any = new boolean[q.length];
        index.anyAll(q, 0, q.length, k, any);
        for (int i = 0; i < q.length; i++) {
          List<SimHashIndex.Match> expected = bruteForce(ids, fps, q[i], k);
          List<SimHashIndex.Match> got = index.query(q[i], k);
          matches += expected.size();
          if (!expected.equals(new ArrayList<>(got)) || !expected.equals(batch.get(i))
              || any[i] != !expected.isEmpty() || index.any(q[i], k) != any[i]) {
            mismatches++;
          }
        }
      }
    }
    assertEquals(0, mismatches, "queries that differ from brute force");
    assertTrue(matches > queryCount, "the test finds matches: " + matches);
  }

  @Test
  void indexAgreesWithBruteForceAtK3() {
    agreesWithBruteForce(3, 20_000, 2_000, 42);
  }

  @Test
  void indexAgreesWithBruteForceAtK7() {
    agreesWithBruteForce(7, 5_000, 300, 7);
  }

  @Test
  void duplicateIdsAreKeptAsSeparatePairs() {
    try (SimHashIndex index = SimHashIndex.create(3)) {
      index.add(5, 0xF0F0L);
      index.add(5, 0xF0F1L);
      index.add(5, 0xF0F0L);
      index.add(6, 0xF0F3L);
      assertEquals(4, index.size());
      assertEquals(List.of(new SimHashIndex.Match(5, 0), new SimHashIndex.Match(5, 0),
          new SimHashIndex.Match(5, 1), new SimHashIndex.Match(6, 2)),
          new ArrayList<>(index.query(0xF0F0L)));
      assertEquals(3, index.remove(5));
      assertEquals(0, index.remove(5), "an absent id removes nothing");
      assertEquals(List.of(new SimHashIndex.Match(6, 2)), new ArrayList<>(index.query(0xF0F0L)));
    }
  }

  @Test
  void removeTakesEveryPairOfTheIds() {
    Random rnd = new Random(3);
    long[] fps = fingerprints(rnd, 3000);
    long[] ids = ids(3000);
    try (SimHashIndex index = SimHashIndex.create(3)) {
      index.addAll(ids, fps, 0, fps.length);
      index.build();
      long[] gone = Arrays.copyOfRange(ids, 0, 1000);
      assertEquals(1000, index.removeAll(gone, 0, gone.length));
      assertEquals(2000, index.size());
      for (int i = 0; i < 1000; i++) {
        for (SimHashIndex.Match m : index.query(fps[i])) {
          assertTrue(m.id() >= ids[1000], "removed id " + m.id() + " still found");
        }
      }
      for (int i = 1000; i < 3000; i += 7) {
        assertEquals(bruteForce(Arrays.copyOfRange(ids, 1000, 3000),
            Arrays.copyOfRange(fps, 1000, 3000), fps[i], 3), new ArrayList<>(index.query(fps[i])));
      }
      index.add(ids[0], fps[0]);
      assertTrue(index.query(fps[0], 0).contains(new SimHashIndex.Match(ids[0], 0)));
    }
  }

  @Test
  void queryIntoCallerArraysReportsTheTotal() {
    try (SimHashIndex index = SimHashIndex.create(2)) {
      for (int i = 0; i < 100; i++) {
        index.add(i, 0xABCDL ^ (i % 2));
      }
      long[] ids = new long[10];
      int[] distances = new int[10];
      assertEquals(100, index.query(0xABCDL, 1, ids, distances));
      assertArrayEquals(new long[] {0, 2, 4, 6, 8, 10, 12, 14, 16, 18}, ids);
      assertEquals(100, index.query(0xABCDL).size(), "the list form grows past its first guess");
      assertEquals(0, index.query(~0xABCDL).size());
      assertThrows(IllegalArgumentException.class, () -> index.query(1, 3));
      assertThrows(IllegalArgumentException.class, () -> index.any(1, -1));
    }
  }

  @Test
  void clustersNeverChainFarPairs() {
    try (SimHashIndex index = SimHashIndex.create(3)) {
      long a = 0x1234_5678_9ABC_DEF0L;
      index.add(1, a);
      index.add(2, a ^ 0b111);           // 3 from 1: joins 1, the representative
      index.add(3, a ^ 0b111_000_000);   // 3 from 1 but 6 from 2: not in their group
      index.add(4, a ^ 0b111_000_111);   // 3 from 2 and from 3 but 6 from 1: joins 3
      index.add(5, ~a);                  // far from everything
      index.add(6, ~a ^ 1);              // 1 from 5
      index.add(7, 0x0F0F_0F0F_0F0F_0F0FL);
      SimHashIndex.Clusters c = index.clusters();
      assertEquals(7, c.size());
      assertEquals(4, c.groupCount());
      long[] byId = new long[8];
      for (int i = 0; i < c.size(); i++) {
        byId[(int) c.id(i)] = c.group(i);
      }
      assertEquals(byId[1], byId[2]);
      assertTrue(byId[3] != byId[1], "3 is 6 from 2: the group's diameter stays within 3");
      assertEquals(byId[3], byId[4]);
      assertEquals(byId[5], byId[6]);
      assertTrue(byId[7] != byId[1] && byId[7] != byId[4] && byId[7] != byId[5]);
      List<long[]> groups = c.groups(2);
      assertEquals(3, groups.size());
      assertEquals(6, groups.get(0).length + groups.get(1).length + groups.get(2).length);
      assertEquals(7, index.clusters(0).groupCount(), "at k = 0 every pair stands alone");
    }
    try (SimHashIndex empty = SimHashIndex.create(3)) {
      assertEquals(0, empty.clusters().size());
      assertEquals(0, empty.queryAll(new long[0]).size());
    }
  }

  @Test
  void clustersAgreeWithBruteForceLeaders() {
    Random rnd = new Random(11);
    long[] fps = fingerprints(rnd, 2000);
    long[] ids = ids(2000);
    // Leaders in id order (ids rise with i), each taking, in id order, every pair not yet
    // taken that is within 3 of every member so far.
    int[] leader = new int[fps.length];
    Arrays.fill(leader, -1);
    for (int l = 0; l < fps.length; l++) {
      if (leader[l] >= 0) {
        continue;
      }
      List<Integer> taken = new ArrayList<>();
      for (int j = 0; j < fps.length; j++) {
        final int candidate = j;
        if (leader[j] < 0 && taken.stream().allMatch(m -> Long.bitCount(fps[m] ^ fps[candidate]) <= 3)
            && Long.bitCount(fps[l] ^ fps[j]) <= 3) {
          leader[j] = l;
          taken.add(j);
        }
      }
    }
    try (SimHashIndex index = SimHashIndex.create(3)) {
      index.addAll(ids, fps, 0, fps.length);
      SimHashIndex.Clusters c = index.clusters(3);
      int[] groupOf = new int[fps.length];
      for (int i = 0; i < c.size(); i++) {
        groupOf[(int) (c.id(i) - 1000)] = c.group(i);
      }
      for (int i = 0; i < fps.length; i++) {
        assertTrue(Long.bitCount(fps[i] ^ fps[leader[i]]) <= 3);
        for (int j = 0; j < i; j += 13) {
          assertEquals(leader[i] == leader[j], groupOf[i] == groupOf[j]);
          if (groupOf[i] == groupOf[j]) {
            assertTrue(Long.bitCount(fps[i] ^ fps[j]) <= 3, "a group's diameter is within k");
          }
        }
      }
    }
  }

  private static SimHashIndex filled(Random rnd, long[] fps) {
    SimHashIndex index = SimHashIndex.create(4);
    index.addAll(ids(fps.length), fps, 0, fps.length);
    return index;
  }

  /** Array slices are read from their offset: the natives copy exactly the slice. */
  @Test
  void slicesAreReadFromTheirOffset() {
    byte[] text = "xx the quick brown fox jumps over the lazy dog yy".getBytes(StandardCharsets.UTF_8);
    assertEquals(SimHash.fingerprints(Arrays.copyOfRange(text, 3, 47), 0, 44,
        SimHash.Options.DEFAULT), SimHash.fingerprints(text, 3, 44, SimHash.Options.DEFAULT));
    long[] hashes = fingerprints(new Random(41), 40);
    float[] weights = new float[40];
    Arrays.fill(weights, 10, 30, 2.5f);
    assertEquals(SimHash.ofHashes(Arrays.copyOfRange(hashes, 10, 30), null, 0, 20),
        SimHash.ofHashes(hashes, weights, 10, 20));
    long[] fps = fingerprints(new Random(43), 100);
    try (SimHashIndex index = filled(new Random(43), fps)) {
      assertArrayEquals(index.queryAll(Arrays.copyOfRange(fps, 20, 30), 0, 10, 2).ids(),
          index.queryAll(fps, 20, 10, 2).ids());
      assertEquals(10, index.removeAll(ids(100), 90, 10));  // ids 1090 .. 1099
      assertEquals(90, index.size());
      assertTrue(index.query(fps[89], 0).stream().anyMatch(m -> m.id() == 1089));
      assertFalse(index.query(fps[90], 0).stream().anyMatch(m -> m.id() == 1090));
    }
  }

  @Test
  void roundTripsThroughBytesStreamsAndFiles() throws Exception {
    Random rnd = new Random(17);
    long[] fps = fingerprints(rnd, 5000);
    long[] q = queries(rnd, fps, 200, 4);
    try (SimHashIndex index = filled(rnd, fps)) {
      index.add(1000, fps[1]);  // a duplicate id survives the trip
      byte[] bytes = index.toByteArray();
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      index.writeTo(stream);
      assertArrayEquals(bytes, stream.toByteArray());
      Path file = dir.resolve("index.seen");
      index.save(file);
      assertArrayEquals(bytes, Files.readAllBytes(file));
      assertTrue(index.memoryBytes() > 0);
      try (SimHashIndex copy = SimHashIndex.readFrom(new ByteArrayInputStream(bytes));
          SimHashIndex mapped = SimHashIndex.open(file);
          SimHashIndex unverified = SimHashIndex.open(file, false)) {
        assertFalse(copy.isReadOnly());
        assertTrue(mapped.isReadOnly());
        assertEquals(4, mapped.maxK());
        assertEquals(index.size(), mapped.size());
        for (SimHashIndex other : List.of(copy, mapped, unverified)) {
          for (int k = 0; k <= 4; k += 2) {
            SimHashIndex.BatchMatches want = index.queryAll(q, 0, q.length, k);
            SimHashIndex.BatchMatches got = other.queryAll(q, 0, q.length, k);
            assertArrayEquals(want.ids(), got.ids());
            assertArrayEquals(want.distances(), got.distances());
          }
        }
        assertEquals(Status.READ_ONLY,
            assertThrows(SeenException.class, () -> mapped.add(1, 2)).status());
        assertEquals(Status.READ_ONLY,
            assertThrows(SeenException.class, () -> mapped.remove(1000)).status());
        copy.add(99, 99);
        assertEquals(index.size() + 1, copy.size());
      }
    }
  }

  @Test
  void corruptInputGetsItsOwnStatus() throws Exception {
    byte[] bytes;
    try (SimHashIndex index = filled(new Random(2), fingerprints(new Random(2), 500))) {
      bytes = index.toByteArray();
    }
    assertEquals(Status.BAD_MAGIC, readError("not an index at all".repeat(20).getBytes()));
    assertEquals(Status.TRUNCATED, readError(Arrays.copyOf(bytes, bytes.length - 1)));
    byte[] flipped = bytes.clone();
    flipped[flipped.length - 10] ^= 0x20;
    assertEquals(Status.BAD_CHECKSUM, readError(flipped));
    try (BloomFilter f = BloomFilter.create(100, 0.01)) {
      assertEquals(Status.WRONG_KIND, readError(f.toByteArray()));
    }
    assertEquals(Status.TRUNCATED, readError(new byte[0]));
    Path file = dir.resolve("flipped.seen");
    Files.write(file, flipped);
    assertEquals(Status.BAD_CHECKSUM,
        assertThrows(SeenException.class, () -> SimHashIndex.open(file).close()).status());
    assertEquals(Status.IO, assertThrows(SeenException.class,
        () -> SimHashIndex.open(dir.resolve("absent.seen"))).status());
    assertEquals(Status.INVALID_ARGUMENT,
        assertThrows(SeenException.class, () -> SimHashIndex.create(8)).status());
  }

  private static Status readError(byte[] bytes) {
    SeenException e = assertThrows(SeenException.class,
        () -> SimHashIndex.readFrom(new ByteArrayInputStream(bytes)).close());
    assertFalse(e.getMessage().endsWith(": "), "carries the native detail: " + e.getMessage());
    return e.status();
  }

  @Test
  void directBuffersMatchArrays() {
    Random rnd = new Random(29);
    long[] fps = fingerprints(rnd, 4000);
    long[] ids = ids(fps.length);
    long[] q = queries(rnd, fps, 500, 3);
    ByteBuffer idBuf = ByteBuffer.allocateDirect(8 * (ids.length + 1)).order(ByteOrder.nativeOrder());
    ByteBuffer fpBuf = ByteBuffer.allocateDirect(8 * fps.length).order(ByteOrder.nativeOrder());
    idBuf.putLong(-1);  // skipped: the ids start at position 8
    for (int i = 0; i < ids.length; i++) {
      idBuf.putLong(ids[i]);
      fpBuf.putLong(fps[i]);
    }
    idBuf.flip().position(8);
    fpBuf.flip();
    ByteBuffer qBuf = ByteBuffer.allocateDirect(8 * q.length).order(ByteOrder.nativeOrder());
    qBuf.asLongBuffer().put(q);
    ByteBuffer out = ByteBuffer.allocateDirect(q.length + 3);
    out.position(3);
    try (SimHashIndex arrays = SimHashIndex.create(3); SimHashIndex direct = SimHashIndex.create(3)) {
      arrays.addAll(ids, fps, 0, ids.length);
      direct.addAll(idBuf, fpBuf);
      assertEquals(8, idBuf.position(), "positions are left unchanged");
      boolean[] want = new boolean[q.length];
      arrays.anyAll(q, 0, q.length, 2, want);
      direct.anyAll(qBuf, 2, out);
      for (int i = 0; i < q.length; i++) {
        assertEquals(want[i] ? 1 : 0, out.get(3 + i));
        assertEquals(arrays.query(q[i]), direct.query(q[i]));
      }
      assertThrows(IllegalArgumentException.class,
          () -> direct.addAll(idBuf, fpBuf.duplicate().limit(8)));
      assertThrows(IllegalArgumentException.class,
          () -> direct.anyAll(ByteBuffer.allocate(8), 2, out));
    }
  }

  @Test
  void closeTwiceIsHarmlessAndUseAfterCloseThrows() {
    SimHashIndex index = SimHashIndex.create(3);
    index.add(1, 1);
    index.close();
    index.close();
    assertThrows(IllegalStateException.class, () -> index.add(2, 2));
    assertThrows(IllegalStateException.class, () -> index.query(1));
    assertThrows(IllegalStateException.class, () -> index.any(1));
    assertThrows(IllegalStateException.class, () -> index.queryAll(new long[1]));
    assertThrows(IllegalStateException.class, () -> index.remove(1));
    assertThrows(IllegalStateException.class, index::clusters);
    assertThrows(IllegalStateException.class, index::size);
    assertThrows(IllegalStateException.class, index::toByteArray);
    assertThrows(IllegalStateException.class, index::maxK);
    assertEquals("SimHashIndex[closed]", index.toString());
  }

  @Test
  void concurrentFirstQueriesAgree() throws Exception {
    Random rnd = new Random(23);
    long[] fps = fingerprints(rnd, 20_000);
    long[] ids = ids(fps.length);
    long[] q = queries(rnd, fps, 400, 3);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (SimHashIndex index = SimHashIndex.create(3)) {
      index.addAll(ids, fps, 0, fps.length);  // staged: the first queries race to build
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> {
          int bad = 0;
          for (long fp : q) {
            if (!bruteForce(ids, fps, fp, 3).equals(new ArrayList<>(index.query(fp)))) {
              bad++;
            }
          }
          return bad;
        }));
      }
      for (Future<Integer> r : results) {
        assertEquals(0, r.get());
      }
    } finally {
      pool.shutdown();
    }
  }
}
