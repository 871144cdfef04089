package io.sluice.verticles.server.settings;

import io.sluice.verticles.server.tls.TlsSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the listeners defend themselves against the network (issue 17): encryption, and bounds on
 * connections and time. Built with {@link #defaults()} and the {@code with…} methods.
 *
 * @param tls            TLS on every TCP listener (Throttr and HTTP/WebSocket); empty for plain text
 * @param maxConnections Throttr, HTTP (WebSockets included) and gRPC connections open at once; more are refused
 * @param idleTimeout    a Throttr or HTTP connection neither read from nor written to for this long is
 *                       closed; zero for never
 * @param httpRequestTimeout from an HTTP connection's opening or its last answer, the time the next
 *                       request's line, headers and body have to arrive
 * @param httpMaxHeaderBytes the request line's and headers' bytes together, at most
 * @param httpMaxHeaders header lines of one request, at most
 * @param protectedMode  without a token or client CA, only loopback clients change state through
 *                       the dashboard API and the WebSocket bridge
 * @param authTokenFile  the HTTP port's token read from this file, and again when it changes (instead
 *                       of {@link io.sluice.verticles.server.http.HttpSettings#authToken()})
 * @param metricsAuth    {@code /metrics} needs the token too (when one is configured)
 */
public record Defences(Optional<TlsSettings> tls, int maxConnections, Duration idleTimeout,
                       Duration httpRequestTimeout, int httpMaxHeaderBytes, int httpMaxHeaders,
                       boolean protectedMode, Optional<Path> authTokenFile, boolean metricsAuth) {

  public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
  public static final Duration DEFAULT_HTTP_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_HTTP_MAX_HEADER_BYTES = 8192;
  public static final int DEFAULT_HTTP_MAX_HEADERS = 100;

  /** Every default of the option table. */
  public static Defences defaults() {
    return new Defences(Optional.empty(), DEFAULT_MAX_CONNECTIONS, Duration.ZERO, DEFAULT_HTTP_REQUEST_TIMEOUT,
        DEFAULT_HTTP_MAX_HEADER_BYTES, DEFAULT_HTTP_MAX_HEADERS, true, Optional.empty(), false);
  }

  public Defences withTls(TlsSettings tls) {
    return new Defences(Optional.of(tls), maxConnections, idleTimeout, httpRequestTimeout, httpMaxHeaderBytes,
        httpMaxHeaders, protectedMode, authTokenFile, metricsAuth);
  }

  public Defences withMaxConnections(int maxConnections) {
    return new Defences(tls, maxConnections, idleTimeout, httpRequestTimeout, httpMaxHeaderBytes, httpMaxHeaders,
        protectedMode, authTokenFile, metricsAuth);
  }

  public Defences withIdleTimeout(Duration idleTimeout) {
    return new Defences(tls, maxConnections, idleTimeout, httpRequestTimeout, httpMaxHeaderBytes, httpMaxHeaders,
        protectedMode, authTokenFile, metricsAuth);
  }

  public Defences withHttpBounds(Duration requestTimeout, int maxHeaderBytes, int maxHeaders) {
    return new Defences(tls, maxConnections, idleTimeout, requestTimeout, maxHeaderBytes, maxHeaders, protectedMode,
        authTokenFile, metricsAuth);
  }

  public Defences withProtectedMode(boolean protectedMode) {
    return new Defences(tls, maxConnections, idleTimeout, httpRequestTimeout, httpMaxHeaderBytes, httpMaxHeaders,
        protectedMode, authTokenFile, metricsAuth);
  }

  public Defences withAuthTokenFile(Path authTokenFile) {
    return new Defences(tls, maxConnections, idleTimeout, httpRequestTimeout, httpMaxHeaderBytes, httpMaxHeaders,
        protectedMode, Optional.of(authTokenFile), metricsAuth);
  }

  public Defences withMetricsAuth(boolean metricsAuth) {
    return new Defences(tls, maxConnections, idleTimeout, httpRequestTimeout, httpMaxHeaderBytes, httpMaxHeaders,
        protectedMode, authTokenFile, metricsAuth);
  }
}
