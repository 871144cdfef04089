package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.strategies.policy.Policies;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Channel history in a 3-node cluster: a client that comes back through another node recovers
 * exactly what it missed, and still does after the channel's owner left gracefully; after the
 * owner crashed, the backup serves the history under a new epoch.
 */
class ClusterRecoveryTest {

  private static final int MISSED = 100;
  private final ManualClock clock = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();
  private final List<JsonWebSocket> sockets = new ArrayList<>();

  @AfterEach
  void closeSockets() {
    sockets.forEach(JsonWebSocket::close);
  }

  private JsonWebSocket open(ClusterNodeUnderTest node) {
    JsonWebSocket socket = await(JsonWebSocket.open(cluster.clients(), node.httpPort()));
    sockets.add(socket);
    return socket;
  }

  private static JsonObject call(JsonWebSocket client, JsonObject command) {
    await(client.send(command));
    return await(client.next());
  }

  private static JsonObject since(long offset, String epoch) {
    return new JsonObject().put("op", "subscribe").put("channel", "news")
        .put("since", new JsonObject().put("offset", offset).put("epoch", epoch));
  }

  /** Subscribes through {@code node} with the position after the first message; expects the missed ones. */
  private void recoverThrough(ClusterNodeUnderTest node, String epoch) {
    JsonWebSocket back = open(node);
    JsonObject ack = call(back, since(1, epoch));
    assertThat(ack.getBoolean("recovered")).as(ack.encode()).isTrue();
    for (int i = 1; i <= MISSED; i++) {
      JsonObject message = await(back.next());
      assertThat(message.getString("data")).isEqualTo("m" + i);
      assertThat(message.getLong("offset")).isEqualTo(i + 1);
    }
    assertThat(back.unreadTexts()).isZero();
  }

  /** Three nodes with history; "news" gets m0 (seen by a client that then goes) and m1..m{@link #MISSED}. Returns m0's epoch. */
  private String publishWhileAClientIsAway() {
    nodes.addAll(ClusterNodeUnderTest.formThree(1, clock, Policies.none(),
        ClusterNodeUnderTest.Fronts.DEFAULT.withHistory(new HistoryLimits(500, 0))));
    JsonWebSocket first = open(nodes.get(0));
    call(first, new JsonObject().put("op", "subscribe").put("channel", "news"));
    JsonWebSocket publisher = open(nodes.get(1));
    String epoch = call(publisher, new JsonObject().put("op", "publish").put("channel", "news").put("data", "m0"))
        .getString("epoch");
    assertThat(await(first.next()).getString("epoch")).isEqualTo(epoch);
    first.close();
    for (int i = 1; i <= MISSED; i++) {
      JsonObject ack = call(publisher, new JsonObject().put("op", "publish").put("channel", "news").put("data", "m" + i));
      assertThat(ack.getLong("offset")).isEqualTo(i + 1);
    }
    return epoch;
  }

  /** The node that owns the channel's history, taken out of {@link #nodes}. */
  private ClusterNodeUnderTest removeTheOwner() {
    ClusterNodeUnderTest.awaitReplicated(nodes);
    String owner = ClusterNodeUnderTest.ownerOf(nodes.get(0).node(),
        ChannelHistory.keyOf("news".getBytes(StandardCharsets.UTF_8)));
    ClusterNodeUnderTest victim = nodes.stream().filter(node -> node.node().self().equals(owner)).findFirst().orElseThrow();
    nodes.remove(victim);
    return victim;
  }

  @Test
  void aClientRecoversThroughAnotherNodeAndAfterTheOwnerLeftGracefully() {
    String epoch = publishWhileAClientIsAway();
    recoverThrough(nodes.get(2), epoch);

    removeTheOwner().close(); // a handoff: the records arrive whole, the epoch stays
    ClusterNodeUnderTest.awaitFormed(nodes);
    recoverThrough(nodes.get(0), epoch);
  }

  /**
   * After a crash of the owner the backup's copy may lack the owner's last messages (backups are
   * asynchronous), and its next offsets may name other messages than those a client saw: it
   * serves under a new epoch, so recovery from the old one answers that the history changed, and
   * the held messages are there under the new one.
   */
  @Test
  void afterTheOwnerCrashedTheHistoryHasANewEpoch() {
    String epoch = publishWhileAClientIsAway();
    removeTheOwner().crash();
    ClusterNodeUnderTest.awaitFormed(nodes);

    JsonWebSocket back = open(nodes.get(0));
    JsonObject ack = call(back, since(1, epoch));
    assertThat(ack.getBoolean("recovered")).as(ack.encode()).isFalse();
    assertThat(ack.getString("reason")).isEqualTo("epoch changed");
    String renewed = ack.getString("epoch");
    assertThat(renewed).isNotNull().isNotEqualTo(epoch);
    recoverThrough(nodes.get(1), renewed);
  }
}
