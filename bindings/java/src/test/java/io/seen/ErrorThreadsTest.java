package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Threads that fail at the same time, each with its own message, each get their own: a
 * message comes from the handle the call was made on, or from the error a call without one
 * filled inside the same native call (docs/errors.md).
 */
class ErrorThreadsTest {
  private static final int ROUNDS = 2000;

  /** Runs {@code call} ROUNDS times, recording every failure whose message lacks {@code says}. */
  private static Thread failing(Runnable call, String says, List<String> wrong) {
    return new Thread(() -> {
      for (int i = 0; i < ROUNDS; i++) {
        try {
          call.run();
          wrong.add(says + ": no error");
        } catch (SeenException e) {
          if (!e.getMessage().contains(says)) {
            wrong.add(says + ": " + e.getMessage());
          }
        }
      }
    });
  }

  @Test
  void messagesStayWithTheirCallsUnderConcurrentFailures() throws InterruptedException {
    List<String> wrong = Collections.synchronizedList(new ArrayList<>());
    try (BloomFilter small = BloomFilter.create(1000, 0.01);
        BloomFilter large = BloomFilter.create(100_000, 0.01)) {
      List<Thread> threads = List.of(
          // Calls without a handle: each message comes from its own call's error.
          failing(() -> BloomFilter.create(100, 3.0), "got 3", wrong),
          failing(() -> BloomFilter.create(100, 5.0), "got 5", wrong),
          // A call on a handle: the message comes from the handle.
          failing(() -> small.putAll(large), "block count differs", wrong));
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(5, wrong.size())));
  }
}
