package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.Jwts;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonUnsubscribe;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.websocket.PresenceTest.event;
import static io.sluice.verticles.server.websocket.PresenceTest.presence;
import static io.sluice.verticles.server.websocket.PresenceTest.subscribeWithJoinLeave;
import static org.assertj.core.api.Assertions.assertThat;

/** Two nodes on loopback: presence lists the users of both, join and leave events cross nodes, a dead node's users go. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the last test crashes a node
class PresenceAcrossNodesTest {

  private static final Duration WITHIN = Duration.ofSeconds(30);
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> NODES = CLUSTER.nodes();
  private static final List<JsonWebSocket> CLIENTS = new ArrayList<>();
  private static Vertx clients;
  @TempDir
  static Path dir;

  @BeforeAll
  static void formCluster() throws IOException {
    Path secret = Files.writeString(dir.resolve("ws-secret"), Jwts.SECRET);
    NODES.addAll(ClusterNodeUnderTest.startPair(new ManualClock(), ClusterNodeUnderTest.Fronts.withHttp(
        HttpSettings.defaults().withWebSocket(WebSocketAccessSettings.defaults().withJwtSecretFile(Optional.of(secret))))));
    clients = CLUSTER.clients();
  }

  @AfterAll
  static void closeSockets() {
    CLIENTS.forEach(JsonWebSocket::close);
  }

  private static JsonWebSocket user(ClusterNodeUnderTest node, String subject) {
    String token = Jwts.hs256(Jwts.SECRET, Jwts.claims(subject, Jwts.grantsWithPresence(List.of("chat.*"), List.of())));
    JsonWebSocket client = await(JsonWebSocket.open(clients,
        JsonWebSocket.options(node.httpPort()).setURI("/ws?token=" + token)));
    CLIENTS.add(client);
    return client;
  }

  private static List<String> usersIn(JsonObject answer) {
    JsonArray users = answer.getJsonArray("users");
    return users.stream().map(user -> ((JsonObject) user).getString("user")).sorted().toList();
  }

  /** The answer to a presence query, past the join and leave events that come before it. */
  private static JsonObject presenceOf(JsonWebSocket on, String channel, int id) {
    await(on.send(presence(channel, id)));
    JsonObject answer = await(on.next());
    while (!"presence".equals(answer.getString("event"))) {
      answer = await(on.next());
    }
    return answer;
  }

  /** The client's own join comes after the ack of its subscribe, on each of many new channels. */
  @Test
  @Order(1)
  void aSubscribersOwnJoinComesAfterItsAck() {
    JsonWebSocket dave = user(NODES.get(0), "dave");
    for (int i = 0; i < 100; i++) {
      String channel = "chat.order." + i;
      assertThat(call(dave, subscribeWithJoinLeave(channel, i))).isEqualTo(ack("subscribe", channel, 1, i));
      JsonObject join = await(dave.next());
      assertThat(join.getString("event")).isEqualTo("join");
      assertThat(join.getString("channel")).isEqualTo(channel);
    }
  }

  @Test
  @Order(2)
  void presenceSpansTheNodesAndADeadNodesUsersDropOut() {
    JsonWebSocket alice = user(NODES.get(0), "alice");
    assertThat(call(alice, subscribeWithJoinLeave("chat.room", 1))).isEqualTo(ack("subscribe", "chat.room", 1, 1));
    assertThat(await(alice.next()).getString("event")).isEqualTo("join");
    JsonWebSocket bob = user(NODES.get(1), "bob");
    assertThat(call(bob, jsonSubscribe("chat.room", 1))).isEqualTo(ack("subscribe", "chat.room", 1, 1));
    // An event published on node B after alice's subscribe was acknowledged reaches her on node A.
    JsonObject bobJoined = await(alice.next());
    assertThat(bobJoined.getString("event")).isEqualTo("join");
    assertThat(bobJoined.getString("user")).isEqualTo("bob");
    String bobId = bobJoined.getString("connection");

    for (JsonWebSocket asking : List.of(alice, bob)) {
      assertThat(usersIn(call(asking, presence("chat.room", 2)))).containsExactly("alice", "bob");
    }
    JsonObject answer = call(bob, presence("chat.room", 3));
    assertThat(answer.getBoolean("complete")).isTrue();
    assertThat(answer.getBoolean("truncated")).isFalse();
    assertThat(answer.getJsonArray("users").stream().map(JsonObject.class::cast)
        .filter(user -> user.getString("user").equals("bob")).findFirst().orElseThrow().getString("connection"))
        .isEqualTo(bobId);

    assertThat(call(bob, jsonUnsubscribe("chat.room", 4))).isEqualTo(ack("unsubscribe", "chat.room", 1, 4));
    assertThat(await(alice.next())).isEqualTo(event("leave", "chat.room", "bob", bobId));
    assertThat(call(bob, jsonSubscribe("chat.room", 5))).isEqualTo(ack("subscribe", "chat.room", 1, 5));
    assertThat(await(alice.next())).isEqualTo(event("join", "chat.room", "bob", bobId));

    NODES.get(1).crash();
    ClusterNodeUnderTest.awaitCondition("a crashed node's users are no longer listed", WITHIN, () -> {
      JsonObject after = presenceOf(alice, "chat.room", 6);
      return usersIn(after).equals(List.of("alice")) && after.getBoolean("complete");
    });
  }
}
