package io.sluice.verticles.server.pubsub;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.sluice.verticles.server.kit.WebSocketConversation;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelCalls.expect;
import static io.sluice.verticles.server.kit.ChannelCalls.expectReceived;
import static io.sluice.verticles.server.kit.ChannelCalls.whoamiHex;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.concat;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonPublish;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.message;
import static io.sluice.verticles.server.kit.ChannelFrames.subscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.utf8;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code --value-size uint8} a push frame announces at most 255 payload bytes. A longer JSON
 * publish is refused with an error to its publisher, and nobody — Throttr, binary or JSON
 * subscriber, nor the publisher's own subscription — gets any of it.
 */
class OversizePublishTest {

  private static final byte[] OK = {1};

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withValueSize(ValueSize.UINT8));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void aJsonPublishLongerThanAPushCanCarryIsRefusedWholly() {
    try (Conversation tcp = await(TcpConversation.open(vertx, sut.tcpPort()));
         Conversation binary = await(WebSocketConversation.open(vertx, sut.httpPort()));
         JsonWebSocket json = await(JsonWebSocket.open(vertx, sut.httpPort()));
         JsonWebSocket publisher = await(JsonWebSocket.open(vertx, sut.httpPort()))) {
      whoamiHex(binary);
      expect(tcp, subscribe("news"), OK);
      expect(binary, subscribe("news"), OK);
      assertThat(call(json, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
      assertThat(call(publisher, jsonSubscribe("news", 2))).isEqualTo(ack("subscribe", "news", 1, 2));

      JsonObject refused = call(publisher, jsonPublish("news", "x".repeat(256), 3));
      assertThat(refused.getString("event")).as("%s", refused).isEqualTo("error");
      assertThat(refused.getValue("id")).isEqualTo(3);
      assertThat(refused.getString("reason")).contains("255", "uint8", "256");

      // The longest message that fits goes to everyone, and is the first thing each one receives.
      String longest = "y".repeat(255);
      await(publisher.send(jsonPublish("news", longest, 4)));
      assertThat(await(publisher.next())).isEqualTo(message("news", longest));
      assertThat(await(publisher.next())).isEqualTo(ack("publish", "news", 1, 4));
      expectReceived(tcp, push8("news", longest));
      expectReceived(binary, push8("news", longest));
      assertThat(await(json.next())).isEqualTo(message("news", longest));

      // A fresh client is served.
      try (Conversation fresh = await(TcpConversation.open(vertx, sut.tcpPort()))) {
        expect(fresh, subscribe("news"), OK);
        assertThat(call(publisher, jsonPublish("news", "z", 5))).isEqualTo(message("news", "z"));
        expectReceived(fresh, push8("news", "z"));
      }
    }
  }

  /** {@code 19 | C | P:u8 | channel | payload}. */
  private static byte[] push8(String channel, String payload) {
    byte[] name = utf8(channel);
    byte[] data = utf8(payload);
    return concat(new byte[] {0x19, (byte) name.length, (byte) data.length}, name, data);
  }
}
