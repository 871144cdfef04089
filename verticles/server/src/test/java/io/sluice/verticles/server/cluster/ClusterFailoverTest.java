package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.strategies.policy.Policies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node ends abruptly (its Hazelcast member terminated, no handoff): its backups serve its
 * partitions with every acknowledged write that had reached them, and the missing backups are
 * re-created, so a second crash loses nothing either.
 */
class ClusterFailoverTest {

  private static final int KEYS = 150;
  private final ManualClock clock = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();

  @Test
  void aCrashedNodesKeysAreServedByItsBackupsAndANewBackupIsMade() {
    nodes.addAll(ClusterNodeUnderTest.formThree(1, clock, Policies.none()));
    ClusterNodeUnderTest first = nodes.get(0);

    ThrottrClient writer = cluster.client(0);
    ThrottrClient updater = cluster.client(2);
    for (int i = 0; i < KEYS; i++) {
      assertThat(await(writer.insert("kept:" + i, i, TtlUnit.SECONDS, 600))).isTrue();
      assertThat(await(updater.update("kept:" + i, UpdateAttribute.QUOTA, UpdateChange.INCREASE, 1000))).isTrue();
    }
    ClusterNodeUnderTest.awaitReplicated(nodes);

    ClusterNodeUnderTest victim = nodes.remove(1);
    String victimId = victim.node().self();
    int victimOwned = victim.node().table().owned(victimId);
    long crashedAt = System.nanoTime();
    victim.crash();
    ClusterNodeUnderTest.awaitFormed(nodes);
    long failoverMillis = (System.nanoTime() - crashedAt) / 1_000_000;
    System.out.println("cluster failover: " + victimOwned + " partitions served again " + failoverMillis
        + " ms after the crash");

    for (ClusterNodeUnderTest node : nodes) {
      ThrottrClient reader = node.client(cluster.clients());
      for (int i = 0; i < KEYS; i++) {
        assertThat(await(reader.query("kept:" + i)).quota()).as("kept:%d after the crash", i).isEqualTo(1000 + i);
      }
    }
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      assertThat(nodes.get(0).node().table().replicasOf(p)).hasSize(2).doesNotContain(victimId);
    }

    // The partitions that had their only backup on the victim got a new one: a second crash
    // leaves the last node with every key.
    ClusterNodeUnderTest.awaitReplicated(nodes);
    ClusterNodeUnderTest second = nodes.remove(1);
    second.crash();
    ClusterNodeUnderTest.awaitFormed(nodes);
    ThrottrClient last = cluster.client(0);
    for (int i = 0; i < KEYS; i++) {
      assertThat(await(last.query("kept:" + i)).quota()).as("kept:%d after two crashes", i).isEqualTo(1000 + i);
    }
  }
}
