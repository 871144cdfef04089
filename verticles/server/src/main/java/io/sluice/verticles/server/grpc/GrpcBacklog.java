package io.sluice.verticles.server.grpc;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AttributeKey;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * What one gRPC connection holds for its client, in bytes: the requests it read and has not
 * answered, and the answers not yet written to the socket. Past {@code --max-pending-bytes}, or
 * while the socket takes no more (the client reads nothing), the server stops reading from the
 * connection (no frame read, no WINDOW_UPDATE granted for it: Netty's autoRead off, and the reads
 * its HTTP/2 handler asks for held back, see {@link #read}); it reads again
 * once the backlog is within half the bound and the socket writable.
 *
 * <p>A call's bytes are held by its stream and released when its answer's write completes or fails,
 * or when Netty closes the stream (a reset, the connection closed), whichever comes first: once,
 * so closing a connection costs one step per stream it held. (Vert.x 5.0.11 does not fail the
 * writes still queued on a stream that closes: its cancel of the HEADERS' absent promise throws.)
 *
 * <p>A connection not read from does not see its client leave (NIO has no read interest to report
 * the close): while paused it sends a PING every {@link #PROBE_SECONDS} s, which fails on a socket
 * the client closed, and Netty closes the connection then. A client alive that reads nothing keeps
 * 17 bytes a probe queued, until its idle timeout or Netty's bound on queued control frames.
 *
 * <p>Lives on the connection's event loop; {@link PendingBytes} adds up every connection's.
 */
final class GrpcBacklog extends ChannelDuplexHandler {

  /** How often a paused connection checks that its client is still there. */
  static final long PROBE_SECONDS = 1;

  private static final AttributeKey<GrpcBacklog> KEY = AttributeKey.valueOf(GrpcBacklog.class.getName());

  private final Channel channel;
  private final int bound;
  private final PendingBytes total;
  private final Http2ConnectionHandler http2;
  private final Map<Integer, Long> heldByStream = new HashMap<>();
  private ScheduledFuture<?> probes;
  private long held;
  private boolean paused;

  private GrpcBacklog(Channel channel, int bound, PendingBytes total) {
    this.channel = channel;
    this.http2 = channel.pipeline().get(Http2ConnectionHandler.class);
    this.bound = bound;
    this.total = total;
  }

  /** Starts counting what {@code channel}'s connection holds, against {@code bound}. */
  static void attach(Channel channel, int bound, PendingBytes total) {
    GrpcBacklog backlog = new GrpcBacklog(channel, bound, total);
    channel.attr(KEY).set(backlog);
    // First: between the socket and every handler that could ask it for a read.
    channel.pipeline().addFirst(backlog);
    if (backlog.http2 != null) {
      backlog.http2.connection().addListener(new Http2ConnectionAdapter() {
        @Override
        public void onStreamClosed(Http2Stream stream) {
          backlog.release(stream.id());
        }
      });
    }
  }

  /** The backlog of {@code channel}'s connection. */
  static GrpcBacklog of(Channel channel) {
    return channel.attr(KEY).get();
  }

  /** {@code stream}'s call holds {@code bytes} more. */
  void hold(int stream, int bytes) {
    heldByStream.merge(stream, (long) bytes, Long::sum);
    held += bytes;
    total.held(bytes, held);
    readOrNot();
  }

  /** What {@code stream}'s call held is free; nothing when it was released already. */
  void release(int stream) {
    Long bytes = heldByStream.remove(stream);
    if (bytes != null) {
      held -= bytes;
      total.released(bytes);
      readOrNot();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    readOrNot();
    ctx.fireChannelWritabilityChanged();
  }

  /**
   * Netty's HTTP/2 handler, a decoder that passes no message on, asks for the next read itself
   * after each one (ByteToMessageDecoder does when autoRead is off): while paused, that request
   * stops here, ahead of the socket.
   */
  @Override
  public void read(ChannelHandlerContext ctx) {
    if (!paused) {
      ctx.read();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stopProbing();
    ctx.fireChannelInactive();
  }

  private void readOrNot() {
    if (!paused && (held > bound || !channel.isWritable())) {
      paused = true;
      channel.config().setAutoRead(false);
      if (http2 != null && channel.isActive()) {
        probes = channel.eventLoop().scheduleAtFixedRate(this::probe, PROBE_SECONDS, PROBE_SECONDS, TimeUnit.SECONDS);
      }
    } else if (paused && held <= bound / 2 && channel.isWritable()) {
      paused = false;
      stopProbing();
      channel.config().setAutoRead(true);
    }
  }

  private void probe() {
    ChannelHandlerContext ctx = channel.pipeline().context(http2);
    if (ctx != null) {
      http2.encoder().writePing(ctx, false, 0L, ctx.newPromise());
      ctx.flush();
    }
  }

  private void stopProbing() {
    if (probes != null) {
      probes.cancel(false);
      probes = null;
    }
  }
}
