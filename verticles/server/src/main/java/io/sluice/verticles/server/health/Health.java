package io.sluice.verticles.server.health;

import java.util.Optional;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFeature;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.function.Supplier;

/**
 * Probes for orchestrators, public like {@code /metrics}: {@code /health} answers while the process
 * serves HTTP (liveness); {@code /ready} answers 200 only when every storage shard answers within
 * {@link #READY_TIMEOUT_MILLIS} (readiness: a shard that is gone or stuck makes the instance
 * unready) and no write to the data directory has failed since the last repairing snapshot (the
 * requests are still answered then, but what they change may not survive a restart).
 * {@code /healthcheck} is that readiness as envoyproxy/ratelimit's probe answers it: 200 {@code OK},
 * or 500 with the reason.
 */
public final class Health implements HttpFeature {

  static final long READY_TIMEOUT_MILLIS = 2000;

  private final ShardDirectory directory;
  private final Supplier<Optional<String>> notReady;
  private final Counter failures;

  /**
   * @param notReady why this instance is not ready beyond its shards (a cluster node still joining
   *                 or waiting for its partitions, a failed write to the data directory), or empty
   * @param registry where {@code sluice_ready_failures_total} counts the 503s of /ready: the one
   *                 series that tells a failing readiness probe from any other 503 (an alert's)
   */
  public Health(ShardDirectory directory, Supplier<Optional<String>> notReady, MeterRegistry registry) {
    this.directory = directory;
    this.notReady = notReady;
    this.failures = Counter.builder("sluice.ready.failures")
        .description("Answers of /ready that were 503: not ready (shards not answering, joining, persistence failing)")
        .register(registry);
  }

  @Override
  public void mount(Router router) {
    ShardQueries shards = new ShardQueries(Vertx.currentContext(), directory);
    router.get("/health").handler(new Endpoint(List.of(), null,
        context -> answer(context, 200, new JsonObject().put("status", "UP"))));
    router.get("/ready").handler(new Endpoint(List.of(), null, context -> readiness(context, shards).compose(
        ok -> answer(context, 200, new JsonObject().put("status", "READY").put("shards", shards.routes())),
        failure -> notReady(context, failure.getMessage()))));
    // envoyproxy/ratelimit's probe, which Envoy-side tooling expects: "OK" when ready, else 500.
    router.get("/healthcheck").handler(new Endpoint(List.of(), null, context -> readiness(context, shards).compose(
        ok -> context.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain").end("OK"),
        failure -> {
          return context.response().setStatusCode(500).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
              .end(failure.getMessage());
        })));
  }

  /** Succeeds when this node can serve; fails with the reason otherwise. */
  private Future<Void> readiness(RoutingContext context, ShardQueries shards) {
    Optional<String> waiting = notReady.get();
    if (waiting.isPresent()) {
      return Future.failedFuture(waiting.get());
    }
    Promise<Void> answered = Promise.promise();
    long timeout = context.vertx().setTimer(READY_TIMEOUT_MILLIS, t -> answered.tryFail("no answer within "
        + READY_TIMEOUT_MILLIS + " ms"));
    shards.summaries().onComplete(all -> {
      context.vertx().cancelTimer(timeout);
      if (all.succeeded()) {
        answered.tryComplete();
      } else {
        answered.tryFail(all.cause());
      }
    });
    return answered.future().recover(failure -> Future.failedFuture("storage shards: " + failure.getMessage()));
  }

  private Future<Void> notReady(RoutingContext context, String reason) {
    failures.increment();
    return answer(context, 503, new JsonObject().put("status", "NOT_READY").put("reason", reason));
  }

  private static Future<Void> answer(RoutingContext context, int status, JsonObject body) {
    return context.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON)
        .end(body.toBuffer());
  }
}
