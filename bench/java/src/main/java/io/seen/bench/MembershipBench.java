package io.seen.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Nanoseconds per query key, 10^7 random long ids at 1%: seen's batch and single-key calls
 * against Guava's BloomFilter, plus the floor every membership query pays, a random 64-byte
 * line read from an array as large as the filter. Each invocation answers the next BATCH
 * keys of a pool far larger than the caches, half of them present.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 7, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
public class MembershipBench {
  static final int KEYS = 10_000_000;
  static final double FPP = 0.01;
  static final int BATCH = 4096;
  static final int POOL = 1 << 22;

  io.seen.BloomFilter seen;
  BloomFilter<Long> guava;
  long[] lines;
  long[] pool;
  boolean[] answers = new boolean[BATCH];
  int next;

  @Setup(Level.Trial)
  public void fill() {
    SplittableRandom random = new SplittableRandom(2026);
    long[] added = random.longs(KEYS).toArray();
    seen = io.seen.BloomFilter.create(KEYS, FPP);
    seen.putAll(added);
    guava = BloomFilter.create(Funnels.longFunnel(), KEYS, FPP);
    for (long id : added) {
      guava.put(id);
    }
    lines = new long[(int) (seen.sizeInBytes() / Long.BYTES)];
    pool = new long[POOL];
    for (int i = 0; i < POOL; i++) {
      pool[i] = (i & 1) == 0 ? added[random.nextInt(KEYS)] : random.nextLong();
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    seen.close();
  }

  private int nextBatch() {
    int at = next;
    next = (at + BATCH) % POOL;
    return at;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public boolean[] seenMightContainAll() {
    seen.mightContainAll(pool, nextBatch(), BATCH, answers);
    return answers;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int seenMightContain() {
    int at = nextBatch();
    int hits = 0;
    for (int i = at; i < at + BATCH; i++) {
      hits += seen.mightContain(pool[i]) ? 1 : 0;
    }
    return hits;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int guavaMightContain() {
    int at = nextBatch();
    int hits = 0;
    for (int i = at; i < at + BATCH; i++) {
      hits += guava.mightContain(pool[i]) ? 1 : 0;
    }
    return hits;
  }

  /** One random cache-line read per key, at an index the key picks (multiply-shift). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long floorRandomLineRead() {
    int at = nextBatch();
    long lineCount = lines.length / 8;
    long sum = 0;
    for (int i = at; i < at + BATCH; i++) {
      long line = ((pool[i] * 0x9E3779B97F4A7C15L) >>> 32) * lineCount >>> 32;
      sum += lines[(int) (line * 8)];
    }
    return sum;
  }
}
