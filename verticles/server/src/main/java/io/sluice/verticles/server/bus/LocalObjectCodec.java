package io.sluice.verticles.server.bus;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/**
 * Passes a message object between verticles of one process as it is: no copy, no serialisation.
 * The object is handed over, never shared: the sender does not touch it until the reply.
 */
public final class LocalObjectCodec<T> implements MessageCodec<T, T> {

  private final String name;

  public LocalObjectCodec(Class<T> type) {
    this.name = "local-" + type.getName();
  }

  @Override
  public void encodeToWire(Buffer buffer, T message) {
    throw new IllegalStateException(name + " carries objects inside one process only");
  }

  @Override
  public T decodeFromWire(int pos, Buffer buffer) {
    throw new IllegalStateException(name + " carries objects inside one process only");
  }

  @Override
  public T transform(T message) {
    return message;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
