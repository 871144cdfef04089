package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.dispatch.ShardFailure;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an endpoint answers what its work failed with, over the HTTP port: a {@link ShardFailure}
 * (work that threw on a shard, which has logged it) is a 500 naming the shard, not logged again;
 * any other failure is a 500 and one ERROR line.
 */
class HttpEndpointFailuresTest {

  private final Vertx vertx = Vertx.vertx();
  private HttpCalls http;

  @BeforeEach
  void start() {
    HttpFeature failing = router -> {
      router.route("/on-shard").handler(new Endpoint(List.of(HttpMethod.GET), null,
          context -> Future.failedFuture(new ShardFailure(2, new IllegalStateException("boom")))));
      router.route("/elsewhere").handler(new Endpoint(List.of(HttpMethod.GET), null,
          context -> Future.failedFuture(new IllegalStateException("bust"))));
    };
    HttpFrontVerticle front = new HttpFrontVerticle("127.0.0.1", 0, 65_536, List.of(failing), ListenerGuards.none(new ManualClock()));
    await(vertx.deployVerticle(front));
    http = new HttpCalls(vertx, front.actualPort());
  }

  @AfterEach
  void stop() {
    http.close();
    await(vertx.close());
  }

  @Test
  void aFailureOnAShardIsAnInternalErrorNamingTheShardLoggedByTheShardOnly() {
    try (LogCapture log = new LogCapture(Endpoint.class.getName())) {
      Answer answer = http.get("/on-shard");

      assertThat(answer.status()).isEqualTo(500);
      assertThat(answer.json().getString("error")).isEqualTo("internal error on shard 2: java.lang.IllegalStateException: boom");
      assertThat(log.aboveDebug()).isEmpty();
    }
  }

  @Test
  void anyOtherFailureIsAnInternalErrorLoggedOnce() {
    try (LogCapture log = new LogCapture(Endpoint.class.getName())) {
      Answer answer = http.get("/elsewhere");

      assertThat(answer.status()).isEqualTo(500);
      assertThat(answer.json().getString("error")).isEqualTo("internal error: java.lang.IllegalStateException: bust");
      assertThat(log.aboveDebug()).singleElement().satisfies(line -> assertThat(line.getMessage()).contains("/elsewhere"));
    }
  }
}
