package io.sluice.verticles.server.grpc;

import io.sluice.verticles.rls.RlsBehaviour;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.xds.XdsSettings;

import java.util.Optional;

/**
 * Envoy's rate limit service: where its gRPC listener is and what it decides with.
 *
 * @param port            the gRPC port (h2c); 0 picks a free one, -1 opens none (POST /json still answers)
 * @param config          the envoyproxy/ratelimit config files, read at startup and watched; with
 *                        {@code xds}, none at first, then what the xDS server pushes
 * @param behaviour       the response headers, the near-limit ratio, the global shadow mode and
 *                        whether counting stops over the limit
 * @param localCacheBytes the bound of the local over-limit cache ({@code --rls-local-cache-bytes},
 *                        envoyproxy/ratelimit's LOCAL_CACHE_SIZE_IN_BYTES); 0 turns it off
 * @param xds             the xDS server the config comes from, or empty for files
 * @param healthyWithConfig whether the service is ready only while its config has a domain
 *                        ({@code --rls-healthy-with-config}, envoyproxy/ratelimit's
 *                        HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED)
 */
public record RlsSettings(String bind, int port, RlsConfigSource config, RlsBehaviour behaviour, long localCacheBytes,
                          Optional<XdsSettings> xds, boolean healthyWithConfig) {

  public RlsSettings {
    if (localCacheBytes < 0) {
      throw new IllegalArgumentException("the local cache's bytes must not be negative, was " + localCacheBytes);
    }
  }

  /** The config from files (or none), without a local over-limit cache. */
  public RlsSettings(String bind, int port, RlsConfigSource config, RlsBehaviour behaviour) {
    this(bind, port, config, behaviour, 0, Optional.empty(), false);
  }

  /** envoyproxy/ratelimit's defaults, with its response headers added to answers or not. */
  public RlsSettings(String bind, int port, RlsConfigSource config, boolean responseHeaders) {
    this(bind, port, config, RlsBehaviour.defaults(responseHeaders));
  }

  /** No gRPC listener and no config: what embedders and tests that do not use it get. */
  public static RlsSettings disabled() {
    return new RlsSettings("127.0.0.1", -1, RlsConfigSource.none(), false);
  }

  public RlsSettings withBehaviour(RlsBehaviour newBehaviour) {
    return new RlsSettings(bind, port, config, newBehaviour, localCacheBytes, xds, healthyWithConfig);
  }

  /** The same behaviour, with the response headers added to answers or not. */
  public RlsSettings withResponseHeaders(boolean add) {
    return withBehaviour(new RlsBehaviour(add, behaviour.limitHeader(), behaviour.remainingHeader(),
        behaviour.resetHeader(), behaviour.nearLimitRatio(), behaviour.globalShadowMode(),
        behaviour.stopIncrementOverLimit(), behaviour.globalQuotaMode(), behaviour.dynamicMetadata()));
  }

  public RlsSettings withLocalCacheBytes(long bytes) {
    return new RlsSettings(bind, port, config, behaviour, bytes, xds, healthyWithConfig);
  }

  /**
   * The config from an xDS server instead of files; the gRPC listener opens once the first
   * version is in force.
   */
  public RlsSettings withXds(XdsSettings xds) {
    return new RlsSettings(bind, port, config, behaviour, localCacheBytes, Optional.of(xds), healthyWithConfig);
  }

  /** Ready only while the config in force has a domain (HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED), or always. */
  public RlsSettings withHealthyWithConfig(boolean healthy) {
    return new RlsSettings(bind, port, config, behaviour, localCacheBytes, xds, healthy);
  }
}
