package io.sluice.verticles.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static io.sluice.verticles.server.kit.Scrapes.line;
import static io.sluice.verticles.server.kit.Scrapes.scrape;
import static io.sluice.verticles.server.kit.Scrapes.value;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vert.x's HTTP server series as {@link HttpServerMeters} keeps them, over a real socket: per code
 * and method, with the response-time buckets dashboards draw percentiles from.
 */
class HttpServerMetersTest {

  private static final String CHECK = "{\"policy\":\"p\",\"key\":\"k\"}";

  private final PrometheusMeterRegistry registry = SluiceMetrics.newRegistry();
  private final Vertx server = Vertx.builder()
      .with(new VertxOptions().setMetricsOptions(SluiceMetrics.vertxOptions()))
      .withMetrics(new VertxMeters(registry))
      .build();
  private final Vertx clients = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(server, SluiceUnderTest.defaults().withPolicies(
      Policies.of(new Policy("p", new FixedWindow(WindowPolicy.of(new Quota("default", 2, Duration.ofMinutes(1))))))),
      registry);

  @AfterEach
  void stop() {
    sut.close();
    await(server.close());
    await(clients.close());
  }

  @Test
  void requestsAreCountedAndTimedByCodeAndMethod() {
    try (HttpCalls http = new HttpCalls(clients, sut.httpPort())) {
      for (int i = 0; i < 3; i++) { // allowed, allowed, denied
        http.post("/v1/check", CHECK);
      }
      http.send(HttpMethod.valueOf("BREW"), "/v1/check", null);
      String scrape = scrape(http);

      assertThat(value(scrape, "vertx_http_server_requests_total{code=\"200\",method=\"POST\"}")).isEqualTo(2);
      assertThat(value(scrape, "vertx_http_server_requests_total{code=\"429\",method=\"POST\"}")).isEqualTo(1);
      assertThat(value(scrape, "vertx_http_server_requests_total{code=\"405\",method=\"OTHER\"}")).isEqualTo(1);
      assertThat(value(scrape, "vertx_http_server_response_time_seconds_count{code=\"200\",method=\"POST\"}")).isEqualTo(2);
      assertThat(line(scrape, "vertx_http_server_response_time_seconds_bucket{code=\"200\",method=\"POST\",le=\"0.001\"}"))
          .isNotNull();
      assertThat(value(scrape, "vertx_http_server_response_time_seconds_bucket{code=\"200\",method=\"POST\",le=\"2.5\"}"))
          .isEqualTo(2);
      assertThat(value(scrape, "vertx_http_server_request_bytes_count{method=\"POST\"}")).isEqualTo(3);
      assertThat(value(scrape, "vertx_http_server_request_bytes_sum{method=\"POST\"}"))
          .isEqualTo(3 * CHECK.getBytes(StandardCharsets.UTF_8).length);
      assertThat(value(scrape, "vertx_http_server_response_bytes_count{code=\"429\",method=\"POST\"}")).isEqualTo(1);
      assertThat(value(scrape, "vertx_http_server_response_bytes_sum{code=\"429\",method=\"POST\"}")).isPositive();
      assertThat(value(scrape, "vertx_http_server_bytes_read_total")).isPositive();
      assertThat(value(scrape, "vertx_http_server_bytes_written_total")).isPositive();
      // In-flight gauges are left out, as Vert.x's would be registered again per request.
      assertThat(scrape).doesNotContain("vertx_http_server_active_requests").doesNotContain("BREW");
    }
  }
}
