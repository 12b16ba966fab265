package io.seen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RedisWindows against Debian's redis-server with seen's module, through a minimal RESP client
 * that stands in for the user's driver (Jedis and Lettuce are not test dependencies).
 */
class RedisWindowsTest {
  static Process server;
  static Socket socket;
  static DataInputStream in;
  static OutputStream out;

  @BeforeAll
  static void start() throws Exception {
    String module = System.getProperty("seen.redis.module", "");
    Assumptions.assumeTrue(!module.isEmpty(), "seen.redis.module is not set");
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    Path dir = Files.createTempDirectory("seen-redis");
    server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind",
        "127.0.0.1", "--dir", dir.toString(), "--save", "", "--logfile",
        dir.resolve("log").toString(), "--loadmodule", module).start();
    for (long deadline = System.nanoTime() + 20_000_000_000L; socket == null; Thread.sleep(50)) {
      try {
        socket = new Socket("127.0.0.1", port);
      } catch (IOException e) {
        if (System.nanoTime() > deadline) throw e;
      }
    }
    in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    out = socket.getOutputStream();
  }

  @AfterAll
  static void stop() throws Exception {
    if (socket != null) socket.close();
    if (server != null) server.destroyForcibly().waitFor();
  }

  static Object call(byte[]... args) {
    try {
      ByteArrayOutputStream req = new ByteArrayOutputStream();
      req.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      for (byte[] a : args) {
        req.write(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        req.write(a);
        req.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.write(req.toByteArray());
      return read();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Object read() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\r'; c = in.read()) line.append((char) c);
    in.read();
    String body = line.substring(1);
    switch (line.charAt(0)) {
      case '+': return body;
      case '-': throw new IllegalStateException(body);
      case ':': return Long.parseLong(body);
      case '$': {
        byte[] b = new byte[Integer.parseInt(body)];
        in.readFully(b);
        in.skipBytes(2);
        return b;
      }
      default: throw new IllegalStateException("unexpected reply " + line);
    }
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void marksFiltersAndTakesThroughTheModule() {
    RedisWindows w = new RedisWindows(RedisWindowsTest::call);
    w.mark("exp:{1}", new long[] {1, 2, -1L}, 90);
    assertArrayEquals(new long[] {3, 4, 5, 6, 7, 8, 9},
        w.filter("exp:{1}", new long[] {1, 3, -1L, 4, 5, 6, 7, 8, 9, 2}));
    assertArrayEquals(new long[] {3, 4}, w.take("exp:{1}", 2, new long[] {2, 3, 3, 4, 5}));
    assertArrayEquals(new long[] {5}, w.filter("exp:{1}", new long[] {3, 4, 5}));
    long ttl = (Long) call(b("TTL"), b("exp:{1}"));
    assertTrue(ttl > 80 && ttl <= 90, "ttl " + ttl);
    assertThrows(IllegalStateException.class, () -> w.take("exp:{1}", -1, new long[] {1}));
  }

  @Test
  void aLocalWindowLoadsIntoRedisAndAnswersAlike() throws IOException {
    RedisWindows w = new RedisWindows(RedisWindowsTest::call);
    try (Window local = Window.lastItems(500, 0.01)) {
      local.putAll(new long[] {11, 12}, 0, 2);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      local.writeTo(bytes);
      assertEquals("OK", call(b("SEEN.LOAD"), b("copy"), bytes.toByteArray()));
    }
    w.mark("direct", new long[] {11, 12}, 0);
    assertArrayEquals(new long[] {13}, w.filter("copy", new long[] {11, 12, 13}));
    assertArrayEquals(new long[] {13}, w.filter("direct", new long[] {11, 12, 13}));
  }

  @Test
  void packingIsLittleEndianAndTheBitmapLsbFirst() {
    assertArrayEquals(new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0},
        RedisWindows.packIds(new long[] {1, 0x0102}));
    assertArrayEquals(new long[] {5, -1L}, RedisWindows.unpackIds(RedisWindows.packIds(new long[] {5, -1L})));
    assertArrayEquals(new long[] {10, 12, 18},
        RedisWindows.unseen(new long[] {10, 11, 12, 13, 14, 15, 16, 17, 18}, new byte[] {5, 1}));
    assertThrows(IllegalArgumentException.class, () -> RedisWindows.unseen(new long[] {1}, new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> RedisWindows.unpackIds(new byte[7]));
  }
}
