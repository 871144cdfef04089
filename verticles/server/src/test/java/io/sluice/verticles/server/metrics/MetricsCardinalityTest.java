package io.sluice.verticles.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.sluice.verticles.server.kit.Scrapes.line;
import static io.sluice.verticles.server.kit.Scrapes.scrape;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * No label value comes from a client: invented HTTP methods and paths (answered 401, 404, 405 ...)
 * add no series to /metrics, with Vert.x's own series on as the gateway runs them.
 */
class MetricsCardinalityTest {

  private final PrometheusMeterRegistry registry = SluiceMetrics.newRegistry();
  private final Vertx server = Vertx.builder()
      .with(new VertxOptions().setMetricsOptions(SluiceMetrics.vertxOptions()))
      .withMetrics(new VertxMeters(registry))
      .build();
  // The client on its own Vert.x, without metrics: only the server's series are scraped.
  private final Vertx clients = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(server, SluiceUnderTest.defaults()
      .withHttp(HttpSettings.defaults().withAuthToken(Optional.of("secret")))
      .withPolicies(
          Policies.of(new Policy("p", new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofMinutes(1))))))),
      registry);

  @AfterEach
  void stop() {
    sut.close();
    await(server.close());
    await(clients.close());
  }

  @Test
  void inventedMethodsAndPathsAddNoSeries() {
    try (HttpCalls http = new HttpCalls(clients, sut.httpPort())) {
      scrape(http);
      attack(http, 0, 10);
      String before = scrape(http);
      attack(http, 10, 2_000);
      String after = scrape(http);

      assertThat(difference(series(after), series(before))).as("series added by the attack").isEmpty();
      assertThat(after.length()).isLessThan(before.length() + before.length() / 10);
      assertThat(after).contains("method=\"OTHER\"").doesNotContain("XQZ");

      // A fresh, well-behaved client is still served.
      String check = "{\"policy\":\"p\",\"key\":\"k\"}";
      assertThat(http.post("/v1/check", check, "Authorization", "Bearer secret").status()).isEqualTo(200);
      assertThat(line(scrape(http), "sluice_check_decisions_total{decision=\"allowed\",policy=\"p\"}")).endsWith(" 1.0");
    }
  }

  /** Messages on the event bus (here published; in a cluster, every forwarded batch) add no series and cost no meter. */
  @Test
  void theEventBusIsNotMeteredPerMessage() {
    try (HttpCalls http = new HttpCalls(clients, sut.httpPort())) {
      for (int i = 0; i < 10; i++) {
        server.eventBus().publish("metered.nowhere", "message " + i);
      }
      scrape(http);
      assertThat(scrape(http)).contains("vertx_http_server_").doesNotContain("vertx_eventbus_");
    }
  }

  /** Requests {@code from} to {@code to}, each with its own method and path, some with the token, on every front. */
  private static void attack(HttpCalls http, int from, int to) {
    List<Future<HttpCalls.Answer>> answers = new ArrayList<>();
    for (int i = from; i < to; i++) {
      HttpMethod method = HttpMethod.valueOf("XQZ" + Integer.toString(i, 36).toUpperCase() + "TAB");
      String[] paths = {"/v1/check", "/v1/check/" + i, "/api/keys/" + i, "/nowhere/" + i + "?q=" + i, "/metrics"};
      String[] token = i % 2 == 0 ? new String[] {"Authorization", "Bearer secret"} : new String[0];
      answers.add(http.sendAsync(method, paths[i % paths.length], i % 3 == 0 ? "{}" : null, token));
      answers.add(http.sendAsync(HttpMethod.GET, "/invented/" + i, null));
    }
    await(Future.all(answers));
    assertThat(answers).allSatisfy(answer -> assertThat(answer.result().status()).isBetween(200, 499));
  }

  /**
   * The name and labels of each series HTTP requests touch, without its value.
   */
  private static Set<String> series(String scrape) {
    return Arrays.stream(scrape.split("\n"))
        .filter(line -> line.startsWith("vertx_http_") || line.startsWith("sluice_"))
        .map(line -> line.substring(0, line.lastIndexOf(' ')))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> difference(Set<String> a, Set<String> b) {
    Set<String> rest = new TreeSet<>(a);
    rest.removeAll(b);
    return rest;
  }
}
