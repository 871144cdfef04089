package io.sluice.verticles.server.cluster;

import io.sluice.verticles.benchmarks.load.Bench;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.HttpCalls;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/cluster/partitions} on two nodes over real sockets: each partition's owner and
 * where clients reach it, and {@code bench --route-by-owner} sending every key to its owner (no
 * node forwards a Throttr request), which a bench sent to one node does not.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterPartitionsApiTest {

  private static final ManualClock CLOCK = new ManualClock();
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> NODES = CLUSTER.nodes();
  private static Vertx clients;

  @BeforeAll
  static void formCluster() {
    NODES.addAll(ClusterNodeUnderTest.startPair(CLOCK));
    clients = CLUSTER.clients();
  }

  @Test
  @Order(1)
  void everyNodeGivesTheSameTableWithEachOwnersAddresses() {
    awaitEveryAddressPublished(NODES);
    List<String> versions = new ArrayList<>();
    for (ClusterNodeUnderTest asked : NODES) {
      JsonObject table = partitions(asked);
      versions.add(table.getString("version"));
      assertThat(table.getInteger("partitions")).isEqualTo(PartitionTable.PARTITIONS);
      assertThat(table.getJsonObject("keyHash").getString("function")).isEqualTo("murmur3_x86_32");
      assertThat(table.getJsonObject("keyHash").getLong("seed")).isEqualTo(0x5c1ce001L);
      JsonArray owners = table.getJsonArray("owners");
      assertThat(owners).hasSize(PartitionTable.PARTITIONS);
      for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
        JsonObject entry = owners.getJsonObject(p);
        ClusterNodeUnderTest owner = nodeWithId(entry.getString("owner"));
        assertThat(entry.getString("owner")).as("partition %d", p).isEqualTo(asked.node().table().owner(p));
        assertThat(entry.getString("throttr")).isEqualTo("127.0.0.1:" + owner.tcpPort());
        assertThat(entry.getString("http")).isEqualTo("127.0.0.1:" + owner.httpPort());
        // The test nodes run no gRPC listener.
        assertThat(entry.containsKey("grpc")).isTrue();
        assertThat(entry.getString("grpc")).isNull();
      }
    }
    assertThat(versions).containsOnly(versions.get(0));
  }

  @Test
  @Order(2)
  void benchRoutedByOwnerSendsEveryKeyToItsOwnerAndValidatesEveryReply() {
    awaitEveryAddressPublished(NODES);
    // Batches alone would not do: the dashboard's live view asks every partition every second.
    double forwarded = forwarded();
    assertThat(bench("--route-by-owner")).isZero();
    assertThat(forwarded()).as("Throttr key requests forwarded to another node").isEqualTo(forwarded);
    // The same load through one node: about half its keys are the other node's, and go there.
    assertThat(bench()).isZero();
    assertThat(forwarded()).isGreaterThan(forwarded);
  }

  @Test
  @Order(3)
  void theVersionChangesWhenTheOwnersDo() {
    awaitEveryAddressPublished(NODES);
    String before = partitions(NODES.get(0)).getString("version");
    try (ClusterNodeUnderTest third = ClusterNodeUnderTest.start(List.of(NODES.get(0).clusterPort()), 1, CLOCK)) {
      List<ClusterNodeUnderTest> three = List.of(NODES.get(0), NODES.get(1), third);
      ClusterNodeUnderTest.awaitFormed(three);
      awaitEveryAddressPublished(three);
      JsonObject table = partitions(NODES.get(1));
      assertThat(table.getString("version")).isNotEqualTo(before);
      assertThat(table.getJsonArray("owners").stream().map(owner -> ((JsonObject) owner).getString("throttr")))
          .contains("127.0.0.1:" + third.tcpPort());
    }
  }

  private static int bench(String... routing) {
    List<String> args = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", String.valueOf(NODES.get(0).tcpPort()),
        "--http-port", String.valueOf(NODES.get(0).httpPort()), "--connections", "1", "--pipeline", "8",
        "--keys", "400", "--mix", "insert=1,query=1,update=1,set=1,get=1", "--duration", "1", "--warmup", "0"));
    args.addAll(List.of(routing));
    return Bench.run(args);
  }

  private static double forwarded() {
    return NODES.stream().mapToDouble(node -> node.metrics().get("sluice.cluster.forwarded.key.requests").counter().count())
        .sum();
  }

  private static JsonObject partitions(ClusterNodeUnderTest node) {
    try (HttpCalls http = new HttpCalls(clients, node.httpPort())) {
      HttpCalls.Answer answer = http.get("/api/cluster/partitions");
      assertThat(answer.status()).isEqualTo(200);
      return answer.json();
    }
  }

  private static ClusterNodeUnderTest nodeWithId(String id) {
    return NODES.stream().filter(node -> node.node().self().equals(id)).findFirst().orElseThrow();
  }

  /** Each node hears the others' addresses shortly after they bound their listeners. */
  private static void awaitEveryAddressPublished(List<ClusterNodeUnderTest> nodes) {
    ClusterNodeUnderTest.awaitCondition("every node knows every owner's addresses", Duration.ofSeconds(10),
        () -> nodes.stream().allMatch(node -> node.node().table().members().stream()
            .allMatch(id -> node.node().addressesOf(id).isPresent())));
  }
}
