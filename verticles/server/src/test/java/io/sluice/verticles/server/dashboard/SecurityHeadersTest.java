package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard's API comes with CSP, X-Frame-Options and nosniff, as its page does. */
class SecurityHeadersTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void theApiForbidsFramingAndSniffing() throws Exception {
    // The page itself (the webui module is not on this module's classpath): GatewayTest.
    for (String path : new String[] {"/api/overview", "/api/nothing-here"}) {
      String head = RawHttp.exchange(sut.httpPort(), "GET", path, null, "Host: 127.0.0.1").head();
      assertThat(head).as(path)
          .containsIgnoringCase("Content-Security-Policy: " + SecurityHeaders.POLICY)
          .containsIgnoringCase("X-Frame-Options: DENY")
          .containsIgnoringCase("X-Content-Type-Options: nosniff");
    }
  }
}
