package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.KeyFrames;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nodes with different {@code --shards}: a read's batch per shard thread of the node it reached
 * holds partitions its owner places on several shard verticles, so the owner splits it per
 * verticle of its own and joins the replies back; the read is answered in request order.
 */
class UnevenShardsTest {

  private static final ManualClock CLOCK = new ManualClock();
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> NODES = CLUSTER.nodes();
  private static Vertx clients;

  @BeforeAll
  static void formPair() {
    ClusterNodeUnderTest two = ClusterNodeUnderTest.startWithShards(List.of(), 2, CLOCK);
    NODES.add(two);
    NODES.add(ClusterNodeUnderTest.startWithShards(List.of(two.clusterPort()), 3, CLOCK));
    ClusterNodeUnderTest.awaitFormed(NODES);
    clients = CLUSTER.clients();
  }

  @Test
  void aReadForwardedToANodeOfOtherShardsIsAnsweredInOrder() {
    ClusterNodeUnderTest through = NODES.get(0);
    String owner = NODES.get(1).node().self();
    List<String> keys = new ArrayList<>();
    for (int n = 0; keys.size() < 24; n++) {
      String key = "uneven:" + n;
      if (owner.equals(ClusterNodeUnderTest.ownerOf(through.node(), key.getBytes(StandardCharsets.UTF_8)))) {
        keys.add(key);
      }
    }
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i = 0; i < keys.size(); i++) {
      read.writeBytes(KeyFrames.insert(keys.get(i), 30 + i, 600));
      expected.write(0x01);
    }
    for (int i = 0; i < keys.size(); i++) {
      read.writeBytes(KeyFrames.query(keys.get(i)));
      expected.writeBytes(new byte[] {0x01, (byte) (30 + i), 0, KeyFrames.SECONDS, (byte) 600, (byte) (600 >> 8)});
    }

    Conversation conversation = await(TcpConversation.open(clients, through.tcpPort()));
    try {
      await(conversation.send(read.toByteArray()));
      assertThat(Hex.of(await(conversation.receive(expected.size())))).isEqualTo(Hex.of(expected.toByteArray()));
    } finally {
      conversation.close();
    }
  }
}
