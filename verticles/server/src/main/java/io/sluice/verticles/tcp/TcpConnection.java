package io.sluice.verticles.tcp;

import io.sluice.core.instance.ConnectionStats;
import io.sluice.verticles.front.FrontConnection;
import io.sluice.verticles.front.FrontKind;
import io.sluice.verticles.front.FrontLoop;
import io.sluice.verticles.front.Wire;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/** One Throttr TCP client: a byte stream, so the replies of every read ready at once go in one write. */
final class TcpConnection extends FrontConnection {

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
  }

  @Override
  protected void closeTransport(String reason) {
    socket.close();
  }
}
