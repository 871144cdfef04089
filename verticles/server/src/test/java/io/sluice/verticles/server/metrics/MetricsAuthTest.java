package io.sluice.verticles.server.metrics;

import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code --metrics-auth yes}: scrapers present the token like every other client. */
class MetricsAuthTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
      .withHttp(HttpSettings.defaults().withAuthToken(Optional.of("scrape-token")))
      .withDefences(Defences.defaults().withMetricsAuth(true)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void metricsNeedTheToken() throws Exception {
    assertThat(RawHttp.exchange(sut.httpPort(), "GET", "/metrics", null, "Host: 127.0.0.1").status()).isEqualTo(401);
    RawHttp.Answer scrape = RawHttp.exchange(sut.httpPort(), "GET", "/metrics", null, "Host: 127.0.0.1",
        "Authorization: Bearer scrape-token");
    assertThat(scrape.status()).isEqualTo(200);
    assertThat(scrape.body()).contains("sluice_connections");
    assertThat(RawHttp.exchange(sut.httpPort(), "GET", "/health", null, "Host: 127.0.0.1").status())
        .as("probes stay public").isEqualTo(200);
  }
}
