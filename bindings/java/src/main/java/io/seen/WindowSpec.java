package io.seen;

import java.util.Locale;

/**
 * What an exposure window must remember: the last {@code n} items, the items of the last
 * {@code n} seconds, or the last {@code n} items within a byte budget; and at what total
 * false-positive rate, with which seed and how much slack. Immutable: {@link #fpr},
 * {@link #seed} and {@link #maxSlack} return a changed copy.
 *
 * <pre>{@code
 * WindowSpec recent = WindowSpec.lastItems(500).fpr(0.01);
 * WindowSpec month = WindowSpec.lastSeconds(30 * 86400, 3000).fpr(0.01).seed(secret);
 * }</pre>
 *
 * <p>The rate is that of a whole query once the window is full (all its segments together),
 * not of one segment. The slack bounds how long past the span an item may still be found, as
 * a fraction of the span; 0 means the library's default, 0.25.
 */
public final class WindowSpec {
  /** What the span counts. */
  public enum Unit {
    /** The last {@code span} items put. */
    ITEMS(1),
    /** The items put within the last {@code span} seconds. */
    SECONDS(2);

    final int code;

    Unit(int code) {
      this.code = code;
    }

    static Unit of(int code) {
      return code == SECONDS.code ? SECONDS : ITEMS;
    }
  }

  /** The rate of {@link #lastItems} and {@link #lastSeconds} unless {@link #fpr} says otherwise. */
  public static final double DEFAULT_FPR = 0.01;

  final Unit unit;
  final int span;
  final int expectedItems;
  final double fpr;
  final double maxSlack;
  final long seed;
  final long maxBytes;
  /** A private copy of the secret key of a keyed spec, else null; never shown. */
  final byte[] key;

  private WindowSpec(Unit unit, int span, int expectedItems, double fpr, double maxSlack,
      long seed, long maxBytes, byte[] key) {
    this.unit = unit;
    this.span = span;
    this.expectedItems = expectedItems;
    this.fpr = fpr;
    this.maxSlack = maxSlack;
    this.seed = seed;
    this.maxBytes = maxBytes;
    this.key = key;
  }

  private static int positive(long value, String name) {
    if (value <= 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + " must be in 1 .. 2^31 - 1, not " + value);
    }
    return (int) value;
  }

  /** Remembers the last {@code n} items put: every one of them is always found. */
  public static WindowSpec lastItems(int n) {
    return new WindowSpec(Unit.ITEMS, positive(n, "n"), 0, DEFAULT_FPR, 0, 0, 0, null);
  }

  /**
   * Remembers the items put within the last {@code seconds} seconds of the caller's clock,
   * sized for at most {@code expectedItems} of them: more still are found, at a higher rate
   * of false positives.
   */
  public static WindowSpec lastSeconds(long seconds, int expectedItems) {
    return new WindowSpec(Unit.SECONDS, positive(seconds, "seconds"),
        positive(expectedItems, "expectedItems"), DEFAULT_FPR, 0, 0, 0, null);
  }

  /**
   * Remembers the last {@code n} items at the lowest false-positive rate that fits
   * {@code maxBytes} bytes of window state ({@link WindowInfo#stateBytes()}). The rate it
   * reaches is {@link WindowInfo#predictedFpp()}; {@link #fpr} does not apply.
   */
  public static WindowSpec lastItemsWithin(int n, long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, not " + maxBytes);
    }
    return new WindowSpec(Unit.ITEMS, positive(n, "n"), 0, 0, 0, 0, maxBytes, null);
  }

  /** The total false-positive rate of a query once the window is full, in (0, 1). */
  public WindowSpec fpr(double fpr) {
    if (maxBytes != 0) {
      throw new IllegalStateException("a byte-budget window gets the lowest rate that fits");
    }
    return new WindowSpec(unit, span, expectedItems, fpr, maxSlack, seed, maxBytes, key);
  }

  /** The hash seed, stored in the window; pass a secret one if adversaries choose the items. */
  public WindowSpec seed(long seed) {
    return new WindowSpec(unit, span, expectedItems, fpr, maxSlack, seed, maxBytes, key);
  }

  /**
   * Keyed mode (docs/SECURITY.md): items hash with SipHash-1-3 under the secret {@code key},
   * 16 to 64 bytes, so whoever chooses the items cannot aim them at a window without it, and a
   * store's users pick their shard with it. No file holds the key: a keyed window's bytes and
   * a keyed store's file open only with it ({@link Window#readFrom(java.io.InputStream,
   * byte[])}, {@link ExposureStore#open(java.nio.file.Path, Mode, byte[])}); a missing or
   * wrong key throws SeenException with INCOMPATIBLE. The spec keeps a copy of the key.
   */
  public WindowSpec key(byte[] key) {
    return new WindowSpec(unit, span, expectedItems, fpr, maxSlack, seed, maxBytes,
        NativeObject.secret(key));
  }

  /** True for a spec given a {@link #key}. */
  public boolean isKeyed() {
    return key != null;
  }

  /** How far past the span an item may linger, as a fraction of it; 0 means 0.25. */
  public WindowSpec maxSlack(double maxSlack) {
    if (!(maxSlack >= 0)) {
      throw new IllegalArgumentException("maxSlack must be at least 0, not " + maxSlack);
    }
    return new WindowSpec(unit, span, expectedItems, fpr, maxSlack, seed, maxBytes, key);
  }

  public Unit unit() {
    return unit;
  }

  public int span() {
    return span;
  }

  /** For {@link Unit#SECONDS}: the most items expected within the span; else 0. */
  public int expectedItems() {
    return expectedItems;
  }

  /** The target rate; 0 for a byte-budget window. */
  public double fpr() {
    return fpr;
  }

  public double maxSlack() {
    return maxSlack;
  }

  public long seed() {
    return seed;
  }

  /** The byte budget of {@link #lastItemsWithin}, else 0. */
  public long maxBytes() {
    return maxBytes;
  }

  @Override
  public String toString() {
    String what = unit == Unit.ITEMS ? "last " + span + " items"
        : String.format(Locale.ROOT, "last %d s (%d items)", span, expectedItems);
    String rate = maxBytes != 0 ? "within " + maxBytes + " B" : "fpr " + fpr;
    return String.format(Locale.ROOT, "WindowSpec[%s, %s, maxSlack %s, seed %d%s]",
        what, rate, maxSlack == 0 ? "default" : Double.toString(maxSlack), seed,
        key == null ? "" : ", keyed");
  }
}
