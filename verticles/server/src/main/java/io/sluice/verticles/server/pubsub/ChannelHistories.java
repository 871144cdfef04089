package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.time.Clock;

import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The channels' history as one event loop reaches it ({@code --channel-history}): every publish
 * goes to the owner of its channel's history record, which numbers, keeps and fans it out; reads
 * go there too. Used only from its own loop (its router's).
 */
public final class ChannelHistories {

  private static final System.Logger LOG = System.getLogger(ChannelHistories.class.getName());
  static final int LOST_LINES_PER_MINUTE = 10;

  private final ShardRouter router;
  private final HistoryLimits limits;
  private final Consumer<ChannelMessage> fanOut;
  private final LogLimiter lostLog;

  /** @param clock paces the log lines of lost publishes */
  public ChannelHistories(ShardRouter router, HistoryLimits limits, ChannelFanOut fanOut, Clock clock) {
    this.lostLog = new LogLimiter(clock, 60_000_000_000L, LOST_LINES_PER_MINUTE);
    this.router = router;
    this.limits = limits;
    this.fanOut = fanOut::publish;
  }

  /**
   * Numbers, keeps and fans out a message on the channel's owner; completes with its offset. When
   * the owner is out of reach (a cluster node leaving) the message reaches no one: said in the log,
   * at most {@value #LOST_LINES_PER_MINUTE} lines a minute, and to a JSON publisher in its answer.
   */
  public CompletionStage<HistoryAppend> append(byte[] channel, byte[] payload, byte[] publisherId) {
    CompletionStage<HistoryAppend> appended = router.run(new HistoryAppend(channel, payload, publisherId, limits, fanOut));
    appended.whenComplete((append, unreachable) -> {
      if (unreachable != null) {
        lostLog.log(LOG, System.Logger.Level.WARNING, "a publish to channel " + new ChannelName(channel)
            + " was lost: the owner of its history is out of reach (" + unreachable.getMessage() + ")");
      }
    });
    return appended;
  }

  /** What a subscriber that last saw {@code offset} of {@code epoch} missed. */
  public CompletionStage<ChannelHistory.Recovery> recover(byte[] channel, long offset, long epoch) {
    return read(channel, new HistoryRead.Since(offset, epoch));
  }

  /** How many messages the channel's history holds now (0 without one). */
  public CompletionStage<Integer> held(byte[] channel) {
    return read(channel, new HistoryRead.Latest(0)).thenApply(ChannelHistory.Recovery::held);
  }

  /** The latest {@code limit} messages. */
  public CompletionStage<ChannelHistory.Recovery> latest(byte[] channel, int limit) {
    return read(channel, new HistoryRead.Latest(Math.min(limit, limits.messages())));
  }

  private CompletionStage<ChannelHistory.Recovery> read(byte[] channel, HistoryRead.Query query) {
    return router.run(new HistoryRead(channel, query, limits)).thenCompose(read -> read.failure() != null
        ? java.util.concurrent.CompletableFuture.failedFuture(read.failure())
        : java.util.concurrent.CompletableFuture.completedFuture(read.answer()));
  }
}
