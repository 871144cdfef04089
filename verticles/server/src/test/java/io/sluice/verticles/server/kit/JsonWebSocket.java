package io.sluice.verticles.server.kit;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;

/**
 * A WebSocket client of the bridge at {@code /ws} that speaks its JSON side: text messages out, and
 * every text message received queued in order as a {@link JsonObject}. Binary messages received are
 * kept apart (a JSON client should get none), and the close status is recorded.
 */
public final class JsonWebSocket implements AutoCloseable {

  private final WebSocketClient client;
  private final WebSocket socket;
  private final ByteQueue binary = new ByteQueue();
  private final ArrayDeque<JsonObject> texts = new ArrayDeque<>();
  private final ArrayDeque<Promise<JsonObject>> waiters = new ArrayDeque<>();
  private final Promise<Short> closed = Promise.promise();

  private JsonWebSocket(WebSocketClient client, WebSocket socket) {
    this.client = client;
    this.socket = socket;
    socket.textMessageHandler(this::onText);
    socket.binaryMessageHandler(binary::append);
    socket.closeHandler(v -> {
      binary.close();
      closed.tryComplete(socket.closeStatusCode());
      failWaiters();
    });
  }

  /** Connection options for the bridge of a server on loopback; Vert.x adds a same-origin Origin by default. */
  public static WebSocketConnectOptions options(int httpPort) {
    return new WebSocketConnectOptions().setHost("127.0.0.1").setPort(httpPort).setURI("/ws");
  }

  public static Future<JsonWebSocket> open(Vertx vertx, int httpPort) {
    return open(vertx, options(httpPort));
  }

  /** Fails with an {@link io.vertx.core.http.UpgradeRejectedException} when the server refuses the upgrade. */
  public static Future<JsonWebSocket> open(Vertx vertx, WebSocketConnectOptions options) {
    return open(vertx, new WebSocketClientOptions(), options);
  }

  /** With client options too (a small receive buffer, say). */
  public static Future<JsonWebSocket> open(Vertx vertx, WebSocketClientOptions clientOptions,
                                           WebSocketConnectOptions options) {
    WebSocketClient client = vertx.createWebSocketClient(clientOptions);
    return client.connect(options)
        .map(socket -> new JsonWebSocket(client, socket))
        .onFailure(error -> client.close());
  }

  public Future<Void> send(JsonObject command) {
    return socket.writeTextMessage(command.encode());
  }

  public Future<Void> sendText(String text) {
    return socket.writeTextMessage(text);
  }

  public Future<Void> sendBinary(byte[] bytes) {
    return socket.writeBinaryMessage(Buffer.buffer(bytes));
  }

  /** The next text message the server sends, parsed. */
  public synchronized Future<JsonObject> next() {
    Promise<JsonObject> promise = Promise.promise();
    if (!texts.isEmpty()) {
      promise.complete(texts.poll());
    } else if (closed.future().isComplete()) {
      promise.fail("connection closed");
    } else {
      waiters.add(promise);
    }
    return promise.future();
  }

  /** Text messages received and not yet taken by {@link #next}. */
  public synchronized int unreadTexts() {
    return texts.size();
  }

  /** The next {@code length} bytes of binary messages the server sends. */
  public Future<byte[]> receiveBinary(int length) {
    return binary.take(length);
  }

  public int unreadBinary() {
    return binary.unread();
  }

  /** Completes with the close status code when the connection closes. */
  public Future<Short> closed() {
    return closed.future();
  }

  public WebSocket socket() {
    return socket;
  }

  public void pause() {
    socket.pause();
  }

  public void resume() {
    socket.resume();
  }

  private synchronized void onText(String text) {
    JsonObject message = new JsonObject(text);
    Promise<JsonObject> waiter = waiters.poll();
    if (waiter != null) {
      waiter.complete(message);
    } else {
      texts.add(message);
    }
  }

  private synchronized void failWaiters() {
    waiters.forEach(w -> w.tryFail("connection closed with " + texts.size() + " messages unread"));
    waiters.clear();
  }

  @Override
  public void close() {
    client.close();
  }
}
