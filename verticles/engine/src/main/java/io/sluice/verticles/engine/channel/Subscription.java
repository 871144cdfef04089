package io.sluice.verticles.engine.channel;

import java.util.concurrent.atomic.AtomicLong;

/** One subscription record: a connection subscribed once to a channel (subscribing twice makes two). */
public final class Subscription {

  private final byte[] connectionId;
  private final long subscribedAtNanos;
  private final AtomicLong payloadBytes = new AtomicLong();

  Subscription(byte[] connectionId, long subscribedAtNanos) {
    this.connectionId = connectionId;
    this.subscribedAtNanos = subscribedAtNanos;
  }

  public byte[] connectionId() {
    return connectionId.clone();
  }

  boolean belongsTo(byte[] connection) {
    return java.util.Arrays.equals(connectionId, connection);
  }

  public long subscribedAtNanos() {
    return subscribedAtNanos;
  }

  /** Payload bytes published to this subscription (CHANNEL's "read bytes"). */
  public long payloadBytes() {
    return payloadBytes.get();
  }

  public void countDelivery(int payloadLength) {
    payloadBytes.addAndGet(payloadLength);
  }
}
