package io.sluice.verticles.kit;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;

import java.util.ArrayDeque;

/** A raw TCP {@link Conversation}: bytes exactly as the server sends them. */
public final class TcpConversation implements Conversation {

  /** Held on purpose: Vert.x closes an unreachable client's connections when it is garbage collected. */
  private final NetClient client;
  private final NetSocket socket;
  private final Promise<Void> closed = Promise.promise();
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private Buffer received = Buffer.buffer();

  private record Waiter(int length, Promise<byte[]> promise) {
  }

  private TcpConversation(NetClient client, NetSocket socket) {
    this.client = client;
    this.socket = socket;
    socket.handler(this::onData);
    socket.closeHandler(v -> onClose());
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

  // The socket's event loop and the test thread both come here, hence synchronized.
  @Override
  public synchronized Future<byte[]> receive(int length) {
    Promise<byte[]> promise = Promise.promise();
    waiters.add(new Waiter(length, promise));
    serveWaiters();
    if (closed.future().isComplete()) {
      failWaiters();
    }
    return promise.future();
  }

  private synchronized void onData(Buffer data) {
    received.appendBuffer(data);
    serveWaiters();
  }

  private synchronized void onClose() {
    closed.tryComplete();
    failWaiters();
  }

  private void failWaiters() {
    waiters.forEach(w -> w.promise.tryFail("connection closed with " + received.length() + " bytes unread"));
    waiters.clear();
  }

  private void serveWaiters() {
    while (!waiters.isEmpty() && received.length() >= waiters.peek().length) {
      Waiter waiter = waiters.poll();
      byte[] bytes = received.getBytes(0, waiter.length);
      received = received.getBuffer(waiter.length, received.length());
      waiter.promise.complete(bytes);
    }
  }

  @Override
  public Future<Void> closed() {
    return closed.future();
  }

  @Override
  public synchronized int unread() {
    return received.length();
  }

  @Override
  public void close() {
    client.close();
  }
}
