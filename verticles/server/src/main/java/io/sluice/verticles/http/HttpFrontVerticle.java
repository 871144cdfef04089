package io.sluice.verticles.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The one HTTP port. It owns the server and the router only; each feature mounts the handler it
 * owns under its path (the WebSocket bridge at {@code /ws}), so features stay in their packages.
 * One instance per event loop, sharing the port like the TCP front.
 */
public final class HttpFrontVerticle extends VerticleBase {

  private final String host;
  private final int port;
  private final int maxMessageBytes;
  private final Map<String, Supplier<Handler<RoutingContext>>> mounts;
  private HttpServer server;

  /**
   * @param mounts path → a factory of the handler serving it (one handler per verticle instance,
   *               so per-connection state stays on that instance's event loop)
   */
  public HttpFrontVerticle(String host, int port, int maxMessageBytes, Map<String, Supplier<Handler<RoutingContext>>> mounts) {
    this.host = host;
    this.port = port;
    this.maxMessageBytes = maxMessageBytes;
    this.mounts = mounts;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    mounts.forEach((path, handler) -> router.route(path).handler(handler.get()));
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
