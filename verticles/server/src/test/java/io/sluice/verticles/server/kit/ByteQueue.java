package io.sluice.verticles.server.kit;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayDeque;

/**
 * Bytes a client received, handed out in exact amounts as tests ask for them. The connection's
 * event loop appends; the test thread takes; hence synchronized.
 */
final class ByteQueue {

  private final Promise<Void> closed = Promise.promise();
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private Buffer received = Buffer.buffer();

  private record Waiter(int length, Promise<byte[]> promise) {
  }

  synchronized Future<byte[]> take(int length) {
    Promise<byte[]> promise = Promise.promise();
    waiters.add(new Waiter(length, promise));
    serveWaiters();
    if (closed.future().isComplete()) {
      failWaiters();
    }
    return promise.future();
  }

  synchronized void append(Buffer data) {
    received.appendBuffer(data);
    serveWaiters();
  }

  synchronized void close() {
    closed.tryComplete();
    failWaiters();
  }

  Future<Void> closed() {
    return closed.future();
  }

  synchronized int unread() {
    return received.length();
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
}
