package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.pubsub.ChannelHistories;
import io.sluice.verticles.server.pubsub.EventBusChannels;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The JSON commands of channels with history ({@code --channel-history}): a subscribe that
 * recovers what the client missed ({@code since}), a publish acknowledged with its offset, and the
 * {@code history} op. Answers go through {@code send}, on the connection's loop.
 */
final class HistoryCommands {

  static final String NO_HISTORY = "this server keeps no channel history (--channel-history)";

  private final EventBusChannels channels;
  private final Consumer<String> send;
  private final BooleanSupplier closed;

  HistoryCommands(EventBusChannels channels, Consumer<String> send, BooleanSupplier closed) {
    this.channels = channels;
    this.send = send;
    this.closed = closed;
  }

  boolean enabled() {
    return channels.history() != null;
  }

  /**
   * {@code {"op":"subscribe","channel":…,"since":{"offset":41,"epoch":"…"}}}: the acknowledgement,
   * then every held message after the offset, then live ones.
   *
   * @param acknowledged runs once the acknowledgement is sent (not when the connection closed first)
   * @return false when the connection holds the most subscriptions it may
   */
  boolean subscribeSince(String channel, Object since, Object id, Runnable acknowledged) {
    ChannelHistories history = requireHistory();
    if (!(since instanceof JsonObject position) || !(position.getValue("offset") instanceof Number offset)
        || offset.longValue() < 0) {
      throw new IllegalArgumentException("\"since\" must be {\"offset\":N,\"epoch\":\"…\"} as a message carried them");
    }
    long epoch = JsonFrames.epoch(position.getValue("epoch"));
    byte[] name = channel.getBytes(StandardCharsets.UTF_8);
    EventBusChannels.Recovering recovering = channels.subscribeRecovering(name);
    if (recovering == null) {
      return false;
    }
    recovering.registered().onComplete(registered -> history.recover(name, offset.longValue(), epoch)
        .whenComplete((missed, failure) -> {
          if (closed.getAsBoolean()) {
            return;
          }
          String unreachable = failure == null ? null : "history not reachable: " + failure.getMessage();
          send.accept(JsonFrames.recoveredAck(channel, missed, unreachable, id));
          channels.recovered(recovering, missed);
          acknowledged.run();
        }));
    return true;
  }

  /** A publish numbered by the channel's owner; its acknowledgement carries the offset. */
  void publish(String channel, byte[] payload, Object id) {
    channels.publishNumbered(channel.getBytes(StandardCharsets.UTF_8), payload).whenComplete((append, failure) -> {
      if (closed.getAsBoolean()) {
        return;
      }
      Throwable cause = failure != null ? failure : append.failure();
      send.accept(cause == null ? JsonFrames.numberedAck(channel, append.offset(), append.epoch(), id)
          : JsonFrames.error("publish not kept: " + cause.getMessage(), id));
    });
  }

  /** {@code {"op":"history","channel":…,"limit":50}}: the latest messages, oldest first. */
  void history(String channel, JsonObject command, Object id) {
    ChannelHistories history = requireHistory();
    Object limit = command.getValue("limit", Integer.MAX_VALUE);
    if (!(limit instanceof Number count) || count.longValue() < 1) {
      throw new IllegalArgumentException("\"limit\" must be a number of messages, 1 or more");
    }
    history.latest(channel.getBytes(StandardCharsets.UTF_8), (int) Math.min(count.longValue(), Integer.MAX_VALUE))
        .whenComplete((latest, failure) -> {
          if (!closed.getAsBoolean()) {
            send.accept(failure == null ? JsonFrames.history(channel, latest, id)
                : JsonFrames.error("history not reachable: " + failure.getMessage(), id));
          }
        });
  }

  private ChannelHistories requireHistory() {
    ChannelHistories history = channels.history();
    if (history == null) {
      throw new IllegalArgumentException(NO_HISTORY);
    }
    return history;
  }
}
