package io.seen;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/** The UTF-8 bytes the C API takes for text keys and file names. */
final class Utf8 {
  private Utf8() {}

  static byte[] of(CharSequence s) {
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A path's bytes with a NUL at the end: JNI's modified UTF-8 would mangle some names. */
  static byte[] nulTerminated(Path path) {
    byte[] name = of(path.toString());
    return Arrays.copyOf(name, name.length + 1);
  }
}
