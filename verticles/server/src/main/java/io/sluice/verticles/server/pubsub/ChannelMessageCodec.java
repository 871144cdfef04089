package io.sluice.verticles.server.pubsub;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/**
 * Carries a {@link ChannelMessage}: the same object to the loops of this process (its encodings
 * made once, shared), and channel, payload, publisher, offset and epoch as bytes to the other nodes of a cluster,
 * so a PUBLISH anywhere reaches subscribers everywhere.
 */
public final class ChannelMessageCodec implements MessageCodec<ChannelMessage, ChannelMessage> {

  @Override
  public void encodeToWire(Buffer buffer, ChannelMessage message) {
    writeBytes(buffer, message.channel());
    writeBytes(buffer, message.payload());
    writeBytes(buffer, message.publisherId());
    buffer.appendLong(message.offset()).appendLong(message.epoch());
  }

  private static void writeBytes(Buffer buffer, byte[] bytes) {
    buffer.appendInt(bytes.length).appendBytes(bytes);
  }

  @Override
  public ChannelMessage decodeFromWire(int pos, Buffer buffer) {
    int at = pos;
    byte[] channel = buffer.getBytes(at + 4, at + 4 + buffer.getInt(at));
    at += 4 + channel.length;
    byte[] payload = buffer.getBytes(at + 4, at + 4 + buffer.getInt(at));
    at += 4 + payload.length;
    byte[] publisher = buffer.getBytes(at + 4, at + 4 + buffer.getInt(at));
    at += 4 + publisher.length;
    return new ChannelMessage(channel, payload, publisher, buffer.getLong(at), buffer.getLong(at + 8));
  }

  @Override
  public ChannelMessage transform(ChannelMessage message) {
    return message;
  }

  @Override
  public String name() {
    return "sluice.channel-message";
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
