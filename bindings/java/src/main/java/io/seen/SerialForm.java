package io.seen;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * What Java serialization writes for a filter or a window: its kind and its serialized form
 * (docs/FORMAT.md), the bytes every binding reads. Reading it back makes an independent,
 * writable object in native memory, as {@link NativeObject#copy()} does; a Spark broadcast or
 * an RMI call thus carries a filter as its file would.
 */
final class SerialForm implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Kind kind;
  private final byte[] bytes;

  SerialForm(Kind kind, byte[] bytes) {
    this.kind = kind;
    this.bytes = bytes;
  }

  private Object readResolve() throws InvalidObjectException {
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    try {
      switch (kind) {
        case BLOOM:
          return BloomFilter.readFrom(in);
        case COUNTING:
          return CountingFilter.readFrom(in);
        case SCALABLE:
          return ScalableFilter.readFrom(in);
        case WINDOW:
          return Window.readFrom(in);
        default:
          throw new InvalidObjectException("no serial form for a " + kind);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);  // a ByteArrayInputStream does not fail
    } catch (SeenException e) {
      InvalidObjectException bad = new InvalidObjectException("bad serialized " + kind + ": " + e.getMessage());
      bad.initCause(e);
      throw bad;
    }
  }
}
