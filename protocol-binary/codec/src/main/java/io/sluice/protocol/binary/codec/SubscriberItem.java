package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

/** One subscription record in a CHANNEL reply: 40 bytes (spec §7.1). */
public record SubscriberItem(byte[] connectionId, long subscribedAtNanos, long readBytes, long writeBytes) {

  public void writeTo(ByteBuf out) {
    out.writeBytes(connectionId, 0, 16);
    out.writeLongLE(subscribedAtNanos);
    out.writeLongLE(readBytes);
    out.writeLongLE(writeBytes);
  }
}
