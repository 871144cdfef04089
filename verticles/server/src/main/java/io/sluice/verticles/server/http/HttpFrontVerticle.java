package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.tls.HandshakeFailures;
import io.sluice.verticles.server.tls.TlsReloads;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

import java.util.List;
import java.util.Optional;

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
  private final Optional<TlsReloads> tls;
  private final Clock clock;
  private HttpServer server;
  private TlsReloads.Updater tlsUpdater;

  /**
   * @param features mounted in this order, which is the order routes match in
   * @param tls      when present, the port speaks HTTPS and WSS only, its certificate reloaded through it
   */
  public HttpFrontVerticle(String host, int port, int maxMessageBytes, List<HttpFeature> features,
                           Optional<TlsReloads> tls, Clock clock) {
    this.host = host;
    this.port = port;
    this.maxMessageBytes = maxMessageBytes;
    this.features = List.copyOf(features);
    this.tls = tls;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    features.forEach(feature -> feature.mount(router));
    HttpServerOptions options = new HttpServerOptions()
        .setTcpNoDelay(true)
        .setMaxWebSocketFrameSize(maxMessageBytes)
        .setMaxWebSocketMessageSize(maxMessageBytes);
    tls.ifPresent(reloads -> reloads.settings().configure(options));
    HandshakeFailures handshakeFailures = new HandshakeFailures("HTTP", clock);
    server = vertx.createHttpServer(options)
        .exceptionHandler(handshakeFailures::failed)
        .requestHandler(router);
    tlsUpdater = server::updateSSLOptions;
    tls.ifPresent(reloads -> reloads.register(tlsUpdater));
    return server.listen(port, host);
  }

  public int actualPort() {
    return server.actualPort();
  }

  @Override
  public Future<?> stop() {
    tls.ifPresent(reloads -> reloads.unregister(tlsUpdater));
    return server.close();
  }
}
