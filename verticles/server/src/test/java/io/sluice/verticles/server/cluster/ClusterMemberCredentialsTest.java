package io.sluice.verticles.server.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.NodeInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Members that share a secret ({@code --cluster-secret-file}) against those that do not: a node
 * with the cluster's name and no credentials, a bare Hazelcast member that writes the ready map as
 * a node would, and forged frames on the event bus, which now speaks mutual TLS. None of them gets
 * a partition, a record or a request, and no counter changes.
 */
class ClusterMemberCredentialsTest {

  private static final String KEY = "guarded";
  private static final long QUOTA = 100;
  private static final ManualClock CLOCK = new ManualClock();
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> NODES = CLUSTER.nodes();
  @TempDir
  static Path folder;
  private static MemberCredentials secret;
  private static Vertx clients;

  @BeforeAll
  static void formCluster() throws IOException {
    Path file = folder.resolve("cluster.secret");
    Files.writeString(file, "c2x1aWNlIG1lbWJlcnMgc2hhcmUgdGhpcyBzZWNyZXQ=\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    secret = new MemberCredentials.SharedSecret(file);
    ClusterNodeUnderTest first = ClusterNodeUnderTest.start(List.of(), secret, CLOCK);
    NODES.add(first);
    NODES.add(ClusterNodeUnderTest.start(List.of(first.clusterPort()), secret, CLOCK));
    ClusterNodeUnderTest.awaitFormed(NODES);
    clients = CLUSTER.clients();
    assertThat(await(NODES.get(0).client(clients).insert(KEY, QUOTA, TtlUnit.SECONDS, 600))).isTrue();
  }

  @Test
  void aNodeWithTheNameButNoCredentialsIsRefusedAndChangesNothing() {
    double before = refusedMembers();
    try (LogLines log = new LogLines(java.util.logging.Level.INFO);
         ClusterNodeUnderTest rogue = ClusterNodeUnderTest.start(List.of(NODES.get(0).clusterPort()),
             MemberCredentials.NONE, CLOCK)) {
      Poll.until("every member refused the rogue", () -> refusedMembers() - before == NODES.size());
      // A refused member is asked again (its answers may only have been lost); the rogue cannot answer.
      // Each member's first ask, once: later asks (1, 2, 4 s on) add lines, so a count of every ask
      // could pass the number of members between two looks and never equal it again.
      Poll.until("every member asked the rogue again", () -> log.containing("cluster member [127.0.0.1]:"
          + rogue.clusterPort()).stream().filter(line -> line.contains("did not answer when asked again (ask 1 of"))
          .count() == NODES.size());
      assertThat(refusedMembers() - before).as("refused and counted once by each member").isEqualTo(NODES.size());
      ThrottrClient throughRogue = rogue.client(clients);
      // The rogue serves what it holds, alone: nothing of the cluster's.
      assertThat(await(throughRogue.query(KEY))).isNull();
      await(throughRogue.update(KEY, UpdateAttribute.QUOTA, UpdateChange.DECREASE, 50));
      await(throughRogue.insert(KEY, 1, TtlUnit.SECONDS, 600));
      assertThat(rogue.node().table().members()).containsExactly(rogue.node().self());
      for (ClusterNodeUnderTest node : NODES) {
        assertThat(node.node().table().members()).hasSize(NODES.size()).doesNotContain(rogue.node().self());
      }
      assertThat(log.containing("refusing cluster member [127.0.0.1]:" + rogue.clusterPort()))
          .as("one line per member that refused it").hasSize(NODES.size());
      assertThat(log.containing("SSLHandshakeException")).as("no stack trace per failed handshake").isEmpty();
    }
    assertKeyUntouched();
  }

  @Test
  void aHazelcastMemberThatSaysItIsReadyIsRefused() {
    double before = refusedMembers();
    Config config = new Config().setClusterName(ClusterNodeUnderTest.CLUSTER_NAME);
    config.getNetworkConfig().setPort(ClusterNodeUnderTest.freePort()).setPortAutoIncrement(false);
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true)
        .addMember("127.0.0.1:" + NODES.get(0).clusterPort());
    // Everything a node shows on Hazelcast's port: its attributes, and its word in the ready map.
    config.getMemberAttributeConfig().setAttribute(HazelcastSetup.NODE_ID, "impostor");
    config.getMemberAttributeConfig().setAttribute(HazelcastSetup.VALUE_SIZE, ValueSize.UINT16.label());
    String victim = NODES.get(1).node().self();
    java.util.Optional<ClientAddresses> published = NODES.get(0).node().addressesOf(victim);
    assertThat(published).isPresent();
    HazelcastInstance impostor = Hazelcast.newHazelcastInstance(config);
    try {
      com.hazelcast.map.IMap<String, String> ready = impostor.getMap("sluice.cluster.ready");
      ready.put("impostor", "ready");
      // Clients that route by owner would be sent here, if the ready map were believed.
      ready.put(victim, new ClientAddresses("192.0.2.1:9000", "192.0.2.1:8080", null).toJson().encode());
      Poll.until("every member refused the impostor", () -> refusedMembers() - before == NODES.size());
      for (ClusterNodeUnderTest node : NODES) {
        assertThat(node.node().table().members()).hasSize(NODES.size()).doesNotContain("impostor");
        assertThat(node.node().addressesOf(victim)).as("what the victim told over the bus").isEqualTo(published);
      }
    } finally {
      impostor.shutdown();
    }
    assertKeyUntouched();
  }

  @Test
  void forgedFramesOnTheEventBusAreNeverRead() throws IOException {
    ClusterNodeUnderTest target = NODES.get(1);
    NodeInfo bus = ((VertxInternal) target.vertx()).clusterManager().getNodeInfo();
    double refusedBefore = refusedMessages(target);
    byte[] to = ClusterAddress.handoff(target.node().self()).getBytes(StandardCharsets.UTF_8);
    byte[] sender = "forger".getBytes(StandardCharsets.UTF_8);
    int length = 3 + 4 + to.length + 4 + 4 + sender.length + 4 + 4 + 2;
    // A well-formed frame of Vert.x's, in clear: the handoff of partition 0. The TLS server takes
    // it for a broken handshake.
    byte[] frame = ByteBuffer.allocate(4 + length).putInt(length).put((byte) 2).put((byte) 11).put((byte) 0)
        .putInt(to.length).put(to).putInt(0).putInt(sender.length).put(sender).putInt(4).putInt(2).putShort((short) 0)
        .array();
    for (byte[] forged : List.of(frame, "GARBAGE!garbage!\r\n".repeat(64).getBytes(StandardCharsets.US_ASCII))) {
      try (Socket socket = new Socket(bus.host(), bus.port())) {
        socket.setSoTimeout(5_000);
        OutputStream out = socket.getOutputStream();
        out.write(forged);
        out.flush();
        assertThat(socket.getInputStream().readAllBytes()).as("no reply but TLS's alert").hasSizeLessThan(64);
      }
    }
    assertThat(refusedMessages(target)).as("never parsed as a message").isEqualTo(refusedBefore);
    assertKeyUntouched();
  }

  @Test
  void aSecretTooShortStopsTheStart() throws IOException {
    Path file = folder.resolve("short.secret");
    Files.writeString(file, "password\n");
    ClusterSettings settings = new ClusterSettings(true, "127.0.0.1", ClusterNodeUnderTest.freePort(), List.of(),
        "sluice-short", 1, java.util.Optional.empty(), new MemberCredentials.SharedSecret(file));
    io.vertx.core.Future<Vertx> start = HazelcastSetup.clusteredVertx(Vertx.builder(), new VertxOptions(), settings,
        ValueSize.UINT16);
    assertThat(start.failed()).isTrue();
    assertThat(start.cause()).hasMessageContaining("has 8 bytes; it needs at least 32");
  }

  /** The key, as written before any test: the same quota through every node. */
  private static void assertKeyUntouched() {
    for (ClusterNodeUnderTest node : NODES) {
      assertThat(await(node.client(clients).query(KEY)).quota()).as("through " + node.node().self()).isEqualTo(QUOTA);
    }
  }

  private static double refusedMembers() {
    return NODES.stream().mapToDouble(node -> {
      io.micrometer.core.instrument.Counter counter = node.metrics().find("sluice.cluster.refused.members").counter();
      return counter == null ? 0 : counter.count();
    }).sum();
  }

  private static double refusedMessages(ClusterNodeUnderTest node) {
    return node.metrics().find("sluice.cluster.refused.messages").counters().stream()
        .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
  }
}
