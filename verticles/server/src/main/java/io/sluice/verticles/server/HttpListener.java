package io.sluice.verticles.server;

import io.sluice.verticles.server.check.CheckApi;
import io.sluice.verticles.server.check.PublishLimits;
import io.sluice.verticles.server.dashboard.Dashboard;
import io.sluice.verticles.server.dashboard.DashboardData;
import io.sluice.verticles.server.dashboard.DashboardVerticle;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.grpc.EnvoyRateLimit;
import io.sluice.verticles.server.health.Health;
import io.sluice.verticles.server.health.Readiness;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFeature;
import io.sluice.verticles.server.http.HttpFrontVerticle;
import io.sluice.verticles.server.http.ProtectedMode;
import io.sluice.verticles.server.http.RequestGuard;
import io.sluice.verticles.server.metrics.MetricsScrape;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.tls.TlsSettings;
import io.sluice.verticles.server.websocket.WebSocketBridge;
import io.sluice.verticles.server.wsauth.TokenVerifier;
import io.vertx.core.Future;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP front: the WebSocket bridge at /ws, the check API at /v1 (and /openapi.json),
 * /metrics, /health and /ready, the dashboard's API at /api and its page at /; instances share
 * the port as TCP's do. Then the dashboard's verticle, which feeds the live view.
 */
final class HttpListener {

  /** How often the dashboard's live view moves. */
  private static final long DASHBOARD_PERIOD_MILLIS = 1000;

  private final ServerWide wide;
  private final ServerSettings settings;
  private final ListenerGuards guards;
  private final List<HttpFrontVerticle> fronts = new ArrayList<>();
  private int port;

  HttpListener(ServerWide wide, ServerSettings settings, ListenerGuards guards) {
    this.wide = wide;
    this.settings = settings;
    this.guards = guards;
  }

  /** @param readiness what /ready and /healthcheck answer by */
  Future<Void> start(StorageDeployment storage, EnvoyRateLimit rls, FileReloads files, Readiness readiness) {
    BearerToken token;
    Optional<TokenVerifier> users;
    try {
      token = files.token(settings.defences(), settings.http(), wide.instance().clock());
    } catch (IOException e) {
      return Future.failedFuture(new IllegalArgumentException("--auth-token-file: " + e.getMessage(), e));
    }
    try {
      users = files.webSocketUsers(settings.http().webSocket(), wide.instance().clock());
    } catch (IOException e) {
      return Future.failedFuture(new IllegalArgumentException("WebSocket token keys: " + e.getMessage(), e));
    }
    boolean authenticated = token.required() || settings.defences().tls().flatMap(TlsSettings::clientCa).isPresent();
    ProtectedMode protectedMode = ProtectedMode.of(settings.defences().protectedMode(), authenticated);
    ExposedListeners.warn(settings, authenticated, protectedMode);
    DashboardData dashboardData = new DashboardData(wide.policies(), wide.limitActivity(), rls.stats(),
        settings.operator(), wide.lastReload(), wide.closers(), storage.cluster().isPresent(), wide.callers());
    List<HttpFeature> features;
    try {
      features = features(storage, rls, token, users, protectedMode, dashboardData, readiness);
    } catch (IllegalArgumentException unknownPolicy) {
      return Future.failedFuture(unknownPolicy);
    }
    // -2, not -1: Vert.x shares one random port among servers given the same negative value.
    int requested = settings.http().port() == 0 ? -2 : settings.http().port();
    List<HttpFrontVerticle> started = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      HttpFrontVerticle front = new HttpFrontVerticle(settings.http().bind(), requested, settings.limits().maxFrame(),
          features, guards);
      started.add(front);
      deployed.add(wide.deployments().deploy(front));
    }
    fronts.addAll(started);
    return Future.all(deployed).compose(v -> {
      port = started.get(0).actualPort();
      return wide.deployments().deploy(new DashboardVerticle(wide.instance(), storage.directory(), DASHBOARD_PERIOD_MILLIS,
          dashboardData, storage.persistence()));
    }).mapEmpty();
  }

  /**
   * First the public read-only probes, which orchestrators and scrapers reach by any name; the
   * guard then checks Host and Origin for everything after it. Last the dashboard, which serves its
   * page at "/" and so would match every path.
   */
  private List<HttpFeature> features(StorageDeployment storage, EnvoyRateLimit rls, BearerToken token,
                                     Optional<TokenVerifier> users, ProtectedMode protectedMode,
                                     DashboardData dashboardData, Readiness readiness) {
    ShardDirectory directory = storage.directory();
    WebSocketBridge bridge = new WebSocketBridge(wide.instance(), directory, token, settings.limits(),
        wide.metrics().durations(), wide.closers(), protectedMode, users, settings.http().webSocket(),
        settings.http().webSocket().publishPolicy().map(policy -> new PublishLimits(wide.policies(), policy)));
    List<HttpFeature> features = new ArrayList<>();
    wide.metrics().scraped().ifPresent(registry -> {
      // One for every front, so that scrapes arriving on different loops share one rendering.
      MetricsScrape scrape = new MetricsScrape(wide.vertx(), registry);
      BearerToken metricsToken = settings.defences().metricsAuth() ? token : null;
      features.add(HttpFeature.at("/metrics", () -> new Endpoint(List.of(), metricsToken, scrape::serve)));
    });
    features.add(new Health(readiness, wide.metrics().meters()));
    features.add(new RequestGuard(settings.http()));
    storage.cluster().ifPresent(cluster -> {
      features.add(HttpFeature.at("/api/cluster", () -> cluster.api(token)));
      features.add(HttpFeature.at("/api/cluster/partitions", () -> cluster.partitionsApi(token)));
    });
    features.add(HttpFeature.at("/ws", bridge::handler));
    CheckApi checkApi = new CheckApi(wide.policies(), directory, token, wide.metrics().meters(), wide.limitActivity(),
        wide.callers());
    features.add(checkApi.direct());
    checkApi.mounts().forEach((path, handler) -> features.add(HttpFeature.at(path, handler)));
    features.add(rls.json(token));
    features.add(rls.dashboardApi(token));
    features.add(rls.configDump(token));
    features.add(new Dashboard(wide.instance(), directory, token, dashboardData, protectedMode,
        storage.persistence()).withChannelHistory(settings.limits().history()));
    return features;
  }

  int port() {
    return port;
  }

  List<Future<Void>> drain(Duration timeout) {
    return fronts.stream().map(front -> front.shutdown(timeout)).toList();
  }
}
