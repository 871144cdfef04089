package io.sluice.verticles.server.metrics;

import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.util.List;
import io.sluice.verticles.server.settings.OperatorSettings;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import static io.sluice.verticles.server.kit.Scrapes.line;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** /metrics serves Sluice's series in the Prometheus text format, with figures that follow the traffic. */
class MetricsEndpointTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withPolicies(Policies.of(
      new Policy("one-per-minute", new FixedWindow(WindowPolicy.of(new Quota("default", 1, Duration.ofMinutes(1))))))));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void sluiceSeriesFollowTheTraffic() {
    Conversation client = await(TcpConversation.open(vertx, sut.tcpPort()));
    await(client.send(new byte[] {0x01, 0x0a, 0x00, 0x04, 0x3c, 0x00, 0x03, 'a', 'b', 'c'}));
    assertThat(await(client.receive(1))).containsExactly(1);

    String scrape = scrape();
    assertThat(scrape).contains("# TYPE sluice_requests_total counter");
    assertThat(line(scrape, "sluice_requests_total{command=\"insert\",protocol=\"tcp\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_requests_total{command=\"insert\",protocol=\"websocket\"}")).endsWith(" 0.0");
    assertThat(line(scrape, "sluice_connections ")).endsWith(" 1.0");
    assertThat(scrape).contains("sluice_keys{shard=\"0\"}", "sluice_keys{shard=\"1\"}",
        "sluice_expired_records_reclaimed_total{shard=\"0\"}", "sluice_pushes_dropped_total",
        "sluice_channel_subscriptions", "sluice_channels", "sluice_udp_replies_dropped_total 0.0");
    long keys = Arrays.stream(scrape.split("\n"))
        .filter(l -> l.startsWith("sluice_keys{"))
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
    assertThat(keys).isEqualTo(1);
  }

  @Test
  void requestsOfEveryProtocolAndCheckDecisionsByPolicy() throws Exception {
    try (DatagramSocket udp = new DatagramSocket()) {
      byte[] ping = "ping".getBytes(StandardCharsets.US_ASCII);
      udp.send(new DatagramPacket(ping, ping.length, InetAddress.getLoopbackAddress(), sut.udpPort()));
      DatagramPacket pong = new DatagramPacket(new byte[64], 64);
      udp.setSoTimeout(10_000);
      udp.receive(pong);
    }
    try (HttpCalls http = new HttpCalls(vertx, sut.httpPort())) {
      String check = "{\"policy\":\"one-per-minute\",\"key\":\"k\"}";
      assertThat(http.post("/v1/check", check).status()).isEqualTo(200);
      assertThat(http.post("/v1/check", check).status()).isEqualTo(429);
      assertThat(http.get("/api/keys").status()).isEqualTo(200);
    }

    String scrape = scrape();
    assertThat(line(scrape, "sluice_requests_total{command=\"ping\",protocol=\"udp\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_requests_total{command=\"check\",protocol=\"http\"}")).endsWith(" 2.0");
    assertThat(line(scrape, "sluice_check_decisions_total{decision=\"allowed\",policy=\"one-per-minute\"}"))
        .endsWith(" 1.0");
    assertThat(line(scrape, "sluice_check_decisions_total{decision=\"denied\",policy=\"one-per-minute\"}"))
        .endsWith(" 1.0");
    assertThat(scrape).as("internal series are off unless asked for").doesNotContain("sluice_shard_parcel_batches");
  }

  /**
   * The histograms of time spent inside the server, per protocol and per check API; the decision
   * counts an operator alerts on; the JVM's and the process's series and the build.
   */
  @Test
  void latencyHistogramsDecisionCountsAndStandardSeries() throws Exception {
    Conversation client = await(TcpConversation.open(vertx, sut.tcpPort()));
    await(client.send(new byte[] {0x01, 0x0a, 0x00, 0x04, 0x3c, 0x00, 0x03, 'a', 'b', 'c'}));
    assertThat(await(client.receive(1))).containsExactly(1);
    try (DatagramSocket udp = new DatagramSocket()) {
      byte[] ping = "ping".getBytes(StandardCharsets.US_ASCII);
      udp.send(new DatagramPacket(ping, ping.length, InetAddress.getLoopbackAddress(), sut.udpPort()));
      udp.setSoTimeout(10_000);
      udp.receive(new DatagramPacket(new byte[64], 64));
    }
    try (HttpCalls http = new HttpCalls(vertx, sut.httpPort())) {
      String check = "{\"policy\":\"one-per-minute\",\"key\":\"k\"}";
      assertThat(http.post("/v1/check", check).status()).as("the only unit: 100 %% used").isEqualTo(200);
      assertThat(http.post("/v1/check", check).status()).isEqualTo(429);
      assertThat(http.get("/v1/check/one-per-minute").status()).as("no key").isEqualTo(400);
      assertThat(http.get("/v1/check/nope?key=k").status()).isEqualTo(400);
    }

    String scrape = scrape();
    assertThat(scrape).contains("# TYPE sluice_request_duration_seconds histogram",
        "sluice_request_duration_seconds_bucket{protocol=\"tcp\",le=\"0.001\"}",
        "# TYPE sluice_check_duration_seconds histogram",
        "sluice_check_duration_seconds_bucket{api=\"http\",le=\"1.0\"}");
    assertThat(line(scrape, "sluice_request_duration_seconds_count{protocol=\"tcp\"}")).endsWith(" 1");
    assertThat(line(scrape, "sluice_request_duration_seconds_count{protocol=\"udp\"}")).endsWith(" 1");
    assertThat(line(scrape, "sluice_check_duration_seconds_count{api=\"http\"}")).endsWith(" 4");
    assertThat(line(scrape, "sluice_check_near_limit_total{policy=\"one-per-minute\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_check_denials_total{policy=\"one-per-minute\",quota=\"default\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_check_errors_total{api=\"http\",reason=\"missing_key\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_check_errors_total{api=\"http\",reason=\"unknown_policy\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_build_info{java=\"" + System.getProperty("java.version") + "\",version=\"test\"}"))
        .endsWith(" 1");
    assertThat(scrape).contains("jvm_memory_used_bytes{", "jvm_threads_live_threads", "jvm_classes_loaded_classes",
        "process_cpu_usage", "process_uptime_seconds", "system_cpu_count");
  }

  @Test
  void internalSeriesWhenAskedFor() {
    Vertx own = Vertx.vertx();
    try (SluiceUnderTest internal = new SluiceUnderTest(own,
        SluiceUnderTest.defaults().withOperator(new OperatorSettings(true, List.of())))) {
      try (HttpCalls http = new HttpCalls(own, internal.httpPort())) {
        assertThat(http.get("/api/keys").status()).isEqualTo(200);
        String scrape = http.get("/metrics").body();
        // The keys page asked every shard; shards run on other event loops than the HTTP front.
        assertThat(Double.parseDouble(line(scrape, "sluice_shard_parcel_batches_count").split(" ")[1])).isPositive();
        assertThat(scrape).contains("sluice_shard_parcel_batches_bucket{le=\"1.0\"}");
      }
    } finally {
      await(own.close());
    }
  }

  private String scrape() {
    try (HttpCalls http = new HttpCalls(vertx, sut.httpPort())) {
      HttpCalls.Answer answer = http.get("/metrics");
      assertThat(answer.status()).isEqualTo(200);
      return answer.body();
    }
  }

}
