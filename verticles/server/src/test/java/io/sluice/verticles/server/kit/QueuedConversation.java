package io.sluice.verticles.server.kit;

import io.vertx.core.Future;

/** The receiving side every {@link Conversation} shares: bytes queue up and are taken in exact amounts. */
abstract class QueuedConversation implements Conversation {

  protected final ByteQueue received = new ByteQueue();

  @Override
  public Future<byte[]> receive(int length) {
    return received.take(length);
  }

  @Override
  public Future<Void> closed() {
    return received.closed();
  }

  @Override
  public int unread() {
    return received.unread();
  }
}
