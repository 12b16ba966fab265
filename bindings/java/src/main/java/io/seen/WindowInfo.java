package io.seen;

import java.util.Locale;

/**
 * What a {@link WindowSpec} became once sized: its layout, its exact span, the slack it keeps,
 * its memory and the false-positive rate predicted once full. Immutable.
 */
public final class WindowInfo {
  /** How a window holds its items. */
  public enum Layout {
    /** The last items' 16-bit fingerprints in order: exact span, no slack (item windows only). */
    RING,
    /** Bloom segments that share bit positions, rotated by count or by time. */
    SLICED,
    /**
     * Time windows: sliced segments whose base holds a quarter of the expected items; a segment
     * given more opens sub-filters, so the rate holds for any number of items up to the
     * window's max bytes, past which it gives up its oldest time, then its rate, never an item.
     */
    GROWING,
    /**
     * Time windows (the default): each item a 32-bit fingerprint in a table whose every lookup
     * reads one cache line; the table doubles as items come, up to the window's max bytes, past
     * which it gives up its oldest time, then its rate, never an item.
     */
    TABLE,
    /**
     * The ring's fingerprints in segments, each a sorted set coded in about 12 bits an item,
     * forgotten a segment at a time: slack 1/(segments - 1) (item windows only).
     */
    PACKED,
    /** A layout added by a newer native library than this binding knows. */
    UNKNOWN;

    static Layout of(long code) {
      return code == 1 ? RING : code == 2 ? SLICED : code == 3 ? GROWING : code == 4 ? TABLE : code == 5 ? PACKED : UNKNOWN;
    }
  }

  private final WindowSpec.Unit unit;
  private final Layout layout;
  private final int span;
  private final int segments;
  private final long stateBytes;
  private final double slack;
  private final double predictedFpp;
  private final long seed;

  private WindowInfo(long[] v) {
    unit = WindowSpec.Unit.of((int) v[0]);
    layout = Layout.of(v[1]);
    span = (int) v[2];
    segments = (int) v[3];
    stateBytes = v[4];
    slack = Double.longBitsToDouble(v[5]);
    predictedFpp = Double.longBitsToDouble(v[6]);
    seed = v[7];
  }

  /** From the 8 longs the JNI glue writes (jni_common.h, window_info_out). */
  static WindowInfo of(long[] v) {
    return new WindowInfo(v);
  }

  static long[] buffer() {
    return new long[8];
  }

  public WindowSpec.Unit unit() {
    return unit;
  }

  public Layout layout() {
    return layout;
  }

  /**
   * Items, or seconds, always remembered: at least the span asked for (a time window rounds it
   * up to whole buckets).
   */
  public int span() {
    return span;
  }

  /** The number of sliced or packed segments; 0 for a ring. */
  public int segments() {
    return segments;
  }

  /** Bytes of one window's state (the store adds about 15 per user beside it). */
  public long stateBytes() {
    return stateBytes;
  }

  /** How far past the span an item may still be found, as a fraction of the span. */
  public double slack() {
    return slack;
  }

  /** The false-positive rate of a query once the window is full. */
  public double predictedFpp() {
    return predictedFpp;
  }

  public long seed() {
    return seed;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT,
        "WindowInfo[%s %d %s, %s x%d, %d B, slack %.3f, fpp %.5f, seed %d]", "last", span,
        unit == WindowSpec.Unit.ITEMS ? "items" : "s", layout, segments, stateBytes, slack,
        predictedFpp, seed);
  }
}
