package io.sluice.gateway.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.process.ChildProcess;
import io.sluice.gateway.process.Ports;
import io.sluice.verticles.server.cluster.ClusterNode;
import io.sluice.verticles.engine.routing.PartitionTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node whose listener port another process holds exits 1 with one line naming the port, before it
 * joins: the cluster it named never sees it, and keeps every partition where it was.
 */
class TakenPortTest {

  @TempDir
  Path directory;

  private Gateway member;

  @AfterEach
  void stop() {
    if (member != null) {
      member.stop();
    }
  }

  @Test
  void aNodeThatCannotListenExitsWithoutJoining() throws Exception {
    int clusterPort = Ports.free();
    Invocation invocation = ConfigLoader.load(List.of("--cluster", "--cluster-port", String.valueOf(clusterPort),
        "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0", "--event-loops", "1"), Map.of());
    member = Gateway.start(((Invocation.Run) invocation).config());
    ClusterNode node = member.server().cluster().orElseThrow().node();
    AtomicInteger joined = new AtomicInteger();
    onlyHazelcastHere().getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
        joined.incrementAndGet();
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
      }
    });

    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      ChildProcess.Finished refused = ChildProcess.run(ChildProcess.gatewayCommand("--cluster",
          "--cluster-port", String.valueOf(Ports.free()), "--cluster-members", "127.0.0.1:" + clusterPort,
          "--tcp-port", "0", "--http-port", "0", "--udp-port", "0", "--grpc-port", String.valueOf(taken.getLocalPort()),
          "--event-loops", "1"), Map.of(), directory);

      assertThat(refused.status()).as(refused.output()).isEqualTo(1);
      assertThat(refused.output()).contains("could not start: TCP port " + taken.getLocalPort()
          + " on 127.0.0.1 (--grpc-port) cannot be bound");
      assertThat(refused.output()).doesNotContain("joined");
    }
    assertThat(joined).as("members the cluster saw join").hasValue(0);
    assertThat(node.table().members()).containsExactly(node.self());
    assertThat(node.table().owned(node.self())).isEqualTo(PartitionTable.PARTITIONS);
  }

  private static HazelcastInstance onlyHazelcastHere() {
    Set<HazelcastInstance> instances = Hazelcast.getAllHazelcastInstances();
    assertThat(instances).hasSize(1);
    return instances.iterator().next();
  }
}
