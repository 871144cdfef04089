package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.ChannelCalls;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.Jwts;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.wsauth.AnonymousMode;
import io.sluice.verticles.server.wsauth.ChannelPattern;
import io.sluice.verticles.server.wsauth.TokenVerifier;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.ChannelCalls.ackAuth;
import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonPublish;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.message;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Users' tokens (JWT) on the WebSocket bridge, over real sockets: what a token's {@code sluice}
 * claim allows, the refusals (forbidden, bad tokens), expiry and refresh, anonymous clients.
 */
class WebSocketUserTokenTest {

  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> clients = new ArrayList<>();
  private SluiceUnderTest sut;
  private long now;
  @TempDir
  Path dir;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable client : clients) {
      client.close();
    }
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  /** A server taking HS256 tokens signed with {@link Jwts#SECRET}, with {@code access}'s other settings. */
  private void start(WebSocketAccessSettings access) throws IOException {
    Path secret = Files.writeString(dir.resolve("ws-secret"), Jwts.SECRET);
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withHttp(HttpSettings.defaults()
        .withWebSocket(access.withJwtSecretFile(Optional.of(secret)))));
    now = TimeUnit.NANOSECONDS.toSeconds(sut.clock().epochNanos());
  }

  private String chatUser(String subject) {
    return Jwts.hs256(Jwts.SECRET, Jwts.claims(subject, Jwts.grants(List.of("chat.*"), List.of("chat.a")))
        .put("exp", now + 3600));
  }

  private JsonWebSocket open(WebSocketConnectOptions options) {
    JsonWebSocket client = await(JsonWebSocket.open(vertx, options));
    clients.add(client);
    return client;
  }

  private JsonWebSocket withToken(String token) {
    return open(JsonWebSocket.options(sut.httpPort()).setURI("/ws?token=" + token));
  }

  private static JsonObject forbidden(String op, String channel, Object id) {
    return new JsonObject().put("event", "error").put("op", op).put("channel", channel).put("reason", "forbidden")
        .put("id", id);
  }

  private static JsonObject auth(String op, String token) {
    return new JsonObject().put("op", op).put("token", token);
  }

  @Test
  void aUserSubscribesAndPublishesWhereItsTokenAllowsAndNowhereElse() throws IOException {
    start(WebSocketAccessSettings.defaults());
    JsonWebSocket client = withToken(chatUser("alice"));
    assertThat(call(client, jsonSubscribe("chat.a", 1))).isEqualTo(ack("subscribe", "chat.a", 1, 1));
    assertThat(call(client, jsonSubscribe("admin", 2))).isEqualTo(forbidden("subscribe", "admin", 2));
    assertThat(call(client, jsonPublish("chat.b", "no", 3))).isEqualTo(forbidden("publish", "chat.b", 3));
    assertThat(call(client, jsonPublish("*", "all", 4))).isEqualTo(forbidden("publish", "*", 4));
    await(client.send(jsonPublish("chat.a", "hello", 5)));
    assertThat(await(client.next())).as("its own message first").isEqualTo(message("chat.a", "hello"));
    assertThat(await(client.next())).isEqualTo(ack("publish", "chat.a", 1, 5));
    ConnectionStats stats = ChannelCalls.webSocketOtherThan(sut);
    HttpCalls http = new HttpCalls(vertx, sut.httpPort());
    clients.add(http);
    JsonObject shown = http.getJson("/api/connections/" + stats.idHex());
    assertThat(shown.getString("user")).as("the dashboard's user").isEqualTo("alice");
    assertThat(shown.getJsonArray("subscriptions")).containsExactlyInAnyOrder("*", "chat.a", stats.idHex());
  }

  @Test
  void theTokenMayComeAsABearerHeaderOrInTheFirstMessage() throws IOException {
    start(WebSocketAccessSettings.defaults());
    JsonWebSocket header = open(JsonWebSocket.options(sut.httpPort()).addHeader("Authorization", "Bearer " + chatUser("bob")));
    assertThat(call(header, jsonSubscribe("chat.x", 1))).isEqualTo(ack("subscribe", "chat.x", 1, 1));
    JsonWebSocket later = open(JsonWebSocket.options(sut.httpPort()));
    assertThat(call(later, jsonSubscribe("chat.x", 2)).getString("reason")).startsWith("authenticate first");
    assertThat(call(later, auth("auth", chatUser("carol")))).isEqualTo(ackAuth(1));
    assertThat(call(later, jsonSubscribe("chat.x", 3))).isEqualTo(ack("subscribe", "chat.x", 1, 3));
    assertThat(call(later, auth("auth", Jwts.unsigned(Jwts.claims("mallory", new JsonObject()))))).isEqualTo(ackAuth(0));
  }

  @Test
  void badTokensAreRefusedAtTheUpgrade() throws IOException {
    start(WebSocketAccessSettings.defaults().withAudience(Optional.of("sluice")));
    JsonObject good = Jwts.claims("alice", Jwts.grants(List.of("chat.*"), List.of())).put("aud", "sluice")
        .put("exp", now + 60);
    withToken(Jwts.hs256(Jwts.SECRET, good));
    long leeway = TokenVerifier.LEEWAY_SECONDS;
    List<String> bad = List.of(
        Jwts.hs256(Jwts.SECRET, good.copy().put("exp", now - leeway - 1)),
        Jwts.hs256(Jwts.SECRET, good.copy().put("nbf", now + leeway + 60)),
        Jwts.hs256(Jwts.SECRET.replace('a', 'b'), good),
        Jwts.hs256(Jwts.SECRET, good.copy().put("aud", "elsewhere")),
        Jwts.unsigned(good));
    for (String token : bad) {
      Throwable refusal = awaitFailure(JsonWebSocket.open(vertx, JsonWebSocket.options(sut.httpPort())
          .setURI("/ws?token=" + token)));
      assertThat(refusal).as(token).isInstanceOf(UpgradeRejectedException.class);
      assertThat(((UpgradeRejectedException) refusal).getStatus()).isEqualTo(401);
    }
  }

  /** The token's exp is within the leeway of now: the server ends the connection about a second later. */
  @Test
  void anExpiringTokenEndsTheConnectionWith4001() throws IOException {
    start(WebSocketAccessSettings.defaults());
    long soon = now - TokenVerifier.LEEWAY_SECONDS + 1;
    JsonWebSocket client = withToken(Jwts.hs256(Jwts.SECRET, Jwts.claims("alice", new JsonObject()).put("exp", soon)));
    assertThat(await(client.next())).isEqualTo(new JsonObject().put("event", "error").put("reason", "token expired"));
    assertThat(await(client.closed())).isEqualTo(ConnectionTokens.TOKEN_EXPIRED);
  }

  /** A refresh replaces the expiry: here a shorter token's, so the connection ends at its time. */
  @Test
  void refreshReplacesTheTokenOfTheSameUserOnly() throws IOException {
    start(WebSocketAccessSettings.defaults());
    JsonWebSocket client = withToken(chatUser("alice"));
    assertThat(call(client, auth("refresh", chatUser("bob")))).isEqualTo(ackAuth(0).put("op", "refresh"));
    long soon = now - TokenVerifier.LEEWAY_SECONDS + 1;
    String shorter = Jwts.hs256(Jwts.SECRET, Jwts.claims("alice", new JsonObject()).put("exp", soon));
    assertThat(call(client, auth("refresh", shorter))).isEqualTo(ackAuth(1).put("op", "refresh"));
    assertThat(call(client, jsonSubscribe("chat.a", 1))).as("the new token's grants")
        .isEqualTo(forbidden("subscribe", "chat.a", 1));
    assertThat(await(client.next()).getString("reason")).isEqualTo("token expired");
    assertThat(await(client.closed())).isEqualTo(ConnectionTokens.TOKEN_EXPIRED);
  }

  @Test
  void aConnectionsIdChannelIsItsOwnersAndTheBroadcastTheAdmins() throws IOException {
    start(WebSocketAccessSettings.defaults().withAnonymous(Optional.of(AnonymousMode.ALL)));
    JsonWebSocket owner = withToken(Jwts.hs256(Jwts.SECRET, Jwts.claims("alice",
        Jwts.grants(List.of("*"), List.of("*")))));
    assertThat(call(owner, jsonSubscribe("news", 0))).as("set up").isEqualTo(ack("subscribe", "news", 1, 0));
    String ownerId = ChannelCalls.webSocketOtherThan(sut).idHex();
    JsonWebSocket other = open(JsonWebSocket.options(sut.httpPort()));
    assertThat(call(other, jsonSubscribe(ownerId, 1))).isEqualTo(forbidden("subscribe", ownerId, 1));
    assertThat(call(owner, jsonSubscribe(ownerId, 2))).isEqualTo(ack("subscribe", ownerId, 1, 2));
    assertThat(call(owner, jsonSubscribe("*", 3))).isEqualTo(forbidden("subscribe", "*", 3));
    assertThat(call(other, jsonSubscribe("*", 4))).isEqualTo(forbidden("subscribe", "*", 4));
  }

  @Test
  void anonymousClientsInModeSubscribeReadOnlyThePublicChannels() throws IOException {
    start(WebSocketAccessSettings.defaults().withAnonymous(Optional.of(AnonymousMode.SUBSCRIBE))
        .withPublicChannels(List.of(ChannelPattern.parse("news"), ChannelPattern.parse("status.*"))));
    JsonWebSocket reader = open(JsonWebSocket.options(sut.httpPort()));
    assertThat(call(reader, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    assertThat(call(reader, jsonSubscribe("status.eu", 2))).isEqualTo(ack("subscribe", "status.eu", 1, 2));
    assertThat(call(reader, jsonSubscribe("chat.a", 3))).isEqualTo(forbidden("subscribe", "chat.a", 3));
    assertThat(call(reader, jsonPublish("news", "x", 4))).isEqualTo(forbidden("publish", "news", 4));
  }

  /** The key file is watched as the TLS files are: a new secret is in force without a restart. */
  @Test
  void aChangedSecretFileIsReadAgain() throws IOException {
    start(WebSocketAccessSettings.defaults());
    String next = Jwts.SECRET.toUpperCase(java.util.Locale.ROOT);
    String token = Jwts.hs256(next, Jwts.claims("alice", Jwts.grants(List.of("chat.*"), List.of())));
    Files.writeString(dir.resolve("ws-secret"), next);
    Poll.until("a token of the new secret is let in", () -> {
      var attempt = JsonWebSocket.open(vertx, JsonWebSocket.options(sut.httpPort()).setURI("/ws?token=" + token));
      try {
        clients.add(attempt.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        return true;
      } catch (java.util.concurrent.ExecutionException refused) {
        return false;
      }
    });
    assertThat(awaitFailure(JsonWebSocket.open(vertx, JsonWebSocket.options(sut.httpPort())
        .setURI("/ws?token=" + chatUser("bob"))))).as("the old secret's tokens are not").isInstanceOf(UpgradeRejectedException.class);
  }

  @Test
  void binaryThrottrFramesNeedTheAdminToken() throws IOException {
    start(WebSocketAccessSettings.defaults());
    JsonWebSocket client = withToken(chatUser("alice"));
    await(client.sendBinary(Hex.bytes("18")));
    assertThat(await(client.closed())).isEqualTo((short) 1008);
    assertThat(client.unreadBinary()).isZero();
  }
}
