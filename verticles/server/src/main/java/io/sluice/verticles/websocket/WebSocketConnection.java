package io.sluice.verticles.websocket;

import io.netty.buffer.ByteBuf;
import io.sluice.core.instance.ConnectionStats;
import io.sluice.core.instance.Instance;
import io.sluice.core.session.ThrottrSession;
import io.sluice.core.session.Transport;
import io.sluice.core.shard.ShardBatch;
import io.sluice.throttr.codec.RequestDecoder;
import io.sluice.verticles.channel.ChannelHub;
import io.sluice.verticles.channel.ChannelMessage;
import io.sluice.verticles.channel.EventBusChannels;
import io.sluice.verticles.channel.PushSink;
import io.sluice.verticles.shard.ShardOutbox;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.http.ServerWebSocket;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * One WebSocket client of the bridge. Binary messages carry raw Throttr frames, run by the same
 * {@link ThrottrSession} as TCP (one message in, its replies out as one message). Text messages
 * carry JSON channel commands, one {@code handleX} per op. Pushes go out in the client's language:
 * Throttr push frames once it has sent a binary message, JSON messages otherwise.
 */
final class WebSocketConnection implements Transport, PushSink {

  private static final System.Logger LOG = System.getLogger(WebSocketConnection.class.getName());

  private final ServerWebSocket socket;
  private final Instance instance;
  private final ShardOutbox shards;
  private final EventBus eventBus;
  private final WebSocketAccess access;
  private final ConnectionStats stats;
  private final EventBusChannels channels;
  private final ThrottrSession session;
  private final RequestDecoder decoder;
  private boolean authenticated;
  private boolean binaryClient;
  private boolean closed;

  WebSocketConnection(ServerWebSocket socket, Instance instance, ShardOutbox shards, EventBus eventBus,
                      ChannelHub hub, WebSocketAccess access, boolean authenticated, int maxFrame, int maxPendingBytes,
                      int maxPendingRequests) {
    this.socket = socket;
    this.instance = instance;
    this.shards = shards;
    this.eventBus = eventBus;
    this.access = access;
    this.authenticated = authenticated;
    this.stats = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.WEBSOCKET,
        socket.remoteAddress().hostAddress(), socket.remoteAddress().port(), instance.clock().epochNanos());
    this.channels = new EventBusChannels(eventBus, hub, instance.channels(), stats, this, instance.clock());
    this.session = new ThrottrSession(instance, stats, channels, this, maxPendingRequests, true);
    this.decoder = new RequestDecoder(instance.valueSize(), maxFrame, session);
    socket.setWriteQueueMaxSize(maxPendingBytes);
  }

  void start() {
    instance.connections().add(stats);
    if (authenticated) {
      channels.joinAutomaticChannels();
    }
    socket.binaryMessageHandler(this::onBinary);
    socket.textMessageHandler(this::onText);
    socket.drainHandler(v -> session.setWritable(true));
    socket.exceptionHandler(error -> LOG.log(System.Logger.Level.DEBUG, "WebSocket " + peer() + ": " + error));
    socket.closeHandler(v -> {
      closed = true;
      channels.leaveAll();
      instance.connections().remove(stats);
    });
  }

  private void onBinary(Buffer message) {
    stats.addReadBytes(message.length());
    if (!authenticated) {
      close("binary message before authentication");
      return;
    }
    binaryClient = true;
    decoder.feed(((BufferInternal) message).getByteBuf());
    session.endOfRead();
  }

  private void onText(String text) {
    stats.addReadBytes(text.length());
    answerText(text);
    // Back-pressure as for binary messages: a client not reading its replies is not read from either.
    if (!closed && socket.writeQueueFull()) {
      session.setWritable(false);
    }
  }

  private void answerText(String text) {
    JsonObject command;
    try {
      command = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      sendText(JsonFrames.error("not a JSON object: " + e.getMessage(), null));
      return;
    }
    Object id = command.getValue("id");
    String op = command.getValue("op") instanceof String ? command.getString("op") : "";
    try {
      if (!authenticated && !op.equals("auth")) {
        sendText(JsonFrames.error("authenticate first: {\"op\":\"auth\",\"token\":\"…\"}", id));
        return;
      }
      switch (op) {
        case "auth": handleAuth(command, id); break;
        case "subscribe": handleSubscribe(command, id); break;
        case "unsubscribe": handleUnsubscribe(command, id); break;
        case "publish": handlePublish(command, id); break;
        default: sendText(JsonFrames.error("unknown op '" + op + "' (subscribe, unsubscribe, publish, auth)", id));
      }
    } catch (IllegalArgumentException e) {
      sendText(JsonFrames.error(e.getMessage(), id));
    }
  }

  private void handleAuth(JsonObject command, Object id) {
    boolean ok = !access.tokenRequired() || access.matches(command.getValue("token") instanceof String
        ? command.getString("token") : "");
    if (ok && !authenticated) {
      // Only now: a client that has not shown the token must not hear what * or its ID channel carry.
      authenticated = true;
      channels.joinAutomaticChannels();
    }
    sendText(JsonFrames.ack("auth", null, ok, id));
  }

  private void handleSubscribe(JsonObject command, Object id) {
    String channel = channel(command);
    channels.subscribe(channel.getBytes(StandardCharsets.UTF_8));
    sendText(JsonFrames.ack("subscribe", channel, true, id));
  }

  private void handleUnsubscribe(JsonObject command, Object id) {
    String channel = channel(command);
    sendText(JsonFrames.ack("unsubscribe", channel, channels.unsubscribe(channel.getBytes(StandardCharsets.UTF_8)), id));
  }

  /** As in the binary protocol, this client's own pushes come before its acknowledgement. */
  private void handlePublish(JsonObject command, Object id) {
    String channel = channel(command);
    byte[] name = channel.getBytes(StandardCharsets.UTF_8);
    byte[] payload = JsonFrames.data(command);
    int own = channels.publish(name, payload);
    ChannelMessage message = new ChannelMessage(name, payload, stats.id());
    for (int i = 0; i < own; i++) {
      push(message);
    }
    if (own > 0) {
      stats.addPublishedBytes((long) own * payload.length);
    }
    sendText(JsonFrames.ack("publish", channel, own >= 0, id));
  }

  private static String channel(JsonObject command) {
    Object channel = command.getValue("channel");
    if (!(channel instanceof String)) {
      throw new IllegalArgumentException("\"channel\" must be a string");
    }
    if (((String) channel).getBytes(StandardCharsets.UTF_8).length > 255) {
      throw new IllegalArgumentException("a channel name is at most 255 bytes");
    }
    return (String) channel;
  }

  @Override
  public void dispatch(ShardBatch batch, Consumer<ShardBatch> done) {
    shards.dispatch(batch, done, error -> close("shard " + batch.shard() + " unreachable: " + error.getMessage()));
  }

  @Override
  public void write(ByteBuf replies) {
    if (closed || isClosing()) {
      return;
    }
    int length = replies.readableBytes();
    socket.writeBinaryMessage(BufferInternal.buffer(replies)).onSuccess(v -> countWritten(length));
    if (socket.writeQueueFull()) {
      session.setWritable(false);
    }
  }

  /** Same slow-consumer policy as TCP: when the client is not reading, pushes are dropped and counted. */
  @Override
  public boolean push(ChannelMessage message) {
    if (closed || isClosing() || socket.writeQueueFull()) {
      return false;
    }
    if (binaryClient) {
      ByteBuf frame = message.pushFrame(instance.valueSize());
      int length = frame.readableBytes();
      socket.writeBinaryMessage(BufferInternal.buffer(frame)).onSuccess(v -> countWritten(length));
    } else {
      sendText(message.text(m -> JsonFrames.message(m.channel(), m.payload())));
    }
    return true;
  }

  /** The peer may have closed before our close handler ran; writing then would throw. */
  private boolean isClosing() {
    return socket.isClosed();
  }

  private void sendText(String text) {
    if (!closed && !isClosing()) {
      socket.writeTextMessage(text).onSuccess(v -> countWritten(text.length()));
    }
  }

  private void countWritten(int length) {
    stats.addWriteBytes(length);
    instance.counters().countBytes(0, length);
  }

  @Override
  public void pauseReading() {
    socket.pause();
  }

  @Override
  public void resumeReading() {
    socket.resume();
  }

  @Override
  public void close(String reason) {
    if (!closed) {
      LOG.log(System.Logger.Level.WARNING, "closing WebSocket from " + peer() + ": " + reason);
      closed = true;
      socket.close((short) 1008, reason.length() > 120 ? reason.substring(0, 120) : reason);
    }
  }

  private String peer() {
    return stats.ip() + ":" + stats.port();
  }
}
