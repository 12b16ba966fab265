package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Has this item been shown recently? An exposure window held in native memory remembers the
 * last N items, or the items of the last N seconds, and forgets older ones within a stated
 * slack. Every item put within the span is always found (no false negatives); an item never
 * put is wrongly found at about the rate asked for, counted over the whole window.
 *
 * <pre>{@code
 * try (Window shown = Window.lastItems(500, 0.01)) {
 *   shown.putAll(page, 0, page.length, now);
 *   shown.mightContainAll(candidates, 0, candidates.length, now, out);
 * }
 * }</pre>
 *
 * <p>Time: {@code now} is the caller's clock in seconds of any epoch, at most 2^32 - 1 (else
 * {@link SeenException} INVALID_ARGUMENT). Item windows ignore it, and have overloads without
 * it ({@code put(id)}, {@code mightContain(id)}, ...), which a time window refuses with
 * {@link IllegalStateException}. In a time window a clock that goes backwards never makes the
 * window forget anything early.
 *
 * <p>Keys: a {@code long} hashes as its 8 little-endian bytes, a {@code CharSequence} as its
 * UTF-8 bytes, with the window's seed, exactly as in the other bindings and the C API.
 *
 * <p>Thread safety: none for puts. {@code mightContain*} and the getters may run concurrently
 * with each other, but a put needs exclusive access: no other call on this window may run at
 * the same time. For many users shared between threads, use {@link ExposureStore}, which is
 * thread-safe.
 *
 * <p>Lifetime: {@link #close()} frees the native memory, or a {@link Cleaner} does once the
 * window is unreachable. Closing twice is harmless; any other call after close throws
 * {@link IllegalStateException}.
 */
public final class Window extends NativeObject<Window> {
  private static final long serialVersionUID = 1L;

  private final WindowInfo info;

  /** Wraps the handle a native made (a native that failed has thrown already). */
  private Window(long handle, byte[] key) {
    super(Kind.WINDOW, handle, key, Window::new);
    long[] v = WindowInfo.buffer();
    this.handle.checkOrFree(NativeWindow.info(handle, v));
    this.info = WindowInfo.of(v);
  }

  /**
   * An empty window as {@code spec} says; {@code now} starts the clock of a time window. A
   * keyed spec ({@link WindowSpec#key}) makes a keyed window.
   */
  public static Window create(WindowSpec spec, long now) {
    return made(spec.key, Window::new, out -> NativeWindow.create(spec.unit.code, spec.span,
        spec.expectedItems, spec.fpr, spec.maxSlack, spec.seed, spec.maxBytes, spec.key, now,
        out));
  }

  /** Remembers the last {@code n} items at total false-positive rate {@code fpp}, seed 0. */
  public static Window lastItems(int n, double fpp) {
    return create(WindowSpec.lastItems(n).fpr(fpp), 0);
  }

  /**
   * Remembers the items of the last {@code seconds} seconds, sized for at most
   * {@code expectedItems} of them at rate {@code fpp}; the clock starts at {@code now}.
   */
  public static Window lastSeconds(long seconds, int expectedItems, double fpp, long now) {
    return create(WindowSpec.lastSeconds(seconds, expectedItems).fpr(fpp), now);
  }

  /** Remembers the last {@code n} items at the lowest rate that fits {@code maxBytes} of state. */
  public static Window lastItemsWithin(int n, long maxBytes) {
    return create(WindowSpec.lastItemsWithin(n, maxBytes), 0);
  }

  /**
   * Reads a window written by {@link #writeTo(OutputStream)} (or by any binding), after full
   * validation. Reads {@code in} to its end. Throws {@link SeenException} with BAD_MAGIC,
   * TRUNCATED, BAD_CHECKSUM, WRONG_KIND (a Bloom filter, say), ... on other input, and
   * INCOMPATIBLE for a keyed window's bytes.
   */
  public static Window readFrom(InputStream in) throws IOException {
    return read(Kind.WINDOW, in, null, Window::new);
  }

  /** Reads a keyed window's serialized form, with its key (INCOMPATIBLE for another). */
  public static Window readFrom(InputStream in, byte[] key) throws IOException {
    return read(Kind.WINDOW, in, secret(key), Window::new);
  }

  /** Records that the item was shown at {@code now}. */
  public void put(long id, long now) {
    handle.run(this, h -> NativeWindow.putLong(h, id, now));
  }

  public void put(byte[] key, long now) {
    put(key, 0, key.length, now);
  }

  /** Records the key {@code key[off .. off+len)}. */
  public void put(byte[] key, int off, int len, long now) {
    Objects.checkFromIndexSize(off, len, key.length);
    handle.run(this, h -> NativeWindow.putBytes(h, key, off, len, now));
  }

  /** Records the UTF-8 bytes of {@code key}. */
  public void put(CharSequence key, long now) {
    put(Utf8.of(key), now);
  }

  /**
   * False means the id was not put within the window's span (nor, usually, its slack); true
   * means it probably was. Always true for an id put within the span.
   */
  public boolean mightContain(long id, long now) {
    return handle.answer(this, h -> NativeWindow.testLong(h, id, now)) == 1;
  }

  public boolean mightContain(byte[] key, long now) {
    return mightContain(key, 0, key.length, now);
  }

  public boolean mightContain(byte[] key, int off, int len, long now) {
    Objects.checkFromIndexSize(off, len, key.length);
    return handle.answer(this, h -> NativeWindow.testBytes(h, key, off, len, now)) == 1;
  }

  public boolean mightContain(CharSequence key, long now) {
    return mightContain(Utf8.of(key), now);
  }

  /** The clock of the overloads without {@code now}: item windows only. */
  private long itemClock() {
    if (info().unit() == WindowSpec.Unit.SECONDS) {
      throw new IllegalStateException("a time window needs the time: pass now");
    }
    return 0;
  }

  /** For an item window: {@link #put(long, long)} without a clock. */
  public void put(long id) {
    put(id, itemClock());
  }

  /** For an item window: {@link #put(byte[], long)} without a clock. */
  public void put(byte[] key) {
    put(key, itemClock());
  }

  /** For an item window: {@link #put(CharSequence, long)} without a clock. */
  public void put(CharSequence key) {
    put(key, itemClock());
  }

  /** For an item window: {@link #mightContain(long, long)} without a clock. */
  public boolean mightContain(long id) {
    return mightContain(id, itemClock());
  }

  /** For an item window: {@link #mightContain(byte[], long)} without a clock. */
  public boolean mightContain(byte[] key) {
    return mightContain(key, itemClock());
  }

  /** For an item window: {@link #mightContain(CharSequence, long)} without a clock. */
  public boolean mightContain(CharSequence key) {
    return mightContain(key, itemClock());
  }

  /** For an item window: {@link #putAll(long[], int, int, long)} without a clock. */
  public void putAll(long[] ids, int off, int len) {
    putAll(ids, off, len, itemClock());
  }

  /** For an item window: {@link #mightContainAll(long[], int, int, long, boolean[])} without a clock. */
  public void mightContainAll(long[] ids, int off, int len, boolean[] out) {
    mightContainAll(ids, off, len, itemClock(), out);
  }

  /** Records {@code ids[off .. off+len)}, in order, in one native call. */
  public void putAll(long[] ids, int off, int len, long now) {
    Objects.checkFromIndexSize(off, len, ids.length);
    handle.run(this, h -> NativeWindow.addLongs(h, ids, off, len, now));
  }

  /** Sets {@code out[i] = mightContain(ids[off + i], now)} for i in 0 .. len, in one native call. */
  public void mightContainAll(long[] ids, int off, int len, long now, boolean[] out) {
    Objects.checkFromIndexSize(off, len, ids.length);
    Batches.checkOut(len, out);
    handle.run(this, h -> NativeWindow.testLongs(h, ids, off, len, now, out, 0));
  }

  /**
   * Records, in order, the 64-bit ids between the position and limit of a direct buffer, read
   * in native byte order (fill it through {@code order(ByteOrder.nativeOrder())}); the position
   * must be 8-byte aligned. Positions are left unchanged.
   */
  public void putAll(ByteBuffer ids, long now) {
    long n = Batches.longsIn(ids, "ids");
    handle.run(this, h -> NativeWindow.addLongsDirect(h, ids, ids.position(), n, now));
  }

  /** As {@link #putAll(ByteBuffer, long)}; writes one byte per id (1 = might contain) from out's position. */
  public void mightContainAll(ByteBuffer ids, long now, ByteBuffer out) {
    long n = Batches.longsIn(ids, "ids");
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeWindow.testLongsDirect(h, ids, ids.position(), n, now, out,
        out.position()));
  }

  /** Records every key, in order; they are packed first, so prefer the offsets form when hot. */
  public void putAll(byte[][] keys, long now) {
    PackedKeys packed = PackedKeys.of(keys);
    putAll(packed.data, packed.offsets, 0, keys.length, now);
  }

  /** Sets {@code out[i] = mightContain(keys[i], now)}. */
  public void mightContainAll(byte[][] keys, long now, boolean[] out) {
    PackedKeys packed = PackedKeys.of(keys);
    mightContainAll(packed.data, packed.offsets, 0, keys.length, now, out);
  }

  /**
   * Records keys {@code first .. first+count}, where key i is
   * {@code data[offsets[i] .. offsets[i+1])} (Arrow's layout): the offsets must not decrease
   * and must stay inside data.
   */
  public void putAll(byte[] data, int[] offsets, int first, int count, long now) {
    Batches.checkOffsets(data.length, offsets, first, count);
    handle.run(this, h -> NativeWindow.addKeys(h, data, offsets, first, count, now));
  }

  /** As {@link #putAll(byte[], int[], int, int, long)}; {@code out[i]} answers key {@code first + i}. */
  public void mightContainAll(byte[] data, int[] offsets, int first, int count, long now,
      boolean[] out) {
    Batches.checkOffsets(data.length, offsets, first, count);
    Batches.checkOut(count, out);
    handle.run(this, h -> NativeWindow.testKeys(h, data, offsets, first, count, now, out, 0));
  }

  /** What the window became: layout, span, slack, memory, predicted rate. */
  public WindowInfo info() {
    handle.get();
    return info;
  }

  public WindowInfo.Layout layout() {
    return info().layout();
  }

  public WindowSpec.Unit unit() {
    return info().unit();
  }

  /** Items, or seconds, always remembered; see {@link WindowInfo#span()}. */
  public int span() {
    return info().span();
  }

  /** How far past the span an item may still be found, as a fraction of the span. */
  public double slack() {
    return info().slack();
  }

  /** Bytes of the window's state, the part a store keeps per user. */
  public long stateBytes() {
    return info().stateBytes();
  }

  /** The false-positive rate of a query once the window is full. */
  public double predictedFpp() {
    return info().predictedFpp();
  }

  public long seed() {
    return info().seed();
  }

  @Override
  public int hashCode() {
    return Objects.hash(info.unit(), info.span(), info.seed());
  }

  @Override
  public String toString() {
    return handle.isClosed() ? "Window[closed]" : "Window[" + info + "]";
  }
}
