package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.tls.HandshakeFailures;
import io.sluice.verticles.server.listener.Listener;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.List;
import java.util.Set;

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
  private final ListenerGuards guards;
  /** Connections past --max-connections, on this instance's event loop: each request gets 503. */
  private final Set<HttpConnection> refused = new HashSet<>();
  /** The request clock of every admitted connection of this instance. */
  private RequestDeadlines deadlines;
  private Listener listener;

  /**
   * @param features mounted in this order, which is the order routes match in
   * @param guards   TLS, the connection limit and the idle timeout this port shares with the others
   */
  public HttpFrontVerticle(String host, int port, int maxMessageBytes, List<HttpFeature> features,
                           ListenerGuards guards) {
    this.host = host;
    this.port = port;
    this.maxMessageBytes = maxMessageBytes;
    this.features = List.copyOf(features);
    this.guards = guards;
  }

  @Override
  public Future<?> start() {
    DirectRoutes direct = new DirectRoutes();
    features.forEach(feature -> feature.mountDirect(direct));
    Router router = Router.router(vertx);
    features.forEach(feature -> feature.mount(router));
    // What no feature took (the page's static files included) is a JSON 404, never an HTML page.
    router.route().handler(context -> Endpoint.send(context.response(), new ApiError(404,
        "no such path: " + context.request().path() + " (see README.md: /api, /v1, /ws, /metrics, /health, /ready)",
        null)));
    Defences defences = guards.defences();
    deadlines = new RequestDeadlines(vertx, defences.httpRequestTimeout(), new LogLimiter(guards.clock(), 1_000_000_000L));
    HttpServerOptions options = serverOptions(guards, maxMessageBytes);
    HandshakeFailures handshakeFailures = new HandshakeFailures("HTTP", guards.clock());
    HttpServer server = vertx.createHttpServer(options)
        .exceptionHandler(handshakeFailures::failed)
        .connectionHandler(this::accept)
        .requestHandler(request -> {
          // Hashing a connection is not free (2 % of the check API's CPU): none to look for, no lookup.
          if (!refused.isEmpty() && refused.contains(request.connection())) {
            refuse(request);
            return;
          }
          RequestDeadline deadline = deadlines.of(request.connection());
          if (deadline != null) {
            deadline.began(request);
          }
          if (moreLinesThan(request.headers(), defences.httpMaxHeaders())) {
            refuseHeaders(request, defences.httpMaxHeaders());
          } else if (!direct.handle(request)) {
            router.handle(request);
          }
        });
    listener = Listener.bind(server, guards, host, port);
    return listener.bound();
  }

  /**
   * The options of the HTTP port's server; public so that the benchmarks' do-nothing server (the
   * floor the check API is measured against) runs on exactly the same ones.
   */
  public static HttpServerOptions serverOptions(ListenerGuards guards, int maxMessageBytes) {
    Defences defences = guards.defences();
    return guards.configure(new HttpServerOptions()
        .setTcpNoDelay(true)
        // HTTP/1.1 only without TLS: to tell h2c from HTTP/1 Vert.x waits for the first bytes before
        // it makes the connection, and the request clock must start at the accept.
        .setHttp2ClearTextEnabled(false)
        .setMaxHeaderSize(defences.httpMaxHeaderBytes())
        .setMaxWebSocketFrameSize(maxMessageBytes)
        .setMaxWebSocketMessageSize(maxMessageBytes));
  }

  private void accept(HttpConnection connection) {
    if (!guards.gate().admit(((ConnectionBase) connection).channel(), "HTTP", connection.remoteAddress())) {
      refused.add(connection);
      connection.closeHandler(v -> refused.remove(connection));
      return;
    }
    deadlines.opened(connection);
    connection.closeHandler(v -> deadlines.closed(connection));
  }

  /**
   * Whether the request has more header lines than {@code max}. Counted by walking them: a headers
   * map's size() counts distinct names, through a sorted set of them made per call (3 % of the check
   * API's CPU), and a name repeated on many lines is still many lines.
   */
  static boolean moreLinesThan(MultiMap headers, int max) {
    int lines = 0;
    for (Iterator<Map.Entry<String, String>> line = headers.iterator(); line.hasNext(); line.next()) {
      if (++lines > max) {
        return true;
      }
    }
    return false;
  }

  /** More header lines than --http-max-headers: 431, then the close. */
  private static void refuseHeaders(HttpServerRequest request, int max) {
    request.response().setStatusCode(431)
        .putHeader(HttpHeaders.CONNECTION, "close")
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end("{\"error\":\"more than " + max + " header lines (--http-max-headers)\"}")
        .onComplete(done -> request.connection().close());
  }

  /** A connection one too many: every request on it, WebSocket upgrades included, gets 503, then the close. */
  private static void refuse(HttpServerRequest request) {
    request.response().setStatusCode(503)
        .putHeader(HttpHeaders.CONNECTION, "close")
        .putHeader(HttpHeaders.RETRY_AFTER, "1")
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end("{\"error\":\"too many connections are open (--max-connections)\"}")
        .onComplete(done -> request.connection().close());
  }

  /**
   * Stops accepting; requests in progress are answered, then their connections closed, and
   * WebSockets are closed (1001); whatever is still open after {@code timeout} is closed.
   */
  public Future<Void> shutdown(java.time.Duration timeout) {
    return listener.shutdown(timeout);
  }

  public int actualPort() {
    return listener.port();
  }

  @Override
  public Future<?> stop() {
    deadlines.stop();
    return listener.close();
  }
}
