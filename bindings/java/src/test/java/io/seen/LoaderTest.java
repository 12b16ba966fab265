package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the JNI library comes from: the jar by default (this JVM runs with an empty
 * java.library.path), the directory of -Djava.library.path when it holds one.
 */
class LoaderTest {
  private static String probe(String libraryPath) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(List.of(java.toString(),
        "-Djava.library.path=" + libraryPath,
        "-cp", System.getProperty("java.class.path"), LoaderProbe.class.getName()))
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  @Test
  void defaultsToTheCopyInTheJar() {
    assertEquals("jar:/io/seen/native/" + NativeLoader.platform() + "/" + NativeLoader.JNI_LIBRARY,
        NativeLoader.load());
  }

  @Test
  void javaLibraryPathOverridesTheJar() throws Exception {
    String dir = System.getProperty("seen.jni.dir");
    String expected = Path.of(dir, NativeLoader.JNI_LIBRARY) + "\ntrue\n";
    assertEquals(expected, probe("/nonexistent:" + dir));
  }
}
