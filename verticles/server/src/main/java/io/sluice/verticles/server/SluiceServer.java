package io.sluice.verticles.server;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.channel.ChannelMessage;
import io.sluice.verticles.server.channel.ChannelMessageCodec;
import io.sluice.verticles.server.check.CheckApi;
import io.sluice.verticles.server.check.LimitTaskCodec;
import io.sluice.verticles.server.bus.LocalObjectCodec;
import io.sluice.verticles.server.shard.HostedRoute;
import io.sluice.verticles.server.cluster.ClusterDeployment;
import io.sluice.verticles.server.cluster.ClusterPartitions;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.sluice.verticles.server.shard.ShardParcel;
import io.sluice.verticles.server.shard.ShardVerticle;
import io.sluice.verticles.server.tcp.ThrottrTcpVerticle;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.HttpFrontVerticle;
import io.sluice.verticles.server.http.RequestGuard;
import io.sluice.verticles.server.udp.UdpVerticle;
import io.sluice.verticles.server.websocket.WebSocketBridge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.server.persistence.PersistenceMetrics;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.vertx.core.Future;
import io.sluice.verticles.server.dashboard.Dashboard;
import io.sluice.verticles.server.dashboard.DashboardData;
import io.sluice.verticles.server.dashboard.DashboardVerticle;
import io.sluice.verticles.server.health.Health;
import io.sluice.verticles.server.http.HttpFeature;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;

/**
 * Deploys one Sluice instance on a Vert.x: the storage shard verticles first (each on its own event
 * loop, reached over the event bus), then the front verticles that talk to them.
 */
public final class SluiceServer {

  /** How often the dashboard's live view moves. */
  private static final long DASHBOARD_PERIOD_MILLIS = 1000;
  /** Why a cluster node refuses --data-dir (see docs/persistence.md and docs/cluster.md). */
  public static final String CLUSTER_PERSISTENCE_REFUSED = "--data-dir is not supported with --cluster yet: each node"
      + " would have to persist the partitions it owns";

  private static final MeterRegistry NO_METRICS = new CompositeMeterRegistry();

  private final Vertx vertx;
  private final Instance instance;
  private final List<String> deployments = new ArrayList<>();
  /** What the rate limits decided, shared by the check API, the UDP endpoint and the dashboard. */
  private final LimitActivity limitActivity = new LimitActivity();
  /** Where client connections register so that the admin API can close them. */
  private final ConnectionClosers closers = new ConnectionClosers();
  private ShardDirectory directory;
  private ClusterDeployment cluster;
  private PersistentShards persistence = PersistentShards.none();
  private long metricsTimer = -1;
  private AutoCloseable standardMetrics;
  private int tcpPort;
  private int httpPort;
  private int udpPort;
  private CheckApi checkApi;
  private UdpVerticle udpFront;

  private final PrometheusMeterRegistry metrics;

  private SluiceServer(Vertx vertx, Instance instance, PrometheusMeterRegistry metrics) {
    this.vertx = vertx;
    this.instance = instance;
    this.metrics = metrics;
  }

  /**
   * @param metrics where Sluice's series go and what {@code /metrics} serves (Vert.x's own series
   *                too, when that Vert.x was built with it); null for none
   */
  public static Future<SluiceServer> start(Vertx vertx, ServerSettings settings, String version, Clock clock,
                                           PrometheusMeterRegistry metrics) {
    Instance instance = Instance.start(version, settings.valueSize(), settings.shards(), clock);
    SluiceServer server = new SluiceServer(vertx, instance, metrics);
    return server.deploy(settings).map(server);
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

  /** The Throttr TCP port actually bound. */
  public int tcpPort() {
    return tcpPort;
  }

  private Future<Void> deploy(ServerSettings settings) {
    vertx.eventBus().registerDefaultCodec(ShardParcel.class, new LocalObjectCodec<>(ShardParcel.class));
    vertx.eventBus().registerDefaultCodec(ChannelMessage.class, new ChannelMessageCodec());
    if (settings.cluster().enabled() && settings.persistence().enabled()) {
      return Future.failedFuture(new IllegalArgumentException(CLUSTER_PERSISTENCE_REFUSED));
    }
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
    ClusterPartitions clustered = partitions;
    return PersistentShards.load(vertx, settings.persistence(), stores, settings.valueSize(), instance.clock())
        .compose(loaded -> {
          persistence = loaded;
          if (metrics != null && loaded.enabled()) {
            PersistenceMetrics.bind(metrics, loaded);
          }
          return clustered == null ? deployShards(settings, stores) : deployPartitions(settings, clustered);
        })
        .compose(v -> clustered == null ? Future.succeededFuture() : ClusterDeployment.start(vertx, clustered,
            settings.cluster(), settings.valueSize(),
            TaskCodecs.of(List.of(new LimitTaskCodec(settings.policies()))), settings.frontInstances(), meters(),
            verticle -> track(vertx.deployVerticle(verticle))).onSuccess(deployment -> cluster = deployment).mapEmpty())
        .compose(v -> listener("Throttr TCP", settings.tcp().bind(), settings.tcp().port(), deployTcp(settings, directory)))
        .compose(v -> listener("HTTP", settings.http().bind(), settings.http().port(), deployHttp(settings, directory)))
        .compose(v -> listener("UDP", settings.udp().bind(), settings.udp().port(), deployUdp(settings, directory)));
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
      shards.add(track(vertx.deployVerticle(new ShardVerticle(i, List.of(new HostedRoute(i, store, shard::execute)),
          directory, settings.sweepIntervalMillis(), log))));
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
          settings.limits(), durations(), closers);
      fronts.add(front);
      deployed.add(track(vertx.deployVerticle(front)));
    }
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
    BearerToken token = new BearerToken(settings.http().authToken(), instance.clock());
    WebSocketBridge bridge = new WebSocketBridge(instance, directory, token, settings.limits(), durations(), closers);
    List<HttpFeature> features = new ArrayList<>();
    // First the public read-only probes, which orchestrators and scrapers reach by any name; the
    // guard then checks Host and Origin for everything after it.
    if (metrics != null) {
      features.add(HttpFeature.at("/metrics", () -> PrometheusScrapingHandler.create(metrics)));
    }
    features.add(new Health(directory, () -> {
      if (cluster != null) {
        java.util.Optional<String> joining = cluster.node().notReady();
        if (joining.isPresent()) {
          return joining;
        }
      }
      return java.util.Optional.ofNullable(persistence.failure());
    }));
    features.add(new RequestGuard(settings.http()));
    if (cluster != null) {
      features.add(HttpFeature.at("/api/cluster", () -> cluster.api()));
    }
    features.add(HttpFeature.at("/ws", bridge::handler));
    checkApi = new CheckApi(settings.policies(), directory, token, meters(), limitActivity, instance.clock());
    checkApi.mounts().forEach((path, handler) -> features.add(HttpFeature.at(path, handler)));
    // Last: the dashboard serves its page at "/" and so would match every path.
    DashboardData dashboardData = new DashboardData(settings.policies(), limitActivity, settings.operator(), closers);
    features.add(new Dashboard(instance, directory, token, dashboardData, persistence));
    // -2, not -1: Vert.x shares one random port among servers given the same negative value.
    int port = settings.http().port() == 0 ? -2 : settings.http().port();
    List<HttpFrontVerticle> fronts = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      HttpFrontVerticle front = new HttpFrontVerticle(settings.http().bind(), port, settings.limits().maxFrame(),
          features);
      fronts.add(front);
      deployed.add(track(vertx.deployVerticle(front)));
    }
    return Future.all(deployed).compose(v -> {
      httpPort = fronts.get(0).actualPort();
      return track(vertx.deployVerticle(new DashboardVerticle(instance, directory, DASHBOARD_PERIOD_MILLIS,
          dashboardData, persistence)));
    }).mapEmpty();
  }

  /** One UDP socket; its rate state lives in the shards. */
  private Future<Void> deployUdp(ServerSettings settings, ShardDirectory directory) {
    UdpVerticle udp = new UdpVerticle(settings.udp().bind(), settings.udp().port(), settings.udp().rules(), directory,
        instance.clock(), meters(), instance.udpPeers(), limitActivity, durations());
    return track(vertx.deployVerticle(udp)).map(id -> {
      udpPort = udp.actualPort();
      udpFront = udp;
      return null;
    });
  }

  /** Replaces the check API's policies (a reload); keys' states stay in the shards. */
  public void replacePolicies(io.sluice.verticles.strategies.policy.Policies policies) {
    checkApi.replacePolicies(policies);
  }

  /** Replaces the UDP rule table (a reload); rate state and statistics stay. */
  public void replaceUdpRules(io.sluice.protocol.udp.rules.RuleSet rules) {
    udpFront.replaceRules(rules);
  }

  /** {@code sluice_request_duration_seconds} in the scraped registry, or nowhere. */
  private RequestDurations durations() {
    return new RequestDurations(meters());
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
   * Undeploys the fronts first, so no request reaches a shard that is gone; a cluster node first
   * hands its partitions over (a graceful leave).
   */
  public Future<Void> stop() {
    Future<Void> handedOver = cluster == null ? Future.succeededFuture() : cluster.leave();
    return handedOver.eventually(this::undeploy);
  }

  private Future<Void> undeploy() {
    vertx.cancelTimer(metricsTimer);
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
