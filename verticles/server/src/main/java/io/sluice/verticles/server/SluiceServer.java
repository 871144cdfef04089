package io.sluice.verticles.server;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.channel.ChannelMessage;
import io.sluice.verticles.server.channel.ChannelMessageCodec;
import io.sluice.verticles.server.check.CheckApi;
import io.sluice.verticles.server.check.LimitTaskCodec;
import io.sluice.verticles.server.grpc.EnvoyRateLimit;
import io.sluice.verticles.server.grpc.GrpcFrontVerticle;
import io.sluice.verticles.server.bus.LocalObjectCodec;
import io.sluice.verticles.server.shard.HostedRoute;
import io.sluice.verticles.server.cluster.ClusterDeployment;
import io.sluice.verticles.server.cluster.ClusterPartitions;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.engine.shard.TaskCodec;
import io.sluice.verticles.engine.shard.ScanCodec;
import io.sluice.verticles.engine.browse.KeyPageScanCodec;
import io.sluice.verticles.rls.WindowCounterCodec;
import io.sluice.verticles.server.udp.UdpRateCodecs;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.sluice.verticles.server.shard.ShardParcel;
import io.sluice.verticles.server.shard.ShardVerticle;
import io.sluice.verticles.server.tcp.ThrottrTcpVerticle;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFrontVerticle;
import io.sluice.verticles.server.http.ProtectedMode;
import io.sluice.verticles.server.tls.TlsSettings;
import io.sluice.verticles.server.http.RequestGuard;
import io.sluice.verticles.server.udp.UdpVerticle;
import io.sluice.verticles.server.reload.FileWatch;
import io.sluice.verticles.server.front.ConnectionGate;
import io.sluice.verticles.server.front.ListenerGuards;
import io.sluice.verticles.server.tls.TlsReloads;
import io.sluice.verticles.server.websocket.WebSocketBridge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.MetricsScrape;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.server.persistence.PersistenceMetrics;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.vertx.core.Future;
import io.sluice.verticles.server.dashboard.Dashboard;
import io.sluice.verticles.server.dashboard.DashboardData;
import io.sluice.verticles.server.dashboard.DashboardVerticle;
import io.sluice.verticles.server.health.Health;
import io.sluice.verticles.server.http.HttpFeature;
import io.vertx.core.Vertx;

import io.sluice.verticles.server.check.LivePolicies;
import io.sluice.verticles.server.reload.LastReload;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.PolicyChanges;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Deploys one Sluice instance on a Vert.x: the storage shard verticles first (each on its own event
 * loop, reached over the event bus), then the front verticles that talk to them.
 */
public final class SluiceServer {

  /** How often the dashboard's live view moves. */
  private static final long DASHBOARD_PERIOD_MILLIS = 1000;

  private static final MeterRegistry NO_METRICS = new CompositeMeterRegistry();
  private static final System.Logger LOG = System.getLogger(SluiceServer.class.getName());

  private final Vertx vertx;
  private final Instance instance;
  private final List<String> deployments = new ArrayList<>();
  /** What the rate limits decided, shared by the check API, the UDP endpoint and the dashboard. */
  private final LimitActivity limitActivity = new LimitActivity();
  /** The HTTP check API's and gRPC service's callers, which the dashboard lists. */
  private final Callers callers;
  /** Where client connections register so that the admin API can close them. */
  private final ConnectionClosers closers = new ConnectionClosers();
  /** What the last SIGHUP reload did, for the admin API. */
  private final LastReload lastReload = new LastReload();
  private LivePolicies policies;
  private ShardDirectory directory;
  private ClusterDeployment cluster;
  private PersistentShards persistence = PersistentShards.none();
  private long metricsTimer = -1;
  private AutoCloseable standardMetrics;
  private int tcpPort;
  private int httpPort;
  private int udpPort;
  private UdpVerticle udpFront;
  private int grpcPort = -1;
  private EnvoyRateLimit rls;
  private Optional<TlsReloads> tls = Optional.empty();
  private ListenerGuards guards;
  private BearerToken bearerToken;
  private final List<ThrottrTcpVerticle> tcpFronts = new ArrayList<>();
  private final List<HttpFrontVerticle> httpFronts = new ArrayList<>();
  private final List<FileWatch> watches = new ArrayList<>();

  private final PrometheusMeterRegistry metrics;

  private SluiceServer(Vertx vertx, Instance instance, PrometheusMeterRegistry metrics) {
    this.vertx = vertx;
    this.instance = instance;
    this.callers = new Callers(instance.clock());
    this.metrics = metrics;
  }

  /**
   * @param metrics where Sluice's series go and what {@code /metrics} serves (Vert.x's own series
   *                too, when that Vert.x was built with it); null for none
   */
  public static Future<SluiceServer> start(Vertx vertx, ServerSettings settings, String version, Clock clock,
                                           PrometheusMeterRegistry metrics) {
    Future<Void> tlsFiles = settings.defences().tls().map(files -> TlsReloads.check(vertx, files))
        .orElse(Future.succeededFuture());
    return tlsFiles.compose(checked -> {
      Instance instance = Instance.start(version, settings.valueSize(), settings.shards(), clock);
      SluiceServer server = new SluiceServer(vertx, instance, metrics);
      return server.deploy(settings).map(server);
    });
  }

  public Instance instance() {
    return instance;
  }

  /** The HTTP port actually bound (WebSocket bridge at /ws, check API at /v1). */
  public int httpPort() {
    return httpPort;
  }

  /** The UDP port actually bound. */
  public int udpPort() {
    return udpPort;
  }

  /** Where the storage shards are: code that embeds Sluice sends its own {@link io.sluice.verticles.engine.shard.ShardTask}s through it. */
  public ShardDirectory shards() {
    return directory;
  }

  /** The gRPC port of Envoy's rate limit service actually bound; -1 when it has none. */
  public int grpcPort() {
    return grpcPort;
  }

  /** Envoy's rate limit service: its statistics, and {@code reload()} of its config. */
  public EnvoyRateLimit rateLimitService() {
    return rls;
  }

  /** The Throttr TCP port actually bound. */
  public int tcpPort() {
    return tcpPort;
  }

  /**
   * Reads again what files give a running server: the TLS certificate, key and client CA, and the
   * auth token file. Also done by itself when one of those files changes; a signal handler may call
   * it too. Files that do not load leave what was in use, and say so in the log.
   */
  public Future<Void> reload() {
    if (bearerToken != null) {
      bearerToken.reload();
    }
    return tls.map(TlsReloads::reload).orElse(Future.succeededFuture());
  }

  private Future<Void> deploy(ServerSettings settings) {
    policies = new LivePolicies(settings.policies());
    tls = settings.defences().tls().map(files -> new TlsReloads(vertx, files, meters()));
    tls.ifPresent(reloads -> watches.add(FileWatch.start(vertx, reloads.settings().files(), reloads::reload)));
    guards = new ListenerGuards(settings.defences(), tls,
        new ConnectionGate(settings.defences().maxConnections(), meters(), instance.clock()), instance.clock());
    vertx.eventBus().registerDefaultCodec(ShardParcel.class, new LocalObjectCodec<>(ShardParcel.class));
    vertx.eventBus().registerDefaultCodec(ChannelMessage.class, new ChannelMessageCodec());
    List<Store> stores = new ArrayList<>();
    ClusterPartitions partitions = null;
    if (settings.cluster().enabled()) {
      partitions = new ClusterPartitions(settings.shards(), settings.valueSize(), instance.clock(), instance.startedAtNanos(),
          settings.recordLimits());
      directory = partitions.directory();
      stores.addAll(partitions.stores());
    } else {
      directory = new ShardDirectory(settings.shards());
      for (int i = 0; i < settings.shards(); i++) {
        stores.add(new Store(instance.clock(), instance.startedAtNanos(), settings.recordLimits().share(settings.shards())));
      }
    }
    if (metrics != null && settings.operator().internalMetrics()) {
      directory.observeParcelSizes(SluiceMetrics.parcelSizes(metrics)::record);
    }
    if (metrics != null) {
      SluiceMetrics.bind(metrics, instance, stores);
      standardMetrics = SluiceMetrics.bindStandard(metrics, instance.version());
    }
    metricsTimer = vertx.setPeriodic(1000, id -> instance.counters().rollTo(instance.currentWindow()));
    rls = new EnvoyRateLimit(vertx, settings.rls(), directory, instance.clock(), meters(), callers);
    ClusterPartitions clustered = partitions;
    // A cluster node persists each partition's store, in a directory of their own.
    PersistenceSettings persisting = clustered == null ? settings.persistence()
        : settings.persistence().under(ClusterPartitions.DIRECTORY);
    return PersistentShards.load(vertx, persisting, stores, settings.valueSize(), instance.clock())
        .compose(loaded -> {
          persistence = loaded;
          if (metrics != null && loaded.enabled()) {
            PersistenceMetrics.bind(metrics, loaded);
          }
          if (clustered != null && loaded.enabled()) {
            clustered.persistThrough(loaded);
          }
          return clustered == null ? deployShards(settings, stores) : deployPartitions(settings, clustered);
        })
        .compose(v -> clustered == null ? Future.succeededFuture() : ClusterDeployment.start(vertx, clustered,
            settings.cluster(), settings.valueSize(),
            travellingWork(policies), instance.connections(), settings.frontInstances(), meters(),
            verticle -> track(vertx.deployVerticle(verticle))).onSuccess(deployment -> cluster = deployment).mapEmpty())
        .compose(v -> listener("Throttr TCP", settings.tcp().bind(), settings.tcp().port(), deployTcp(settings, directory)))
        .compose(v -> listener("HTTP", settings.http().bind(), settings.http().port(), deployHttp(settings, directory)))
        .compose(v -> listener("UDP", settings.udp().bind(), settings.udp().port(), deployUdp(settings, directory)))
        .compose(v -> listener("gRPC", settings.rls().bind(), settings.rls().port(), deployGrpc(settings)));
  }

  /**
   * What runs on a key's owner when that is another node, besides Throttr requests and key
   * lookups: the check API's checks, the UDP protocol's rate steps and get_size counts, Envoy's
   * window counters, the dashboard's key pages. The same codecs on every node; each names its work
   * on the wire by its own fixed id, so their order here does not matter.
   */
  private static TaskCodecs travellingWork(LivePolicies policies) {
    List<TaskCodec<?>> tasks = new ArrayList<>();
    tasks.add(new LimitTaskCodec(policies));
    tasks.addAll(UdpRateCodecs.tasks());
    tasks.add(new WindowCounterCodec());
    List<ScanCodec<?>> scans = new ArrayList<>(UdpRateCodecs.scans());
    scans.add(new KeyPageScanCodec());
    return TaskCodecs.of(tasks).withScans(scans);
  }

  /**
   * A listener that could not start says which one and where: "Address already in use" alone does
   * not tell an operator which of three ports is taken.
   */
  private static Future<Void> listener(String name, String host, int port, Future<Void> deployed) {
    return deployed.recover(failure -> Future.failedFuture(new IllegalStateException(
        "the " + name + " listener could not start on " + host + ":" + port + ": " + failure.getMessage())));
  }

  /** A cluster node's shard verticles, each hosting the partitions placed on it. */
  private Future<Void> deployPartitions(ServerSettings settings, ClusterPartitions partitions) {
    List<Future<String>> shards = new ArrayList<>();
    for (int i = 0; i < settings.shards(); i++) {
      shards.add(track(vertx.deployVerticle(new ShardVerticle(i, partitions.routesOf(i), directory,
          settings.sweepIntervalMillis()))));
    }
    return Future.all(shards).mapEmpty();
  }

  /** One verticle per shard, each listening to its store's changes when persisting. */
  private Future<Void> deployShards(ServerSettings settings, List<Store> stores) {
    List<Future<String>> shards = new ArrayList<>();
    for (int i = 0; i < stores.size(); i++) {
      Store store = stores.get(i);
      ShardPersistence log = null;
      if (persistence.enabled()) {
        log = persistence.shard(i);
        store.listen(log);
      }
      ThrottrShard shard = new ThrottrShard(store, settings.valueSize());
      shards.add(track(vertx.deployVerticle(new ShardVerticle(i, List.of(new HostedRoute(i, store, shard::execute, log)),
          directory, settings.sweepIntervalMillis()))));
    }
    return Future.all(shards).mapEmpty();
  }

  /** The persistence of the shards (nothing when not persisting): for probes, metrics, the dashboard. */
  public PersistentShards persistence() {
    return persistence;
  }

  /**
   * Every instance listens on the configured port; Vert.x shares one bound socket among them and
   * spreads accepted connections. Port 0 becomes -1: Vert.x's way of sharing ONE random port.
   */
  private Future<Void> deployTcp(ServerSettings settings, ShardDirectory directory) {
    int port = settings.tcp().port() == 0 ? -1 : settings.tcp().port();
    List<ThrottrTcpVerticle> fronts = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      ThrottrTcpVerticle front = new ThrottrTcpVerticle(instance, directory, settings.tcp().bind(), port,
          settings.limits(), guards, durations(), closers);
      fronts.add(front);
      deployed.add(track(vertx.deployVerticle(front)));
    }
    tcpFronts.addAll(fronts);
    return Future.all(deployed).compose(v -> {
      tcpPort = fronts.get(0).actualPort();
      for (ThrottrTcpVerticle front : fronts) {
        if (front.actualPort() != tcpPort) {
          return Future.failedFuture("TCP fronts bound different ports: " + tcpPort + " and " + front.actualPort());
        }
      }
      return Future.succeededFuture();
    });
  }

  /**
   * The HTTP front: the WebSocket bridge at /ws, the check API at /v1 (and /openapi.json),
   * /metrics, /health and /ready, the dashboard's API at /api and its page at /; instances share
   * the port as TCP's do. Then the dashboard's verticle, which feeds the live view.
   */
  private Future<Void> deployHttp(ServerSettings settings, ShardDirectory directory) {
    // One for the whole port, so wrong tokens count per address whichever feature they are tried on.
    try {
      bearerToken = settings.defences().authTokenFile().isPresent()
          ? BearerToken.fromFile(settings.defences().authTokenFile().get(), instance.clock())
          : new BearerToken(settings.http().authToken(), instance.clock());
    } catch (java.io.IOException e) {
      return Future.failedFuture(new IllegalArgumentException("--auth-token-file: " + e.getMessage(), e));
    }
    BearerToken token = bearerToken;
    token.file().ifPresent(file -> watches.add(FileWatch.start(vertx, List.of(file), token::reload)));
    boolean authenticated = token.required() || settings.defences().tls().flatMap(TlsSettings::clientCa).isPresent();
    ProtectedMode protectedMode = ProtectedMode.of(settings.defences().protectedMode(), authenticated);
    warnIfExposed(settings, authenticated, protectedMode);
    WebSocketBridge bridge = new WebSocketBridge(instance, directory, token, settings.limits(), durations(), closers,
        protectedMode);
    List<HttpFeature> features = new ArrayList<>();
    // First the public read-only probes, which orchestrators and scrapers reach by any name; the
    // guard then checks Host and Origin for everything after it.
    if (metrics != null) {
      // One for every front, so that scrapes arriving on different loops share one rendering.
      MetricsScrape scrape = new MetricsScrape(vertx, metrics);
      BearerToken metricsToken = settings.defences().metricsAuth() ? token : null;
      features.add(HttpFeature.at("/metrics", () -> new Endpoint(List.of(), metricsToken, scrape::serve)));
    }
    features.add(new Health(directory, () -> {
      if (cluster != null) {
        java.util.Optional<String> joining = cluster.node().notReady();
        if (joining.isPresent()) {
          return joining;
        }
      }
      return java.util.Optional.ofNullable(persistence.failure());
    }, meters()));
    features.add(new RequestGuard(settings.http()));
    if (cluster != null) {
      features.add(HttpFeature.at("/api/cluster", () -> cluster.api(token)));
    }
    features.add(HttpFeature.at("/ws", bridge::handler));
    CheckApi checkApi = new CheckApi(policies, directory, token, meters(), limitActivity, instance.clock(),
        callers);
    checkApi.mounts().forEach((path, handler) -> features.add(HttpFeature.at(path, handler)));
    features.add(rls.json(token));
    features.add(rls.dashboardApi(token));
    // Last: the dashboard serves its page at "/" and so would match every path.
    DashboardData dashboardData = new DashboardData(policies, limitActivity, rls.stats(), settings.operator(),
        lastReload, closers, cluster != null, callers);
    features.add(new Dashboard(instance, directory, token, dashboardData, protectedMode,
        persistence));
    // -2, not -1: Vert.x shares one random port among servers given the same negative value.
    int port = settings.http().port() == 0 ? -2 : settings.http().port();
    List<HttpFrontVerticle> fronts = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      HttpFrontVerticle front = new HttpFrontVerticle(settings.http().bind(), port, settings.limits().maxFrame(),
          features, guards);
      fronts.add(front);
      deployed.add(track(vertx.deployVerticle(front)));
    }
    httpFronts.addAll(fronts);
    return Future.all(deployed).compose(v -> {
      httpPort = fronts.get(0).actualPort();
      return track(vertx.deployVerticle(new DashboardVerticle(instance, directory, DASHBOARD_PERIOD_MILLIS,
          dashboardData, persistence)));
    }).mapEmpty();
  }

  /**
   * Redis's warning: a listener reachable from the network, and no client has to prove who it is.
   * The Throttr and UDP protocols have no authentication of their own, so only mutual TLS (for
   * Throttr) or the network itself protects them.
   */
  private static void warnIfExposed(ServerSettings settings, boolean authenticated, ProtectedMode protectedMode) {
    List<String> exposed = new ArrayList<>();
    if (!ProtectedMode.bindsLoopbackOnly(settings.tcp().bind())) {
      exposed.add("Throttr on " + settings.tcp().bind());
    }
    if (!ProtectedMode.bindsLoopbackOnly(settings.http().bind())) {
      exposed.add("HTTP on " + settings.http().bind());
    }
    if (!ProtectedMode.bindsLoopbackOnly(settings.udp().bind())) {
      exposed.add("UDP on " + settings.udp().bind());
    }
    if (!exposed.isEmpty() && !authenticated) {
      LOG.log(System.Logger.Level.WARNING, String.join(", ", exposed) + " listen beyond loopback with neither "
          + "--auth-token nor --tls-client-ca: anyone who reaches them may use them (Throttr and UDP have no "
          + "authentication in their protocols). " + (protectedMode.active()
          ? "Protected mode: the dashboard API and the WebSocket bridge take writes from loopback clients only."
          : "Protected mode is off (--protected-mode no): the dashboard API and WebSocket bridge take writes from anyone."));
    }
  }

  /** One UDP socket; its rate state lives in the shards. */
  private Future<Void> deployUdp(ServerSettings settings, ShardDirectory directory) {
    UdpVerticle udp = new UdpVerticle(settings.udp().bind(), settings.udp().port(), settings.udp().rules(), directory,
        instance.clock(), meters(), instance.udpPeers(), limitActivity, durations(), settings.udp().maxStatsKeys());
    return track(vertx.deployVerticle(udp)).map(id -> {
      udpPort = udp.actualPort();
      udpFront = udp;
      return null;
    });
  }

  /**
   * Replaces the policies of the check API and the dashboard (a reload); keys' states stay in the
   * shards. Returns what changed, for the reload's log.
   */
  public PolicyChanges replacePolicies(Policies next) {
    return policies.replace(next);
  }

  /** Where a reload leaves its report, which {@code GET /api/admin/config} shows. */
  public LastReload lastReload() {
    return lastReload;
  }

  /** Replaces the UDP rule table (a reload); rate state and statistics stay. */
  public void replaceUdpRules(io.sluice.protocol.udp.rules.RuleSet rules) {
    udpFront.replaceRules(rules);
  }

  /** {@code sluice_request_duration_seconds} in the scraped registry, or nowhere. */
  private RequestDurations durations() {
    return new RequestDurations(meters());
  }

  /**
   * Envoy's rate limit service over gRPC (h2c), one instance per front event loop sharing the port;
   * then the watch of its config files. No listener when the port is -1.
   */
  private Future<Void> deployGrpc(ServerSettings settings) {
    rls.watch();
    if (settings.rls().port() < 0) {
      return Future.succeededFuture();
    }
    // -3: one random port shared by these servers, apart from the HTTP front's -2.
    int port = settings.rls().port() == 0 ? -3 : settings.rls().port();
    List<GrpcFrontVerticle> fronts = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      GrpcFrontVerticle front = new GrpcFrontVerticle(settings.rls().bind(), port, rls, guards,
          settings.limits().maxPendingBytes());
      fronts.add(front);
      deployed.add(track(vertx.deployVerticle(front)));
    }
    return Future.all(deployed).map(v -> {
      grpcPort = fronts.get(0).actualPort();
      return null;
    });
  }

  /** Where counters go: the scraped registry, or nowhere when this server has none. */
  private MeterRegistry meters() {
    return metrics != null ? metrics : NO_METRICS;
  }

  private void closeStandardMetrics() {
    if (standardMetrics != null) {
      try {
        standardMetrics.close();
      } catch (Exception e) {
        System.getLogger(SluiceServer.class.getName()).log(System.Logger.Level.DEBUG, "closing the JVM metrics", e);
      }
    }
  }

  private Future<String> track(Future<String> deployment) {
    return deployment.onSuccess(deployments::add);
  }

  /** This node's part in the cluster, or empty for a single node. */
  public java.util.Optional<ClusterDeployment> cluster() {
    return java.util.Optional.ofNullable(cluster);
  }

  /**
   * The first half of a clean stop (SIGTERM): the Throttr and HTTP listeners stop accepting, every
   * connection answers the requests it has read and closes, and whatever is still open after
   * {@code timeout} is closed. Completes when all are closed; {@link #stop()} then undeploys.
   */
  public Future<Void> drain(java.time.Duration timeout) {
    List<Future<Void>> closing = new ArrayList<>();
    tcpFronts.forEach(front -> closing.add(front.shutdown(timeout)));
    httpFronts.forEach(front -> closing.add(front.shutdown(timeout)));
    return Future.join(closing).mapEmpty();
  }

  /**
   * Undeploys the fronts first, so no request reaches a shard that is gone; a cluster node first
   * hands its partitions over (a graceful leave).
   */
  public Future<Void> stop() {
    Future<Void> handedOver = cluster == null ? Future.succeededFuture() : cluster.leave();
    return handedOver.eventually(this::undeploy);
  }

  private Future<Void> undeploy() {
    vertx.cancelTimer(metricsTimer);
    if (rls != null) {
      rls.stopWatching();
    }
    watches.forEach(FileWatch::stop);
    List<String> reversed = new ArrayList<>(deployments);
    java.util.Collections.reverse(reversed);
    Future<Void> chain = Future.succeededFuture();
    for (String id : reversed) {
      chain = chain.compose(v -> vertx.undeploy(id));
    }
    return chain.onComplete(v -> {
      closeStandardMetrics();
      vertx.eventBus().unregisterDefaultCodec(ShardParcel.class);
      vertx.eventBus().unregisterDefaultCodec(ChannelMessage.class);
    });
  }
}
