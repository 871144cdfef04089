package io.sluice.verticles.front;

import io.netty.buffer.ByteBuf;
import io.sluice.core.instance.ConnectionStats;
import io.sluice.core.instance.Instance;
import io.sluice.core.session.ThrottrSession;
import io.sluice.core.session.Transport;
import io.sluice.core.shard.ShardBatch;
import io.sluice.throttr.codec.RequestDecoder;
import io.sluice.verticles.channel.ChannelMessage;
import io.sluice.verticles.channel.EventBusChannels;
import io.sluice.verticles.channel.PushSink;
import io.sluice.verticles.shard.ShardOutbox;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;

import java.util.function.Consumer;

/**
 * What every front's client connection shares, whatever carries its bytes (a TCP socket, a
 * WebSocket): Throttr frames in, through the {@link ThrottrSession} to the shards, replies out in
 * order; its channels; its place in the instance's registry; back-pressure both ways and the
 * slow-consumer policy for pushes. Subclasses say only how bytes and closes travel.
 */
public abstract class FrontConnection implements Transport, PushSink {

  private static final System.Logger LOG = System.getLogger(FrontConnection.class.getName());

  protected final Instance instance;
  protected final ConnectionStats stats;
  protected final EventBusChannels channels;
  protected final ThrottrSession session;
  private final RequestDecoder decoder;
  private final ShardOutbox shards;
  private final ReadStream<Buffer> input;
  private final WriteStream<Buffer> output;
  private final String kind;
  private final PushFlushes pushFlushes;
  protected boolean closed;
  private boolean readingPaused;

  protected FrontConnection(FrontKind kind, FrontLoop loop, Wire wire) {
    this.kind = kind.name();
    this.pushFlushes = PushFlushes.install(wire.channel());
    this.instance = loop.instance();
    this.shards = loop.shards();
    this.input = wire.input();
    this.output = wire.output();
    this.stats = new ConnectionStats(ConnectionStats.randomId(), kind.protocol(), wire.peer().hostAddress(),
        wire.peer().port(), instance.clock().epochNanos());
    this.channels = new EventBusChannels(loop.hub(), instance.channels(), stats, this, instance.clock(),
        instance.valueSize());
    ConnectionLimits limits = loop.limits();
    this.session = new ThrottrSession(instance, stats, channels, this, limits.maxPendingRequests(),
        kind.writePerRead());
    this.decoder = new RequestDecoder(instance.valueSize(), limits.maxFrame(), session);
    output.setWriteQueueMaxSize(limits.maxPendingBytes());
  }

  /** Registers the connection; {@code joinChannels} false defers the automatic channels (unauthenticated). */
  protected void open(boolean joinChannels) {
    instance.connections().add(stats);
    if (joinChannels) {
      channels.joinAutomaticChannels();
    }
    output.drainHandler(v -> session.setWritable(true));
    input.exceptionHandler(this::onException);
  }

  /** Call from the transport's close handler. */
  protected void closed() {
    closed = true;
    channels.leaveAll();
    instance.connections().remove(stats);
  }

  /** Feeds one read (TCP) or one message (WebSocket) of Throttr frames. */
  protected void onFrames(Buffer data) {
    countRead(data.length());
    decoder.feed(((BufferInternal) data).getByteBuf());
    session.endOfRead();
  }

  protected void countRead(int length) {
    stats.addReadBytes(length);
    instance.counters().countBytes(length, 0);
  }

  protected void countWritten(int length) {
    stats.addWriteBytes(length);
    instance.counters().countBytes(0, length);
  }

  /** A peer resetting its connection is routine; anything else is a Sluice bug worth a stack trace. */
  protected void onException(Throwable error) {
    if (error instanceof java.io.IOException) {
      LOG.log(System.Logger.Level.DEBUG, kind + " " + peer() + ": " + error.getMessage());
    } else {
      LOG.log(System.Logger.Level.ERROR, "closing " + kind + " from " + peer() + " after an internal error", error);
      close("internal error");
    }
  }

  @Override
  public void dispatch(ShardBatch batch, Consumer<ShardBatch> done) {
    shards.dispatch(batch, done, error -> close("shard " + batch.shard() + " unreachable: " + error.getMessage()));
  }

  @Override
  public void write(ByteBuf replies) {
    if (!writable()) {
      return;
    }
    send(replies);
    if (output.writeQueueFull()) {
      session.setWritable(false);
    }
  }

  /**
   * Slow-consumer policy: a push that finds the connection's outbound queue full (the client is not
   * reading) is dropped and counted, never queued without limit. Replies are never dropped; for
   * them the server stops reading from the client instead.
   */
  @Override
  public boolean push(ChannelMessage message) {
    if (!writable() || output.writeQueueFull()) {
      return false;
    }
    ByteBuf frame = message.pushFrame(instance.valueSize());
    sendPush(() -> send(frame));
    return true;
  }

  /** Makes a push's write, whose flush waits for the end of the loop turn (see {@link PushFlushes}). */
  protected final void sendPush(Runnable write) {
    pushFlushes.gathering(true);
    try {
      write.run();
    } finally {
      pushFlushes.gathering(false);
    }
  }

  protected void send(ByteBuf bytes) {
    int length = bytes.readableBytes();
    output.write(BufferInternal.buffer(bytes)).onSuccess(v -> countWritten(length));
  }

  /** False once closed, or while the peer's close has not reached the close handler yet. */
  protected boolean writable() {
    return !closed;
  }

  @Override
  public void pauseReading() {
    readingPaused = true;
    input.pause();
  }

  @Override
  public void resumeReading() {
    readingPaused = false;
    input.resume();
  }

  /** Whether the session has asked to stop reading (back-pressure). */
  protected boolean readingPaused() {
    return readingPaused;
  }

  @Override
  public void close(String reason) {
    if (!closed) {
      LOG.log(System.Logger.Level.WARNING, "closing " + kind + " from " + peer() + ": " + reason);
      closed = true;
      closeTransport(reason);
    }
  }

  protected abstract void closeTransport(String reason);

  protected String peer() {
    return stats.ip() + ":" + stats.port();
  }
}
