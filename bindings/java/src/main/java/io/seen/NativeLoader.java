package io.seen;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the JNI library once per class loader. A {@code libseenjni.so} found in a directory of
 * {@code java.library.path} wins (an installed or freshly built library); otherwise the copy
 * packed in this jar is extracted to a temporary directory together with the {@code libseen}
 * it links against, loaded, and deleted (the mapping outlives the file).
 */
final class NativeLoader {
  static final String JNI_LIBRARY = System.mapLibraryName("seenjni");
  /** Loaded first, so that the JNI library's DT_NEEDED entry resolves to this copy. */
  static final String CORE_LIBRARY = "libseen.so.0";

  private static String loadedFrom;

  private NativeLoader() {}

  /** Where the JNI library came from: a file path, or "jar:" plus the resource path. */
  static synchronized String load() {
    if (loadedFrom == null) {
      Path override = findInLibraryPath();
      if (override != null) {
        System.load(override.toAbsolutePath().toString());
        loadedFrom = override.toString();
      } else {
        loadedFrom = extractAndLoad();
      }
    }
    return loadedFrom;
  }

  private static Path findInLibraryPath() {
    String path = System.getProperty("java.library.path", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        Path candidate = Path.of(dir, JNI_LIBRARY);
        if (Files.isRegularFile(candidate)) {
          return candidate;
        }
      }
    }
    return null;
  }

  static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
    return os + "-" + System.getProperty("os.arch");
  }

  private static String extractAndLoad() {
    String dir = "/io/seen/native/" + platform() + "/";
    try {
      Path tmp = Files.createTempDirectory("seen-jni");
      try {
        Path core = extract(dir + CORE_LIBRARY, tmp);
        Path jni = extract(dir + JNI_LIBRARY, tmp);
        System.load(core.toString());
        System.load(jni.toString());
      } finally {
        Files.deleteIfExists(tmp.resolve(CORE_LIBRARY));
        Files.deleteIfExists(tmp.resolve(JNI_LIBRARY));
        Files.deleteIfExists(tmp);
      }
      return "jar:" + dir + JNI_LIBRARY;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract the seen native library", e);
    }
  }

  private static Path extract(String resource, Path dir) throws IOException {
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new UnsatisfiedLinkError(
            "no " + resource + " in the jar and no " + JNI_LIBRARY
                + " in java.library.path: this jar was not built for " + platform());
      }
      Path file = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    }
  }
}
