package io.seen;

import java.util.Objects;

/**
 * A Bloom filter as ranges of its 64-byte blocks, the pieces a distributed build assembles a
 * big filter from (io.seen.spark builds filters of 1 GiB and more so, as seen.spark does). A
 * key sets bits in one block only, so a filter's blocks [first, first + count) depend only on
 * the keys that map there:
 * <ol>
 *   <li>route each key to its block with {@code blocksOf} (on a filter of the final size that
 *       is never written: its memory is reserved, not resident);</li>
 *   <li>put each range's keys into a filter of the same size and {@link #read} the range back
 *       (only the range's pages become resident);</li>
 *   <li>{@link #or} every range into one filter.</li>
 * </ol>
 * The result is byte for byte the filter of every key put into one (seen.h says the same of
 * seen_bloom_blocks_of_u64 and its kin, which these call).
 */
public final class BloomBlocks {
  /** The most blocks one byte array holds. */
  public static final int MAX_RANGE = Integer.MAX_VALUE / 64;

  private BloomBlocks() {}

  /** blocks[i] = the block (0 .. blocks - 1) that ids[off + i] maps to, for i below len. */
  public static void blocksOf(BloomFilter f, long[] ids, int off, int len, long[] blocks) {
    Objects.checkFromIndexSize(off, len, ids.length);
    checkOut(len, blocks);
    f.handle.run(f, h -> NativeBloom.blocksOfLongs(h, ids, off, len, blocks));
  }

  /**
   * blocks[i] = the block that key {@code first + i} maps to, for i below count: key j is
   * {@code data[offsets[j] .. offsets[j + 1])}, as in {@link Filter#putAll(byte[], int[], int, int)}.
   */
  public static void blocksOf(BloomFilter f, byte[] data, int[] offsets, int first, int count,
      long[] blocks) {
    Batches.checkOffsets(data.length, offsets, first, count);
    checkOut(count, blocks);
    f.handle.run(f, h -> NativeBloom.blocksOfKeys(h, data, offsets, first, count, blocks));
  }

  /** A copy of blocks [first, first + count), 64 bytes each; count at most {@link #MAX_RANGE}. */
  public static byte[] read(BloomFilter f, long first, int count) {
    checkCount(count);
    byte[] out = new byte[64 * count];
    f.handle.run(f, h -> NativeBloom.readBlocks(h, first, count, out));
    return out;
  }

  /**
   * ORs whole 64-byte blocks into f from block {@code first} on; a range outside the filter is
   * an error (INVALID_ARGUMENT). Safe beside other adds.
   */
  public static void or(BloomFilter f, long first, byte[] blocks) {
    if (blocks.length % 64 != 0) {
      throw new IllegalArgumentException("blocks are 64 bytes each, not " + blocks.length
          + " bytes in all");
    }
    f.handle.run(f, h -> NativeBloom.orBlocks(h, first, blocks.length / 64, blocks));
  }

  private static void checkOut(int needed, long[] blocks) {
    if (blocks.length < needed) {
      throw new IllegalArgumentException("blocks holds " + blocks.length + " answers, needs "
          + needed);
    }
  }

  private static void checkCount(int count) {
    if (count < 0 || count > MAX_RANGE) {
      throw new IllegalArgumentException("count must be in 0 .. " + MAX_RANGE + ", not " + count);
    }
  }
}
