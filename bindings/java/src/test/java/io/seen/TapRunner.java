package io.seen;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs every JUnit test of package io.seen and prints one TAP line per test case, so that
 * meson counts each case (a failure in one does not hide the others). Exits 1 if any failed.
 */
public final class TapRunner {
  private TapRunner() {}

  public static void main(String[] args) {
    PrintStream tap = System.out;
    AtomicInteger count = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    TestExecutionListener listener = new TestExecutionListener() {
      private String name(TestIdentifier id) {
        String cls = id.getSource()
            .map(s -> s instanceof MethodSource ? ((MethodSource) s).getJavaClass().getSimpleName()
                : s instanceof ClassSource ? ((ClassSource) s).getJavaClass().getSimpleName() : "")
            .orElse("");
        return (cls.isEmpty() ? "" : cls + " ") + id.getDisplayName();
      }

      @Override
      public void executionSkipped(TestIdentifier id, String reason) {
        if (id.isTest()) {
          tap.println("ok " + count.incrementAndGet() + " - " + name(id) + " # SKIP " + reason);
        }
      }

      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!id.isTest()) {
          if (result.getStatus() == TestExecutionResult.Status.FAILED) {
            report(id, result);  // a container failure (e.g. a factory threw) is a failed case
          }
          return;
        }
        report(id, result);
      }

      private void report(TestIdentifier id, TestExecutionResult result) {
        int n = count.incrementAndGet();
        switch (result.getStatus()) {
          case SUCCESSFUL:
            tap.println("ok " + n + " - " + name(id));
            break;
          case ABORTED:
            tap.println("ok " + n + " - " + name(id) + " # SKIP "
                + result.getThrowable().map(Throwable::getMessage).orElse(""));
            break;
          default:
            failed.incrementAndGet();
            tap.println("not ok " + n + " - " + name(id));
            result.getThrowable().ifPresent(t -> {
              for (String line : t.toString().split("\n")) {
                tap.println("# " + line);
              }
              for (StackTraceElement e : t.getStackTrace()) {
                tap.println("#   at " + e);
              }
            });
        }
      }

      @Override
      public void testPlanExecutionFinished(TestPlan plan) {
        tap.println("1.." + count.get());
      }
    };
    Launcher launcher = LauncherFactory.create();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request().selectors(selectPackage("io.seen")).build(),
        listener);
    tap.flush();
    System.exit(failed.get() == 0 ? 0 : 1);
  }
}
