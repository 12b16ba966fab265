package io.seen;

import java.lang.ref.Cleaner;
import java.util.Map;

/**
 * Token weights for {@link SimHash} text fingerprints: each occurrence of a listed token weighs
 * its weight instead of 1, and every other token weighs the default weight. Tokens are
 * normalized like text (case, width), so "Hello" and "hello" are one token; a CJK token is an
 * n-gram of the length the fingerprint uses.
 *
 * <pre>{@code
 * try (IdfTable idf = IdfTable.of(Map.of("the", 0.1f, "seen", 3f), 1f)) {
 *   long fp = SimHash.fingerprint(text, SimHash.Options.DEFAULT.idf(idf));
 * }
 * }</pre>
 *
 * <p>Thread safety: immutable, so any number of threads may fingerprint with one table.
 *
 * <p>Lifetime: the native table is released by {@link #close()}, or by a {@link Cleaner} once
 * the table is unreachable. Closing twice is harmless; fingerprinting with a closed table
 * throws {@link IllegalStateException}. Close it only when no call is using it.
 */
public final class IdfTable implements AutoCloseable {

  private final NativeHandle handle;
  private final int size;

  private IdfTable(long handle, int size) {
    this.size = size;
    this.handle = new NativeHandle(this, handle, NativeSimHash::idfFree, null);
  }

  /** A table of {@code weights}, each token's UTF-8 bytes weighing its value. */
  public static IdfTable of(Map<? extends CharSequence, ? extends Number> weights,
      float defaultWeight) {
    byte[][] tokens = new byte[weights.size()][];
    float[] w = new float[weights.size()];
    int i = 0;
    for (Map.Entry<? extends CharSequence, ? extends Number> e : weights.entrySet()) {
      tokens[i] = Utf8.of(e.getKey());
      w[i++] = e.getValue().floatValue();
    }
    return of(tokens, w, defaultWeight);
  }

  /** A table where the UTF-8 token {@code tokens[i]} weighs {@code weights[i]}. */
  public static IdfTable of(byte[][] tokens, float[] weights, float defaultWeight) {
    if (tokens.length != weights.length) {
      throw new IllegalArgumentException(
          tokens.length + " tokens but " + weights.length + " weights");
    }
    PackedKeys packed = PackedKeys.of(tokens);
    long[] out = new long[1];
    NativeSimHash.idfCreate(
        packed.data, packed.offsets, tokens.length, weights, defaultWeight, out);
    return new IdfTable(out[0], tokens.length);
  }

  /** The native handle for a call; the caller fences this table until the call returns. */
  long h() {
    return handle.get();
  }

  /** The number of tokens listed. */
  public int size() {
    return size;
  }

  /** Releases the native table. Idempotent. */
  @Override
  public void close() {
    handle.close();
  }

  @Override
  public String toString() {
    return handle.isClosed() ? "IdfTable[closed]" : "IdfTable[" + size + " tokens]";
  }
}
