package io.sluice.gateway.cluster;

import io.sluice.gateway.process.ChildProcess;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static io.sluice.gateway.process.Waits.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/cluster/start-local.sh as the README runs it, on the jar `mvn package` built: three nodes
 * start and are ready, a key written through one node is read through the others, and
 * {@code start-local.sh stop} leaves no node running. The ports are the script's, shifted by
 * SLUICE_PORT_OFFSET to a range that is free here.
 */
@EnabledIfSystemProperty(named = "sluice.jar", matches = ".+",
    disabledReason = "runs in the distribution-tests execution, after package built the jar")
class LocalClusterScriptIT {

  private static final Path SCRIPT = Path.of("..", "deploy", "cluster", "start-local.sh").toAbsolutePath().normalize();
  private static final int NODES = 3;
  /** Each node's ports from the script's: Throttr 9000+10i, UDP 9001+10i, HTTP 8080+10i, gRPC 8081+10i, Hazelcast 5701+i. */
  private static final int[] BASES = {9000, 9001, 8080, 8081};

  @TempDir
  Path directory;

  private final Vertx vertx = Vertx.vertx();
  private Map<String, String> environment;

  @AfterEach
  void stop() throws Exception {
    if (environment != null) {
      // Whatever the test did, no node outlives it.
      List<Long> pids = pids();
      ChildProcess.run(List.of("bash", SCRIPT.toString(), "stop"), environment, directory, Duration.ofSeconds(120));
      pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
    await(vertx.close());
  }

  @Test
  void threeNodesStartShareTheirKeysAndStop() throws Exception {
    int offset = freeOffset();
    environment = Map.of("SLUICE_JAR", Path.of(System.getProperty("sluice.jar")).toAbsolutePath().toString(),
        "SLUICE_CLUSTER_DIR", directory.toString(), "SLUICE_PORT_OFFSET", String.valueOf(offset),
        "JAVA_OPTS", "-Xmx256m");

    ChildProcess.Finished started = ChildProcess.run(List.of("bash", SCRIPT.toString(), String.valueOf(NODES),
        "--event-loops", "1", "--shards", "2"), environment, directory, Duration.ofSeconds(240));
    assertThat(started.status()).as(started.output()).isZero();
    assertThat(started.output()).contains("node 0 ready", "node 1 ready", "node 2 ready");
    List<Long> pids = pids();
    assertThat(pids).hasSize(NODES);

    ThrottrClient first = connect(offset + 9000);
    assertThat(await(first.insert("written-through-node-0", 42, TtlUnit.MINUTES, 10))).isTrue();
    for (int i = 1; i < NODES; i++) {
      assertThat(await(connect(offset + 9000 + 10 * i).query("written-through-node-0")).quota())
          .as("read through node %d", i).isEqualTo(42);
    }

    ChildProcess.Finished stopped = ChildProcess.run(List.of("bash", SCRIPT.toString(), "stop"), environment, directory,
        Duration.ofSeconds(120));
    assertThat(stopped.status()).as(stopped.output()).isZero();
    assertThat(pids).as("nodes still running").noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    assertThat(pids()).as("pid files left").isEmpty();
  }

  private ThrottrClient connect(int port) {
    return await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost("127.0.0.1").setPort(port)));
  }

  /** The pids the script wrote, one file per node. */
  private List<Long> pids() throws IOException {
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".pid")).toList()) {
        pids.add(Long.parseLong(Files.readString(file).strip()));
      }
    }
    return pids;
  }

  /**
   * An offset under which every port of every node can be bound now. Every port stays below 32768,
   * where Linux's ephemeral range begins: a port there can be taken, between this check and the
   * node's start, by any outgoing connection of the machine (one run lost node 2's HTTP port so).
   */
  private static int freeOffset() {
    for (int attempt = 0; attempt < 50; attempt++) {
      int offset = 10_000 + 100 * ThreadLocalRandom.current().nextInt(130);
      if (allFree(offset)) {
        return offset;
      }
    }
    throw new AssertionError("no free range of ports for the cluster");
  }

  private static boolean allFree(int offset) {
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      for (int base : BASES) {
        ports.add(offset + base + 10 * i);
      }
      ports.add(offset + 5701 + i);
    }
    return ports.stream().allMatch(LocalClusterScriptIT::bindable);
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }
}
