package io.sluice.verticles.server.cluster;

import com.hazelcast.map.IMap;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A member's word that it is ready (the ready map) against a removal it did not make: a member that
 * saw it leave during a split removes it, and that removal can be carried out only once the split
 * healed, when the member is back and serving. A node that reads the map afterwards (one that joins,
 * or the merged node) would never count it; the member says it again instead.
 */
class ReadyWordTest {

  private static final ManualClock CLOCK = new ManualClock();

  @Test
  void aServingMemberWhoseWordWasRemovedSaysItAgainAndALaterNodeCountsIt() {
    List<ClusterNodeUnderTest> nodes = new ArrayList<>(ClusterNodeUnderTest.startPair(CLOCK));
    try {
      String second = nodes.get(1).node().self();
      IMap<String, String> ready = ((HazelcastClusterManager) ((VertxInternal) nodes.get(0).vertx()).clusterManager())
          .getHazelcastInstance().getMap(ClusterMembers.READY_MAP);
      ready.remove(second);
      ClusterNodeUnderTest.awaitCondition("the second node said again that it is ready", Duration.ofSeconds(10),
          () -> ready.containsKey(second));

      nodes.add(ClusterNodeUnderTest.start(List.of(nodes.get(0).clusterPort()), 1, CLOCK));
      ClusterNodeUnderTest.awaitFormed(nodes);
    } finally {
      nodes.forEach(ClusterNodeUnderTest::close);
    }
  }
}
