package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Exposure windows: the span guarantee against an exact queue, forgetting past the slack, time
 * windows under a controlled clock (also going backwards), sizing, keys and batches.
 */
class WindowTest {
  /** SplitMix64: distinct, well-spread ids. */
  static long mix(long x) {
    long z = x + 0x9E3779B97F4A7C15L * (x + 1);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static int count(boolean[] out, int n) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      c += out[i] ? 1 : 0;
    }
    return c;
  }

  /**
   * Puts a stream of 6n ids in batches of 1 to 37; after every batch, each of the last n ids
   * (an exact ArrayDeque) must be found. Then ids older than n(1 + slack) and ids never put
   * are found only at about the false-positive rate.
   */
  private static void spanGuarantee(Window w, int n, double fpr) {
    ArrayDeque<Long> last = new ArrayDeque<>();
    long[] stream = new long[Math.max(6 * n, 3000)];
    for (int i = 0; i < stream.length; i++) {
      stream[i] = mix(i);
    }
    boolean[] out = new boolean[n];
    long[] recent = new long[n];
    for (int at = 0; at < stream.length;) {
      int batch = Math.min(1 + (int) Long.remainderUnsigned(mix(~at), 37), stream.length - at);
      if (batch == 1) {
        w.put(stream[at], 0);
      } else {
        w.putAll(stream, at, batch, 0);
      }
      for (int i = at; i < at + batch; i++) {
        last.addLast(stream[i]);
        if (last.size() > n) {
          last.removeFirst();
        }
      }
      at += batch;
      int k = 0;
      for (long id : last) {
        recent[k++] = id;
      }
      w.mightContainAll(recent, 0, k, 0, out);
      assertEquals(k, count(out, k), "one of the last " + n + " ids is missing after " + at);
    }
    int forgottenFrom = stream.length - (int) Math.ceil(n * (1 + w.slack())) - 1;
    boolean[] old = new boolean[1000];
    w.mightContainAll(stream, forgottenFrom - 1000, 1000, 0, old);
    assertTrue(count(old, 1000) <= 1000 * 3 * fpr + 5,
        count(old, 1000) + " of 1000 ids older than the span and slack still found");
    long[] fresh = new long[20_000];
    for (int i = 0; i < fresh.length; i++) {
      fresh[i] = mix(1_000_000 + i);
    }
    boolean[] wrong = new boolean[fresh.length];
    w.mightContainAll(fresh, 0, fresh.length, 0, wrong);
    double rate = count(wrong, fresh.length) / (double) fresh.length;
    assertTrue(rate <= 1.5 * fpr, "false-positive rate " + rate + " at target " + fpr);
  }

  @Test
  void ringKeepsTheLastItemsExactly() {
    try (Window w = Window.lastItems(100, 0.01)) {
      assertEquals(WindowInfo.Layout.RING, w.layout());
      spanGuarantee(w, 100, 0.01);
    }
  }

  @Test
  void packedKeepsTheLastItemsWithinItsSlack() {
    try (Window w = Window.lastItems(500, 0.01)) {
      assertEquals(WindowInfo.Layout.PACKED, w.layout());
      assertTrue(w.stateBytes() <= 880, "state " + w.stateBytes() + " B");
      spanGuarantee(w, 500, 0.01);
    }
  }

  @Test
  void slicedKeepsTheLastItemsWithinItsSlack() {
    try (Window w = Window.create(WindowSpec.lastItems(500).fpr(0.001).seed(9), 0)) {
      assertEquals(WindowInfo.Layout.SLICED, w.layout());
      spanGuarantee(w, 500, 0.001);
    }
  }

  @Test
  void byteBudgetWindowKeepsTheLastItems() {
    try (Window w = Window.lastItemsWithin(400, 500)) {
      assertTrue(w.stateBytes() <= 500, "state " + w.stateBytes() + " B over the budget");
      assertTrue(w.predictedFpp() > 0 && w.predictedFpp() < 0.2, "predicted " + w.predictedFpp());
      spanGuarantee(w, 400, w.predictedFpp());
    }
  }

  @Test
  void timeWindowRemembersTheLastHourUnderAControlledClock() {
    final long start = 1_000_000;
    final int span = 3600;
    try (Window w = Window.lastSeconds(span, 1000, 0.01, start)) {
      assertEquals(WindowSpec.Unit.SECONDS, w.unit());
      assertEquals(WindowInfo.Layout.TABLE, w.layout());
      assertTrue(w.span() >= span, "span " + w.span() + " (whole buckets)");
      int steps = 6 * 60;  // six hours, a minute apart, 10 items a minute
      long[] ids = new long[steps * 10];
      long[] when = new long[ids.length];
      boolean[] out = new boolean[ids.length];
      for (int s = 0; s < steps; s++) {
        long now = start + 60L * (s + 1);
        for (int i = s * 10; i < s * 10 + 10; i++) {
          ids[i] = mix(i + 77);
          when[i] = now;
        }
        w.putAll(ids, s * 10, 10, now);
        w.mightContainAll(ids, 0, s * 10 + 10, now, out);
        for (int i = 0; i < s * 10 + 10; i++) {
          if (now - when[i] < span) {
            assertTrue(out[i], "item put at " + when[i] + " lost at " + now);
          }
        }
      }
      long now = start + 60L * steps;
      long forgottenBefore = now - (long) Math.ceil(span * (1 + w.slack())) - 60;
      int old = 0;
      int found = 0;
      w.mightContainAll(ids, 0, ids.length, now, out);
      for (int i = 0; i < ids.length; i++) {
        if (when[i] < forgottenBefore) {
          old++;
          found += out[i] ? 1 : 0;
        }
      }
      assertTrue(old > 1000, "the test keeps enough old items");
      assertTrue(found <= old * 0.03 + 5, found + " of " + old + " items past the slack found");

      // The clock goes backwards: nothing recent is forgotten, and an item put at the earlier
      // time is found at both times.
      long skewed = now - 5000;
      w.put(42L, skewed);
      assertTrue(w.mightContain(42L, skewed));
      assertTrue(w.mightContain(42L, now));
      w.mightContainAll(ids, 0, ids.length, now, out);
      for (int i = 0; i < ids.length; i++) {
        if (now - when[i] < span) {
          assertTrue(out[i], "item put at " + when[i] + " lost after the clock went back");
        }
      }
    }
  }

  @Test
  void infoReportsWhatTheSpecBecame() {
    try (Window ring = Window.lastItems(100, 0.01);
        Window packed = Window.lastItems(500, 0.01);
        Window sliced = Window.create(
            WindowSpec.lastItems(200).fpr(0.001).maxSlack(0.5).seed(-3), 0)) {
      assertEquals(WindowInfo.Layout.RING, ring.layout());
      assertEquals(100, ring.span());
      assertEquals(0.0, ring.slack());
      assertEquals(0, ring.info().segments());
      assertTrue(ring.stateBytes() <= 208, "ring state " + ring.stateBytes());
      assertTrue(ring.predictedFpp() <= 0.01);
      assertEquals(0, ring.seed());
      assertEquals(WindowSpec.Unit.ITEMS, ring.unit());
      assertEquals(WindowInfo.Layout.PACKED, packed.layout());
      assertEquals(500, packed.span());
      assertEquals(0.2, packed.slack(), 1e-12);
      assertEquals(6, packed.info().segments());
      assertTrue(packed.stateBytes() <= 880, "packed state " + packed.stateBytes());
      assertTrue(packed.predictedFpp() <= 0.01);
      assertEquals(WindowInfo.Layout.SLICED, sliced.layout());
      assertTrue(sliced.slack() > 0 && sliced.slack() <= 0.5, "slack " + sliced.slack());
      assertTrue(sliced.info().segments() >= 3);
      assertTrue(sliced.predictedFpp() <= 0.001);
      assertEquals(-3, sliced.seed());
      assertTrue(sliced.toString().contains("SLICED"), sliced.toString());
    }
  }

  @Test
  void keysOfEveryTypeAgree() {
    try (Window w = Window.lastItems(1000, 0.001)) {
      String text = "新闻:42";
      w.put(text, 0);
      assertTrue(w.mightContain(text.getBytes(StandardCharsets.UTF_8), 0));
      byte[] framed = ("<<" + text + ">>").getBytes(StandardCharsets.UTF_8);
      assertTrue(w.mightContain(framed, 2, framed.length - 4, 0));
      w.put(new byte[0], 0);
      assertTrue(w.mightContain("", 0));
      byte[][] keys = new byte[300][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = ("k" + i).getBytes(StandardCharsets.UTF_8);
      }
      w.putAll(keys, 0);
      boolean[] out = new boolean[keys.length];
      w.mightContainAll(keys, 0, out);
      for (int i = 0; i < keys.length; i++) {
        assertTrue(out[i]);
        assertTrue(w.mightContain("k" + i, 0));
      }
      byte[][] fresh = new byte[1000][];
      for (int i = 0; i < fresh.length; i++) {
        fresh[i] = ("fresh" + i).getBytes(StandardCharsets.UTF_8);
      }
      boolean[] wrong = new boolean[fresh.length];
      w.mightContainAll(fresh, 0, wrong);
      assertTrue(count(wrong, wrong.length) <= 10);
      for (int i = 0; i < fresh.length; i++) {
        assertEquals(wrong[i], w.mightContain(fresh[i], 0));
      }
      assertFalse(w.mightContain(7L, 0) && w.mightContain(8L, 0) && w.mightContain(9L, 0));
    }
  }

  @Test
  void batchesHonourOffsetsAndCheckTheirArguments() {
    try (Window w = Window.lastItems(100, 0.001)) {
      long[] ids = {1, 2, 3, 4, 5, 6};
      w.putAll(ids, 2, 3, 0);  // 3, 4, 5
      boolean[] out = new boolean[6];
      w.mightContainAll(ids, 1, 5, 0, out);  // 2 .. 6
      assertArrayEquals(new boolean[] {false, true, true, true, false, false}, out);
      assertThrows(IndexOutOfBoundsException.class, () -> w.putAll(ids, 4, 3, 0));
      assertThrows(IllegalArgumentException.class,
          () -> w.mightContainAll(ids, 0, 6, 0, new boolean[5]));
      assertThrows(IllegalArgumentException.class,
          () -> w.putAll(new byte[4], new int[] {0, 3, 2}, 0, 2, 0));
      byte[] data = "abcdef".getBytes(StandardCharsets.US_ASCII);
      int[] offsets = {0, 3, 6};
      w.putAll(data, offsets, 1, 1, 0);  // "def" only
      boolean[] two = new boolean[2];
      w.mightContainAll(data, offsets, 0, 2, 0, two);
      assertArrayEquals(new boolean[] {false, true}, two);
      w.putAll(new long[0], 0, 0, 0);
      w.mightContainAll(new long[0], 0, 0, 0, new boolean[0]);
    }
  }

  @Test
  void itemWindowsNeedNoClockTimeWindowsDo() {
    try (Window items = Window.lastItems(100, 0.001);
        Window time = Window.lastSeconds(60, 100, 0.01, 0)) {
      items.put(5L);
      items.put("five");
      items.put(new byte[] {5});
      items.putAll(new long[] {6, 7}, 0, 2);
      boolean[] out = new boolean[3];
      items.mightContainAll(new long[] {5, 6, 8}, 0, 3, out);
      assertArrayEquals(new boolean[] {true, true, false}, out);
      assertTrue(items.mightContain(7L) && items.mightContain("five")
          && items.mightContain(new byte[] {5}));
      assertTrue(items.mightContain(7L, 123_456));  // any clock: item windows ignore it
      assertThrows(IllegalStateException.class, () -> time.put(5L));
      assertThrows(IllegalStateException.class, () -> time.mightContain("five"));
      assertThrows(IllegalStateException.class,
          () -> time.mightContainAll(new long[1], 0, 1, new boolean[1]));
    }
  }

  @Test
  void directBuffersMatchArrays() {
    try (Window w = Window.lastItems(1000, 0.001)) {
      ByteBuffer ids = ByteBuffer.allocateDirect(8 * 600).order(ByteOrder.nativeOrder());
      for (int i = 0; i < 600; i++) {
        ids.putLong(mix(i));
      }
      ids.flip().position(8 * 100);  // ids 100 .. 599
      w.putAll(ids, 0);
      assertEquals(800, ids.position());
      ids.position(0);
      ByteBuffer out = ByteBuffer.allocateDirect(600);
      w.mightContainAll(ids, 0, out);
      for (int i = 0; i < 600; i++) {
        assertEquals(i >= 100 ? 1 : w.mightContain(mix(i), 0) ? 1 : 0, out.get(i), "id " + i);
      }
      assertThrows(IllegalArgumentException.class, () -> w.putAll(ByteBuffer.allocate(8), 0));
      assertThrows(IllegalArgumentException.class,
          () -> w.mightContainAll(ids, 0, ByteBuffer.allocateDirect(10)));
    }
  }

  @Test
  void serializedFormRoundTrips() throws IOException {
    try (Window w = Window.lastSeconds(86400, 2000, 0.01, 500)) {
      for (long i = 0; i < 1500; i++) {
        w.put(mix(i), 500 + i * 30);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      w.writeTo(out);
      byte[] bytes = out.toByteArray();
      assertArrayEquals(bytes, w.toByteArray());
      try (Window back = Window.readFrom(new ByteArrayInputStream(bytes))) {
        assertArrayEquals(bytes, back.toByteArray());
        assertEquals(w.info().toString(), back.info().toString());
        long now = 500 + 1500 * 30;
        for (long i = 0; i < 1500; i++) {
          assertTrue(back.mightContain(mix(i), now));
        }
      }
    }
  }

  private static SeenException readError(byte[] bytes) {
    return assertThrows(SeenException.class,
        () -> Window.readFrom(new ByteArrayInputStream(bytes)).close());
  }

  @Test
  void badInputGetsItsOwnStatus() {
    byte[] bytes;
    try (Window w = Window.lastItems(300, 0.001)) {
      w.putAll(new long[] {1, 2, 3}, 0, 3, 0);
      bytes = w.toByteArray();
    }
    byte[] flipped = bytes.clone();
    flipped[flipped.length - 5] ^= 0x10;
    assertEquals(Status.BAD_CHECKSUM, readError(flipped).status());
    assertEquals(Status.TRUNCATED, readError(Arrays.copyOf(bytes, bytes.length - 1)).status());
    assertEquals(Status.BAD_MAGIC, readError("not a window at all".repeat(10).getBytes()).status());
    byte[] bloom;
    try (BloomFilter f = BloomFilter.create(100, 0.01)) {
      bloom = f.toByteArray();
    }
    assertEquals(Status.WRONG_KIND, readError(bloom).status());
    SeenException e = assertThrows(SeenException.class, () -> Window.lastItems(100, 1.5));
    assertEquals(Status.INVALID_ARGUMENT, e.status());
    assertFalse(e.getMessage().endsWith(": "), "carries the native detail: " + e.getMessage());
    try (Window w = Window.lastItems(100, 0.01)) {
      assertEquals(Status.INVALID_ARGUMENT,
          assertThrows(SeenException.class, () -> w.put(1L, 1L << 40)).status());
      assertEquals(Status.INVALID_ARGUMENT,
          assertThrows(SeenException.class, () -> w.mightContain(1L, -1)).status());
    }
    assertThrows(IllegalArgumentException.class, () -> WindowSpec.lastSeconds(3600, 0));
    assertThrows(IllegalArgumentException.class, () -> WindowSpec.lastItems(0));
    assertThrows(IllegalStateException.class, () -> WindowSpec.lastItemsWithin(10, 100).fpr(0.1));
  }

  @Test
  void closeIsIdempotentAndLaterCallsThrow() {
    Window w = Window.lastItems(10, 0.01);
    w.close();
    w.close();
    assertThrows(IllegalStateException.class, () -> w.put(1L, 0));
    assertThrows(IllegalStateException.class, () -> w.mightContain("x", 0));
    assertThrows(IllegalStateException.class,
        () -> w.mightContainAll(new long[1], 0, 1, 0, new boolean[1]));
    assertThrows(IllegalStateException.class, w::toByteArray);
    assertThrows(IllegalStateException.class, w::span);
    assertEquals("Window[closed]", w.toString());
  }
}
