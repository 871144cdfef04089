package io.sluice.verticles.server.kit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;

/**
 * Throttr frames in WebSocket binary messages at {@code /ws}: each send is one message, and the
 * bytes of every binary message received are queued in order.
 */
public final class WebSocketConversation extends QueuedConversation {

  private final WebSocketClient client;
  private final WebSocket socket;

  private WebSocketConversation(WebSocketClient client, WebSocket socket) {
    this.client = client;
    this.socket = socket;
    socket.binaryMessageHandler(received::append);
    socket.closeHandler(v -> received.close());
  }

  public static Future<Conversation> open(Vertx vertx, int httpPort) {
    WebSocketClient client = vertx.createWebSocketClient();
    return client.connect(httpPort, "127.0.0.1", "/ws").map(socket -> new WebSocketConversation(client, socket));
  }

  public static int localPort(Conversation conversation) {
    return ((WebSocketConversation) conversation).socket.localAddress().port();
  }

  @Override
  public Future<Void> send(byte[] request) {
    return socket.writeBinaryMessage(Buffer.buffer(request));
  }

  @Override
  public void close() {
    client.close();
  }
}
