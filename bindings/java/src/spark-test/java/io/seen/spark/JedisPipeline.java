package io.seen.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.ClusterCommandArguments;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;

/**
 * {@link RedisPipeline} over Jedis, the adapter that docs/distributed.md shows a user: the
 * stream tests and bench/spark drive {@link ExposureStream} through it, as a job would.
 * Jedis's pipelines keep error replies in their responses, so sync reads each one back.
 */
public final class JedisPipeline implements RedisPipeline {
  private final AbstractPipeline pipeline;
  private final AutoCloseable client;  // what the pipeline came from, closed after it
  private final List<Response<Object>> replies = new ArrayList<>();

  private JedisPipeline(AbstractPipeline pipeline, AutoCloseable client) {
    this.pipeline = pipeline;
    this.client = client;
  }

  /** Pipelines to one node. */
  public static Connector node(String host, int port) {
    return () -> {
      Jedis jedis = new Jedis(host, port);
      return new JedisPipeline(jedis.pipelined(), jedis);
    };
  }

  /** Pipelines to a Redis Cluster, whose nodes are found from the one given. */
  public static Connector cluster(String host, int port) {
    return () -> new JedisPipeline(new ClusterPipeline(Set.of(new HostAndPort(host, port)),
        DefaultJedisClientConfig.builder().build()), () -> {});
  }

  @Override
  public void send(byte[]... command) {
    // The key marked as one, so that a ClusterPipeline sends the command to its slot's node
    // (ClusterCommandArguments compute the slot, as a ClusterPipeline needs; a Pipeline to one
    // node takes them as plain arguments).
    replies.add(pipeline.sendCommand(new ClusterCommandArguments(() -> command[0]).key(command[1])
        .addObjects((Object[]) Arrays.copyOfRange(command, 2, command.length))));
  }

  @Override
  public void sync() {
    pipeline.sync();
    for (Response<Object> reply : replies) reply.get();  // an error reply throws here
    replies.clear();
  }

  @Override
  public void close() {
    pipeline.close();
    try {
      client.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
