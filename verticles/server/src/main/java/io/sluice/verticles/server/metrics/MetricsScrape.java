package io.sluice.verticles.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code /metrics}: the Prometheus text, rendered on a worker thread. Rendering reads every series
 * and grows with their number; on the event loop that took the request it would hold up every
 * connection of that loop meanwhile. Scrapes that arrive while one renders are answered with its
 * text, so however many clients scrape at once, one worker renders.
 */
public final class MetricsScrape {

  /** What Prometheus's text format 0.0.4 is served as (as vertx-micrometer's scraping handler does). */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Vertx vertx;
  private final PrometheusMeterRegistry registry;
  private final AtomicReference<Future<Buffer>> rendering = new AtomicReference<>();

  public MetricsScrape(Vertx vertx, PrometheusMeterRegistry registry) {
    this.vertx = vertx;
    this.registry = registry;
  }

  /** Answers one scrape, on the calling event loop once the text is ready. */
  public Future<Void> serve(RoutingContext context) {
    Context loop = vertx.getOrCreateContext();
    Promise<Void> answered = Promise.promise();
    rendered().onComplete(text -> loop.runOnContext(v -> {
      if (text.failed()) {
        answered.fail(text.cause());
        return;
      }
      context.response().putHeader(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE).end(text.result());
      answered.complete();
    }));
    return answered.future();
  }

  /** The rendering under way, or a new one. */
  private Future<Buffer> rendered() {
    while (true) {
      Future<Buffer> underWay = rendering.get();
      if (underWay != null) {
        return underWay;
      }
      Promise<Buffer> started = Promise.promise();
      if (rendering.compareAndSet(null, started.future())) {
        vertx.executeBlocking(() -> Buffer.buffer(registry.scrape()), false).onComplete(done -> {
          // Cleared first: a scrape asked for after this text was made gets a newer one.
          rendering.set(null);
          started.handle(done);
        });
        return started.future();
      }
    }
  }
}
