package io.sluice.verticles.server.grpc;

import io.sluice.verticles.rls.RlsBehaviour;
import io.sluice.verticles.rls.RlsConfigSource;

/**
 * Envoy's rate limit service: where its gRPC listener is and what it decides with.
 *
 * @param port      the gRPC port (h2c); 0 picks a free one, -1 opens none (POST /json still answers)
 * @param config    the envoyproxy/ratelimit config files, read at startup and watched
 * @param behaviour the response headers, the near-limit ratio and the global shadow mode
 */
public record RlsSettings(String bind, int port, RlsConfigSource config, RlsBehaviour behaviour) {

  /** envoyproxy/ratelimit's defaults, with its response headers added to answers or not. */
  public RlsSettings(String bind, int port, RlsConfigSource config, boolean responseHeaders) {
    this(bind, port, config, RlsBehaviour.defaults(responseHeaders));
  }

  /** No gRPC listener and no config: what embedders and tests that do not use it get. */
  public static RlsSettings disabled() {
    return new RlsSettings("127.0.0.1", -1, RlsConfigSource.none(), false);
  }
}
