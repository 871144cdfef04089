package io.sluice.verticles.server.grpc;

import io.sluice.verticles.rls.RlsConfigSource;

/**
 * Envoy's rate limit service: where its gRPC listener is and what it decides with.
 *
 * @param port            the gRPC port (h2c); 0 picks a free one, -1 opens none (POST /json still answers)
 * @param config          the envoyproxy/ratelimit config files, read at startup and watched
 * @param responseHeaders add x-ratelimit-limit, -remaining and -reset to answers
 * @param localCacheBytes the bound of the local over-limit cache ({@code --rls-local-cache-bytes},
 *                        envoyproxy/ratelimit's LOCAL_CACHE_SIZE_IN_BYTES); 0 turns it off
 */
public record RlsSettings(String bind, int port, RlsConfigSource config, boolean responseHeaders, long localCacheBytes) {

  public RlsSettings {
    if (localCacheBytes < 0) {
      throw new IllegalArgumentException("the local cache's bytes must not be negative, was " + localCacheBytes);
    }
  }

  /** Without a local over-limit cache. */
  public RlsSettings(String bind, int port, RlsConfigSource config, boolean responseHeaders) {
    this(bind, port, config, responseHeaders, 0);
  }

  public RlsSettings withResponseHeaders(boolean add) {
    return new RlsSettings(bind, port, config, add, localCacheBytes);
  }

  public RlsSettings withLocalCacheBytes(long bytes) {
    return new RlsSettings(bind, port, config, responseHeaders, bytes);
  }

  /** No gRPC listener and no config: what embedders and tests that do not use it get. */
  public static RlsSettings disabled() {
    return new RlsSettings("127.0.0.1", -1, RlsConfigSource.none(), false);
  }
}
