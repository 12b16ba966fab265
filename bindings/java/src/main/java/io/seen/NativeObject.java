package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the native objects with a serialized form share (filters and windows): the handle, the
 * secret key of a keyed one, the bytes, copies, equality and close. The natives are
 * kinds_jni.c's, one for every kind.
 *
 * <p>A keyed object keeps a private copy of its key, which no file or byte form holds, so that
 * {@link #copy()} can read its own bytes back.
 *
 * <p>Lifetime: {@link #close()} frees the native memory (or mapping), or a {@link Cleaner} does
 * once the object is unreachable. Closing twice is harmless; any other call after close throws
 * {@link IllegalStateException}.
 *
 * <p>Serializable: Java serialization writes the serialized form ({@link SerialForm}), and
 * reading it back makes an independent, writable copy. A keyed object refuses with
 * {@link NotSerializableException}: its key never goes into a stream; send {@link
 * #toByteArray()} and the key apart, and read them with {@code readFrom(in, key)}.
 */
abstract class NativeObject<T extends NativeObject<T>> implements AutoCloseable, Serializable {
  private static final long serialVersionUID = 1L;

  /** Makes the public object of a kind around a live handle (its private constructor). */
  interface Maker<T> {
    T make(long handle, byte[] key);
  }

  final Kind kind;
  // Never written: writeReplace puts a SerialForm in the stream instead.
  final transient NativeHandle handle;
  private final transient byte[] key;
  private final transient Maker<T> maker;

  /** {@code key}: the private copy of a keyed object's key (see {@link #secret}), else null. */
  NativeObject(Kind kind, long handle, byte[] key, Maker<T> maker) {
    this.kind = kind;
    this.handle = new NativeHandle(this, handle, kind);
    this.key = key;
    this.maker = maker;
  }

  /** A native create call, which puts the new handle in out[0] (or throws). */
  interface Create {
    void into(long[] out);
  }

  /** The object a native create call made, keyed with {@code key} if it is not null. */
  static <T> T made(byte[] key, Maker<T> maker, Create create) {
    long[] out = new long[1];
    create.into(out);
    return maker.make(out[0], key);
  }

  /** A private copy of a secret key the caller gave, which must not be null. */
  static byte[] secret(byte[] key) {
    return Objects.requireNonNull(key, "key").clone();
  }

  /** An object of {@code kind} read from its serialized form, keyed if {@code key} is not null. */
  static <T> T fromBytes(Kind kind, byte[] bytes, byte[] key, Maker<T> maker) {
    return made(key, maker, out -> NativeKinds.deserialize(kind.code, bytes, key, out));
  }

  /** As {@link #fromBytes}, reading {@code in} to its end. */
  static <T> T read(Kind kind, InputStream in, byte[] key, Maker<T> maker) throws IOException {
    return fromBytes(kind, in.readAllBytes(), key, maker);
  }

  /** An object of {@code kind} opened from its file, keyed if {@code key} is not null. */
  static <T> T open(Kind kind, Path path, int flags, byte[] key, Maker<T> maker) {
    byte[] name = Utf8.nulTerminated(path);
    return made(key, maker, out -> NativeKinds.open(kind.code, name, flags, key, out));
  }

  /** True for an object made with a secret key (docs/SECURITY.md). */
  public boolean isKeyed() {
    handle.get();
    return key != null;
  }

  /** The serialized form (docs/FORMAT.md), the same bytes every binding writes. */
  public byte[] toByteArray() {
    try {
      return Serialized.toByteArray(handle, kind);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Writes {@link #toByteArray()} to {@code out}; read it back with {@code readFrom}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(toByteArray());
  }

  /**
   * An independent, writable copy in native memory, also of a read-only or mapped object, and
   * keyed with the same key if this one is.
   */
  public T copy() {
    return fromBytes(kind, toByteArray(), key, maker);
  }

  /**
   * Equal objects are of one class and serialize to the same bytes: the same parameters and
   * contents, so they answer every query alike. Reads both (O(size)), as Guava's equals does.
   */
  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    return other != null && other.getClass() == getClass()
        && Arrays.equals(toByteArray(), ((NativeObject<?>) other).toByteArray());
  }

  /** From the parameters only, so it stays put while keys go in (equal objects share them). */
  @Override
  public abstract int hashCode();

  /** What Java serialization writes instead of this object (package-private, for subclasses). */
  final Object writeReplace() throws ObjectStreamException {
    if (key != null) {
      throw new NotSerializableException(getClass().getSimpleName()
          + " is keyed: its key stays out of any stream; send toByteArray() and the key apart");
    }
    return new SerialForm(kind, toByteArray());
  }

  /** A stream naming this class itself was not written by writeReplace: refused. */
  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException(getClass().getSimpleName() + " is read through its SerialForm");
  }

  /** Releases the native memory (a read-write mapping is synced first). Idempotent. */
  @Override
  public void close() {
    handle.close();
  }
}
