package io.sluice.verticles.server.grpc;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.rls.OverLimitCache;
import io.sluice.verticles.rls.RateLimitService;
import io.sluice.verticles.rls.RlsConfig;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.rls.RlsStats;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFeature;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.sluice.verticles.server.xds.XdsConfigClient;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Envoy's rate limit service in one Sluice: the config in force and its reloads, the statistics,
 * and one {@link RateLimitService} per front event loop (over that loop's shard router), shared by
 * the gRPC listener and {@code POST /json} of the same loop.
 */
public final class EnvoyRateLimit {

  private static final System.Logger LOG = System.getLogger(EnvoyRateLimit.class.getName());
  /** How often the config's files are looked at: edits take effect within this and a read. */
  static final long WATCH_PERIOD_MILLIS = 1000;

  private final Vertx vertx;
  private final RlsSettings settings;
  private final ShardDirectory shards;
  private final Clock clock;
  private final RlsStats stats;
  private final OverLimitCache overLimitCache;
  private final PendingBytes pendingBytes;
  private final Map<Context, RateLimitService> servicesByLoop = new ConcurrentHashMap<>();
  private final Callers callers;
  private final Optional<XdsConfigClient> xds;
  private volatile String listenerFailure;
  private long watchTimer = -1;
  /** Held by a look at the files from its start to its end, and by {@link #stopWatching}. */
  private final Object watchLock = new Object();
  private boolean watching;

  /** @param callers where each gRPC call's caller is counted for the dashboard's Connections view */
  public EnvoyRateLimit(Vertx vertx, RlsSettings settings, ShardDirectory shards, Clock clock, MeterRegistry metrics,
                        Callers callers) {
    this.vertx = vertx;
    this.callers = callers;
    this.settings = settings;
    this.shards = shards;
    this.clock = clock;
    this.stats = new RlsStats(counts -> RlsMetrics.register(metrics, counts),
        notFound -> RlsMetrics.register(metrics, notFound));
    RlsMetrics.registerGlobal(metrics, stats);
    RlsMetrics.register(metrics, settings.config().loads());
    this.overLimitCache = new OverLimitCache(settings.localCacheBytes());
    RlsMetrics.register(metrics, overLimitCache);
    this.pendingBytes = new PendingBytes(metrics);
    this.xds = settings.xds().map(server -> new XdsConfigClient(server, settings.config()));
  }

  /** The client of the xDS server the config comes from, to deploy; empty when it comes from files. */
  public Optional<XdsConfigClient> xdsClient() {
    return xds;
  }

  /**
   * Why the service cannot answer by its config yet (no version from the xDS server yet, or the
   * gRPC listener that was to open with it could not; with {@code --rls-healthy-with-config}, a
   * config in force without a domain), or empty.
   */
  public Optional<String> notReady() {
    if (listenerFailure != null) {
      return Optional.of(listenerFailure);
    }
    Optional<String> waiting = xds.flatMap(XdsConfigClient::notReady);
    if (waiting.isEmpty() && settings.healthyWithConfig() && settings.config().get().domains().isEmpty()) {
      return Optional.of("no rate limit config with a domain in force (--rls-healthy-with-config)");
    }
    return waiting;
  }

  /** The gRPC listener, opened after the first config, could not open: /ready says so from now on. */
  public void listenerFailed(String why) {
    listenerFailure = why;
    LOG.log(System.Logger.Level.ERROR, why);
  }

  public RlsSettings settings() {
    return settings;
  }

  /** The statistics, by domain and descriptor (the dashboard lists them). */
  public RlsStats stats() {
    return stats;
  }

  /** The node's local over-limit cache (off unless --rls-local-cache-bytes). */
  public OverLimitCache overLimitCache() {
    return overLimitCache;
  }

  /** What the gRPC connections of every front event loop hold. */
  PendingBytes pendingBytes() {
    return pendingBytes;
  }

  /** The service of the calling front event loop. */
  RateLimitService service() {
    return servicesByLoop.computeIfAbsent(Vertx.currentContext(), loop -> new RateLimitService(settings.config(),
        new ShardQueries(loop, shards).router(), clock, stats, settings.behaviour(), overLimitCache));
  }

  /** A new book for one gRPC front event loop's callers. */
  Callers.Book callerBook() {
    return callers.book(Callers.Protocol.GRPC);
  }

  /** {@code POST /json}: the same decision as JSON, as envoyproxy/ratelimit's HTTP port answers it. */
  public HttpFeature json(BearerToken token) {
    return HttpFeature.at(JsonHandler.PATH,
        () -> new Endpoint(List.of(HttpMethod.POST), token, new JsonHandler(this::service)));
  }

  /** {@code GET /api/rls}: the dashboard's list of domains and descriptors with their hits. */
  public HttpFeature dashboardApi(BearerToken token) {
    return HttpFeature.at("/api/rls", () -> new Endpoint(List.of(HttpMethod.GET, HttpMethod.HEAD), token, context -> {
      context.response().putHeader(io.vertx.core.http.HttpHeaders.CONTENT_TYPE, Endpoint.JSON);
      return context.response().end(RlsOverview.of(settings.config().get(), stats).toBuffer());
    }));
  }

  /**
   * {@code GET /rlconfig}: the config in force in envoyproxy/ratelimit's debug text, one line per
   * limit ({@link io.sluice.verticles.rls.RlsConfigDump}); with {@code --auth-token}, the token.
   */
  public HttpFeature configDump(BearerToken token) {
    return HttpFeature.at("/rlconfig", () -> new Endpoint(List.of(HttpMethod.GET, HttpMethod.HEAD), token, context -> {
      context.response().putHeader(io.vertx.core.http.HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8");
      return context.response().end(io.sluice.verticles.rls.RlsConfigDump.of(settings.config().get()));
    }));
  }

  /** Looks at the config's files every second and reloads them when they change. */
  public void watch() {
    if (settings.config().path() != null) {
      synchronized (watchLock) {
        watching = true;
      }
      watchTimer = vertx.setPeriodic(WATCH_PERIOD_MILLIS, id -> reloadWith(this::reloadIfWatchedAndChanged));
    }
  }

  /**
   * Stops looking at the files. A look the timer started before runs on a worker thread, maybe
   * later: it reloads nothing once this has returned, so files changed from then on (a SIGHUP's
   * install, say) are not reloaded and reported a second time by it.
   */
  public void stopWatching() {
    vertx.cancelTimer(watchTimer);
    synchronized (watchLock) {
      watching = false;
    }
  }

  private RlsConfigSource.Reload reloadIfWatchedAndChanged(RlsConfigSource source) {
    synchronized (watchLock) {
      return watching ? source.reloadIfChanged() : new RlsConfigSource.Reload(RlsConfigSource.Outcome.UNCHANGED, "");
    }
  }

  /**
   * Re-reads the config now: what a SIGHUP should call. A refused config is logged as one ERROR
   * line naming file, line and field, and the one in force stays. A config that no longer has a
   * domain (its file removed) is put in force, but logged at WARNING: that domain's requests are
   * no longer limited.
   */
  public Future<RlsConfigSource.Reload> reload() {
    return reloadWith(RlsConfigSource::reload);
  }

  private Future<RlsConfigSource.Reload> reloadWith(java.util.function.Function<RlsConfigSource, RlsConfigSource.Reload> how) {
    RlsConfigSource source = settings.config();
    return vertx.executeBlocking(() -> how.apply(source), false).onSuccess(EnvoyRateLimit::report);
  }

  /** Puts in force a config a SIGHUP has read already, and says so as a watched reload does. */
  public void install(RlsConfig read) {
    report(settings.config().install(read));
  }

  private static void report(RlsConfigSource.Reload reload) {
    switch (reload.outcome()) {
      case RELOADED -> {
        if (reload.dropped().isEmpty()) {
          LOG.log(System.Logger.Level.INFO, "rate limit config reloaded: " + reload.detail());
        } else {
          LOG.log(System.Logger.Level.WARNING, "rate limit config reloaded without domains " + reload.dropped()
              + ", whose requests now have no limit (a file removed?): " + reload.detail());
        }
      }
      case REFUSED -> LOG.log(System.Logger.Level.ERROR, "rate limit config refused, the previous one stays in force: "
          + reload.detail());
      default -> { }
    }
  }
}
