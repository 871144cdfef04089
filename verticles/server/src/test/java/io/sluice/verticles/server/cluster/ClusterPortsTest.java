package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.HeapPeak;
import io.sluice.verticles.server.kit.LiveHeap;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.NodeInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The two ports of a cluster node, the Hazelcast member port and the clustered event bus, against
 * what someone who can reach them sends: they listen on the cluster host only, and garbage or
 * forged frames change nothing, hold no memory and log one line per peer.
 */
class ClusterPortsTest {

  private static final int KEYS = 200;
  private static final int GARBAGE_CONNECTIONS = 20;
  private static final int SILENT_CONNECTIONS = 300;
  /** Measured: about 3.7 KB of heap a silent connection, whatever Hazelcast's socket buffer sizes. */
  private static final long SILENT_CONNECTION_BOUND_BYTES = 64 * 1024;
  private static final long BOUND_BYTES = 128L << 20;
  private static final ManualClock CLOCK = new ManualClock();
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> NODES = CLUSTER.nodes();
  private static Vertx clients;

  @BeforeAll
  static void formCluster() {
    NODES.addAll(ClusterNodeUnderTest.startPair(CLOCK));
    clients = CLUSTER.clients();
    ThrottrClient writer = NODES.get(0).client(clients);
    for (int i = 0; i < KEYS; i++) {
      assertThat(await(writer.insert("kept:" + i, 1000 + i, TtlUnit.SECONDS, 600))).isTrue();
    }
  }

  private static NodeInfo eventBus(ClusterNodeUnderTest node) {
    return ((VertxInternal) node.vertx()).clusterManager().getNodeInfo();
  }

  @Test
  void bothPortsListenOnTheClusterHostOnly() throws IOException {
    for (ClusterNodeUnderTest node : NODES) {
      for (int port : List.of(node.clusterPort(), eventBus(node).port())) {
        try (Socket reached = new Socket()) {
          reached.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        }
        assertThatThrownBy(() -> {
          try (Socket other = new Socket()) {
            other.connect(new InetSocketAddress("127.0.0.2", port), 2_000);
          }
        }).as("port %d on another loopback address", port).isInstanceOf(ConnectException.class);
      }
    }
  }

  @Test
  void hugeLengthFieldsCloseTheConnectionWithoutAllocatingThem() throws IOException {
    NodeInfo target = eventBus(NODES.get(1));
    HeapPeak peak = HeapPeak.start();
    try (LogLines log = new LogLines()) {
      for (int i = 0; i < 10; i++) {
        // The frame's length field: 2 GiB - 1 announced, 15 bytes sent.
        assertClosed(target, frameHeader(Integer.MAX_VALUE, 15));
        // A 15-byte frame whose address claims 2 GiB.
        assertClosed(target, frameHeader(15, Integer.MAX_VALUE - 64));
        // A negative length.
        assertClosed(target, frameHeader(-2, 15));
      }
      assertThat(peak.grownBytes()).as("old generation growth").isLessThan(BOUND_BYTES);
      assertThat(log.containing("clustered event-bus connection from 127.0.0.1")).hasSizeLessThanOrEqualTo(1);
    }
    assertEveryKeyServed();
  }

  @Test
  void forgedPartitionMessagesChangeNothing() throws IOException {
    ClusterNodeUnderTest target = NODES.get(1);
    String victim = target.node().self();
    String member = NODES.get(0).node().self();
    NodeInfo bus = eventBus(target);
    double handoffsBefore = refused(target, "handoff");
    double replicasBefore = refused(target, "replica");
    try (LogLines log = new LogLines(); Socket socket = new Socket(bus.host(), bus.port())) {
      OutputStream out = socket.getOutputStream();
      for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
        // What the probe sent: the partition alone, as a handoff was before it named its asker.
        out.write(frame(ClusterAddress.handoff(victim), ByteBuffer.allocate(2).putShort(Short.reverseBytes((short) p)).array()));
        // A handoff naming a node that is not a member.
        out.write(frame(ClusterAddress.handoff(victim), bytes(PartitionMessages.handoff(p, "intruder"))));
        // A handoff naming a member that does not own the partition: answered "not yours", never acted upon.
        if (!member.equals(target.node().table().owner(p))) {
          out.write(frame(ClusterAddress.handoff(victim), bytes(PartitionMessages.handoff(p, member))));
        }
        // A whole empty copy of the partition, from a node that is not a member.
        out.write(frame(ClusterAddress.replica(victim), bytes(PartitionMessages.replica(PartitionMessages.RESET, p,
            "intruder", io.netty.buffer.Unpooled.EMPTY_BUFFER))));
      }
      // A batch of changes from a node that is not a member.
      io.netty.buffer.ByteBuf intruders = PartitionMessages.changeBatch("intruder");
      PartitionMessages.endSection(intruders, PartitionMessages.startSection(intruders, 0));
      out.write(frame(ClusterAddress.replica(victim), bytes(intruders)));
      // A member's batch whose section claims more bytes than follow, and one naming a partition beyond the table.
      io.netty.buffer.ByteBuf overlong = PartitionMessages.changeBatch(member);
      overlong.writeShortLE(0).writeIntLE(1_000).writeZero(3);
      out.write(frame(ClusterAddress.replica(victim), bytes(overlong)));
      io.netty.buffer.ByteBuf beyond = PartitionMessages.changeBatch(member);
      PartitionMessages.endSection(beyond, PartitionMessages.startSection(beyond, PartitionTable.PARTITIONS));
      out.write(frame(ClusterAddress.replica(victim), bytes(beyond)));
      out.flush();
      Poll.until("the node refused every forged message", () -> refused(target, "handoff") - handoffsBefore
          == 2 * PartitionTable.PARTITIONS && refused(target, "replica") - replicasBefore == PartitionTable.PARTITIONS + 3);
      assertThat(log.containing("refusing a handoff message")).hasSizeLessThanOrEqualTo(2);
      // One line per claimed sender: the intruder, and the unreadable ones.
      assertThat(log.containing("refusing a replica message")).hasSizeLessThanOrEqualTo(2);
    }
    assertEveryKeyServed();
  }

  @Test
  void garbageOnTheMemberPortLogsOneLinePerPeer() throws IOException {
    ClusterNodeUnderTest target = NODES.get(1);
    java.util.logging.Logger hazelcast = java.util.logging.Logger.getLogger("com.hazelcast");
    java.util.logging.Level quiet = hazelcast.getLevel();
    hazelcast.setLevel(java.util.logging.Level.INFO);
    try (LogLines log = new LogLines(java.util.logging.Level.INFO)) {
      for (int i = 0; i < GARBAGE_CONNECTIONS; i++) {
        try (Socket socket = new Socket("127.0.0.1", target.clusterPort())) {
          socket.setSoTimeout(5_000);
          socket.getOutputStream().write("GARBAGE!garbage!\r\n".repeat(16).getBytes(StandardCharsets.US_ASCII));
          socket.getOutputStream().flush();
          assertThat(socket.getInputStream().read()).as("the member closes the connection").isEqualTo(-1);
        }
      }
      // Hazelcast's own line, with its stack trace, was about 1.1 KB per connection.
      assertThat(log.containing("TcpServerConnection")).isEmpty();
      assertThat(log.containing("member-port connection from 127.0.0.1")).hasSizeLessThanOrEqualTo(1);
    } finally {
      hazelcast.setLevel(quiet);
    }
    assertEveryKeyServed();
  }

  @Test
  void silentConnectionsToTheMemberPortHoldLittle() throws IOException {
    ClusterNodeUnderTest target = NODES.get(1);
    List<Socket> silent = new ArrayList<>();
    long before = LiveHeap.bytes();
    try {
      for (int i = 0; i < SILENT_CONNECTIONS; i++) {
        silent.add(new Socket("127.0.0.1", target.clusterPort()));
      }
      java.util.Set<Integer> ours = new java.util.HashSet<>();
      silent.forEach(socket -> ours.add(socket.getLocalPort()));
      Poll.until("the member accepted every silent connection",
          () -> acceptedFrom(target, ours) == SILENT_CONNECTIONS);
      long perConnection = (LiveHeap.bytes() - before) / SILENT_CONNECTIONS;
      System.out.println("member port: " + perConnection + " bytes of heap per silent connection");
      assertThat(perConnection).isLessThan(SILENT_CONNECTION_BOUND_BYTES);
    } finally {
      for (Socket socket : silent) {
        socket.close();
      }
    }
    assertEveryKeyServed();
  }

  /** How many of the connections the node's Hazelcast member holds come from {@code localPorts}. */
  private static long acceptedFrom(ClusterNodeUnderTest node, java.util.Set<Integer> localPorts) {
    com.hazelcast.core.HazelcastInstance member = ((io.vertx.spi.cluster.hazelcast.HazelcastClusterManager)
        ((VertxInternal) node.vertx()).clusterManager()).getHazelcastInstance();
    return ((com.hazelcast.instance.impl.HazelcastInstanceProxy) member).getOriginal().node.getServer()
        .getConnections().stream().filter(connection -> connection.getRemoteSocketAddress() != null
            && localPorts.contains(connection.getRemoteSocketAddress().getPort())).count();
  }

  private static double refused(ClusterNodeUnderTest node, String kind) {
    io.micrometer.core.instrument.Counter counter = node.metrics().find("sluice.cluster.refused.messages")
        .tag("kind", kind).counter();
    return counter == null ? 0 : counter.count();
  }

  private static byte[] bytes(io.netty.buffer.ByteBuf buffer) {
    byte[] bytes = new byte[buffer.readableBytes()];
    buffer.readBytes(bytes);
    return bytes;
  }

  /** A well-formed event-bus frame as Vert.x writes one: sent (not published), no reply address. */
  private static byte[] frame(String address, byte[] body) {
    byte[] to = address.getBytes(StandardCharsets.UTF_8);
    byte[] sender = "forger".getBytes(StandardCharsets.UTF_8);
    int length = 3 + 4 + to.length + 4 + 4 + sender.length + 4 + 4 + body.length;
    return ByteBuffer.allocate(4 + length).putInt(length).put((byte) 2).put((byte) 11).put((byte) 0)
        .putInt(to.length).put(to).putInt(0).putInt(sender.length).put(sender).putInt(4)
        .putInt(body.length).put(body).array();
  }

  /**
   * 19 bytes: a frame length, the protocol version, the Buffer codec, "send", then the address's
   * length field.
   */
  private static byte[] frameHeader(int frameLength, int addressLength) {
    return ByteBuffer.allocate(19).putInt(frameLength).put((byte) 2).put((byte) 11).put((byte) 0)
        .putInt(addressLength).putInt(0).put((byte) 0).put((byte) 0).array();
  }

  /** Sends {@code bytes} and expects the node to close the connection, within 5 s. */
  private static void assertClosed(NodeInfo target, byte[] bytes) throws IOException {
    try (Socket socket = new Socket(target.host(), target.port())) {
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      assertThat(in.read()).as("the node closes the connection").isEqualTo(-1);
    }
  }

  /** Every key is still served, with its value, through every node and a fresh client. */
  private static void assertEveryKeyServed() {
    for (ClusterNodeUnderTest node : NODES) {
      assertThat(node.node().states().serving()).isEqualTo(node.node().table().owned(node.node().self()));
      ThrottrClient reader = node.client(clients);
      for (int i = 0; i < KEYS; i++) {
        assertThat(await(reader.query("kept:" + i)).quota()).as("kept:%d", i).isEqualTo(1000 + i);
      }
    }
    int served = NODES.stream().mapToInt(node -> node.node().states().serving()).sum();
    assertThat(served).isEqualTo(PartitionTable.PARTITIONS);
  }
}
