package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.sluice.verticles.server.kit.ChannelCalls.ackAuth;
import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelCalls.expect;
import static io.sluice.verticles.server.kit.ChannelCalls.whoamiHex;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.concat;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonPublish;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonUnsubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.message;
import static io.sluice.verticles.server.kit.ChannelFrames.publish;
import static io.sluice.verticles.server.kit.ChannelFrames.push;
import static io.sluice.verticles.server.kit.ChannelFrames.utf8;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a token configured, a WebSocket client does nothing until it has presented the token, either
 * as {@code Authorization: Bearer …} on the upgrade or in an {@code auth} command (browsers cannot
 * set WebSocket headers), and is told nothing either: no pushes reach it before then.
 */
class WebSocketTokenTest {

  private static final String TOKEN = "s3cret-token";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withHttp(HttpSettings.defaults().withAuthToken(Optional.of(TOKEN))));
  private final List<AutoCloseable> clients = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable client : clients) {
      client.close();
    }
    sut.close();
    await(vertx.close());
  }

  private JsonWebSocket open(WebSocketConnectOptions options) {
    JsonWebSocket client = await(JsonWebSocket.open(vertx, options));
    clients.add(client);
    return client;
  }

  private JsonWebSocket open() {
    return open(JsonWebSocket.options(sut.httpPort()));
  }

  private Conversation tcp() {
    Conversation conversation = await(TcpConversation.open(vertx, sut.tcpPort()));
    clients.add(conversation);
    whoamiHex(conversation);
    return conversation;
  }

  private static JsonObject auth(String token) {
    return new JsonObject().put("op", "auth").put("token", token);
  }

  private static void assertError(JsonObject reply, Object id) {
    assertThat(reply.getString("event")).as("%s", reply).isEqualTo("error");
    assertThat(reply.getValue("id")).isEqualTo(id);
  }

  @Test
  void commandsAreRefusedUntilTheTokenIsPresented() {
    JsonWebSocket client = open();
    assertError(call(client, jsonSubscribe("news", 1)), 1);
    assertError(call(client, jsonUnsubscribe("news", 2)), 2);
    assertError(call(client, jsonPublish("*", "hi", 3)), 3);
    assertThat(call(client, auth(TOKEN).put("id", 4))).isEqualTo(ackAuth(1).put("id", 4));
    assertThat(call(client, jsonSubscribe("news", 5))).isEqualTo(ack("subscribe", "news", 1, 5));
    Conversation publisher = tcp();
    expect(publisher, publish("news", utf8("hello")), new byte[] {1});
    assertThat(await(client.next())).isEqualTo(message("news", "hello"));
  }

  @Test
  void wrongTokenIsAckedWithStatusZeroAndChangesNothing() {
    JsonWebSocket client = open();
    // Four: the fifth wrong attempt closes the connection (TokenGuessingTest).
    assertThat(call(client, auth(TOKEN.substring(1)))).isEqualTo(ackAuth(0));
    assertThat(call(client, auth(TOKEN + "x"))).isEqualTo(ackAuth(0));
    assertThat(call(client, new JsonObject().put("op", "auth").put("token", 42))).isEqualTo(ackAuth(0));
    assertThat(call(client, new JsonObject().put("op", "auth"))).isEqualTo(ackAuth(0));
    assertError(call(client, jsonSubscribe("news", 1)), 1);
    assertThat(call(client, auth(TOKEN))).isEqualTo(ackAuth(1));
    assertThat(call(client, jsonSubscribe("news", 2))).isEqualTo(ack("subscribe", "news", 1, 2));
  }

  @Test
  void bearerHeaderAuthenticatesAtUpgrade() {
    JsonWebSocket client = open(JsonWebSocket.options(sut.httpPort()).addHeader("Authorization", "Bearer " + TOKEN));
    assertThat(call(client, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    await(client.sendBinary(Hex.bytes("18")));
    assertThat(await(client.receiveBinary(17))[0]).as("WHOAMI in a binary message").isEqualTo((byte) 1);
  }

  @Test
  void wrongBearerHeaderDoesNotAuthenticate() {
    JsonWebSocket client = open(JsonWebSocket.options(sut.httpPort()).addHeader("Authorization", "Bearer nope"));
    assertError(call(client, jsonSubscribe("news", 1)), 1);
    JsonWebSocket basic = open(JsonWebSocket.options(sut.httpPort()).addHeader("Authorization", "Basic " + TOKEN));
    assertError(call(basic, jsonSubscribe("news", 2)), 2);
  }

  @Test
  void binaryMessageBeforeAuthenticationClosesTheConnection() {
    JsonWebSocket client = open();
    await(client.sendBinary(Hex.bytes("18")));
    assertThat(await(client.closed())).as("close status: policy violation").isEqualTo((short) 1008);
    assertThat(client.unreadBinary()).as("no reply to the WHOAMI").isZero();
    assertThat(client.unreadTexts()).isZero();
  }

  /**
   * Every connection is in {@code *} and its own ID channel (spec §7.4), but a client that has not
   * authenticated must not be told what is published there. A broadcast made before it authenticates
   * must not reach it; one made after does.
   */
  @Test
  void noPushReachesAClientBeforeItAuthenticates() {
    JsonWebSocket client = open();
    assertError(call(client, jsonSubscribe("news", 1)), 1);
    Conversation publisher = tcp();
    // The publisher is in * too: its own push comes first, then its status.
    expect(publisher, publish("*", utf8("early")), concat(push("*", utf8("early")), new byte[] {1}));
    assertThat(call(client, auth(TOKEN))).as("the first thing after auth is its ack").isEqualTo(ackAuth(1));
    expect(publisher, publish("*", utf8("late")), concat(push("*", utf8("late")), new byte[] {1}));
    assertThat(await(client.next())).isEqualTo(message("*", "late"));
  }
}
