package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Frames laid out as Vert.x 5 writes them, whole and with each length wrong. */
class EventBusFramesTest {

  private static final byte BUFFER = 11;
  private static final byte REPLY_EXCEPTION = 15;
  private static final byte SERIALIZABLE = 17;

  /** A sent message to {@code address} with a reply address, a sender, {@code headers} and a body. */
  private static ByteBuf frame(byte codec, String name, int headerPairs, byte[] body) {
    ByteBuf out = Unpooled.buffer();
    out.writeInt(0).writeByte(2).writeByte(codec);
    if (name != null) {
      string(out, name);
    }
    out.writeByte(0);
    string(out, "sluice.cluster.work.node");
    string(out, "__vertx.reply.1");
    string(out, "sender-node");
    if (headerPairs == 0) {
      out.writeInt(4);
    } else {
      int at = out.writerIndex();
      out.writeInt(0).writeInt(headerPairs);
      for (int i = 0; i < headerPairs; i++) {
        string(out, "key" + i);
        string(out, "value" + i);
      }
      out.setInt(at, out.writerIndex() - at);
    }
    out.writeBytes(body);
    out.setInt(0, out.writerIndex() - 4);
    return out;
  }

  private static void string(ByteBuf out, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length).writeBytes(bytes);
  }

  private static byte[] prefixed(int declared, int actual) {
    ByteBuf body = Unpooled.buffer().writeInt(declared).writeZero(actual);
    byte[] bytes = new byte[body.readableBytes()];
    body.readBytes(bytes);
    return bytes;
  }

  @Test
  void framesTheNodesSendAreLetThrough() {
    assertThat(EventBusFrames.refusal(frame(BUFFER, null, 0, prefixed(3, 3)))).isNull();
    assertThat(EventBusFrames.refusal(frame(BUFFER, null, 2, prefixed(0, 0)))).isNull();
    assertThat(EventBusFrames.refusal(frame((byte) 0, null, 0, new byte[0]))).as("null body").isNull();
    assertThat(EventBusFrames.refusal(frame((byte) -1, "sluice.channel-message", 0,
        Unpooled.buffer().writeBytes(prefixed(1, 1)).writeBytes(prefixed(2, 2)).writeBytes(prefixed(0, 0)).array())))
        .as("a channel message").isNull();
    ByteBuf failure = Unpooled.buffer().writeByte(2).writeInt(409).writeByte(1).writeBytes(prefixed(4, 4));
    byte[] failureBytes = new byte[failure.readableBytes()];
    failure.readBytes(failureBytes);
    assertThat(EventBusFrames.refusal(frame(REPLY_EXCEPTION, null, 0, failureBytes))).as("a failure reply").isNull();
  }

  @Test
  void aLengthBeyondTheFrameOrACodecNoNodeSendsIsRefused() {
    assertThat(EventBusFrames.refusal(frame(BUFFER, null, 0, prefixed(Integer.MAX_VALUE, 3)))).isNotNull();
    assertThat(EventBusFrames.refusal(frame(BUFFER, null, 0, prefixed(-1, 3)))).isNotNull();
    assertThat(EventBusFrames.refusal(frame(BUFFER, null, 0, new byte[2]))).as("a body cut short").isNotNull();
    assertThat(EventBusFrames.refusal(frame(SERIALIZABLE, null, 0, prefixed(3, 3)))).as("Java serialization").isNotNull();
    assertThat(EventBusFrames.refusal(frame((byte) -1, "some.codec", 0, prefixed(3, 3)))).isNotNull();
    ByteBuf badHeaders = frame(BUFFER, null, 1, prefixed(0, 0));
    // The header count claims a million pairs in a frame that holds one.
    // From the end: the empty body's length, "value0" and "key0" with their lengths, the count.
    int countAt = badHeaders.writerIndex() - 4 - (4 + 6) - (4 + 4) - 4;
    badHeaders.setInt(countAt, 1_000_000);
    assertThat(EventBusFrames.refusal(badHeaders)).isNotNull();
  }
}
