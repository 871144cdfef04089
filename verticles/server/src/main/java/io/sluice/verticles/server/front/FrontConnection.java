package io.sluice.verticles.server.front;

import io.sluice.verticles.server.listener.ConnectionLimits;
import io.micrometer.core.instrument.Timer;
import io.sluice.protocol.binary.codec.RequestType;
import java.util.concurrent.TimeUnit;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.session.ThrottrSession;
import io.sluice.verticles.engine.session.Transport;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.verticles.server.pubsub.ChannelMessage;
import io.sluice.verticles.server.pubsub.EventBusChannels;
import io.sluice.verticles.server.pubsub.PushSink;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
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
  private final ShardRouter shards;
  private final ReadStream<Buffer> input;
  private final WriteStream<Buffer> output;
  private final String kind;
  private final Channel channel;
  private final Context context;
  private final PushFlushes pushFlushes;
  private final LogLimiter closeLog;
  protected boolean closed;
  private boolean readingPaused;
  private final Timer duration;
  private final ConnectionClosers closers;
  private final io.micrometer.core.instrument.Clock stopwatch;
  /** When the oldest read not yet answered arrived, on the stopwatch; 0 when every read is answered. */
  private long unansweredSince;

  protected FrontConnection(FrontKind kind, FrontLoop loop, Wire wire) {
    this.kind = kind.name();
    this.channel = wire.channel();
    this.context = Vertx.currentContext();
    this.pushFlushes = PushFlushes.install(wire.channel());
    this.instance = loop.instance();
    this.closeLog = loop.closeLog();
    this.shards = loop.shards();
    this.input = wire.input();
    this.output = wire.output();
    this.stats = new ConnectionStats(ConnectionStats.randomId(), kind.protocol(), wire.peer().hostAddress(),
        wire.peer().port(), instance.clock().epochNanos());
    this.channels = new EventBusChannels(loop.hub(), instance.channels(), stats, this, instance.clock(),
        instance.valueSize(), loop.limits().maxSubscriptions());
    ConnectionLimits limits = loop.limits();
    this.session = new ThrottrSession(instance, stats, channels, guardedRouter(shards), this,
        limits.maxPendingRequests(), limits.maxPendingBytes(), kind.writePerRead());
    this.decoder = new RequestDecoder(instance.valueSize(), limits.maxFrame(), limits.partialFrames(), session);
    output.setWriteQueueMaxSize(limits.maxPendingBytes());
    this.duration = loop.durations().of(kind.protocol().name().toLowerCase(java.util.Locale.ROOT));
    this.stopwatch = loop.durations().stopwatch();
    this.closers = loop.closers();
  }

  /** Registers the connection; {@code joinChannels} false defers the automatic channels (unauthenticated). */
  protected void open(boolean joinChannels) {
    instance.connections().add(stats);
    closers.register(stats.idHex(), () -> context.runOnContext(v -> close("closed by an operator")));
    if (joinChannels) {
      channels.joinAutomaticChannels();
    }
    output.drainHandler(v -> guarded(() -> session.setWritable(true)));
    input.exceptionHandler(this::onException);
  }

  /** Call from the transport's close handler. */
  protected void closed() {
    closed = true;
    decoder.close();
    channels.leaveAll();
    instance.connections().remove(stats);
    closers.unregister(stats.idHex());
  }

  /** Feeds one read (TCP) or one message (WebSocket) of Throttr frames. */
  protected void onFrames(Buffer data) {
    if (closed) {
      // Read before the close took effect: the stream is being given up, nothing more is answered.
      return;
    }
    countRead(data.length());
    if (unansweredSince == 0) {
      unansweredSince = stopwatch.monotonicTime();
    }
    guarded(() -> {
      decoder.feed(((BufferInternal) data).getByteBuf());
      session.endOfRead();
    });
  }

  /**
   * Runs a step of the connection's request path (decoding, the session, assembling replies). A
   * step that throws, whatever it throws, has left this connection's state unknown: the connection
   * is closed with one log line, and every other connection goes on.
   */
  private void guarded(Runnable step) {
    try {
      step.run();
    } catch (Throwable error) {
      internalError(error);
    }
  }

  private void internalError(Throwable error) {
    LOG.log(System.Logger.Level.DEBUG, () -> "stack of the internal error on " + kind + " from " + peer(), error);
    close("internal error: " + LogText.failure(error));
  }

  /**
   * A request served outside the Throttr session (a WebSocket JSON command), counted where the
   * session counts its own: the connection's figures and {@code sluice_requests_total}.
   */
  protected void countRequest(RequestType type) {
    stats.countRequest(type.code());
    instance.counters().count(stats.protocol(), type.code());
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
      internalError(error);
    }
  }

  /**
   * The loop's router under this connection's guard: a failure in one of its callbacks closes this
   * connection alone, with one log line, never leaving it half alive.
   */
  private ShardRouter guardedRouter(ShardRouter loopRouter) {
    return new ShardRouter() {
      @Override
      public int routes() {
        return loopRouter.routes();
      }

      @Override
      public int routeOf(byte[] key) {
        return loopRouter.routeOf(key);
      }

      // The lanes decide how a read's requests are batched (one per shard thread, not per
      // partition): a wrapper that left them out made a clustered read ~57 batches of 64 keys.
      @Override
      public int lanes() {
        return loopRouter.lanes();
      }

      @Override
      public int laneOf(int route) {
        return loopRouter.laneOf(route);
      }

      @Override
      public void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
        loopRouter.dispatch(batch, filled -> guarded(() -> done.accept(filled)), error -> guarded(() -> failed.accept(error)));
      }
    };
  }

  @Override
  public void write(ByteBuf replies) {
    int length = replies.readableBytes();
    if (unansweredSince != 0) {
      duration.record(stopwatch.monotonicTime() - unansweredSince, TimeUnit.NANOSECONDS);
      unansweredSince = 0;
    }
    if (!writable()) {
      session.replyWritten(length);
      return;
    }
    // Replies answered by another thread or node come outside this connection's reads, where
    // Vert.x would flush each write: the turn's replies to this client leave in one write(2)
    // instead (within a read, Vert.x flushes once at its end, as before). Fewer, larger writes
    // also keep a pipelining client's next requests in fewer, larger reads.
    flushingAtTurnEnd(() -> send(replies)).onComplete(written -> guarded(() -> session.replyWritten(length)));
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
    flushingAtTurnEnd(() -> {
      write.run();
      return null;
    });
  }

  /** Makes a write whose flush waits for the end of the loop turn (see {@link PushFlushes}). */
  private <T> T flushingAtTurnEnd(java.util.function.Supplier<T> write) {
    pushFlushes.gathering(true);
    try {
      return write.get();
    } finally {
      pushFlushes.gathering(false);
    }
  }

  protected Future<Void> send(ByteBuf bytes) {
    int length = bytes.readableBytes();
    return output.write(BufferInternal.buffer(bytes)).onSuccess(v -> countWritten(length));
  }

  /** False once closed, or while the peer's close has not reached the close handler yet. */
  protected boolean writable() {
    return !closed;
  }

  /**
   * Stops reading at once, in Netty too: paused alone, Vert.x would go on reading and queue up to
   * 16 more socket reads (about 1 MB) for this client, which no limit counts.
   */
  @Override
  public void pauseReading() {
    readingPaused = true;
    input.pause();
    channel.config().setAutoRead(false);
  }

  /** Later: the session may be answering now, and decoding must not start in the middle of that. */
  @Override
  public void resumeReading() {
    context.runOnContext(v -> guarded(this::readAgain));
  }

  private void readAgain() {
    if (closed) {
      return;
    }
    decoder.resume();
    session.endOfRead();
    if (session.reading()) {
      readingPaused = false;
      channel.config().setAutoRead(true);
      input.resume();
    }
  }

  /**
   * After a close: reads again, so that a closing handshake (WebSocket's close frame) can be
   * answered; the caller drops whatever else comes.
   */
  protected void readTheClosingHandshake() {
    readingPaused = false;
    channel.config().setAutoRead(true);
    input.resume();
  }

  /** Whether the session has asked to stop reading (back-pressure). */
  protected boolean readingPaused() {
    return readingPaused;
  }

  @Override
  public void close(String reason) {
    if (!closed) {
      closeLog.log(LOG, System.Logger.Level.WARNING, "closing " + kind + " from " + peer() + ": " + reason);
      closed = true;
      closeTransport(reason);
    }
  }

  protected abstract void closeTransport(String reason);

  protected String peer() {
    return stats.ip() + ":" + stats.port();
  }
}
