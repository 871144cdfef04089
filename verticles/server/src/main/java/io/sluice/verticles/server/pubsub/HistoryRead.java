package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ShardTask;

import java.util.List;

/**
 * A read of a channel's history on its owner: the messages a recovering subscriber missed
 * ({@code since}), or the latest ones ({@code limit}). Reads change nothing; a channel that never
 * kept a message has no epoch yet (0).
 */
public final class HistoryRead implements ShardTask {

  /** What is asked: recovery after an offset of an epoch, or the latest {@code limit} messages. */
  public sealed interface Query permits Since, Latest {

    ChannelHistory.Recovery answerFrom(ChannelHistory history);

    /** The answer where the channel has no history (none kept yet, or lost). */
    ChannelHistory.Recovery noHistory();

    /** Its kind's byte and its arguments, for {@link HistoryCodecs}. */
    void writeTo(io.netty.buffer.ByteBuf out);
  }

  public record Since(long offset, long epoch) implements Query {

    @Override
    public ChannelHistory.Recovery answerFrom(ChannelHistory history) {
      return history.recover(offset, epoch);
    }

    @Override
    public ChannelHistory.Recovery noHistory() {
      return new ChannelHistory.Recovery(0, 0, List.of(), ChannelHistory.Recovery.EPOCH_CHANGED, 0);
    }

    @Override
    public void writeTo(io.netty.buffer.ByteBuf out) {
      out.writeByte(HistoryCodecs.SINCE).writeLongLE(offset).writeLongLE(epoch);
    }
  }

  public record Latest(int limit) implements Query {

    @Override
    public ChannelHistory.Recovery answerFrom(ChannelHistory history) {
      return new ChannelHistory.Recovery(history.epoch(), history.top(), history.latest(limit), null, history.size());
    }

    @Override
    public ChannelHistory.Recovery noHistory() {
      return new ChannelHistory.Recovery(0, 0, List.of(), null, 0);
    }

    @Override
    public void writeTo(io.netty.buffer.ByteBuf out) {
      out.writeByte(HistoryCodecs.LATEST).writeIntLE(limit);
    }
  }

  private final byte[] channel;
  private final byte[] key;
  private final Query query;
  private final HistoryLimits limits;
  private ChannelHistory.Recovery answer;
  private Throwable failure;

  HistoryRead(byte[] channel, Query query, HistoryLimits limits) {
    this.channel = channel;
    this.key = ChannelHistory.keyOf(channel);
    this.query = query;
    this.limits = limits;
  }

  @Override
  public byte[] key() {
    return key;
  }

  byte[] channel() {
    return channel;
  }

  Query query() {
    return query;
  }

  @Override
  public void run(KeyState state, long nowNanos) {
    byte[] stored = state.value();
    ChannelHistory history = stored == null ? null : ChannelHistory.loadOrStart(stored, () -> 0);
    if (history == null || history.epoch() == 0) {
      answer = query.noHistory();
      return;
    }
    history.trim(nowNanos, limits);
    answer = query.answerFrom(history);
  }

  @Override
  public void failed(Throwable error) {
    failure = error;
  }

  /** What was read; null when it failed. */
  public ChannelHistory.Recovery answer() {
    return failure == null ? answer : null;
  }

  public Throwable failure() {
    return failure;
  }

  void ranElsewhere(ChannelHistory.Recovery answer, Throwable failure) {
    this.answer = answer;
    this.failure = failure;
  }
}
