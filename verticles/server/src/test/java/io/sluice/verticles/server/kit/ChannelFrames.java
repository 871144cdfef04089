package io.sluice.verticles.server.kit;

import io.vertx.core.json.JsonObject;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Throttr pub/sub frames (uint16 payload lengths) and the bridge's JSON commands, for channel tests. */
public final class ChannelFrames {

  private ChannelFrames() {
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] subscribe(String channel) {
    return named(0x11, utf8(channel));
  }

  public static byte[] unsubscribe(String channel) {
    return named(0x12, utf8(channel));
  }

  /** CHANNEL: the subscribers of one channel. */
  public static byte[] channel(String channel) {
    return named(0x17, utf8(channel));
  }

  public static byte[] publish(String channel, byte[] payload) {
    return withPayload(0x13, utf8(channel), payload);
  }

  /** What a subscriber receives: byte-identical to an EVENT request. */
  public static byte[] push(String channel, byte[] payload) {
    return withPayload(0x19, utf8(channel), payload);
  }

  public static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] part : parts) {
      length += part.length;
    }
    ByteBuffer joined = ByteBuffer.allocate(length);
    for (byte[] part : parts) {
      joined.put(part);
    }
    return joined.array();
  }

  private static byte[] named(int type, byte[] channel) {
    return concat(new byte[] {(byte) type, (byte) channel.length}, channel);
  }

  private static byte[] withPayload(int type, byte[] channel, byte[] payload) {
    ByteBuffer frame = ByteBuffer.allocate(4 + channel.length + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    frame.put((byte) type).put((byte) channel.length).putShort((short) payload.length).put(channel).put(payload);
    return frame.array();
  }

  public static JsonObject jsonSubscribe(String channel, Object id) {
    return new JsonObject().put("op", "subscribe").put("channel", channel).put("id", id);
  }

  public static JsonObject jsonUnsubscribe(String channel, Object id) {
    return new JsonObject().put("op", "unsubscribe").put("channel", channel).put("id", id);
  }

  public static JsonObject jsonPublish(String channel, String data, Object id) {
    return new JsonObject().put("op", "publish").put("channel", channel).put("data", data).put("id", id);
  }

  /** The acknowledgement the bridge answers a command with. */
  public static JsonObject ack(String op, String channel, int status, Object id) {
    JsonObject ack = new JsonObject().put("event", "ack").put("op", op).put("status", status);
    if (channel != null) {
      ack.put("channel", channel);
    }
    return id == null ? ack : ack.put("id", id);
  }

  /** A push to a JSON client whose payload is valid UTF-8. */
  public static JsonObject message(String channel, String data) {
    return new JsonObject().put("event", "message").put("channel", channel).put("data", data);
  }
}
