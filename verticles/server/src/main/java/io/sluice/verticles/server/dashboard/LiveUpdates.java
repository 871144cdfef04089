package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * GET /api/events: a Server-Sent Events stream of the overview — at once, then each time the
 * {@link DashboardVerticle} publishes one. A browser that does not keep up skips updates (each
 * overview supersedes the last) rather than making the server queue them.
 */
final class LiveUpdates {

  private final ShardQueries shards;
  private final DashboardContext dashboard;
  private final DashboardData data;

  LiveUpdates(ShardQueries shards, DashboardContext dashboard, DashboardData data) {
    this.shards = shards;
    this.dashboard = dashboard;
    this.data = data;
  }

  Future<Void> stream(RoutingContext context) {
    HttpServerResponse response = context.response()
        .setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        // Proxies such as nginx would otherwise hold the events back in their buffers.
        .putHeader("X-Accel-Buffering", "no");
    MessageConsumer<String> updates = context.vertx().eventBus().localConsumer(DashboardVerticle.OVERVIEW_ADDRESS,
        message -> send(response, message.body()));
    response.closeHandler(closed -> updates.unregister());
    return Overview.collect(shards, dashboard.instance(), data, dashboard.persistence())
        .compose(first -> send(response, first.encode()));
  }

  private static Future<Void> send(HttpServerResponse response, String overview) {
    if (response.closed() || response.writeQueueFull()) {
      return Future.succeededFuture();
    }
    return response.write(Buffer.buffer("event: overview\ndata: " + overview + "\n\n"));
  }
}
