package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/java.md (path in -Dseen.docs) stays true: its first java block is compiled and run, and
 * must print exactly its first text block.
 */
class DocExampleTest {
  @TempDir Path dir;

  private static String block(String markdown, String lang) {
    Matcher m = Pattern.compile("```" + lang + "\n(.*?)```", Pattern.DOTALL).matcher(markdown);
    assertTrue(m.find(), "docs/java.md has no ```" + lang + " block");
    return m.group(1);
  }

  @Test
  void exampleCompilesRunsAndPrintsWhatTheDocSays() throws Exception {
    String doc = Files.readString(Path.of(System.getProperty("seen.docs", "docs/java.md")));
    String source = block(doc, "java");
    Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
    assertTrue(name.find(), "the example declares a public class");
    Path file = dir.resolve(name.group(1) + ".java");
    Files.writeString(file, source);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null,
        "-cp", System.getProperty("java.class.path"), "-d", dir.toString(), file.toString());
    assertEquals(0, rc, "the example compiles");

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
        DocExampleTest.class.getClassLoader())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      loader.loadClass(name.group(1)).getMethod("main", String[].class)
          .invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(stdout);
    }
    assertEquals(block(doc, "text"), printed.toString(StandardCharsets.UTF_8));
  }
}
