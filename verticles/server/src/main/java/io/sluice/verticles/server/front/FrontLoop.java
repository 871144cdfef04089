package io.sluice.verticles.server.front;

import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.server.pubsub.ChannelCensus;
import io.sluice.verticles.server.pubsub.ChannelHub;
import io.sluice.verticles.server.pubsub.ChannelHistories;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.vertx.core.Context;

/**
 * What every connection a front accepts on one event loop shares: the instance, the way to the
 * shards and the channel hub (both made on that loop and used only from it), the per-connection
 * limits, and the limit on the lines that say why a connection was closed.
 *
 * @param closeLog at most {@value #CLOSE_LINES_PER_SECOND} "closing …" lines a second on this loop:
 *                 a client that opens bad connections in a loop does not flood the log
 */
public record FrontLoop(Instance instance, ShardRouter shards, ChannelHub hub, ConnectionLimits limits,
                        RequestDurations durations, ConnectionClosers closers, LogLimiter closeLog) {

  public static final int CLOSE_LINES_PER_SECOND = 20;

  /**
   * Call on the front's event loop: the router and the hub answer on the loop they were made on.
   *
   * @param durations where the connections' request durations are recorded
   * @param closers   where the connections register so that an operator can close them
   */
  public static FrontLoop on(Context loop, Instance instance, ShardDirectory shards, ConnectionLimits limits,
                             RequestDurations durations, ConnectionClosers closers) {
    ShardRouter router = shards.routerFor(loop);
    ChannelHub hub = new ChannelHub(loop.owner(), ChannelCensus.of(loop.owner(), instance.channels(), instance.clock()));
    if (limits.history().enabled()) {
      hub.keepHistory(new ChannelHistories(router, limits.history(), hub.fanOut(), instance.clock()));
    }
    return new FrontLoop(instance, router, hub, limits, durations, closers,
        new LogLimiter(instance.clock(), 1_000_000_000L, CLOSE_LINES_PER_SECOND));
  }
}
