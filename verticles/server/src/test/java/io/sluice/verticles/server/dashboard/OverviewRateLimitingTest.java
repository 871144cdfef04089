package io.sluice.verticles.server.dashboard;

import io.grpc.ManagedChannel;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.grpc.RlsFixture;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.udp.UdpSettings;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The overview's rate limiting over real sockets: HTTP checks, Envoy's ShouldRateLimit over gRPC
 * and UDP over_limit verdicts, each as allowed and denied totals; every kind counted in the
 * requests; the policy and the key denied most; and that a single node says it is not clustered.
 */
class OverviewRateLimitingTest {

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;
  private HttpCalls http;
  private ManagedChannel grpc;

  @TempDir
  Path rlsConfig;

  private void start() throws Exception {
    Files.writeString(rlsConfig.resolve("edge.yaml"), String.join("\n", "domain: edge", "descriptors:",
        "  - key: api_key", "    rate_limit: {unit: minute, requests_per_unit: 1}", ""));
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withUdp(UdpSettings.defaults().withRules(RuleSet.singleRule(Rule.forAnyKey(1, 20, true))))
        .withPolicies(Policies.of(new Policy("per-key",
            new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofMinutes(1)))), KeyExtractor.PARAM, false)))
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.load(rlsConfig), false)));
    http = new HttpCalls(vertx, sut.httpPort());
    grpc = RlsFixture.channel(sut.grpcPort());
  }

  @AfterEach
  void stop() {
    if (grpc != null) {
      grpc.shutdownNow();
    }
    if (http != null) {
      http.close();
    }
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  private void checks(String key, int times) {
    for (int i = 0; i < times; i++) {
      http.post("/v1/check", "{\"policy\":\"per-key\",\"key\":\"" + key + "\"}");
    }
  }

  private RateLimitResponse.Code envoy(long hits) {
    RateLimitRequest request = RlsFixture.request("edge", RlsFixture.descriptor("api_key", "k")).toBuilder()
        .setHitsAddend((int) hits).build();
    return RlsFixture.call(grpc, request).getOverallCode();
  }

  private void overLimit(int times) throws Exception {
    try (DatagramSocket udp = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      udp.setSoTimeout(10_000);
      byte[] request = "over_limit ws ip=1.2.3.4".getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < times; i++) {
        udp.send(new DatagramPacket(request, request.length, InetAddress.getLoopbackAddress(), sut.udpPort()));
        udp.receive(new DatagramPacket(new byte[64], 64));
      }
    }
  }

  @Test
  void everyWayOfRateLimitingIsCountedWithWhoIsDeniedMost() throws Exception {
    start();
    checks("alice", 1);
    checks("bob", 8); // 5 allowed, 3 denied
    assertThat(envoy(1)).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(envoy(1)).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
    overLimit(3);

    JsonObject overview = http.getJson("/api/overview");
    JsonObject limiting = overview.getJsonObject("rateLimiting");
    assertThat(limiting.getJsonObject("checks")).isEqualTo(new JsonObject().put("allowed", 6).put("denied", 3));
    assertThat(limiting.getJsonObject("envoy")).isEqualTo(new JsonObject().put("allowed", 1).put("denied", 1));
    JsonObject udp = limiting.getJsonObject("udp");
    assertThat(udp.getLong("allowed") + udp.getLong("denied")).isEqualTo(3);
    assertThat(udp.getLong("denied")).as("a limit of 1 per 20 s, strict").isPositive();
    assertThat(limiting.getJsonObject("topDeniedPolicy"))
        .isEqualTo(new JsonObject().put("kind", "check").put("name", "per-key").put("denied", 3));
    assertThat(limiting.getJsonObject("topDeniedKey"))
        .isEqualTo(new JsonObject().put("policy", "per-key").put("key", "bob").put("denied", 3));
    JsonObject requests = overview.getJsonObject("requests");
    assertThat(requests.getLong("total")).as("Throttr commands: none").isZero();
    assertThat(requests.getLong("all")).as("9 checks, 2 Envoy calls, 3 UDP verdicts").isEqualTo(14);
    assertThat(overview.getBoolean("clustered")).isFalse();
    assertThat(limiting.getJsonObject("envoyDomains"))
        .isEqualTo(new JsonObject().put("edge", new JsonObject().put("hits", 2).put("overLimit", 1)));

    // Envoy's descriptors are counted in hits: 11 over the limit outdo the check policy's 3 denials.
    assertThat(envoy(10)).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
    assertThat(http.getJson("/api/overview").getJsonObject("rateLimiting").getJsonObject("topDeniedPolicy"))
        .isEqualTo(new JsonObject().put("kind", "envoy").put("name", "edge/api_key").put("denied", 11));
  }

  /** The history's 10-second steps carry each way's rates and each Envoy domain's. */
  @Test
  void theHistoryHasEveryWaysRatesAndEachEnvoyDomains() throws Exception {
    start();
    Poll.until("a first history sample", () -> http.getJson("/api/history").getJsonArray("samples").size() >= 1);
    checks("bob", 6); // 5 allowed, 1 denied
    envoy(1);
    envoy(1); // over the limit of 1
    overLimit(2);
    sut.advance(Duration.ofSeconds(10));
    Poll.until("a second history sample", () -> http.getJson("/api/history").getJsonArray("samples").size() >= 2);
    JsonObject second = http.getJson("/api/history").getJsonArray("samples").getJsonObject(1);
    assertThat(second.getDouble("checksPerSecond")).isEqualTo(0.6);
    assertThat(second.getDouble("envoyCallsPerSecond")).isEqualTo(0.2);
    assertThat(second.getDouble("udpVerdictsPerSecond")).isEqualTo(0.2);
    assertThat(second.getDouble("requestsPerSecond")).isEqualTo(1.0);
    assertThat(second.getDouble("allowedPerSecond") + second.getDouble("deniedPerSecond")).isEqualTo(1.0);
    assertThat(second.getJsonObject("envoyDomains").getJsonObject("edge"))
        .isEqualTo(new JsonObject().put("hitsPerSecond", 0.2).put("overLimitPerSecond", 0.1));
  }

  @Test
  void nothingDeniedYetNamesNoPolicyNorKey() throws Exception {
    start();
    checks("alice", 1);
    JsonObject limiting = http.getJson("/api/overview").getJsonObject("rateLimiting");
    assertThat(limiting.getJsonObject("checks")).isEqualTo(new JsonObject().put("allowed", 1).put("denied", 0));
    assertThat(limiting.getValue("topDeniedPolicy")).isNull();
    assertThat(limiting.getValue("topDeniedKey")).isNull();
  }
}
