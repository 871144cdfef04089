package io.sluice.verticles.server.tcp;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.server.front.FrontConnection;
import io.sluice.verticles.server.front.FrontKind;
import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.front.Wire;
import io.vertx.core.Vertx;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/** One Throttr TCP client: a byte stream, so the replies of every read ready at once go in one write. */
final class TcpConnection extends FrontConnection {

  private static final long DRAIN_CHECK_MILLIS = 10;
  private static final FrontKind KIND = new FrontKind("Throttr connection", ConnectionStats.Protocol.TCP, false);

  private final NetSocket socket;

  TcpConnection(NetSocket socket, FrontLoop loop) {
    super(KIND, loop, new Wire(socket.remoteAddress(), socket, socket,
        ((NetSocketInternal) socket).channelHandlerContext().channel()));
    this.socket = socket;
  }

  void start() {
    open(true);
    socket.handler(this::onFrames);
    socket.closeHandler(v -> closed());
    socket.shutdownHandler(v -> drain());
  }

  /**
   * The server is shutting down: read nothing more, answer what was read, then close. A client that
   * does not read its answers is closed by the server's shutdown timeout instead.
   */
  private void drain() {
    socket.pause();
    Vertx vertx = Vertx.currentContext().owner();
    vertx.setPeriodic(DRAIN_CHECK_MILLIS, timer -> {
      if (closed || session.pendingRequests() == 0) {
        vertx.cancelTimer(timer);
        socket.end();
      }
    });
  }

  @Override
  protected void closeTransport(String reason) {
    socket.close();
  }
}
