package io.sluice.verticles.server.dashboard;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.ManagedChannel;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.grpc.RlsFixture;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.SluiceUnderTest;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Connections view's HTTP and gRPC callers over real sockets: checks (JSON and nginx's
 * auth_request form) and Envoy's ShouldRateLimit calls from 127.0.0.1 and 127.0.0.2 are listed per
 * protocol and address with their requests, allowed and denied; each is found by its ID; a caller
 * silent for 5 minutes is forgotten.
 */
class CallersApiTest {

  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> clients = new ArrayList<>();
  private SluiceUnderTest sut;
  private HttpCalls dashboard;

  @TempDir
  Path rlsConfig;

  @BeforeEach
  void start() throws Exception {
    Files.writeString(rlsConfig.resolve("edge.yaml"), String.join("\n", "domain: edge", "descriptors:",
        "  - key: api_key", "    rate_limit: {unit: minute, requests_per_unit: 1}", ""));
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withPolicies(Policies.of(new Policy("per-key",
            new FixedWindow(WindowPolicy.of(new Quota("default", 2, Duration.ofMinutes(1)))), KeyExtractor.PARAM, false)))
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.load(rlsConfig), false)));
    dashboard = http("127.0.0.1");
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable client : clients) {
      client.close();
    }
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  private HttpCalls http(String from) {
    HttpCalls calls = new HttpCalls(vertx, sut.httpPort(), from);
    clients.add(calls);
    return calls;
  }

  private ManagedChannel grpc(String from) {
    ManagedChannel channel = RlsFixture.channel(sut.grpcPort(), from);
    clients.add(channel::shutdownNow);
    return channel;
  }

  private static RateLimitResponse.Code envoy(ManagedChannel channel, String key) {
    return RlsFixture.call(channel, RlsFixture.request("edge", RlsFixture.descriptor("api_key", key))).getOverallCode();
  }

  private JsonObject caller(String id) {
    for (Object item : dashboard.getJson("/api/callers").getJsonArray("items")) {
      if (((JsonObject) item).getString("id").equals(id)) {
        return (JsonObject) item;
      }
    }
    return null;
  }

  private void awaitRequests(String id, long requests) {
    Poll.until(id + " with " + requests + " requests", () -> {
      JsonObject caller = caller(id);
      return caller != null && caller.getLong("requests") == requests;
    });
  }

  @Test
  void checkAndGrpcCallersAreListedPerAddressWithTheirVerdicts() {
    HttpCalls one = http("127.0.0.1");
    HttpCalls two = http("127.0.0.2");
    assertThat(one.post("/v1/check", "{\"policy\":\"per-key\",\"key\":\"alice\"}").status()).isEqualTo(200);
    for (int i = 0; i < 3; i++) {
      two.get("/v1/check/per-key?key=bob"); // nginx auth_request's form: 2 allowed, then 429
    }
    assertThat(two.post("/v1/check", "{\"policy\":\"nope\",\"key\":\"bob\"}").status()).isEqualTo(400);
    assertThat(envoy(grpc("127.0.0.1"), "a")).isEqualTo(RateLimitResponse.Code.OK);
    ManagedChannel fromTwo = grpc("127.0.0.2");
    assertThat(envoy(fromTwo, "b")).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(envoy(fromTwo, "b")).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);

    awaitRequests("http:127.0.0.1", 1);
    awaitRequests("http:127.0.0.2", 4);
    awaitRequests("grpc:127.0.0.1", 1);
    awaitRequests("grpc:127.0.0.2", 2);
    JsonObject checks = caller("http:127.0.0.2");
    assertThat(checks.getString("protocol")).isEqualTo("http");
    assertThat(checks.getString("address")).isEqualTo("127.0.0.2");
    assertThat(checks.getLong("allowed")).isEqualTo(2);
    assertThat(checks.getLong("denied")).as("the refused check is neither").isEqualTo(1);
    assertThat(checks.getLong("readBytes")).as("the JSON bodies").isPositive();
    assertThat(checks.getLong("writeBytes")).isPositive();
    assertThat(checks.getLong("lastSeenMillis")).isGreaterThanOrEqualTo(checks.getLong("connectedAtMillis"));
    JsonObject envoy = caller("grpc:127.0.0.2");
    assertThat(envoy.getString("protocol")).isEqualTo("grpc");
    assertThat(envoy.getLong("allowed")).isEqualTo(1);
    assertThat(envoy.getLong("denied")).isEqualTo(1);
    assertThat(envoy.getLong("readBytes")).isPositive();
    assertThat(envoy.getLong("writeBytes")).isPositive();
    assertThat(caller("http:127.0.0.1").getLong("allowed")).isEqualTo(1);

    assertThat(dashboard.getJson("/api/connections/grpc:127.0.0.2")).isEqualTo(envoy);
    assertThat(dashboard.getJson("/api/connections/http:127.0.0.2")).isEqualTo(checks);
    JsonArray items = dashboard.getJson("/api/callers").getJsonArray("items");
    assertThat(items).hasSize(4);
    assertThat(dashboard.getJson("/api/connections").getLong("total")).as("callers are no open connections").isZero();
  }

  @Test
  void aCallerSilentForFiveMinutesIsForgotten() {
    http("127.0.0.2").post("/v1/check", "{\"policy\":\"per-key\",\"key\":\"alice\"}");
    awaitRequests("http:127.0.0.2", 1);
    sut.clock().advance(Duration.ofMinutes(5));
    assertThat(caller("http:127.0.0.2")).isNull();
    assertThat(dashboard.get("/api/connections/http:127.0.0.2").status()).isEqualTo(404);
  }
}
