package io.seen;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Exposure windows kept by seen's Redis module, one key per user, over the caller's own
 * Redis client: no driver is a dependency of seen. Ids travel packed (8 little-endian bytes
 * each) to SEEN.MARKB, SEEN.FILTERB and SEEN.TAKEB, and SEEN.FILTERB answers with a bitmap.
 * Name keys {@code "exp:{user}"} so Redis Cluster keeps each user on one slot.
 *
 * <pre>{@code
 * // Jedis (a Jedis, or a JedisCluster):
 * RedisWindows shown = new RedisWindows(
 *     args -> jedis.sendCommand(() -> args[0], Arrays.copyOfRange(args, 1, args.length)));
 * shown.mark("exp:{42}", new long[] {1001, 1002}, 30 * 86400);
 * long[] fresh = shown.filter("exp:{42}", new long[] {1001, 1003});   // {1003}
 * }</pre>
 */
public final class RedisWindows {
  /** Runs one command (name first) on the caller's client; bulk replies come back as byte[]. */
  @FunctionalInterface
  public interface Command {
    Object call(byte[]... args);
  }

  private final Command command;

  public RedisWindows(Command command) {
    this.command = command;
  }

  /** Records that ids were shown; ttlSeconds above 0 sets or refreshes the key's expiry. */
  public void mark(String key, long[] ids, long ttlSeconds) {
    if (ids.length == 0) return;
    if (ttlSeconds > 0) {
      command.call(ascii("SEEN.MARKB"), utf8(key), ascii("TTL"), ascii(Long.toString(ttlSeconds)),
          packIds(ids));
    } else {
      command.call(ascii("SEEN.MARKB"), utf8(key), packIds(ids));
    }
  }

  /** The ids not shown yet, in the order given. */
  public long[] filter(String key, long[] ids) {
    if (ids.length == 0) return ids;
    return unseen(ids, bytes(command.call(ascii("SEEN.FILTERB"), utf8(key), packIds(ids))));
  }

  /** The first want ids not shown yet, recorded as shown in the same step. */
  public long[] take(String key, int want, long[] ids) {
    if (ids.length == 0) return ids;
    return unpackIds(bytes(command.call(ascii("SEEN.TAKEB"), utf8(key),
        ascii(Integer.toString(want)), packIds(ids))));
  }

  /** The packed form: 8 little-endian bytes per id. */
  public static byte[] packIds(long[] ids) {
    ByteBuffer out = ByteBuffer.allocate(8 * ids.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long id : ids) out.putLong(id);
    return out.array();
  }

  public static long[] unpackIds(byte[] packed) {
    if (packed.length % 8 != 0) {
      throw new IllegalArgumentException("packed ids must be a multiple of 8 bytes long, not "
          + packed.length);
    }
    long[] ids = new long[packed.length / 8];
    ByteBuffer.wrap(packed).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(ids);
    return ids;
  }

  /** The ids whose bit (i, LSB first) is set in a SEEN.FILTERB bitmap, in order. */
  public static long[] unseen(long[] ids, byte[] bitmap) {
    if (bitmap.length != (ids.length + 7) / 8) {
      throw new IllegalArgumentException("a bitmap of " + ids.length + " candidates has "
          + (ids.length + 7) / 8 + " bytes, not " + bitmap.length);
    }
    long[] out = new long[ids.length];
    int n = 0;
    for (int i = 0; i < ids.length; i++) {
      if ((bitmap[i >>> 3] >>> (i & 7) & 1) != 0) out[n++] = ids[i];
    }
    return Arrays.copyOf(out, n);
  }

  private static byte[] bytes(Object reply) {
    if (reply instanceof byte[]) return (byte[]) reply;
    throw new IllegalStateException("expected a bulk string reply, got " + reply);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
