package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.BridgeClients;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.Jwts;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.wsauth.AnonymousMode;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonUnsubscribe;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Presence on one node, over real sockets: the query, join and leave events, the refusals, anonymous clients. */
class PresenceTest {

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;
  private final BridgeClients clients = new BridgeClients(vertx, () -> sut.httpPort());
  @TempDir
  Path dir;

  @BeforeEach
  void start() throws IOException {
    Path secret = Files.writeString(dir.resolve("ws-secret"), Jwts.SECRET);
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withHttp(HttpSettings.defaults()
        .withWebSocket(WebSocketAccessSettings.defaults().withJwtSecretFile(Optional.of(secret))
            .withAnonymous(Optional.of(AnonymousMode.ALL))))
        .withLimits(ConnectionLimits.defaults().withHistory(new HistoryLimits(10, 0))));
  }

  @AfterEach
  void stop() {
    clients.close();
    sut.close();
    await(vertx.close());
  }

  private JsonWebSocket withPresence(String subject) {
    return clients.user(subject, Jwts.grantsWithPresence(List.of("chat.*"), List.of()));
  }

  static JsonObject subscribeWithJoinLeave(String channel, Object id) {
    return jsonSubscribe(channel, id).put("join_leave", true);
  }

  static JsonObject presence(String channel, Object id) {
    return new JsonObject().put("op", "presence").put("channel", channel).put("id", id);
  }

  static JsonObject event(String event, String channel, String user, String connection) {
    return new JsonObject().put("event", event).put("channel", channel).put("user", user).put("connection", connection);
  }

  private long nowMillis() {
    return TimeUnit.NANOSECONDS.toMillis(sut.clock().epochNanos());
  }

  @Test
  void usersSeeWhoIsThereAndHearJoinsAndLeaves() {
    JsonWebSocket alice = withPresence("alice");
    assertThat(call(alice, subscribeWithJoinLeave("chat.a", 1))).isEqualTo(ack("subscribe", "chat.a", 1, 1));
    JsonObject ownJoin = await(alice.next());
    String aliceId = ownJoin.getString("connection");
    assertThat(ownJoin).as("a listener hears its own join too").isEqualTo(event("join", "chat.a", "alice", aliceId));
    long aliceSince = nowMillis();

    sut.clock().advance(Duration.ofMillis(5));
    JsonWebSocket bob = withPresence("bob");
    assertThat(call(bob, jsonSubscribe("chat.a", 1))).isEqualTo(ack("subscribe", "chat.a", 1, 1));
    JsonObject bobJoin = await(alice.next());
    String bobId = bobJoin.getString("connection");
    assertThat(bobJoin).isEqualTo(event("join", "chat.a", "bob", bobId));
    assertThat(call(bob, jsonSubscribe("chat.a", 2))).as("a second subscription is no second join")
        .isEqualTo(ack("subscribe", "chat.a", 1, 2));

    assertThat(call(alice, presence("chat.a", 2))).isEqualTo(new JsonObject().put("event", "presence")
        .put("channel", "chat.a")
        .put("users", List.of(
            new JsonObject().put("user", "alice").put("connection", aliceId).put("since", aliceSince),
            new JsonObject().put("user", "bob").put("connection", bobId).put("since", aliceSince + 5)))
        .put("anonymous", 0).put("truncated", false).put("complete", true).put("id", 2));

    assertThat(call(bob, jsonUnsubscribe("chat.a", 3))).isEqualTo(ack("unsubscribe", "chat.a", 1, 3));
    assertThat(await(alice.next())).isEqualTo(event("leave", "chat.a", "bob", bobId));
    assertThat(call(bob, jsonSubscribe("chat.a", 4))).isEqualTo(ack("subscribe", "chat.a", 1, 4));
    assertThat(await(alice.next())).isEqualTo(event("join", "chat.a", "bob", bobId));
    bob.close();
    assertThat(await(alice.next())).as("a closed connection leaves").isEqualTo(event("leave", "chat.a", "bob", bobId));
    assertThat(call(alice, presence("chat.a", 3)).getJsonArray("users")).hasSize(1);
  }

  @Test
  void aSubscribeRecoveringHistoryJoinsLikeAnyOther() {
    JsonWebSocket alice = withPresence("alice");
    call(alice, subscribeWithJoinLeave("chat.a", 1));
    await(alice.next());
    JsonWebSocket bob = withPresence("bob");
    JsonObject back = jsonSubscribe("chat.a", 1)
        .put("since", new JsonObject().put("offset", 3).put("epoch", "0123456789abcdef"));
    assertThat(call(bob, back).getString("reason")).isEqualTo("epoch changed");
    JsonObject bobJoin = await(alice.next());
    String bobId = bobJoin.getString("connection");
    assertThat(bobJoin).isEqualTo(event("join", "chat.a", "bob", bobId));
    // Both joined at the same instant of the test's clock: a tie is listed by connection id, which is
    // random, so the order is not the point here.
    assertThat(call(alice, presence("chat.a", 2)).getJsonArray("users"))
        .extracting(user -> ((JsonObject) user).getString("user")).containsExactlyInAnyOrder("alice", "bob");
    bob.close();
    assertThat(await(alice.next())).isEqualTo(event("leave", "chat.a", "bob", bobId));
  }

  /** As for a plain subscribe: the ack, here once the history is read, comes before the client's own join. */
  @Test
  void aRecoveringSubscribersOwnJoinComesAfterItsAck() {
    JsonWebSocket alice = withPresence("alice");
    for (int i = 0; i < 20; i++) {
      String channel = "chat.back." + i;
      JsonObject back = subscribeWithJoinLeave(channel, i)
          .put("since", new JsonObject().put("offset", 0).put("epoch", "0123456789abcdef"));
      JsonObject first = call(alice, back);
      assertThat(first.getString("event")).as(first.encode()).isEqualTo("ack");
      JsonObject join = await(alice.next());
      assertThat(join).isEqualTo(event("join", channel, "alice", join.getString("connection")));
    }
  }

  @Test
  void presenceAndJoinLeaveNeedThePresenceRight() {
    JsonWebSocket plain = clients.user("carol", Jwts.grants(List.of("chat.*"), List.of()));
    assertThat(call(plain, presence("chat.a", 1))).isEqualTo(forbidden("presence", "chat.a", 1));
    assertThat(call(plain, subscribeWithJoinLeave("chat.a", 2))).as("nothing subscribed")
        .isEqualTo(forbidden("subscribe", "chat.a", 2));
    assertThat(call(plain, jsonUnsubscribe("chat.a", 3))).isEqualTo(ack("unsubscribe", "chat.a", 0, 3));

    JsonWebSocket elsewhere = withPresence("dave");
    assertThat(call(elsewhere, presence("admin", 1))).as("only in channels it may subscribe to")
        .isEqualTo(forbidden("presence", "admin", 1));
    assertThat(call(elsewhere, jsonSubscribe("chat.a", 2).put("join_leave", "yes")))
        .isEqualTo(new JsonObject().put("event", "error").put("reason", "\"join_leave\" must be true or false")
            .put("id", 2));
  }

  @Test
  void anonymousClientsAreCountedNotListedNorAnnounced() {
    JsonWebSocket alice = withPresence("alice");
    assertThat(call(alice, subscribeWithJoinLeave("chat.a", 1))).isEqualTo(ack("subscribe", "chat.a", 1, 1));
    String aliceId = await(alice.next()).getString("connection");
    JsonWebSocket anonymous = clients.open("/ws");
    assertThat(call(anonymous, presence("chat.a", 1))).isEqualTo(forbidden("presence", "chat.a", 1));
    assertThat(call(anonymous, jsonSubscribe("chat.a", 2))).isEqualTo(ack("subscribe", "chat.a", 1, 2));

    JsonObject answer = call(alice, presence("chat.a", 2));
    assertThat(answer.getJsonArray("users")).extracting(user -> ((JsonObject) user).getString("connection"))
        .containsExactly(aliceId);
    assertThat(answer.getLong("anonymous")).isEqualTo(1);
    assertThat(alice.unreadTexts()).as("no join for an anonymous client").isZero();
  }

  private static JsonObject forbidden(String op, String channel, Object id) {
    return new JsonObject().put("event", "error").put("op", op).put("channel", channel).put("reason", "forbidden")
        .put("id", id);
  }
}
