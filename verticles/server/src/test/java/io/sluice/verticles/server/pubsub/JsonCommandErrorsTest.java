package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.server.kit.ChannelCalls;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelCalls.expect;
import static io.sluice.verticles.server.kit.ChannelCalls.expectReceived;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonPublish;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.push;
import static io.sluice.verticles.server.kit.ChannelFrames.subscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.utf8;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JSON command the bridge cannot carry out is answered with {@code {"event":"error"}} and nothing
 * else happens: the connection stays open and usable, and nothing is published.
 */
class JsonCommandErrorsTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private JsonWebSocket client;

  @BeforeEach
  void connect() {
    client = await(JsonWebSocket.open(vertx, sut.httpPort()));
    ChannelCalls.ready(client);
  }

  @AfterEach
  void stop() {
    client.close();
    sut.close();
    await(vertx.close());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"op\":\"subscribe\",\"channel\":",          // malformed JSON
      "not json at all",
      "",
      "[\"subscribe\",\"news\"]",                     // JSON, but not an object
      "\"subscribe\"",
      "42",
      "null",
      "{\"op\":\"subscribe\"}",                       // no channel
      "{\"op\":\"subscribe\",\"channel\":null}",
      "{\"op\":\"subscribe\",\"channel\":7}",         // channel not a string
      "{\"op\":\"unsubscribe\",\"channel\":[\"news\"]}",
      "{\"op\":\"publish\",\"channel\":{},\"data\":\"x\"}",
      "{\"op\":\"frobnicate\",\"channel\":\"news\"}", // unknown op
      "{\"channel\":\"news\"}",                       // no op
      "{\"op\":7,\"channel\":\"news\"}",
      "{\"op\":\"publish\",\"channel\":\"news\"}",    // no data
      "{\"op\":\"publish\",\"channel\":\"news\",\"data\":12}",
      "{\"op\":\"publish\",\"channel\":\"news\",\"data\":\"%%%\",\"encoding\":\"base64\"}", // bad base64
      "{\"op\":\"publish\",\"channel\":\"news\",\"data\":\"x\",\"encoding\":\"rot13\"}",    // unknown encoding
      "{\"op\":\"publish\",\"channel\":\"news\",\"data\":\"x\",\"encoding\":7}",
      "{\"op\":\"publish\",\"channel\":\"news\",\"data\":\"x\",\"encoding\":null}",
  })
  void badCommandIsAnsweredWithAnErrorAndTheConnectionStaysUsable(String text) {
    await(client.sendText(text));
    JsonObject reply = await(client.next());
    assertThat(reply.getString("event")).as("reply to %s: %s", text, reply).isEqualTo("error");
    assertThat(reply.getString("reason")).isNotBlank()
        .as("the reason speaks of the message, not of the parser's internals")
        .doesNotContain("Source").doesNotContain("REDACTED").doesNotContain("Feature").doesNotContain("decode");
    assertThat(call(client, jsonSubscribe("after", 1))).isEqualTo(ack("subscribe", "after", 1, 1));
    assertThat(client.unreadTexts()).isZero();
  }

  @Test
  void channelNameLongerThan255BytesIsAnError() {
    JsonObject reply = call(client, jsonSubscribe("é".repeat(128), 9));
    assertThat(reply.getString("event")).isEqualTo("error");
    assertThat(reply.getValue("id")).isEqualTo(9);
    assertThat(call(client, jsonSubscribe("é".repeat(127), 10))).isEqualTo(ack("subscribe", "é".repeat(127), 1, 10));
  }

  /** The error carries the command's id, so a client can match it to what it sent. */
  @Test
  void errorEchoesTheId() {
    JsonObject reply = call(client, new JsonObject().put("op", "frobnicate").put("channel", "news").put("id", "req-7"));
    assertThat(reply.getString("event")).isEqualTo("error");
    assertThat(reply.getString("id")).isEqualTo("req-7");
  }

  /** A publish refused for its data publishes nothing: the subscriber's next push is the good one after it. */
  @Test
  void refusedPublishPublishesNothing() {
    Conversation subscriber = await(TcpConversation.open(vertx, sut.tcpPort()));
    expect(subscriber, subscribe("news"), new byte[] {1});
    for (String bad : new String[] {
        "{\"op\":\"publish\",\"channel\":\"news\",\"data\":\"%%%\",\"encoding\":\"base64\"}",
        "{\"op\":\"publish\",\"channel\":\"news\",\"data\":\"x\",\"encoding\":\"rot13\"}",
        "{\"op\":\"publish\",\"channel\":\"news\"}"}) {
      await(client.sendText(bad));
      assertThat(await(client.next()).getString("event")).isEqualTo("error");
    }
    assertThat(call(client, jsonPublish("news", "good", 1))).isEqualTo(ack("publish", "news", 1, 1));
    expectReceived(subscriber, push("news", utf8("good")));
    assertThat(subscriber.unread()).isZero();
    subscriber.close();
  }
}
