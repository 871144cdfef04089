package io.sluice.verticles.server.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A batch of 10,000 pipelined requests on one connection gets every reply, in order. */
class PipeliningTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void tenThousandPipelinedRequestsAreAnsweredInOrder() {
    ByteBuf requests = Unpooled.buffer();
    ByteBuf expected = Unpooled.buffer();
    for (int i = 0; i < 2_500; i++) {
      byte[] key = ("key-" + i).getBytes(StandardCharsets.US_ASCII);
      int quota = i % 1000;
      RequestEncoder.encode(requests, ValueSize.UINT16, new Request.Insert(quota, TtlUnit.SECONDS.code(), 60, key));
      RequestEncoder.encode(requests, ValueSize.UINT16, new Request.Update(0, 2, 1, key));
      RequestEncoder.encode(requests, ValueSize.UINT16, new Request.Query(key));
      RequestEncoder.encode(requests, ValueSize.UINT16, new Request.Insert(1, TtlUnit.SECONDS.code(), 60, key));
      expected.writeByte(1);
      expected.writeByte(quota >= 1 ? 1 : 0);
      expected.writeByte(1).writeShortLE(quota >= 1 ? quota - 1 : 0).writeByte(4).writeShortLE(60);
      expected.writeByte(0);
    }
    Conversation conversation = await(TcpConversation.open(vertx, sut.tcpPort()));
    await(conversation.send(ByteBufUtil.getBytes(requests)));
    byte[] replies = await(conversation.receive(expected.readableBytes()));
    assertThat(Hex.of(replies)).isEqualTo(Hex.of(ByteBufUtil.getBytes(expected)));
    await(conversation.send(Hex.bytes("18")));
    assertThat(await(conversation.receive(17))[0]).isEqualTo((byte) 1);
    assertThat(conversation.unread()).isZero();
  }
}
