package io.sluice.verticles.server.kit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;

/** A raw TCP {@link Conversation}: bytes exactly as the server sends them. */
public final class TcpConversation extends QueuedConversation {

  /** Held on purpose: Vert.x closes an unreachable client's connections when it is garbage collected. */
  private final NetClient client;
  private final NetSocket socket;

  private TcpConversation(NetClient client, NetSocket socket) {
    this.client = client;
    this.socket = socket;
    socket.handler(received::append);
    socket.closeHandler(v -> received.close());
  }

  public static Future<Conversation> open(Vertx vertx, int port) {
    NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
    return client.connect(port, "127.0.0.1").map(socket -> new TcpConversation(client, socket));
  }

  /** The local port of this client socket, as the server sees it. */
  public static int localPort(Conversation conversation) {
    return ((TcpConversation) conversation).socket.localAddress().port();
  }

  @Override
  public Future<Void> send(byte[] request) {
    return socket.write(Buffer.buffer(request));
  }

  @Override
  public void close() {
    client.close();
  }
}
