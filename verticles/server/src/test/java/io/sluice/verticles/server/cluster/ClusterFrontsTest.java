package io.sluice.verticles.server.cluster;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.ManagedChannel;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleAlgorithm;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.grpc.RlsFixture;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.TcpConversation;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.udp.UdpTestClient;
import io.sluice.verticles.strategies.policy.Policies;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes on loopback: the UDP protocol, Envoy's rate limit service and the dashboard's keys
 * serve every key through every node, each key counted once, on its owner.
 */
class ClusterFrontsTest {

  private static final ManualClock CLOCK = new ManualClock();
  private static final String RLS_CONFIG = """
      domain: cluster
      descriptors:
        - key: user
          rate_limit:
            unit: minute
            requests_per_unit: 3
        - key: sliding
          rate_limit: {unit: minute, requests_per_unit: 3, algorithm: sliding_window}
      """;
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> NODES = CLUSTER.nodes();
  private static Vertx clients;

  @BeforeAll
  static void formCluster() throws Exception {
    Path rlsConfig = Files.createTempDirectory("cluster-rls");
    Files.writeString(rlsConfig.resolve("cluster.yaml"), RLS_CONFIG);
    RlsSettings rls = new RlsSettings("127.0.0.1", 0, RlsConfigSource.load(rlsConfig), false)
        .withLocalCacheBytes(1 << 20);
    RuleSet musicBrainz = MusicBrainzRulesFile.load();
    List<Rule> rules = new ArrayList<>(List.of(
        Rule.limit("^sliding ", 4, 60, false).withAlgorithm(RuleAlgorithm.SLIDING_WINDOW)));
    rules.addAll(musicBrainz.rules());
    RuleSet udpRules = new RuleSet(musicBrainz.statsOnlyHooks(), musicBrainz.rewrites(), rules,
        musicBrainz.defaultRule());
    NODES.addAll(ClusterNodeUnderTest.formThree(1, CLOCK, Policies.none(),
        new ClusterNodeUnderTest.Fronts(udpRules, rls)));
    clients = CLUSTER.clients();
  }

  /** The node that owns {@code key}'s partition. */
  private static String ownerOf(String key) {
    return ClusterNodeUnderTest.ownerOf(NODES.get(0).node(), key.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aConnectionOfAnotherNodeIsFoundByItsIdAndDescribedByteForByteAsItsNodeDoes() {
    try (Conversation described = await(TcpConversation.open(clients, NODES.get(1).tcpPort()));
         Conversation local = await(TcpConversation.open(clients, NODES.get(1).tcpPort()));
         Conversation remote = await(TcpConversation.open(clients, NODES.get(0).tcpPort()))) {
      await(described.send(new byte[] {0x18}));
      byte[] whoami = await(described.receive(17));
      assertThat(whoami[0]).isEqualTo((byte) 0x01);
      byte[] connection = new byte[17];
      connection[0] = 0x15;
      System.arraycopy(whoami, 1, connection, 1, 16);
      // The reply's bytes are counted when the write completes, which may be after they arrived.
      Poll.until("its node counted the WHOAMI reply as written", () -> NODES.get(1).server().instance().connections()
          .all().stream().anyMatch(stats -> stats.writeBytes() == 17));

      await(local.send(connection));
      String onItsNode = Hex.of(await(local.receive(238)));
      await(remote.send(connection));
      String elsewhere = Hex.of(await(remote.receive(238)));
      assertThat(elsewhere).startsWith("01").isEqualTo(onItsNode);

      byte[] unknown = new byte[17];
      unknown[0] = 0x15;
      unknown[1] = 0x7f;
      // The unknown ID, then a WHOAMI: answered in order, the first as unknown on every node.
      await(remote.send(unknown));
      await(remote.send(new byte[] {0x18}));
      assertThat(Hex.of(await(remote.receive(1)))).isEqualTo("00");
      assertThat(await(remote.receive(17))[0]).isEqualTo((byte) 0x01);
    }
  }

  @Test
  void udpSlidingWindowThroughEveryNodeAdmitsTheLimitOncePerKey() {
    List<UdpTestClient> udp = NODES.stream().map(node -> new UdpTestClient(node.udpPort())).toList();
    try {
      for (int k = 0; k < 3; k++) {
        String key = "sliding " + k;
        // The clock stands still: every node's use counts on the key's owner, limit 4 per 60 s.
        for (int use = 1; use <= 4; use++) {
          assertThat(udp.get((k + use) % 3).request("over_limit " + key)).as("use %d of %s", use, key)
              .isEqualTo("ok N " + use + ".0 4.0 60");
        }
        for (UdpTestClient client : udp) {
          assertThat(client.request("over_limit " + key)).isEqualTo("ok Y 4.0 4.0 60");
        }
      }
    } finally {
      udp.forEach(UdpTestClient::close);
    }
  }

  @Test
  void udpOverLimitThroughEveryNodeCountsOneRatePerKey() {
    List<UdpTestClient> udp = NODES.stream().map(node -> new UdpTestClient(node.udpPort())).toList();
    try {
      for (int k = 0; k < 3; k++) {
        String key = "ws ip=10.0.0." + k;
        // The clock stands still: each use adds 1 to the rate, whichever node it reaches; rule limit 22.
        for (int use = 0; use < 22; use++) {
          assertThat(udp.get((k + use) % 3).request("over_limit " + key)).as("use %d of %s", use, key)
              .isEqualTo("ok N " + use + ".0 22.0 20");
        }
        assertThat(udp.get(k % 3).request("over_limit " + key)).isEqualTo("ok Y 22.0 22.0 20");
      }
      List<String> sizes = udp.stream().map(client -> client.request("get_size")).toList();
      assertThat(sizes).as("get_size counts the records of the whole cluster, whichever node is asked")
          .containsOnly(sizes.get(0));
      assertThat(sizes.get(0)).matches("size=\\d+ keys=\\d+");
      assertThat(Long.parseLong(sizes.get(0).substring(sizes.get(0).lastIndexOf('=') + 1))).isGreaterThanOrEqualTo(3);
    } finally {
      udp.forEach(UdpTestClient::close);
    }
  }

  @Test
  void envoyRateLimitRequestsThroughTwoNodesShareOneCount() {
    ManagedChannel grpc = RlsFixture.channel(NODES.get(0).grpcPort());
    HttpCalls json = new HttpCalls(clients, NODES.get(1).httpPort());
    try {
      for (int user = 0; user < 6; user++) {
        String value = "u" + user;
        String body = "{\"domain\":\"cluster\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\"" + value
            + "\"}]}]}";
        RateLimitRequest request = RlsFixture.request("cluster", RlsFixture.descriptor("user", value));
        // gRPC through the first node, /json through the second: limit 3 a minute, counted once.
        RateLimitResponse first = RlsFixture.call(grpc, request);
        assertThat(first.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
        assertThat(first.getStatuses(0).getLimitRemaining()).isEqualTo(2);
        JsonObject second = json.post("/json", body).json();
        assertThat(second.getString("overallCode")).isEqualTo("OK");
        assertThat(second.getJsonArray("statuses").getJsonObject(0).getInteger("limitRemaining")).isEqualTo(1);
        assertThat(RlsFixture.call(grpc, request).getStatuses(0).getLimitRemaining()).isZero();
        assertThat(json.post("/json", body).json().getString("overallCode")).as("u%d", user).isEqualTo("OVER_LIMIT");
        assertThat(RlsFixture.call(grpc, request).getOverallCode()).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
      }
    } finally {
      json.close();
      grpc.shutdownNow();
    }
  }

  /**
   * A sliding window's state is decided on its owner whichever node is asked; a node then answers
   * from its local over-limit cache, without the hop.
   */
  @Test
  void aStrategyCountsOnceOnItsOwnerAndANodeAnswersOverFromItsCache() {
    ManagedChannel grpc = RlsFixture.channel(NODES.get(0).grpcPort());
    ManagedChannel other = RlsFixture.channel(NODES.get(1).grpcPort());
    HttpCalls metrics = new HttpCalls(clients, NODES.get(0).httpPort());
    try {
      double hitsBefore = Scrapes.value(Scrapes.scrape(metrics), "sluice_rls_local_cache_hits_total");
      for (int user = 0; user < 6; user++) {
        RateLimitRequest request = RlsFixture.request("cluster", RlsFixture.descriptor("sliding", "s" + user));
        assertThat(RlsFixture.call(grpc, request).getStatuses(0).getLimitRemaining()).isEqualTo(2);
        assertThat(RlsFixture.call(other, request).getStatuses(0).getLimitRemaining()).isEqualTo(1);
        assertThat(RlsFixture.call(grpc, request).getStatuses(0).getLimitRemaining()).isZero();
        assertThat(RlsFixture.call(grpc, request).getOverallCode()).as("s%d", user).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
        assertThat(RlsFixture.call(grpc, request).getOverallCode()).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
      }
      // The second over answer of each value came from node 0's memory.
      assertThat(Scrapes.value(Scrapes.scrape(metrics), "sluice_rls_local_cache_hits_total")).isEqualTo(hitsBefore + 6);
    } finally {
      metrics.close();
      other.shutdownNow();
      grpc.shutdownNow();
    }
  }

  @Test
  void theDashboardReadsChangesAndDeletesKeysOwnedByOtherNodesAndListsTheWholeCluster() {
    ThrottrClient writer = NODES.get(0).client(clients);
    int keys = 60;
    for (int i = 0; i < keys; i++) {
      assertThat(await(writer.insert("dash:" + i, 10 + i, TtlUnit.SECONDS, 600))).isTrue();
    }
    HttpCalls reader = new HttpCalls(clients, NODES.get(1).httpPort());
    HttpCalls changer = new HttpCalls(clients, NODES.get(2).httpPort());
    try {
      String readerId = NODES.get(1).node().self();
      assertThat(java.util.stream.IntStream.range(0, keys).filter(i -> !ownerOf("dash:" + i).equals(readerId)).count())
          .as("keys owned by other nodes than the one asked").isPositive();
      for (int i = 0; i < keys; i++) {
        JsonObject key = reader.getJson("/api/keys/dash:" + i);
        assertThat(key.getLong("quota")).as("dash:%d", i).isEqualTo(10 + i);
        assertThat(changer.send(HttpMethod.PATCH, "/api/keys/dash:" + i,
            "{\"attribute\":\"quota\",\"change\":\"decrease\",\"value\":10}").status()).isEqualTo(200);
        assertThat(reader.getJson("/api/keys/dash:" + i).getLong("quota")).isEqualTo(i);
      }
      for (ClusterNodeUnderTest node : NODES) {
        try (HttpCalls http = new HttpCalls(clients, node.httpPort())) {
          JsonObject page = http.getJson("/api/keys?q=dash:&limit=100");
          assertThat(page.getLong("total")).isEqualTo(keys);
          List<String> listed = page.getJsonArray("items").stream()
              .map(item -> ((JsonObject) item).getString("key")).toList();
          assertThat(listed).hasSize(keys).isSorted().doesNotHaveDuplicates();
          JsonObject deep = http.getJson("/api/keys?q=dash:&offset=50&limit=5");
          assertThat(deep.getJsonArray("items").stream().map(item -> ((JsonObject) item).getString("key")).toList())
              .isEqualTo(listed.subList(50, 55));
        }
      }
      for (int i = 0; i < keys; i += 2) {
        assertThat(changer.send(HttpMethod.DELETE, "/api/keys/dash:" + i, null).status()).isEqualTo(204);
        assertThat(reader.get("/api/keys/dash:" + i).status()).isEqualTo(404);
      }
      assertThat(reader.getJson("/api/keys?q=dash:").getLong("total")).isEqualTo(keys / 2);
    } finally {
      reader.close();
      changer.close();
    }
  }
}
