package io.seen;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the JNI library once per class loader. A {@code libseenjni.so} found in a directory of
 * {@code java.library.path} wins (an installed or freshly built library); otherwise the copy
 * packed in this jar is extracted to a temporary directory together with the libraries it links
 * against ({@code libseen} and Highway's, so the jar needs neither on the host), loaded in the
 * order the jar's {@code libraries} list gives, and deleted (the mappings outlive the files).
 */
final class NativeLoader {
  static final String JNI_LIBRARY = System.mapLibraryName("seenjni");
  /**
   * The list, one file name per line, of the libraries in a platform's directory, in load
   * order: each one's DT_NEEDED entries then resolve to the copies already loaded.
   */
  static final String LIBRARY_LIST = "libraries";

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
      List<String> libraries = libraryList(dir);
      Path tmp = Files.createTempDirectory("seen-jni");
      try {
        List<Path> files = new ArrayList<>();
        for (String library : libraries) {
          files.add(extract(dir + library, tmp));
        }
        for (Path file : files) {
          System.load(file.toString());
        }
      } finally {
        for (String library : libraries) {
          Files.deleteIfExists(tmp.resolve(library));
        }
        Files.deleteIfExists(tmp);
      }
      return "jar:" + dir + JNI_LIBRARY;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract the seen native library", e);
    }
  }

  private static List<String> libraryList(String dir) throws IOException {
    String resource = dir + LIBRARY_LIST;
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw notBuiltFor(resource);
      }
      List<String> names = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          names.add(line.strip());
        }
      }
      return names;
    }
  }

  private static UnsatisfiedLinkError notBuiltFor(String resource) {
    return new UnsatisfiedLinkError(
        "no " + resource + " in the jar and no " + JNI_LIBRARY
            + " in java.library.path: this jar was not built for " + platform());
  }

  private static Path extract(String resource, Path dir) throws IOException {
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw notBuiltFor(resource);
      }
      Path file = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    }
  }
}
