package io.sluice.verticles.server.grpc;

import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** envoyproxy/ratelimit's {@code GET /healthcheck} and {@code GET /rlconfig}, over HTTP, with a token set. */
class RlsDebugEndpointsTest {

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void healthcheckIsPublicAndRlconfigNeedsTheToken(@TempDir Path directory) throws Exception {
    Files.writeString(directory.resolve("a.yaml"), """
        domain: shop
        descriptors:
          - key: tenant
            value: acme
            descriptors:
              - key: user
                shadow_mode: true
                rate_limit: {unit: second, requests_per_unit: 4}
          - key: health
            rate_limit: {unlimited: true}
        """);
    Files.writeString(directory.resolve("b.yaml"), """
        domain: api
        descriptors:
          - key: client
            quota_mode: true
            rate_limit: {unit: minute, requests_per_unit: 12}
        """);
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withHttp(HttpSettings.defaults().withAuthToken(Optional.of("debug-token")))
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.load(directory), false)));

    RawHttp.Answer health = RawHttp.exchange(sut.httpPort(), "GET", "/healthcheck", null, "Host: 127.0.0.1");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("OK");

    assertThat(RawHttp.exchange(sut.httpPort(), "GET", "/rlconfig", null, "Host: 127.0.0.1").status()).isEqualTo(401);
    RawHttp.Answer dump = RawHttp.exchange(sut.httpPort(), "GET", "/rlconfig", null, "Host: 127.0.0.1",
        "Authorization: Bearer debug-token");
    assertThat(dump.status()).isEqualTo(200);
    assertThat(dump.body()).isEqualTo("""
        api.client: unit=MINUTE requests_per_unit=12, shadow_mode: false, quota_mode: true
        shop.tenant_acme.user: unit=SECOND requests_per_unit=4, shadow_mode: true, quota_mode: false
        shop.health: unit=UNKNOWN requests_per_unit=0, shadow_mode: false, quota_mode: false
        """);
  }
}
