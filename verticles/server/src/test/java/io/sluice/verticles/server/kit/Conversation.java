package io.sluice.verticles.server.kit;

import io.vertx.core.Future;

/**
 * One client connection to a front, at the byte level: send request bytes, take the next N reply
 * bytes. Every front (TCP, WebSocket binary frames) provides one, so the same vectors run on each.
 */
public interface Conversation extends AutoCloseable {

  Future<Void> send(byte[] request);

  /** The next {@code length} bytes the server sends (waits until they have all arrived). */
  Future<byte[]> receive(int length);

  /** Completes when the server closes the connection. */
  Future<Void> closed();

  /** Bytes received and not yet taken by {@link #receive}. */
  int unread();

  @Override
  void close();
}
