package io.sluice.verticles.server.cluster;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.ClusterState;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two clusters of one name that find each other, as the two sides of a healed split do: Hazelcast
 * merges the one into the other and gives the merged member a new UUID. Both nodes must count
 * each other again (admitted under the new UUID, ready again) and serve, with no restart.
 */
class HazelcastMergeTest {

  private static final String FIRST_RUN = "hazelcast.merge.first.run.delay.seconds";
  private static final String NEXT_RUN = "hazelcast.merge.next.run.delay.seconds";

  private final ManualClock clock = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();

  @AfterEach
  void clearMergeDelays() {
    System.clearProperty(FIRST_RUN);
    System.clearProperty(NEXT_RUN);
  }

  @Test
  void twoClustersThatHazelcastMergesServeAsOne() {
    // Hazelcast looks for another cluster 300 s after a start by default.
    System.setProperty(FIRST_RUN, "3");
    System.setProperty(NEXT_RUN, "3");
    int laterPort = ClusterNodeUnderTest.freePort();
    // The first names the second, which is not up yet: it makes a cluster alone (after the join
    // timeout); the second names no one and makes its own. The first's split-brain check finds it.
    nodes.add(ClusterNodeUnderTest.startOn(ClusterNodeUnderTest.freePort(), List.of(laterPort), clock));
    // The split-brain checks (every 3 s) may merge the two from the moment the second's member
    // port listens: 3 to 6 s later here, which a loaded machine can spend before the second serves
    // and counts itself alone. A frozen cluster looks for no other, and the second, which names no
    // one, learns of it only when it does: both are seen apart first, then the merge may come.
    Cluster first = nodes.get(0).hazelcast().getCluster();
    first.changeClusterState(ClusterState.FROZEN);
    nodes.add(ClusterNodeUnderTest.startOn(laterPort, List.of(), clock));
    for (ClusterNodeUnderTest node : nodes) {
      assertThat(node.node().table().members()).containsExactly(node.node().self());
    }
    first.changeClusterState(ClusterState.ACTIVE);

    ClusterNodeUnderTest.awaitCondition("the two clusters merged, and both nodes count and serve both",
        Duration.ofSeconds(60), () -> nodes.stream().allMatch(node -> node.node().ready()
            && node.node().table().members().size() == 2));
    assertThat(nodes.get(0).node().table().members()).isEqualTo(nodes.get(1).node().table().members());
  }
}
