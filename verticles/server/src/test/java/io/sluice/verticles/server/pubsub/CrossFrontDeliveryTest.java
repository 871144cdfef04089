package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.server.kit.ChannelCalls;
import io.sluice.verticles.server.kit.ChannelCalls.Figures;
import io.sluice.verticles.server.kit.ChannelCalls.Subscriber;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.sluice.verticles.server.kit.WebSocketConversation;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelCalls.expect;
import static io.sluice.verticles.server.kit.ChannelCalls.expectReceived;
import static io.sluice.verticles.server.kit.ChannelCalls.info;
import static io.sluice.verticles.server.kit.ChannelCalls.whoamiHex;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.concat;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonPublish;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonUnsubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.message;
import static io.sluice.verticles.server.kit.ChannelFrames.publish;
import static io.sluice.verticles.server.kit.ChannelFrames.push;
import static io.sluice.verticles.server.kit.ChannelFrames.subscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.unsubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.utf8;
import static io.sluice.verticles.server.kit.Hex.bytes;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A channel is one channel whatever front its clients came through: a message published over TCP,
 * as JSON over the WebSocket bridge or as a Throttr frame in a WebSocket binary message reaches
 * every subscriber in that subscriber's own language, and the books (CHANNEL, INFO) count them all.
 * Every client does one round trip after connecting, so the server has joined it to its automatic
 * channels before anything is published (spec §7.4).
 */
class CrossFrontDeliveryTest {

  private static final byte[] OK = {1};

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private final List<AutoCloseable> clients = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable client : clients) {
      client.close();
    }
    sut.close();
    await(vertx.close());
  }

  private Conversation tcp() {
    Conversation conversation = await(TcpConversation.open(vertx, sut.tcpPort()));
    clients.add(conversation);
    whoamiHex(conversation);
    return conversation;
  }

  /** A WebSocket client sending Throttr frames in binary messages. */
  private Conversation wsBinary() {
    Conversation conversation = await(WebSocketConversation.open(vertx, sut.httpPort()));
    clients.add(conversation);
    whoamiHex(conversation);
    return conversation;
  }

  private JsonWebSocket json() {
    JsonWebSocket socket = await(JsonWebSocket.open(vertx, sut.httpPort()));
    clients.add(socket);
    ChannelCalls.ready(socket);
    return socket;
  }

  @Test
  void tcpToTcp() {
    Conversation subscriber = tcp();
    Conversation publisher = tcp();
    expect(subscriber, subscribe("news"), OK);
    expect(publisher, subscribe("news"), OK);
    expect(publisher, publish("news", utf8("hi")), concat(push("news", utf8("hi")), OK));
    expectReceived(subscriber, push("news", utf8("hi")));
    assertThat(subscriber.unread()).isZero();
  }

  @Test
  void tcpToJson() {
    JsonWebSocket subscriber = json();
    Conversation publisher = tcp();
    assertThat(call(subscriber, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    expect(publisher, publish("news", utf8("héllo ✓")), OK);
    JsonObject received = await(subscriber.next());
    assertThat(received).isEqualTo(message("news", "héllo ✓"));
    assertThat(received.containsKey("encoding")).as("UTF-8 text travels as text").isFalse();
    assertThat(subscriber.unreadBinary()).isZero();
  }

  @Test
  void jsonToTcp() {
    Conversation subscriber = tcp();
    JsonWebSocket publisher = json();
    expect(subscriber, subscribe("news"), OK);
    assertThat(call(publisher, jsonPublish("news", "héllo ✓", "p1"))).isEqualTo(ack("publish", "news", 1, "p1"));
    expectReceived(subscriber, push("news", utf8("héllo ✓")));
  }

  /** The publisher is subscribed too: its own message comes before its ack, as over TCP. */
  @Test
  void jsonToJsonWithTheOwnMessageBeforeTheAck() {
    JsonWebSocket subscriber = json();
    JsonWebSocket publisher = json();
    assertThat(call(subscriber, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    assertThat(call(publisher, jsonSubscribe("news", 2))).isEqualTo(ack("subscribe", "news", 1, 2));
    await(publisher.send(jsonPublish("news", "hi", 3)));
    assertThat(await(publisher.next())).isEqualTo(message("news", "hi"));
    assertThat(await(publisher.next())).isEqualTo(ack("publish", "news", 1, 3));
    assertThat(await(subscriber.next())).isEqualTo(message("news", "hi"));
  }

  /** A WebSocket binary client publishes in Throttr frames; its own push precedes its status byte. */
  @Test
  void webSocketBinaryToTcp() {
    Conversation subscriber = tcp();
    Conversation publisher = wsBinary();
    expect(subscriber, subscribe("news"), OK);
    expect(publisher, subscribe("news"), OK);
    expect(publisher, publish("news", bytes("42 43")), concat(push("news", bytes("42 43")), OK));
    expectReceived(subscriber, push("news", bytes("42 43")));
  }

  /** And the other way round: a Throttr push in a binary message to the WebSocket client. */
  @Test
  void tcpToWebSocketBinary() {
    Conversation subscriber = wsBinary();
    Conversation publisher = tcp();
    expect(subscriber, subscribe("news"), OK);
    expect(publisher, publish("news", bytes("00 ff")), OK);
    expectReceived(subscriber, push("news", bytes("00 ff")));
  }

  @Test
  void nonUtf8BytesFromTcpReachAJsonClientAsBase64() {
    JsonWebSocket subscriber = json();
    Conversation publisher = tcp();
    assertThat(call(subscriber, jsonSubscribe("bin", 1))).isEqualTo(ack("subscribe", "bin", 1, 1));
    expect(publisher, publish("bin", bytes("ff fe 00 80 61")), OK);
    assertThat(await(subscriber.next())).isEqualTo(new JsonObject()
        .put("event", "message").put("channel", "bin").put("data", "//4AgGE=").put("encoding", "base64"));
  }

  @Test
  void base64FromAJsonClientReachesTcpAsTheExactBytes() {
    Conversation subscriber = tcp();
    JsonWebSocket publisher = json();
    expect(subscriber, subscribe("bin"), OK);
    JsonObject command = jsonPublish("bin", "AP+AGQ==", 5).put("encoding", "base64");
    assertThat(call(publisher, command)).isEqualTo(ack("publish", "bin", 1, 5));
    expectReceived(subscriber, push("bin", bytes("00 ff 80 19")));
  }

  /** CHANNEL over TCP lists the subscription records of every front, in the order they were made. */
  @Test
  void channelListsSubscribersOfEveryFront() {
    Conversation tcp = tcp();
    String tcpId = whoamiHex(tcp);
    Conversation binary = wsBinary();
    String binaryId = whoamiHex(binary);
    JsonWebSocket json = json();
    String jsonId = ChannelCalls.webSocketOtherThan(sut, binaryId).idHex();

    expect(tcp, subscribe("news"), OK);
    assertThat(call(json, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    expect(binary, subscribe("news"), OK);
    assertThat(ChannelCalls.channel(tcp, "news")).extracting(Subscriber::idHex)
        .containsExactly(tcpId, jsonId, binaryId);

    expect(tcp, publish("news", utf8("ab")), concat(push("news", utf8("ab")), OK));
    assertThat(await(json.next())).isEqualTo(message("news", "ab"));
    expectReceived(binary, push("news", utf8("ab")));
    assertThat(ChannelCalls.channel(binary, "news")).extracting(Subscriber::readBytes).containsExactly(2L, 2L, 2L);

    assertThat(call(json, jsonUnsubscribe("news", 2))).isEqualTo(ack("unsubscribe", "news", 1, 2));
    assertThat(call(json, jsonUnsubscribe("news", 3))).isEqualTo(ack("unsubscribe", "news", 0, 3));
    assertThat(ChannelCalls.channel(tcp, "news")).extracting(Subscriber::idHex).containsExactly(tcpId, binaryId);
    expect(binary, unsubscribe("news"), OK);
    expect(tcp, unsubscribe("news"), OK);
    expect(tcp, bytes("17 04 6e 65 77 73"), "00");
  }

  /** INFO's subscription and channel figures after each step; every connection holds * and its own ID. */
  @Test
  void infoCountsSubscriptionsAndChannelsOfEveryFront() {
    Conversation tcp = tcp();
    assertThat(info(tcp)).isEqualTo(new Figures(2, 2));
    JsonWebSocket json = json();
    assertThat(info(tcp)).isEqualTo(new Figures(4, 3));
    Conversation binary = wsBinary();
    assertThat(info(tcp)).isEqualTo(new Figures(6, 4));

    assertThat(call(json, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    assertThat(info(tcp)).isEqualTo(new Figures(7, 5));
    expect(tcp, subscribe("news"), OK);
    assertThat(info(binary)).isEqualTo(new Figures(8, 5));
    assertThat(call(json, jsonSubscribe("news", 2))).as("a second record").isEqualTo(ack("subscribe", "news", 1, 2));
    assertThat(info(tcp)).isEqualTo(new Figures(9, 5));
    expect(binary, subscribe("other"), OK);
    assertThat(info(tcp)).isEqualTo(new Figures(10, 6));

    assertThat(call(json, jsonUnsubscribe("news", 3))).as("both records go").isEqualTo(ack("unsubscribe", "news", 1, 3));
    assertThat(info(tcp)).isEqualTo(new Figures(8, 6));

    json.close();
    await(json.closed());
    ChannelCalls.awaitFigures(tcp, new Figures(6, 5));
    binary.close();
    await(binary.closed());
    ChannelCalls.awaitFigures(tcp, new Figures(3, 3));
    assertThat(ChannelCalls.channel(tcp, "news")).hasSize(1);
    expect(tcp, bytes("17 05 6f 74 68 65 72"), "00");
  }
}
