package io.sluice.verticles.server.grpc;

import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.server.listener.ConnectionGate;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * What one gRPC connection may hold, applied when Vert.x makes the connection (on the client's first
 * SETTINGS frame, before any stream of it is read): it counts in {@code --max-connections} (one too
 * many gets GOAWAY and the close), it may have at most {@link #MAX_STREAMS} streams open, and what
 * it holds is bounded by {@code --max-pending-bytes} ({@link GrpcBacklog}).
 *
 * <p>Netty holds a client to the SETTINGS_MAX_CONCURRENT_STREAMS the server sent only once the
 * client acknowledged them; a client that never does could open streams without end, each answer
 * held while the client reads nothing (issue 30: 142,000 in 5 s). So the bound is set on the
 * connection's remote endpoint at once: a stream past it gets RST_STREAM(REFUSED_STREAM), which a
 * gRPC client retries (and DATA for that stream after it is a protocol error to Netty: GOAWAY and
 * the close). With 100 streams, closing a connection that still holds them stays cheap too.
 *
 * <p>The connection's errors (a reset, a protocol error, a client gone) are logged here, a line a
 * second at most, instead of one stack trace each by Vert.x.
 */
final class GrpcConnectionGuard {

  /** Streams one connection may have open: what the server's SETTINGS say, and enforced from the first frame. */
  static final int MAX_STREAMS = 100;

  private static final System.Logger LOG = System.getLogger(GrpcConnectionGuard.class.getName());

  private final ConnectionGate gate;
  private final LogLimiter log;
  private final int maxPendingBytes;
  private final PendingBytes pendingBytes;

  GrpcConnectionGuard(ConnectionGate gate, LogLimiter log, int maxPendingBytes, PendingBytes pendingBytes) {
    this.gate = gate;
    this.log = log;
    this.maxPendingBytes = maxPendingBytes;
    this.pendingBytes = pendingBytes;
  }

  /** For the HTTP server's {@code connectionHandler}. */
  void accept(HttpConnection connection) {
    Channel channel = ((ConnectionBase) connection).channel();
    // Before the gate's answer: a call read with the refused connection's first frames is counted too.
    GrpcBacklog.attach(channel, maxPendingBytes, pendingBytes);
    if (!gate.admit(channel, "gRPC", connection.remoteAddress())) {
      connection.close();
      return;
    }
    Http2ConnectionHandler http2 = channel.pipeline().get(Http2ConnectionHandler.class);
    if (http2 != null) {
      http2.connection().remote().maxActiveStreams(MAX_STREAMS);
    }
    connection.exceptionHandler(failure -> failed(connection, failure));
  }

  private void failed(HttpConnection connection, Throwable failure) {
    if (failure instanceof java.io.IOException) {
      // The client went away (a closed channel, a reset): routine, and answers it left unread fail so.
      LOG.log(System.Logger.Level.DEBUG, () -> "gRPC connection from " + connection.remoteAddress() + " closed: " + failure);
      return;
    }
    log.log(LOG, System.Logger.Level.WARNING, "gRPC connection from " + connection.remoteAddress() + ": " + failure);
  }
}
