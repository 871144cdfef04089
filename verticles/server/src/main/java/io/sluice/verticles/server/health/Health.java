package io.sluice.verticles.server.health;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFeature;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;

/**
 * Probes for orchestrators, public like {@code /metrics}: {@code /health} answers while the process
 * serves HTTP (liveness); {@code /ready} answers 200 only when the instance is {@link Readiness ready}
 * (every storage shard answers; no write to the data directory has failed since the last repairing
 * snapshot, for the requests are still answered then but what they change may not survive a
 * restart; no config is missing; not draining).
 * {@code /healthcheck} is that readiness as envoyproxy/ratelimit's probe answers it: 200 {@code OK},
 * or 500 with the reason.
 */
public final class Health implements HttpFeature {

  private final Readiness readiness;
  private final Counter failures;

  /**
   * @param registry where {@code sluice_ready_failures_total} counts the 503s of /ready: the one
   *                 series that tells a failing readiness probe from any other 503 (an alert's)
   */
  public Health(Readiness readiness, MeterRegistry registry) {
    this.readiness = readiness;
    this.failures = Counter.builder("sluice.ready.failures")
        .description("Answers of /ready that were 503: not ready (shards not answering, joining, persistence failing)")
        .register(registry);
  }

  @Override
  public void mount(Router router) {
    Readiness.Probe probe = readiness.probe();
    router.get("/health").handler(new Endpoint(List.of(), null,
        context -> answer(context, 200, new JsonObject().put("status", "UP"))));
    router.get("/ready").handler(new Endpoint(List.of(), null, context -> probe.check().compose(
        ok -> answer(context, 200, new JsonObject().put("status", "READY").put("shards", probe.shards().routes())),
        failure -> notReady(context, failure.getMessage()))));
    // envoyproxy/ratelimit's probe, which Envoy-side tooling expects: "OK" when ready, else 500.
    router.get("/healthcheck").handler(new Endpoint(List.of(), null, context -> probe.check().compose(
        ok -> context.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain").end("OK"),
        failure -> {
          return context.response().setStatusCode(500).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
              .end(failure.getMessage());
        })));
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
