package io.sluice.verticles.server.front;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.server.channel.ChannelHub;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.sluice.verticles.server.shard.ShardOutbox;
import io.vertx.core.Context;

/**
 * What every connection a front accepts on one event loop shares: the instance, the way to the
 * shards and the channel hub (both made on that loop and used only from it), the per-connection
 * limits, and the limit on the lines that say why a connection was closed.
 *
 * @param closeLog at most {@value #CLOSE_LINES_PER_SECOND} "closing …" lines a second on this loop:
 *                 a client that opens bad connections in a loop does not flood the log
 */
public record FrontLoop(Instance instance, ShardOutbox shards, ChannelHub hub, ConnectionLimits limits,
                        LogLimiter closeLog) {

  public static final int CLOSE_LINES_PER_SECOND = 20;

  /** Call on the front's event loop: the outbox and the hub answer on the loop they were made on. */
  public static FrontLoop on(Context loop, Instance instance, ShardDirectory shards, ConnectionLimits limits) {
    return new FrontLoop(instance, new ShardOutbox(loop, loop.owner().eventBus(), shards),
        new ChannelHub(loop.owner().eventBus()), limits,
        new LogLimiter(instance.clock(), 1_000_000_000L, CLOSE_LINES_PER_SECOND));
  }
}
