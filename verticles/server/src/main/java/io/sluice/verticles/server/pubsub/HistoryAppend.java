package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ShardTask;

import java.util.function.Consumer;

/**
 * A publish to a channel with history, run on the owner of the channel's history record: the
 * message gets the next offset, is kept, and is fanned out from there, in the same step. Appends and
 * reads of one channel are thus in one order on one thread, which is what lets a recovering
 * subscriber miss nothing and get nothing twice ({@link io.sluice.verticles.engine.channel.RecoveryMerge}).
 */
public final class HistoryAppend implements ShardTask {

  private static final System.Logger LOG = System.getLogger(HistoryAppend.class.getName());

  private final byte[] channel;
  private final byte[] key;
  private final byte[] payload;
  private final byte[] publisherId;
  private final HistoryLimits limits;
  private final Consumer<ChannelMessage> fanOut;
  private long offset;
  private long epoch;
  private boolean kept;
  private Throwable failure;

  /**
   * @param publisherId the publisher whose own subscriptions the hub skips, or
   *                    {@link ChannelMessage#NO_PUBLISHER}
   * @param fanOut      publishes the numbered message to every subscriber, on the owner's side
   */
  HistoryAppend(byte[] channel, byte[] payload, byte[] publisherId, HistoryLimits limits,
                Consumer<ChannelMessage> fanOut) {
    this.channel = channel;
    this.key = ChannelHistory.keyOf(channel);
    this.payload = payload;
    this.publisherId = publisherId;
    this.limits = limits;
    this.fanOut = fanOut;
  }

  @Override
  public byte[] key() {
    return key;
  }

  byte[] channel() {
    return channel;
  }

  byte[] payload() {
    return payload;
  }

  byte[] publisherId() {
    return publisherId;
  }

  /**
   * The message is fanned out even when a full shard refuses to keep it ({@code --eviction
   * reject}): a publish is not lost for the live subscribers; recovery past it then answers
   * that the history was lost.
   */
  @Override
  public void run(KeyState state, long nowNanos) {
    ChannelHistory history = ChannelHistory.loadOrStart(state.value(), ChannelHistory::newEpoch);
    offset = history.append(payload, nowNanos, limits).offset();
    epoch = history.epoch();
    kept = state.put(history.encode(), limits.ttlNanos() == 0 ? Long.MAX_VALUE : limits.ttlNanos());
    fanOut.accept(new ChannelMessage(channel, payload, publisherId, offset, epoch));
  }

  @Override
  public void failed(Throwable error) {
    failure = error;
    LOG.log(System.Logger.Level.WARNING, "a publish to a channel with history failed on its owner", error);
  }

  /** The message's offset, 0 when it failed. */
  public long offset() {
    return failure == null ? offset : 0;
  }

  public long epoch() {
    return epoch;
  }

  /** False when the shard was full and refused to keep the history (the message still went out). */
  public boolean kept() {
    return kept;
  }

  public Throwable failure() {
    return failure;
  }

  /** For the codec: the result as the owner computed it. */
  void ranElsewhere(long offset, long epoch, boolean kept, Throwable failure) {
    this.offset = offset;
    this.epoch = epoch;
    this.kept = kept;
    this.failure = failure;
  }
}
