package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/java.md (path in -Dseen.docs) stays true: every java block is compiled and run, and must
 * print exactly the text block that follows it.
 */
class DocExampleTest {
  private static final Pattern BLOCK = Pattern.compile("```(java|text)\n(.*?)```", Pattern.DOTALL);

  @TempDir Path dir;

  /** Each java block with the text block after it. */
  private static List<String[]> examples(String markdown) {
    List<String[]> pairs = new ArrayList<>();
    Matcher m = BLOCK.matcher(markdown);
    String source = null;
    while (m.find()) {
      if (m.group(1).equals("java")) {
        assertTrue(source == null, "a java block without a text block after it");
        source = m.group(2);
      } else if (source != null) {
        pairs.add(new String[] {source, m.group(2)});
        source = null;
      }
    }
    assertTrue(source == null, "the last java block has no text block after it");
    return pairs;
  }

  @TestFactory
  List<DynamicTest> examplesCompileRunAndPrintWhatTheDocSays() throws IOException {
    String doc = Files.readString(Path.of(System.getProperty("seen.docs", "docs/java.md")));
    List<String[]> examples = examples(doc);
    assertFalse(examples.isEmpty(), "docs/java.md has no ```java example");
    List<DynamicTest> tests = new ArrayList<>();
    for (String[] example : examples) {
      Matcher name = Pattern.compile("public class (\\w+)").matcher(example[0]);
      assertTrue(name.find(), "the example declares a public class");
      String cls = name.group(1);
      tests.add(DynamicTest.dynamicTest(cls + " compiles, runs and prints what the doc says",
          () -> run(cls, example[0], example[1])));
    }
    return tests;
  }

  private void run(String cls, String source, String expected) throws Exception {
    Path out = Files.createDirectories(dir.resolve(cls));
    Path file = out.resolve(cls + ".java");
    Files.writeString(file, source);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null,
        "-cp", System.getProperty("java.class.path"), "-d", out.toString(), file.toString());
    assertEquals(0, rc, "the example compiles");

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
        DocExampleTest.class.getClassLoader())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      loader.loadClass(cls).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(stdout);
    }
    assertEquals(expected, printed.toString(StandardCharsets.UTF_8));
  }
}
