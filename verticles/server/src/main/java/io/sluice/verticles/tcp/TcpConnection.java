package io.sluice.verticles.tcp;

import io.sluice.core.instance.ConnectionStats;
import io.sluice.core.instance.Instance;
import io.sluice.verticles.channel.ChannelHub;
import io.sluice.verticles.front.FrontConnection;
import io.sluice.verticles.shard.ShardOutbox;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/** One Throttr TCP client: a byte stream, so the replies of every read ready at once go in one write. */
final class TcpConnection extends FrontConnection {

  private final NetSocket socket;

  TcpConnection(NetSocket socket, Instance instance, ShardOutbox shards, ChannelHub hub, TcpSettings settings) {
    super("Throttr connection", ConnectionStats.Protocol.TCP, socket.remoteAddress(), socket, socket,
        ((NetSocketInternal) socket).channelHandlerContext().channel(), instance, shards, hub, settings, false);
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
