package io.sluice.verticles.server.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

import java.util.List;

/**
 * The one HTTP port. It owns the server and the router only; each {@link HttpFeature} mounts the
 * routes it owns (the WebSocket bridge at {@code /ws}, the check API at {@code /v1}, the dashboard
 * at {@code /} and {@code /api}), so features stay in their packages. One instance per event loop,
 * sharing the port like the TCP front.
 */
public final class HttpFrontVerticle extends VerticleBase {

  private final String host;
  private final int port;
  private final int maxMessageBytes;
  private final List<HttpFeature> features;
  private HttpServer server;

  /** @param features mounted in this order, which is the order routes match in */
  public HttpFrontVerticle(String host, int port, int maxMessageBytes, List<HttpFeature> features) {
    this.host = host;
    this.port = port;
    this.maxMessageBytes = maxMessageBytes;
    this.features = List.copyOf(features);
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    features.forEach(feature -> feature.mount(router));
    // What no feature took (the page's static files included) is a JSON 404, never an HTML page.
    router.route().handler(context -> Endpoint.send(context.response(), new ApiError(404,
        "no such path: " + context.request().path() + " (see README.md: /api, /v1, /ws, /metrics, /health, /ready)",
        null)));
    server = vertx.createHttpServer(new HttpServerOptions()
            .setTcpNoDelay(true)
            .setMaxWebSocketFrameSize(maxMessageBytes)
            .setMaxWebSocketMessageSize(maxMessageBytes))
        .requestHandler(router);
    return server.listen(port, host);
  }

  public int actualPort() {
    return server.actualPort();
  }

  @Override
  public Future<?> stop() {
    return server.close();
  }
}
