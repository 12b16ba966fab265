package io.seen.spark;

import java.io.Serializable;

/**
 * A pipeline of the caller's own Redis client, as {@link ExposureStream} writes through it: no
 * driver is a dependency of seen. A Jedis {@code Pipeline}, or a {@code ClusterPipeline} for
 * Redis Cluster, adapts in a few lines (docs/distributed.md shows one).
 */
public interface RedisPipeline extends AutoCloseable {
  /**
   * Queues one command: its name, then its key (which a cluster client routes by), then the
   * rest of its arguments.
   */
  void send(byte[]... command);

  /**
   * Sends whatever is queued and waits for every reply; an error reply throws (a
   * RuntimeException of the client's, which fails the task, so Spark retries it).
   */
  void sync();

  /** Closes the client's connections. */
  @Override
  void close();

  /**
   * Opens a pipeline. It is serialized to the executors and called there, once per partition
   * of each micro-batch, since clients themselves do not serialize.
   */
  @FunctionalInterface
  interface Connector extends Serializable {
    RedisPipeline open();
  }
}
