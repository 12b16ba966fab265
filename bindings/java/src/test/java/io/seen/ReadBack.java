package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/** Reading an object back from its serialized form or its file, as the tests of every kind do. */
final class ReadBack {
  private ReadBack() {}

  /** A kind's {@code readFrom}. */
  interface Reader<T> {
    T readFrom(InputStream in) throws IOException;
  }

  /** A kind's {@code readFrom} of a keyed object's form. */
  interface KeyedReader<T> {
    T readFrom(InputStream in, byte[] key) throws IOException;
  }

  /** A kind's {@code open} of a file. */
  interface Opener<T> {
    T open(Path path, Mode mode);
  }

  /** A kind's {@code open} of a keyed object's file. */
  interface KeyedOpener<T> {
    T open(Path path, Mode mode, byte[] key);
  }

  /**
   * Writes {@code original} through {@code writeTo}, reads it back with {@code reader} and
   * asserts that the copy serializes to the same bytes. The caller closes the copy.
   */
  static <T extends NativeObject<T>> T throughStream(T original, Reader<T> reader)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    original.writeTo(out);
    T copy = reader.readFrom(new ByteArrayInputStream(out.toByteArray()));
    assertArrayEquals(out.toByteArray(), copy.toByteArray());
    return copy;
  }

  /** Reads {@code bytes} with {@code reader}; an IOException fails the test. */
  static <T> T fromBytes(Reader<T> reader, byte[] bytes) {
    try {
      return reader.readFrom(new ByteArrayInputStream(bytes));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
