package io.seen;

/**
 * A filter that only ever adds (Bloom, scalable): a put of a key that already looks present
 * changes nothing, and says so.
 */
abstract class AddOnceFilter<T extends AddOnceFilter<T>> extends Filter<T> {
  private static final long serialVersionUID = 1L;

  AddOnceFilter(Kind kind, long handle, byte[] key, Maker<T> maker) {
    super(kind, handle, key, maker);
  }

  /** Adds the key {@code key[off .. off+len)}; returns true if that changed the filter. */
  public boolean put(byte[] key, int off, int len) {
    return slice(NativeKinds::putBytes, key, off, len) == 0;
  }

  public boolean put(byte[] key) {
    return put(key, 0, key.length);
  }

  /** Adds the UTF-8 bytes of {@code key}. */
  public boolean put(CharSequence key) {
    return put(Utf8.of(key));
  }

  /** Adds an id; returns true if that changed the filter (Guava's meaning). */
  public boolean put(long id) {
    return handle.answer(this, h -> NativeKinds.putLong(kind.code, h, id)) == 0;
  }
}
