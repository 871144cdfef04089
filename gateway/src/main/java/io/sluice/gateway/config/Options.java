package io.sluice.gateway.config;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.persist.FsyncPolicy;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The option table: the single definition of every gateway option. Parsing ({@link ConfigLoader}),
 * {@code --help} and the Markdown reference ({@link OptionDocs}) and the effective-configuration
 * dump ({@link SluiceConfig#describe()}) are all driven by {@link #ALL}; a new option is one new
 * row here plus a typed getter on {@link SluiceConfig}.
 *
 * <p><b>YAML key scheme.</b> Keys are dotted paths. The port of each listener lives in a section
 * named after its protocol ({@code tcp.port}, {@code udp.port}, {@code http.port}); settings that
 * concern the whole server are top-level and spelled like their flag ({@code value-size},
 * {@code max-frame}). A file may write a path either nested ({@code tcp:} then {@code port: 9000}
 * indented) or as one dotted key ({@code tcp.port: 9000}); both mean the same setting.
 */
public final class Options {

  /**
   * The largest frame that carries no payload: an INSERT (type, quota, TTL unit, TTL, key length,
   * key) with uint64 fields and a 255-byte key. Accepting smaller limits would let a config make
   * ordinary, bounded requests undecodable; above it the limit only caps SET and PUBLISH payloads.
   */
  public static final int MIN_MAX_FRAME = 1 + ValueSize.UINT64.bytes() + 1 + ValueSize.UINT64.bytes() + 1 + 255;

  /** Beyond this a single frame is a memory hazard rather than a request (16 MiB). */
  public static final int MAX_MAX_FRAME = 16 * 1024 * 1024;

  public static final Option<String> BIND = Option.valued("bind", "HOST", ValueType.host())
      .yaml("bind").environment()
      .defaultValue("127.0.0.1")
      .describedAs("Address the TCP, UDP and HTTP listeners bind to; 0.0.0.0 or :: for all interfaces.");

  public static final Option<Integer> TCP_PORT = Option.valued("tcp-port", "PORT", ValueType.port())
      .yaml("tcp.port").environment()
      .defaultValue(9000)
      .describedAs("Port of the Throttr binary protocol listener; 0 picks a free port.");

  public static final Option<Integer> UDP_PORT = Option.valued("udp-port", "PORT", ValueType.port())
      .yaml("udp.port").environment()
      .defaultValue(9001)
      .describedAs("Port of the UDP text rate-limit protocol (over_limit key -> ok N 1.4 22.0 20); 0 picks a free port.");

  public static final Option<Integer> HTTP_PORT = Option.valued("http-port", "PORT", ValueType.port())
      .yaml("http.port").environment().alias("PORT")
      .defaultValue(8080)
      .describedAs("Port of the HTTP listener (dashboard at /, its API at /api, WebSocket bridge at /ws, check API at /v1, /metrics, /health, /ready); 0 picks a free port.");

  public static final Option<Integer> GRPC_PORT = Option.valued("grpc-port", "PORT", ValueType.port())
      .yaml("grpc.port").environment().alias("GRPC_PORT")
      .defaultValue(8081)
      .describedAs("Port of Envoy's rate limit service (envoy.service.ratelimit.v3 ShouldRateLimit) over gRPC, HTTP/2 cleartext; 0 picks a free port.");

  public static final Option<Path> RLS_CONFIG = Option.valued("rls-config", "PATH", ValueType.path())
      .yaml("rls.config").environment().alias(EnvironmentAlias.runtimeDirectory())
      .describedAs("envoyproxy/ratelimit config: a YAML file, or a directory of them (one domain each); watched, edits apply within seconds. Unset: every descriptor is OK without a limit (docs/envoy.md).");

  public static final Option<Boolean> RLS_RESPONSE_HEADERS = Option.valued("rls-response-headers", "BOOL", ValueType.bool())
      .yaml("rls.response-headers").environment().alias(EnvironmentAlias.goBoolean("LIMIT_RESPONSE_HEADERS_ENABLED"))
      .defaultValue(false)
      .describedAs("Add the limit, the hits left and the seconds to reset (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset: --rls-header-*) of the descriptor closest to its limit to rate limit service answers, like envoyproxy/ratelimit's LIMIT_RESPONSE_HEADERS_ENABLED.");

  public static final Option<java.net.InetSocketAddress> RLS_XDS_SERVER = Option.valued("rls-xds-server", "HOST:PORT", XdsValueTypes.serverAddress())
      .yaml("rls.xds-server").environment().alias("CONFIG_GRPC_XDS_SERVER_URL")
      .describedAs("Take the rate limit config from this xDS management server (ADS, state of the world: envoyproxy/ratelimit's CONFIG_TYPE=GRPC_XDS_SOTW, which needs nothing more here: the server chooses the source), as Envoy Gateway serves it, instead of --rls-config; the gRPC port opens once a first config arrived. Over TLS with --tls-cert (docs/envoy.md).");

  public static final Option<String> RLS_XDS_NODE_ID = Option.valued("rls-xds-node-id", "ID", XdsValueTypes.nodeId())
      .yaml("rls.xds-node-id").environment().alias("CONFIG_GRPC_XDS_NODE_ID")
      .defaultValue("default")
      .describedAs("The node id Sluice gives the xDS server, which picks its config by it (envoyproxy/ratelimit's CONFIG_GRPC_XDS_NODE_ID).");

  public static final Option<Long> RLS_LOCAL_CACHE_BYTES = Option.valued("rls-local-cache-bytes", "BYTES", ValueType.byteSize(0, 1L << 40))
      .yaml("rls.local-cache-bytes").environment().alias("LOCAL_CACHE_SIZE_IN_BYTES")
      .defaultValue(0L)
      .describedAs("Local over-limit cache of the rate limit service, like envoyproxy/ratelimit's LOCAL_CACHE_SIZE_IN_BYTES, e.g. 16mb: a descriptor found over its limit is answered OVER_LIMIT from memory until its window ends, without asking its shard or owner node. 0: off.");

  public static final Option<java.net.URI> OTEL_ENDPOINT = Option.valued("otel-endpoint", "URL", TelemetryValueTypes.httpUrl())
      .yaml("otel.endpoint").environment()
      .describedAs("OpenTelemetry tracing: the OTLP/HTTP (protobuf) traces endpoint of a Collector or Jaeger, e.g. http://127.0.0.1:4318/v1/traces; spans of checks, ShouldRateLimit calls and cluster hops go there (docs/operating.md). Unset: no tracing, at no cost.");

  public static final Option<String> OTEL_SERVICE_NAME = Option.valued("otel-service-name", "NAME", ValueType.simpleName())
      .yaml("otel.service-name").environment()
      .defaultValue("sluice")
      .describedAs("The service.name of this process's spans (with --otel-endpoint).");

  public static final Option<Double> OTEL_SAMPLE_RATIO = Option.valued("otel-sample-ratio", "RATIO", TelemetryValueTypes.ratio())
      .yaml("otel.sample-ratio").environment()
      .defaultValue(1.0)
      .describedAs("Share of new traces kept, 0 to 1 (with --otel-endpoint); a request that arrives in a trace follows its caller's choice (traceparent).");

  public static final Option<ValueSize> VALUE_SIZE = Option.valued("value-size", "SIZE", ValueType.valueSize())
      .yaml("value-size").environment()
      .defaultValue(ValueSize.UINT16)
      .describedAs("Width of quota, TTL and length fields on the Throttr wire; clients must use the same.");

  public static final Option<Integer> SHARDS = Option.valued("shards", "N", ValueType.integer(1, Integer.MAX_VALUE))
      .yaml("shards").environment()
      .defaultValue(() -> Runtime.getRuntime().availableProcessors(), "number of available processors")
      .describedAs("Number of storage shards the key space is split into.");

  public static final Option<Integer> EVENT_LOOPS = Option.valued("event-loops", "N", ValueType.integer(1, 1024))
      .yaml("event-loops").environment()
      .defaultValue(() -> Math.max(1, Runtime.getRuntime().availableProcessors() / 2), "half the available processors, at least 1")
      .describedAs("Vert.x event loops; each runs one instance of every front and the shards placed on it. The other cores are left to the kernel's network stack, GC and JIT: on 2 cores one loop serves 2x the ops of two (docs/benchmarks.md).");

  public static final Option<Integer> MAX_FRAME = Option.valued("max-frame", "BYTES", ValueType.integer(MIN_MAX_FRAME, MAX_MAX_FRAME))
      .yaml("max-frame").environment()
      .defaultValue(8096)
      .describedAs("Largest request frame accepted, in bytes; the minimum fits every request without a payload.");

  public static final Option<Integer> MAX_PENDING_BYTES = Option.valued("max-pending-bytes", "BYTES", ValueType.integer(1024, 1024 * 1024 * 1024))
      .yaml("max-pending-bytes").environment()
      .defaultValue(1024 * 1024)
      .describedAs("What the server holds for one connection (requests waiting for their replies, replies assembled or queued for the socket) before it stops reading from that client.");

  public static final Option<Long> MAX_PARTIAL_BYTES = Option.valued("max-partial-bytes", "BYTES", ValueType.longInteger(1024, 1L << 40))
      .yaml("max-partial-bytes").environment()
      .defaultValue(64L * 1024 * 1024)
      .describedAs("Bytes all connections together may hold for incomplete frames; the connection whose frame would go over it is closed. Keep it above --max-frame.");

  public static final Option<Long> SWEEP_INTERVAL_MILLIS = Option.valued("sweep-interval-ms", "MILLIS", ValueType.longInteger(1, 3_600_000))
      .yaml("sweep-interval-ms").environment()
      .defaultValue(100L)
      .describedAs("Period of the background sweep that removes expired keys, in milliseconds.");

  public static final Option<Long> MAX_KEYS = Option.valued("max-keys", "N", ValueType.longInteger(1, Long.MAX_VALUE - 1))
      .yaml("max-keys").environment()
      .describedAs("Records all storage shards together may hold, each shard its share; at the bound --eviction decides. Unset: no count limit (--max-memory bounds the heap).");

  public static final Option<Long> MAX_MEMORY = Option.valued("max-memory", "BYTES", ValueType.byteSize(1L << 20, 1L << 50))
      .yaml("max-memory").environment()
      .defaultValue(() -> Runtime.getRuntime().maxMemory() / 2, "half the maximum heap")
      .describedAs("Estimated heap of all records (a counter with a 16-byte key counts 104 bytes, see docs/memory-bound.md), each shard its share, e.g. 512mb or 2gb; at the bound --eviction decides.");

  public static final Option<io.sluice.verticles.engine.storage.Eviction> EVICTION = Option.valued("eviction", "POLICY", ValueType.eviction())
      .yaml("eviction").environment()
      .defaultValue(io.sluice.verticles.engine.storage.Eviction.VOLATILE_TTL)
      .describedAs("What a full shard does with a new record: volatile-ttl evicts the records closest to expiry; reject refuses it (Throttr INSERT/SET answer 00, the check API answers per policy on-full, UDP answers as allowed).");

  public static final Option<String> AUTH_TOKEN = Option.valued("auth-token", "TOKEN", ValueType.secretToken())
      .yaml("auth-token").environment()
      .secret()
      .describedAs("Token HTTP and WebSocket clients must present (Authorization: Bearer, or a first {\"op\":\"auth\"} message); unset means none. Prefer the variable or file: flags show in process lists.");

  public static final Option<Path> RULES = Option.valued("rules", "FILE", ValueType.path())
      .yaml("udp.rules").environment()
      .describedAs("YAML rule table of the UDP protocol (which limit applies to which key); unset: allow everything, like the original's default rule. deploy/rules/musicbrainz.yaml is the MusicBrainz table.");

  public static final Option<Integer> UDP_MAX_STATS_KEYS = Option.valued("udp-max-stats-keys", "N", ValueType.integer(1, 100_000_000))
      .yaml("udp.max-stats-keys").environment()
      .defaultValue(io.sluice.verticles.engine.udprate.stats.KeyStatistics.DEFAULT_MAX_KEYS)
      .describedAs("Keys whose get_stats statistics the UDP front holds (about 200 bytes each); a new key beyond it makes the least recently used one forgotten. Idle keys are forgotten after 600 s anyway.");

  public static final Option<java.util.List<String>> ALLOWED_ORIGINS = Option.valued("allowed-origins", "ORIGINS", ValueType.origins())
      .yaml("http.allowed-origins").environment()
      .defaultValue(java.util.List::<String>of, "same origin only")
      .describedAs("Browser origins allowed to change state (POST, PUT, PATCH, DELETE) and open the WebSocket bridge besides the page's own; * allows any.");

  public static final Option<java.util.List<String>> ALLOWED_HOSTS = Option.valued("allowed-hosts", "HOSTS", ValueType.hosts())
      .yaml("http.allowed-hosts").environment()
      .defaultValue(java.util.List::<String>of, "IP addresses, localhost and the bind address")
      .describedAs("Host header names the HTTP port answers besides IP addresses, localhost and the bind address (others get 421, against DNS rebinding); * answers any.");

  public static final Option<String> LOG_LEVEL = Option.valued("log-level", "LEVEL", ValueType.oneOf("error", "warn", "info", "debug", "trace"))
      .yaml("log.level").environment()
      .defaultValue("info")
      .describedAs("Least severe log events written to stderr; debug adds routine events (clients leaving, connection errors), trace everything the libraries say.");

  public static final Option<String> LOG_FORMAT = Option.valued("log-format", "FORMAT", ValueType.oneOf("text", "json"))
      .yaml("log.format").environment()
      .defaultValue("text")
      .describedAs("text: one line per event with date, time and zone; json: one JSON object per line (time in ISO-8601 UTC, level, logger, message, fields) for log collectors.");

  public static final Option<Boolean> INTERNAL_METRICS = Option.switchNamed("internal-metrics")
      .yaml("metrics.internal").environment()
      .describedAs("Also serve the series about Sluice's own machinery on /metrics (sluice_shard_parcel_batches: batches per event-bus message to a shard); off by default.");

  public static final Option<Path> TLS_CERT = Option.valued("tls-cert", "FILE", ValueType.path())
      .yaml("tls.cert").environment()
      .describedAs("Certificate chain (PEM, leaf first): with --tls-key, the Throttr, HTTP/WebSocket and gRPC listeners speak TLS 1.2/1.3 only. Reloaded when the file changes.");

  public static final Option<Path> TLS_KEY = Option.valued("tls-key", "FILE", ValueType.path())
      .yaml("tls.key").environment()
      .describedAs("Private key of --tls-cert (PEM, PKCS#8 or PKCS#1). Reloaded when the file changes.");

  public static final Option<Path> TLS_CLIENT_CA = Option.valued("tls-client-ca", "FILE", ValueType.path())
      .yaml("tls.client-ca").environment()
      .describedAs("CA certificates (PEM) that sign client certificates: with it, every TLS client must present one (mutual TLS). The way to admit only known clients on the Throttr port, whose protocol has no authentication.");

  public static final Option<String> TLS_ENGINE = Option.valued("tls-engine", "ENGINE", ValueType.oneOf("auto", "openssl", "jdk"))
      .yaml("tls.engine").environment()
      .defaultValue("auto")
      .describedAs("TLS implementation: openssl (BoringSSL, bundled for Linux x86-64), jdk, or auto: openssl where it loads, else jdk.");

  public static final Option<Integer> MAX_CONNECTIONS = Option.valued("max-connections", "N", ValueType.integer(1, 1_000_000))
      .yaml("max-connections").environment()
      .defaultValue(10_000)
      .describedAs("Throttr, HTTP and gRPC connections (each WebSocket is one) open at once; past it a new one is refused at once (Throttr: closed; HTTP and WebSocket upgrades: 503; gRPC: GOAWAY), counted in sluice_connections_rejected_total.");

  public static final Option<java.time.Duration> IDLE_TIMEOUT = Option.valued("idle-timeout", "DURATION", ValueType.duration(java.time.Duration.ofDays(1), true))
      .yaml("idle-timeout").environment()
      .defaultValue(java.time.Duration.ZERO)
      .describedAs("Close a Throttr, WebSocket or HTTP connection that sends and receives nothing for this long (10s, 5m); off keeps it.");

  public static final Option<java.time.Duration> HTTP_REQUEST_TIMEOUT = Option.valued("http-request-timeout", "DURATION", ValueType.duration(java.time.Duration.ofHours(1), false))
      .yaml("http.request-timeout").environment()
      .defaultValue(java.time.Duration.ofSeconds(10))
      .describedAs("Time an HTTP client has, from connecting or its last answer, to send a whole request (line, headers, body); then the connection is closed (slowloris).");

  public static final Option<Integer> HTTP_MAX_HEADER_BYTES = Option.valued("http-max-header-bytes", "BYTES", ValueType.integer(1024, 1024 * 1024))
      .yaml("http.max-header-bytes").environment()
      .defaultValue(8192)
      .describedAs("Largest HTTP request head (headers together); a larger one is answered 431 and the connection closed.");

  public static final Option<Integer> HTTP_MAX_HEADERS = Option.valued("http-max-headers", "N", ValueType.integer(8, 10_000))
      .yaml("http.max-headers").environment()
      .defaultValue(100)
      .describedAs("Most header lines in one HTTP request; more are answered 431 and the connection closed.");

  public static final Option<String> PROTECTED_MODE = Option.valued("protected-mode", "yes|no", ValueType.oneOf("yes", "no"))
      .yaml("protected-mode").environment()
      .defaultValue("yes")
      .describedAs("With neither --auth-token nor --tls-client-ca, take dashboard API and WebSocket bridge writes from loopback clients only (a WARNING at start names listeners bound beyond loopback); no takes them from anyone.");

  public static final Option<Path> AUTH_TOKEN_FILE = Option.valued("auth-token-file", "FILE", ValueType.path())
      .yaml("auth-token-file").environment()
      .describedAs("File holding the token (instead of --auth-token), read again whenever it changes: tokens rotate with no restart.");

  public static final Option<String> METRICS_AUTH = Option.valued("metrics-auth", "yes|no", ValueType.oneOf("yes", "no"))
      .yaml("http.metrics-auth").environment()
      .defaultValue("no")
      .describedAs("yes: /metrics needs the token too (Authorization: Bearer), when one is configured; no: scrapers need none.");

  public static final Option<String> TCP_BIND = Option.valued("tcp-bind", "HOST", ValueType.host())
      .yaml("tcp.bind").environment()
      .defaultValue(() -> null, "the --bind address")
      .describedAs("Address the Throttr listener binds to, instead of --bind.");

  public static final Option<String> HTTP_BIND = Option.valued("http-bind", "HOST", ValueType.host())
      .yaml("http.bind").environment()
      .defaultValue(() -> null, "the --bind address")
      .describedAs("Address the HTTP listener binds to, instead of --bind.");

  public static final Option<String> UDP_BIND = Option.valued("udp-bind", "HOST", ValueType.host())
      .yaml("udp.bind").environment()
      .defaultValue(() -> null, "the --bind address")
      .describedAs("Address the UDP listener binds to, instead of --bind.");

  public static final Option<java.time.Duration> SHUTDOWN_TIMEOUT = Option.valued("shutdown-timeout", "DURATION", ValueType.duration(java.time.Duration.ofMinutes(10), false))
      .yaml("shutdown-timeout").environment()
      .defaultValue(java.time.Duration.ofSeconds(5))
      .describedAs("On SIGTERM: stop accepting, answer what was read, then close; connections still open after this long are closed anyway.");

  public static final Option<Path> DATA_DIR = Option.valued("data-dir", "DIR", ValueType.path())
      .yaml("persistence.data-dir").environment()
      .describedAs("Directory of the shards' snapshots (*.snapshot) and append-only logs (*.log); unset: keys live in memory only and a restart forgets them (docs/persistence.md).");

  public static final Option<FsyncPolicy> FSYNC = Option.valued("fsync", "WHEN", ValueType.fsyncPolicy())
      .yaml("persistence.fsync").environment()
      .defaultValue(FsyncPolicy.EVERYSEC)
      .describedAs("When the log is forced to disk: always (a reply leaves only once its change is on disk), everysec (writes older than a second survive power loss) or no (the OS decides; kill -9 loses nothing).");

  public static final Option<java.time.Duration> SNAPSHOT_INTERVAL = Option.valued("snapshot-interval", "DURATION", ValueType.duration())
      .yaml("persistence.snapshot-interval").environment()
      .defaultValue(java.time.Duration.ofMinutes(5))
      .describedAs("How often each shard rewrites its state as a snapshot and drops the log before it (also when the log outgrows twice the last snapshot).");

  public static final Option<Boolean> DATA_RECOVER = Option.switchNamed("data-recover")
      .yaml("persistence.data-recover").environment()
      .describedAs("Start even when a data file is damaged in the middle or missing from a shard's chain, dropping what cannot be read (each loss is logged); without it such a start is refused.");

  public static final Option<Long> PERSISTENCE_QUEUE_BYTES = Option.valued("persistence-queue-bytes", "BYTES", ValueType.byteSize(1L << 20, 1L << 40))
      .yaml("persistence.queue-bytes").environment()
      .defaultValue(() -> io.sluice.verticles.server.persistence.PersistenceSettings.DEFAULT_QUEUE_BYTES, "64mb")
      .describedAs("Changes the shards' writers together may hold in memory waiting for a slow disk, each shard its share, e.g. 64mb; past it a shard stops logging (requests are still answered, /ready says 503) until a snapshot repairs its files.");

  /** Where the YAML file is; read before the file itself, so only the flag and variable apply. */
  public static final Option<Path> CONFIG = Option.valued("config", "FILE", ValueType.path())
      .environment()
      .describedAs("YAML file to read options from (example: deploy/sluice.yaml).");

  public static final Option<Boolean> CHECK_CONFIG = Option.switchNamed("check-config")
      .describedAs("Check the options, the config file, its policies, the rules file and the rate limit config, print what would run, and exit: 0 when it would start, 2 with the problems otherwise (like nginx -t).");

  public static final Option<Boolean> HELP = Option.switchNamed("help")
      .shortFlag('h')
      .describedAs("Print this help and exit.");

  public static final Option<Boolean> VERSION = Option.switchNamed("version")
      .shortFlag('V')
      .describedAs("Print the version and exit.");

  /** Every option, in the order help and documentation list them. */
  public static final List<Option<?>> ALL = List.of(
      BIND, TCP_PORT, UDP_PORT, RULES, UDP_MAX_STATS_KEYS, HTTP_PORT, ALLOWED_ORIGINS, ALLOWED_HOSTS, VALUE_SIZE, SHARDS, EVENT_LOOPS, MAX_FRAME, MAX_PENDING_BYTES,
      MAX_PARTIAL_BYTES, SWEEP_INTERVAL_MILLIS,
      ClusterOptions.CLUSTER, ClusterOptions.CLUSTER_HOST, ClusterOptions.CLUSTER_PORT, ClusterOptions.CLUSTER_MEMBERS, ClusterOptions.CLUSTER_NAME, ClusterOptions.BACKUPS, ClusterOptions.CLUSTER_CONFIG,
      ClusterOptions.CLUSTER_TLS_CERT, ClusterOptions.CLUSTER_TLS_KEY, ClusterOptions.CLUSTER_TLS_CA, ClusterOptions.CLUSTER_SECRET_FILE,
      MAX_KEYS, MAX_MEMORY, EVICTION,
      GRPC_PORT, RLS_CONFIG, RLS_RESPONSE_HEADERS, RlsOptions.LIMIT_HEADER, RlsOptions.REMAINING_HEADER,
      RlsOptions.RESET_HEADER, RlsOptions.SHADOW_MODE, RlsOptions.NEAR_LIMIT_RATIO, RlsOptions.MERGE_DOMAINS,
      RlsOptions.STOP_INCREMENT_OVER_LIMIT, RlsOptions.QUOTA_MODE,
      RlsOptions.RESPONSE_DYNAMIC_METADATA, RlsOptions.HEALTHY_WITH_CONFIG, RLS_XDS_SERVER, RLS_XDS_NODE_ID, RLS_LOCAL_CACHE_BYTES, OTEL_ENDPOINT,
      OTEL_SERVICE_NAME, OTEL_SAMPLE_RATIO,
      DATA_DIR, FSYNC, SNAPSHOT_INTERVAL, DATA_RECOVER, PERSISTENCE_QUEUE_BYTES,
      TLS_CERT, TLS_KEY, TLS_CLIENT_CA, TLS_ENGINE, MAX_CONNECTIONS,
      IDLE_TIMEOUT, HTTP_REQUEST_TIMEOUT, HTTP_MAX_HEADER_BYTES, HTTP_MAX_HEADERS, PROTECTED_MODE, METRICS_AUTH, WebSocketOptions.MAX_SUBSCRIPTIONS, WebSocketOptions.CHANNEL_HISTORY, WebSocketOptions.CHANNEL_HISTORY_TTL, SHUTDOWN_TIMEOUT, TCP_BIND, HTTP_BIND, UDP_BIND,
      AUTH_TOKEN_FILE, AUTH_TOKEN, WebSocketOptions.WS_JWT_SECRET_FILE, WebSocketOptions.WS_JWT_PUBLIC_KEY, WebSocketOptions.WS_JWT_JWKS_FILE, WebSocketOptions.WS_JWT_AUDIENCE,
      WebSocketOptions.WS_JWT_ISSUER, WebSocketOptions.WS_ANONYMOUS, WebSocketOptions.WS_PUBLIC_CHANNELS, WebSocketOptions.WS_PUBLISH_RATE, INTERNAL_METRICS, LOG_LEVEL, LOG_FORMAT, CONFIG, CHECK_CONFIG, HELP, VERSION);

  /** Options that ask for something other than running (they are not part of the configuration). */
  static final List<Option<?>> ACTIONS = List.of(CHECK_CONFIG, HELP, VERSION);

  static {
    checkTable();
  }

  private Options() {
  }

  /** The option whose name (flag without dashes) is {@code name}. */
  public static Optional<Option<?>> byName(String name) {
    return ALL.stream().filter(option -> option.name().equals(name)).findFirst();
  }

  /** The option spelled {@code -h}, {@code -V}…, if any. */
  public static Optional<Option<?>> byShortFlag(String spelling) {
    return ALL.stream().filter(option -> option.shortFlag().filter(spelling::equals).isPresent()).findFirst();
  }

  /** The option whose YAML key is {@code key}. */
  public static Optional<Option<?>> byYamlKey(String key) {
    return ALL.stream().filter(option -> option.yamlKey().filter(key::equals).isPresent()).findFirst();
  }

  /** True for {@code --help} and {@code --version}, which are answered instead of starting. */
  public static boolean isAction(Option<?> option) {
    return ACTIONS.contains(option);
  }

  /** True when {@code path} is a section holding some key, e.g. {@code tcp} for {@code tcp.port}. */
  static boolean isYamlSection(String path) {
    return ALL.stream().anyMatch(option -> option.yamlKey().filter(key -> key.startsWith(path + ".")).isPresent());
  }

  /**
   * Rejects table mistakes when the class loads, so that a badly added row fails every test
   * instead of misbehaving for one source.
   */
  private static void checkTable() {
    Set<String> names = new HashSet<>();
    Set<String> keys = new HashSet<>();
    for (Option<?> option : ALL) {
      if (!names.add(option.name())) {
        throw new IllegalStateException("two options are named " + option.name());
      }
      option.yamlKey().ifPresent(key -> {
        if (!keys.add(key)) {
          throw new IllegalStateException("two options use the YAML key " + key);
        }
      });
    }
    for (String key : keys) {
      if (isYamlSection(key)) {
        throw new IllegalStateException("YAML key " + key + " is also a section of another key");
      }
    }
  }
}
