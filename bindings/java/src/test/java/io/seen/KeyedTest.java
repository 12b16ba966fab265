package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyed filters, windows and stores: every key put is found, keys never put read present at
 * about the target rate, the bytes and file open only with the key (INCOMPATIBLE without it or
 * with another), the key itself is nowhere in the bytes, and a key moves where items hash.
 * Keyed SimHash features depend on the key.
 */
class KeyedTest {
  @TempDir Path dir;

  private static final byte[] KEY = "0123456789abcdef".getBytes();
  private static final byte[] OTHER = "0123456789abcdeg".getBytes();

  private static BloomFilter filled() {
    BloomFilter f = BloomFilter.createKeyed(20_000, 0.01, KEY);
    for (long i = 0; i < 20_000; i++) {
      f.put(i);
    }
    return f;
  }

  @Test
  void findsEveryKeyAtTheTargetRate() {
    try (BloomFilter f = filled()) {
      int present = 0;
      for (long i = 0; i < 20_000; i++) {
        assertTrue(f.mightContain(i));
        present += f.mightContain(1_000_000_000L + i) ? 1 : 0;
      }
      // 1% of 20,000 is 200 +- 14: 260 is four standard deviations.
      assertTrue(present < 260, present + " false positives");
    }
  }

  @Test
  void bytesAndFilesNeedTheKey() throws IOException {
    try (BloomFilter f = filled()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      f.writeTo(out);
      byte[] bytes = out.toByteArray();
      SeenException missing =
          assertThrows(SeenException.class, () -> BloomFilter.readFrom(new ByteArrayInputStream(bytes)));
      assertEquals(Status.INCOMPATIBLE, missing.status());
      assertThrows(SeenException.class, () -> BloomFilter.readFrom(new ByteArrayInputStream(bytes), OTHER));
      try (BloomFilter g = BloomFilter.readFrom(new ByteArrayInputStream(bytes), KEY)) {
        assertTrue(g.mightContain(19_999L));
      }
      Path path = dir.resolve("keyed.seen");
      f.save(path);
      assertThrows(SeenException.class, () -> BloomFilter.open(path, Mode.READ_ONLY));
      try (BloomFilter g = BloomFilter.open(path, Mode.READ_ONLY, KEY)) {
        assertTrue(g.mightContain(7L));
        assertTrue(g.isReadOnly());
      }
    }
  }

  @Test
  void shortKeysAreRefused() {
    SeenException e =
        assertThrows(SeenException.class, () -> BloomFilter.createKeyed(10, 0.01, new byte[8]));
    assertEquals(Status.INVALID_ARGUMENT, e.status());
  }

  /** A missing or wrong key fails with INCOMPATIBLE and a message saying why. */
  private static void assertIncompatible(Executable open) {
    SeenException e = assertThrows(SeenException.class, open);
    assertEquals(Status.INCOMPATIBLE, e.status());
    assertFalse(e.getMessage().isBlank(), "no message");
  }

  /** The file records a check value of the key, never the key. */
  private static void assertKeyAbsent(byte[] bytes) {
    for (int at = 0; at + KEY.length <= bytes.length; at++) {
      assertFalse(
          Arrays.equals(bytes, at, at + KEY.length, KEY, 0, KEY.length), "key at byte " + at);
    }
  }

  @Test
  void keyNeverReachesTheBloomBytes() {
    try (BloomFilter f = filled()) {
      assertKeyAbsent(f.toByteArray());
    }
  }

  /** The ids the keyed tests add. */
  private static final long[] IDS = LongStream.range(0, 5_000).toArray();

  /** The ids 0..4,999 that the keyed tests add are all found. */
  static void assertFindsTheIds(LongPredicate mightContain) {
    for (long i = 0; i < 5_000; i++) {
      assertTrue(mightContain.test(i), "id " + i);
    }
  }

  /** 5,000 ids never added read seen at about 1%: 50 +- 7, so 80 is four standard deviations. */
  static void assertRateOnFreshIds(LongPredicate mightContain) {
    int present = 0;
    for (long i = 0; i < 5_000; i++) {
      present += mightContain.test(1_000_000_000L + i) ? 1 : 0;
    }
    assertTrue(present < 80, present + " false positives");
  }

  /** Opens an object's bytes or file (a Path) with a key, or without one if it is null. */
  interface Opener<S, T> {
    T open(S source, byte[] key) throws IOException;
  }

  private static ByteArrayInputStream in(byte[] bytes) {
    return new ByteArrayInputStream(bytes);
  }

  /**
   * A source (bytes or file) of a keyed object holding the keyed test's ids opens only with its
   * key, into an object that finds them all.
   */
  private static <S, T extends AutoCloseable> void assertOpensOnlyWithTheKey(
      S source, Opener<S, T> open, Function<T, LongPredicate> finds) throws Exception {
    assertIncompatible(() -> open.open(source, null));
    assertIncompatible(() -> open.open(source, OTHER));
    T back = open.open(source, KEY);
    try {
      assertFindsTheIds(finds.apply(back));
    } finally {
      back.close();  // not try-with-resources: AutoCloseable's close may throw InterruptedException
    }
  }

  /**
   * A keyed object holding the ids 0..4,999: finds them all at the target rate; its bytes hold
   * no key and open only with it; its copy is keyed alike and equal.
   */
  private static <T extends NativeObject<T>> void assertKeyedObject(
      T keyed, Opener<byte[], T> fromBytes, Function<T, LongPredicate> finds) throws Exception {
    assertTrue(keyed.isKeyed());
    assertFindsTheIds(finds.apply(keyed));
    assertRateOnFreshIds(finds.apply(keyed));
    byte[] bytes = keyed.toByteArray();
    assertKeyAbsent(bytes);
    assertOpensOnlyWithTheKey(bytes, fromBytes, finds);
    try (T copy = keyed.copy()) {
      assertTrue(copy.isKeyed());
      assertEquals(keyed, copy);
      assertFindsTheIds(finds.apply(copy));
    }
  }

  /**
   * A keyed filter, given the keyed test's ids: as {@link #assertKeyedObject}, and its file too
   * opens only with the key.
   */
  private <F extends Filter<F>> void assertKeyedFilter(F keyed, ReadBack.Reader<F> read,
      ReadBack.KeyedReader<F> readKeyed, ReadBack.Opener<F> open,
      ReadBack.KeyedOpener<F> openKeyed) throws Exception {
    keyed.putAll(IDS);
    assertKeyedObject(keyed,
        (b, k) -> k == null ? read.readFrom(in(b)) : readKeyed.readFrom(in(b), k),
        g -> g::mightContain);
    Path path = dir.resolve("keyed-" + keyed.kind + ".seen");
    keyed.save(path);
    assertOpensOnlyWithTheKey(path, (p, k) -> k == null ? open.open(p, Mode.READ_ONLY)
        : openKeyed.open(p, Mode.READ_ONLY, k), g -> g::mightContain);
  }

  @Test
  void keyedCountingAndScalableFiltersNeedTheirKey() throws Exception {
    try (CountingFilter counting = CountingFilter.createKeyed(5_000, 0.01, KEY);
        // 100 keys per first sub-filter: 5,000 keys make it grow, so every sub-filter is keyed.
        ScalableFilter scalable = ScalableFilter.createKeyed(100, 0.01, KEY)) {
      assertKeyedFilter(counting, CountingFilter::readFrom, CountingFilter::readFrom,
          CountingFilter::open, CountingFilter::open);
      assertKeyedFilter(scalable, ScalableFilter::readFrom, ScalableFilter::readFrom,
          ScalableFilter::open, ScalableFilter::open);
      assertTrue(scalable.subFilterCount() > 1);
    }
  }

  @Test
  void keyedWindowNeedsItsKey() throws Exception {
    WindowSpec spec = WindowSpec.lastItems(5_000).key(KEY);
    assertTrue(spec.isKeyed());
    assertFalse(spec.toString().contains(new String(KEY)), spec.toString());
    try (Window w = Window.create(spec, 0)) {
      w.putAll(IDS, 0, IDS.length);
      assertKeyedObject(w, (b, k) -> k == null ? Window.readFrom(in(b))
          : Window.readFrom(in(b), k), v -> v::mightContain);
    }
  }

  /** Whether a store's user 7 was shown the id. */
  private static LongPredicate shownTo7(ExposureStore store) {
    return id -> !store.filter(7, new long[] {id}, 0)[0];
  }

  @Test
  void keyedStoreNeedsItsKey() throws Exception {
    try (ExposureStore store = ExposureStore.builder(WindowSpec.lastItems(5_000).key(KEY)).build()) {
      store.mark(7, IDS, 0);
      assertFindsTheIds(shownTo7(store));
      assertRateOnFreshIds(shownTo7(store));
      Path path = dir.resolve("keyed.store");
      store.save(path);
      assertKeyAbsent(Files.readAllBytes(path));
      assertOpensOnlyWithTheKey(path, (p, k) -> k == null ? ExposureStore.open(p, Mode.READ_ONLY)
          : ExposureStore.open(p, Mode.READ_ONLY, k), KeyedTest::shownTo7);
    }
  }

  /** The fresh ids (never added) a query reads as present: where the hashing put them. */
  private static Set<Long> falsePositives(LongPredicate mightContain) {
    Set<Long> found = new HashSet<>();
    for (long i = 0; i < 5_000; i++) {
      if (mightContain.test(1_000_000_000L + i)) {
        found.add(1_000_000_000L + i);
      }
    }
    return found;
  }

  /** The false positives of a window and of a store's user holding the ids, under a key or none. */
  private static List<Set<Long>> positions(byte[] key) {
    WindowSpec spec = WindowSpec.lastItems(5_000);
    if (key != null) {
      spec = spec.key(key);
    }
    try (Window w = Window.create(spec, 0); ExposureStore store = ExposureStore.builder(spec).build()) {
      w.putAll(IDS, 0, IDS.length);
      store.mark(7, IDS, 0);
      return List.of(falsePositives(w::mightContain), falsePositives(shownTo7(store)));
    }
  }

  @Test
  void aKeyMovesWhereWindowsAndStoresHashTheirItems() {
    List<Set<Long>> plain = positions(null);
    List<Set<Long>> keyed = positions(KEY);
    assertEquals(keyed, positions(KEY), "the same key hashes alike");
    for (int kind = 0; kind < 2; kind++) {
      assertFalse(keyed.get(kind).isEmpty(), "no false positives to compare");
      assertNotEquals(plain.get(kind), keyed.get(kind));
      assertNotEquals(keyed.get(kind), positions(OTHER).get(kind));
    }
  }

  @Test
  void keyedSimHashFeaturesDependOnTheKey() {
    List<String> words = List.of("the", "quick", "brown", "fox", "jumps");
    byte[][] utf8 = words.stream().map(w -> w.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    long keyed = SimHash.ofFeatures(words, null, KEY);
    assertEquals(keyed, SimHash.ofFeatures(utf8, null, KEY));
    assertNotEquals(keyed, SimHash.ofFeatures(words, null, OTHER));
    assertNotEquals(keyed, SimHash.ofFeatures(words, null));
    SeenException shortKey =
        assertThrows(SeenException.class, () -> SimHash.ofFeatures(words, null, new byte[8]));
    assertEquals(Status.INVALID_ARGUMENT, shortKey.status());
    assertThrows(NullPointerException.class, () -> SimHash.ofFeatures(utf8, null, (byte[]) null));
  }
}
