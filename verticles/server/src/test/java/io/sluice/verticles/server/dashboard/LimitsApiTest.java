package io.sluice.verticles.server.dashboard;

import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.udp.UdpSettings;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's view of the rate limits over real HTTP and UDP: GET /api/limits (policies, what
 * they decided, most-denied and near-limit keys, UDP verdicts), the decoded state of rl: and udp:
 * keys on the key page, and GET /api/history, the last hour at 10-second steps.
 */
class LimitsApiTest {

  private static final String UDP_KEY = "ws ip=1.2.3.4";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
      .withUdp(UdpSettings.defaults().withRules(RuleSet.singleRule(Rule.forAnyKey(1, 20, true))))
      .withPolicies(Policies.of(new Policy("per-key",
          new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofMinutes(1)))), KeyExtractor.PARAM, false))));
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    http.close();
    sut.close();
    await(vertx.close());
  }

  private JsonObject getJson(String uri) {
    return http.getJson(uri);
  }

  private void checks(String key, int times) {
    for (int i = 0; i < times; i++) {
      http.post("/v1/check", "{\"policy\":\"per-key\",\"key\":\"" + key + "\"}");
    }
  }

  private void overLimit(int times) throws Exception {
    try (DatagramSocket udp = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      udp.setSoTimeout(10_000);
      byte[] request = ("over_limit " + UDP_KEY).getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < times; i++) {
        udp.send(new DatagramPacket(request, request.length, InetAddress.getLoopbackAddress(), sut.udpPort()));
        udp.receive(new DatagramPacket(new byte[64], 64));
      }
    }
  }

  @Test
  void policiesWithWhatTheyDecidedAndTheKeysToWatch() throws Exception {
    checks("alice", 4); // 4 of 5: at 80 %, near its limit
    checks("bob", 6);   // the sixth denied
    overLimit(3);

    JsonObject limits = getJson("/api/limits");
    JsonObject policy = limits.getJsonArray("policies").getJsonObject(0);
    assertThat(policy.getString("name")).isEqualTo("per-key");
    assertThat(policy.getString("strategy")).isEqualTo("fixed_window");
    assertThat(policy.getJsonObject("parameters").getJsonArray("quotas").getJsonObject(0))
        .isEqualTo(new JsonObject().put("name", "default").put("limit", 5).put("window", "1m"));
    assertThat(policy.getString("key")).isEqualTo("param");
    assertThat(policy.getBoolean("shadow")).isFalse();
    assertThat(policy.getLong("allowed")).isEqualTo(9);
    assertThat(policy.getLong("denied")).isEqualTo(1);
    assertThat(policy.getJsonArray("mostDenied"))
        .containsExactly(new JsonObject().put("key", "bob").put("denied", 1));
    JsonArray near = policy.getJsonArray("nearLimitKeys");
    assertThat(near.stream().map(item -> ((JsonObject) item).getString("key"))).containsExactly("bob", "alice");
    assertThat(near.getJsonObject(1).getLong("percent")).isEqualTo(80);
    assertThat(near.getJsonObject(1).getLong("used")).isEqualTo(4);
    JsonObject udp = limits.getJsonObject("udp");
    assertThat(udp.getLong("overLimit") + udp.getLong("underLimit")).isEqualTo(3);
    assertThat(udp.getLong("overLimit")).as("a limit of 1 per 20 s, strict").isPositive();

    JsonObject overview = getJson("/api/overview").getJsonObject("limits");
    assertThat(overview.getJsonObject("policies").getJsonObject("per-key"))
        .isEqualTo(new JsonObject().put("allowed", 9).put("denied", 1));
  }

  @Test
  void keyPagesDecodeRateLimitStateAndCountCheckWrites() throws Exception {
    checks("alice", 3);
    JsonObject key = getJson("/api/keys/rl%3Aper-key%3Aalice");
    assertThat(key.getJsonObject("stats").getLong("totalWrites")).as("three checks, three writes").isEqualTo(3);
    JsonObject decoded = key.getJsonObject("decoded");
    assertThat(decoded.getString("kind")).isEqualTo("rate-limit");
    assertThat(decoded.getString("policy")).isEqualTo("per-key");
    assertThat(decoded.getString("key")).isEqualTo("alice");
    assertThat(decoded.getBoolean("allowedNow")).isTrue();
    JsonObject limit = decoded.getJsonArray("limits").getJsonObject(0);
    assertThat(limit.getLong("limit")).isEqualTo(5);
    assertThat(limit.getLong("remaining")).isEqualTo(2);
    assertThat(limit.getLong("used")).isEqualTo(3);
    assertThat(limit.getLong("windowSeconds")).isEqualTo(60);
    assertThat(limit.getLong("resetInSeconds")).isEqualTo(60);
    sut.advance(Duration.ofSeconds(45));
    assertThat(getJson("/api/keys/rl%3Aper-key%3Aalice").getJsonObject("decoded").getJsonArray("limits")
        .getJsonObject(0).getLong("resetInSeconds")).isEqualTo(15);

    overLimit(1);
    JsonObject udp = getJson("/api/keys/udp%3A" + UDP_KEY.replace(" ", "%20").replace("=", "%3D"))
        .getJsonObject("decoded");
    assertThat(udp.getString("kind")).isEqualTo("udp-rate");
    assertThat(udp.getString("key")).isEqualTo(UDP_KEY);
    assertThat(udp.getDouble("rate")).isGreaterThanOrEqualTo(0.0);
    assertThat(udp.getLong("lastSeenMillis"))
        .isEqualTo(TimeUnit.NANOSECONDS.toMillis(sut.clock().epochNanos()));
  }

  /** The server samples every 10 s of its clock: the charts' hour survives a reload; rates are per second of each step. */
  @Test
  void theHistoryKeepsTenSecondSteps() {
    JsonObject first = until(history -> history.getJsonArray("samples").size() >= 1);
    assertThat(first.getInteger("stepSeconds")).isEqualTo(10);
    checks("carol", 6);
    sut.advance(Duration.ofSeconds(10));
    JsonObject history = until(h -> h.getJsonArray("samples").size() >= 2);
    JsonArray samples = history.getJsonArray("samples");
    JsonObject second = samples.getJsonObject(1);
    assertThat(second.getLong("t") - samples.getJsonObject(0).getLong("t")).isEqualTo(10_000);
    JsonObject perKey = second.getJsonObject("policies").getJsonObject("per-key");
    assertThat(perKey.getDouble("allowedPerSecond")).isEqualTo(0.5);
    assertThat(perKey.getDouble("deniedPerSecond")).isEqualTo(0.1);
    // Requests are every kind, here six checks and no Throttr command; allowed and denied are every way's.
    assertThat(second.getDouble("requestsPerSecond")).isEqualTo(0.6);
    assertThat(second.getDouble("checksPerSecond")).isEqualTo(0.6);
    assertThat(second.getDouble("envoyCallsPerSecond")).isZero();
    assertThat(second.getDouble("udpVerdictsPerSecond")).isZero();
    assertThat(second.getDouble("allowedPerSecond")).isEqualTo(0.5);
    assertThat(second.getDouble("deniedPerSecond")).isEqualTo(0.1);
  }

  /** Polls the history (the dashboard's clock ticks every second) until it shows what is awaited. */
  private JsonObject until(Predicate<JsonObject> condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      JsonObject history = getJson("/api/history");
      if (condition.test(history)) {
        return history;
      }
      assertThat(System.nanoTime()).as("history within 20 s: " + history).isLessThan(deadline);
      await(vertx.timer(100));
    }
  }
}
