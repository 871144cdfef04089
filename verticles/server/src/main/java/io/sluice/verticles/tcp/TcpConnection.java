package io.sluice.verticles.tcp;

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
import io.vertx.core.net.NetSocket;

import java.util.function.Consumer;

/** Adapts one accepted socket to a {@link ThrottrSession}: bytes in, batches to shards, replies out. */
final class TcpConnection implements Transport, PushSink {

  private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());

  private final NetSocket socket;
  private final Instance instance;
  private final ShardOutbox shards;
  private final EventBus eventBus;
  private final ConnectionStats stats;
  private final ThrottrSession session;
  private final RequestDecoder decoder;
  private final EventBusChannels channels;
  private boolean closed;

  TcpConnection(NetSocket socket, Instance instance, ShardOutbox shards, EventBus eventBus, ChannelHub hub,
                TcpSettings settings) {
    this.socket = socket;
    this.instance = instance;
    this.shards = shards;
    this.eventBus = eventBus;
    this.stats = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP,
        socket.remoteAddress().hostAddress(), socket.remoteAddress().port(), instance.clock().epochNanos());
    this.channels = new EventBusChannels(eventBus, hub, instance.channels(), stats, this, instance.clock());
    this.session = new ThrottrSession(instance, stats, channels, this, settings.maxPendingRequests(), false);
    this.decoder = new RequestDecoder(instance.valueSize(), settings.maxFrame(), session);
    socket.setWriteQueueMaxSize(settings.maxPendingBytes());
  }

  void start() {
    instance.connections().add(stats);
    channels.joinAutomaticChannels();
    socket.handler(this::onRead);
    socket.drainHandler(v -> session.setWritable(true));
    socket.closeHandler(v -> {
      closed = true;
      channels.leaveAll();
      instance.connections().remove(stats);
    });
    socket.exceptionHandler(this::onException);
  }

  /** A peer resetting its connection is routine; anything else is a Sluice bug worth a stack trace. */
  private void onException(Throwable error) {
    if (error instanceof java.io.IOException) {
      LOG.log(System.Logger.Level.DEBUG, "connection " + peer() + ": " + error.getMessage());
    } else {
      LOG.log(System.Logger.Level.ERROR, "closing Throttr connection from " + peer() + " after an internal error", error);
      socket.close();
    }
  }

  private void onRead(Buffer data) {
    stats.addReadBytes(data.length());
    instance.counters().countBytes(data.length(), 0);
    decoder.feed(((BufferInternal) data).getByteBuf());
    session.endOfRead();
  }

  @Override
  public void dispatch(ShardBatch batch, Consumer<ShardBatch> done) {
    shards.dispatch(batch, done, error -> close("shard " + batch.shard() + " unreachable: " + error.getMessage()));
  }

  @Override
  public void write(ByteBuf replies) {
    if (closed) {
      return;
    }
    send(replies);
    if (socket.writeQueueFull()) {
      session.setWritable(false);
    }
  }

  /**
   * Slow-consumer policy: a push finds the connection's outbound queue full (the client is not
   * reading) → it is dropped and counted, never queued without limit. Replies are never dropped;
   * for them the server stops reading from the client instead.
   */
  @Override
  public boolean push(ChannelMessage message) {
    if (closed || socket.writeQueueFull()) {
      return false;
    }
    send(message.pushFrame(instance.valueSize()));
    return true;
  }

  private void send(ByteBuf bytes) {
    int length = bytes.readableBytes();
    socket.write(BufferInternal.buffer(bytes)).onSuccess(v -> {
      stats.addWriteBytes(length);
      instance.counters().countBytes(0, length);
    });
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
      LOG.log(System.Logger.Level.WARNING, "closing Throttr connection from " + peer() + ": " + reason);
      closed = true;
      socket.close();
    }
  }

  private String peer() {
    return stats.ip() + ":" + stats.port();
  }
}
