package io.sluice.gateway.config;

import io.sluice.verticles.server.wsauth.AnonymousMode;
import io.sluice.verticles.server.wsauth.ChannelPattern;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.strategies.policy.Policies;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.List;
import io.sluice.verticles.server.settings.OperatorSettings;

/**
 * The effective gateway configuration: every option resolved from its sources, validated and
 * typed. Immutable. Built by {@link ConfigLoader}; remembers where each value came from so that
 * {@link #describe()} can answer "why is the port 9000?" at startup.
 *
 * <p>Not a record on purpose: a record's generated {@code toString} would print the auth token.
 */
public final class SluiceConfig {

  /** A resolved value and a human-readable account of its source. */
  record Setting(Object value, String origin) {
  }

  /** Keyed by option; only options that are settings (not {@code --help}/{@code --version}). */
  private final Map<Option<?>, Setting> settings;
  private final Policies policies;

  SluiceConfig(Map<Option<?>, Setting> settings, Policies policies) {
    this.settings = Map.copyOf(settings);
    this.policies = policies;
  }

  /** The HTTP check API's policies, from the {@code policies:} section of the config file. */
  public Policies policies() {
    return policies;
  }

  public String bind() {
    return value(Options.BIND);
  }

  public int tcpPort() {
    return value(Options.TCP_PORT);
  }

  public int udpPort() {
    return value(Options.UDP_PORT);
  }

  public int httpPort() {
    return value(Options.HTTP_PORT);
  }

  public ValueSize valueSize() {
    return value(Options.VALUE_SIZE);
  }

  public int shards() {
    return value(Options.SHARDS);
  }

  public int eventLoops() {
    return value(Options.EVENT_LOOPS);
  }

  public int maxFrame() {
    return value(Options.MAX_FRAME);
  }

  public int maxPendingBytes() {
    return value(Options.MAX_PENDING_BYTES);
  }

  public long maxPartialBytes() {
    return value(Options.MAX_PARTIAL_BYTES);
  }

  public long sweepIntervalMillis() {
    return value(Options.SWEEP_INTERVAL_MILLIS);
  }

  /** Records all shards together may hold; {@link Long#MAX_VALUE} when unset (unlimited). */
  public long maxKeys() {
    Long maxKeys = value(Options.MAX_KEYS);
    return maxKeys == null ? Long.MAX_VALUE : maxKeys;
  }

  public long maxMemory() {
    return value(Options.MAX_MEMORY);
  }

  public io.sluice.verticles.engine.storage.Eviction eviction() {
    return value(Options.EVICTION);
  }

  /** Empty when no token is configured, i.e. clients need not authenticate. */
  /** The UDP rule table file, when one is configured. */
  public Optional<Path> rulesFile() {
    return Optional.ofNullable(value(Options.RULES));
  }

  public int grpcPort() {
    return value(Options.GRPC_PORT);
  }

  /** envoyproxy/ratelimit's config file or directory, when one is configured. */
  public Optional<Path> rlsConfig() {
    return Optional.ofNullable(value(Options.RLS_CONFIG));
  }

  /** The xDS server the rate limit config comes from, or empty for files. */
  public Optional<java.net.InetSocketAddress> rlsXdsServer() {
    return Optional.ofNullable(value(Options.RLS_XDS_SERVER));
  }

  public String rlsXdsNodeId() {
    return value(Options.RLS_XDS_NODE_ID);
  }

  public boolean rlsResponseHeaders() {
    return value(Options.RLS_RESPONSE_HEADERS);
  }

  /** How the rate limit service answers: its headers, near-limit ratio, global modes and dynamic metadata. */
  public io.sluice.verticles.rls.RlsBehaviour rlsBehaviour() {
    return new io.sluice.verticles.rls.RlsBehaviour(rlsResponseHeaders(), value(RlsOptions.LIMIT_HEADER),
        value(RlsOptions.REMAINING_HEADER), value(RlsOptions.RESET_HEADER), value(RlsOptions.NEAR_LIMIT_RATIO).floatValue(),
        value(RlsOptions.SHADOW_MODE), value(RlsOptions.STOP_INCREMENT_OVER_LIMIT), value(RlsOptions.QUOTA_MODE),
        value(RlsOptions.RESPONSE_DYNAMIC_METADATA));
  }

  /** Whether several --rls-config files may define one domain (MERGE_DOMAIN_CONFIG). */
  public boolean rlsMergeDomains() {
    return value(RlsOptions.MERGE_DOMAINS);
  }

  /** Whether the rate limit service is ready only while its config has a domain (HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED). */
  public boolean rlsHealthyWithConfig() {
    return value(RlsOptions.HEALTHY_WITH_CONFIG);
  }

  /** The bound of the rate limit service's local over-limit cache; 0: none. */
  public long rlsLocalCacheBytes() {
    return value(Options.RLS_LOCAL_CACHE_BYTES);
  }

  /** Where spans are sent; empty: tracing is off. */
  public Optional<java.net.URI> otelEndpoint() {
    return Optional.ofNullable(value(Options.OTEL_ENDPOINT));
  }

  public String otelServiceName() {
    return value(Options.OTEL_SERVICE_NAME);
  }

  public double otelSampleRatio() {
    return value(Options.OTEL_SAMPLE_RATIO);
  }

  public java.util.List<String> allowedOrigins() {
    return value(Options.ALLOWED_ORIGINS);
  }

  public java.util.List<String> allowedHosts() {
    return value(Options.ALLOWED_HOSTS);
  }

  public Optional<String> authToken() {
    return Optional.ofNullable(value(Options.AUTH_TOKEN));
  }

  /** {@code error}, {@code warn}, {@code info}, {@code debug} or {@code trace}. */
  public String logLevel() {
    return value(Options.LOG_LEVEL);
  }

  /** {@code text} or {@code json}. */
  public String logFormat() {
    return value(Options.LOG_FORMAT);
  }

  public boolean cluster() {
    return value(ClusterOptions.CLUSTER);
  }

  /** The cluster member's address: {@code --cluster-host}, or the {@code --bind} address. */
  public String clusterHost() {
    String host = value(ClusterOptions.CLUSTER_HOST);
    return host != null ? host : bind();
  }

  public int clusterPort() {
    return value(ClusterOptions.CLUSTER_PORT);
  }

  public java.util.List<String> clusterMembers() {
    return value(ClusterOptions.CLUSTER_MEMBERS);
  }

  public String clusterName() {
    return value(ClusterOptions.CLUSTER_NAME);
  }

  public int backups() {
    return value(ClusterOptions.BACKUPS);
  }

  public Optional<Path> clusterConfig() {
    return Optional.ofNullable(value(ClusterOptions.CLUSTER_CONFIG));
  }

  /** --cluster-tls-cert, --cluster-tls-key and --cluster-tls-ca, set together or not at all. */
  public Optional<Path> clusterTlsCertificate() {
    return Optional.ofNullable(value(ClusterOptions.CLUSTER_TLS_CERT));
  }

  public Optional<Path> clusterTlsKey() {
    return Optional.ofNullable(value(ClusterOptions.CLUSTER_TLS_KEY));
  }

  public Optional<Path> clusterTlsCa() {
    return Optional.ofNullable(value(ClusterOptions.CLUSTER_TLS_CA));
  }

  public Optional<Path> clusterSecretFile() {
    return Optional.ofNullable(value(ClusterOptions.CLUSTER_SECRET_FILE));
  }

  /** TLS for the TCP listeners, when --tls-cert and --tls-key are set. */
  public Optional<Path> tlsCertificate() {
    return Optional.ofNullable(value(Options.TLS_CERT));
  }

  public Optional<Path> tlsKey() {
    return Optional.ofNullable(value(Options.TLS_KEY));
  }

  public Optional<Path> tlsClientCa() {
    return Optional.ofNullable(value(Options.TLS_CLIENT_CA));
  }

  /** {@code auto}, {@code openssl} or {@code jdk}. */
  public String tlsEngine() {
    return value(Options.TLS_ENGINE);
  }

  public int maxConnections() {
    return value(Options.MAX_CONNECTIONS);
  }

  /** Zero when connections may idle for ever. */
  public java.time.Duration idleTimeout() {
    return value(Options.IDLE_TIMEOUT);
  }

  public java.time.Duration httpRequestTimeout() {
    return value(Options.HTTP_REQUEST_TIMEOUT);
  }

  public int httpMaxHeaderBytes() {
    return value(Options.HTTP_MAX_HEADER_BYTES);
  }

  public int httpMaxHeaders() {
    return value(Options.HTTP_MAX_HEADERS);
  }

  /** {@code --protected-mode yes}. */
  public boolean protectedMode() {
    return value(Options.PROTECTED_MODE).equals("yes");
  }

  /** Users' tokens, anonymous clients and public channels on the WebSocket bridge. */
  public WebSocketAccessSettings webSocketAccess() {
    return WebSocketAccessSettings.defaults()
        .withJwtSecretFile(Optional.ofNullable(value(WebSocketOptions.WS_JWT_SECRET_FILE)))
        .withJwtPublicKeys(value(WebSocketOptions.WS_JWT_PUBLIC_KEY))
        .withJwksFile(Optional.ofNullable(value(WebSocketOptions.WS_JWT_JWKS_FILE)))
        .withAudience(Optional.ofNullable(value(WebSocketOptions.WS_JWT_AUDIENCE)))
        .withIssuer(Optional.ofNullable(value(WebSocketOptions.WS_JWT_ISSUER)))
        .withAnonymous(Optional.ofNullable(value(WebSocketOptions.WS_ANONYMOUS)).map(AnonymousMode::parse))
        .withPublicChannels(value(WebSocketOptions.WS_PUBLIC_CHANNELS).stream().map(ChannelPattern::parse).toList())
        .withPublishPolicy(Optional.ofNullable(value(WebSocketOptions.WS_PUBLISH_RATE)));
  }

  /** The file the HTTP port's token is read from, when it is not given by value. */
  public Optional<Path> authTokenFile() {
    return Optional.ofNullable(value(Options.AUTH_TOKEN_FILE));
  }

  /** {@code --metrics-auth yes}: /metrics needs the token too. */
  public boolean metricsAuth() {
    return value(Options.METRICS_AUTH).equals("yes");
  }

  /** Where the Throttr listener binds: {@code --tcp-bind}, else {@code --bind}. */
  public String tcpBind() {
    return Optional.<String>ofNullable(value(Options.TCP_BIND)).orElse(bind());
  }

  /** Where the HTTP listener binds: {@code --http-bind}, else {@code --bind}. */
  public String httpBind() {
    return Optional.<String>ofNullable(value(Options.HTTP_BIND)).orElse(bind());
  }

  /** Where the UDP listener binds: {@code --udp-bind}, else {@code --bind}. */
  public String udpBind() {
    return Optional.<String>ofNullable(value(Options.UDP_BIND)).orElse(bind());
  }

  public int udpMaxStatsKeys() {
    return value(Options.UDP_MAX_STATS_KEYS);
  }

  public int maxSubscriptions() {
    return value(WebSocketOptions.MAX_SUBSCRIPTIONS);
  }

  public int channelHistory() {
    return value(WebSocketOptions.CHANNEL_HISTORY);
  }

  public java.time.Duration channelHistoryTtl() {
    return value(WebSocketOptions.CHANNEL_HISTORY_TTL);
  }

  public java.time.Duration shutdownTimeout() {
    return value(Options.SHUTDOWN_TIMEOUT);
  }

  /** Where the shards persist; empty: in memory only. */
  public Optional<Path> dataDir() {
    return Optional.ofNullable(value(Options.DATA_DIR));
  }

  public FsyncPolicy fsync() {
    return value(Options.FSYNC);
  }

  public java.time.Duration snapshotInterval() {
    return value(Options.SNAPSHOT_INTERVAL);
  }

  public boolean dataRecover() {
    return value(Options.DATA_RECOVER);
  }

  /** What the shards' writers together may hold in memory for the disk. */
  public long persistenceQueueBytes() {
    return value(Options.PERSISTENCE_QUEUE_BYTES);
  }

  /** The YAML file that was read, if any. */
  public Optional<Path> configFile() {
    return Optional.ofNullable(value(Options.CONFIG));
  }

  /**
   * The settings whose value in {@code newer} differs from this one, except those a reload applies
   * (the rules file, the config file's location), as {@code --tcp-port (9000 -> 9100)}; secrets
   * show only that they changed. For the reload's log: these keep their values until a restart.
   */
  public java.util.List<String> changedSettings(SluiceConfig newer) {
    return ConfigDisplay.changes(this, newer);
  }

  /**
   * Where an option's value came from: {@code default}, {@code command line},
   * {@code environment variable SLUICE_…} or {@code config file PATH:LINE}.
   */
  public String origin(Option<?> option) {
    Setting setting = settings.get(option);
    if (setting == null) {
      throw new IllegalArgumentException(option.flag() + " is not a setting");
    }
    return setting.origin();
  }

  public boolean internalMetrics() {
    return value(Options.INTERNAL_METRICS);
  }

  /**
   * Every setting as it is in effect, in table order, secrets masked: what the admin endpoint
   * {@code GET /api/admin/config} shows, like Envoy's {@code /config_dump}.
   */
  public List<OperatorSettings.ConfigEntry> effective() {
    return ConfigDisplay.entries(this);
  }

  /**
   * One line per option, {@code flag = value (origin)}, in table order, secrets masked: meant for
   * the startup log.
   */
  public String describe() {
    return ConfigDisplay.lines(this);
  }

  @Override
  public String toString() {
    return ConfigDisplay.fields(this);
  }

  /** Whether {@code option} is one of this configuration's settings (not an action such as --help). */
  boolean isSetting(Option<?> option) {
    return settings.containsKey(option);
  }

  /** Safe because the loader stores, for each option, the output of that option's own parser. */
  @SuppressWarnings("unchecked")
  <T> T value(Option<T> option) {
    Setting setting = settings.get(option);
    if (setting == null) {
      throw new IllegalArgumentException(option.flag() + " is not a setting");
    }
    return (T) setting.value();
  }
}
