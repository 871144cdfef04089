package io.sluice.verticles.server;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.channel.ChannelMessage;
import io.sluice.verticles.server.check.CheckApi;
import io.sluice.verticles.server.bus.LocalObjectCodec;
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
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.server.persistence.PersistenceMetrics;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.vertx.core.Future;
import io.sluice.verticles.server.dashboard.Dashboard;
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

  private static final MeterRegistry NO_METRICS = new CompositeMeterRegistry();

  private final Vertx vertx;
  private final Instance instance;
  private final List<String> deployments = new ArrayList<>();
  private ShardDirectory directory;
  private PersistentShards persistence = PersistentShards.none();
  private long metricsTimer = -1;
  private int tcpPort;
  private int httpPort;
  private int udpPort;

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
    vertx.eventBus().registerDefaultCodec(ChannelMessage.class, new LocalObjectCodec<>(ChannelMessage.class));
    directory = new ShardDirectory(settings.shards());
    if (metrics != null) {
      directory.observeParcelSizes(SluiceMetrics.parcelSizes(metrics)::record);
    }
    List<Store> stores = new ArrayList<>();
    for (int i = 0; i < settings.shards(); i++) {
      stores.add(new Store(instance.clock(), instance.startedAtNanos()));
    }
    if (metrics != null) {
      SluiceMetrics.bind(metrics, instance, stores);
    }
    metricsTimer = vertx.setPeriodic(1000, id -> instance.counters().rollTo(instance.currentWindow()));
    return PersistentShards.load(vertx, settings.persistence(), stores, settings.valueSize(), instance.clock())
        .compose(loaded -> {
          persistence = loaded;
          if (metrics != null && loaded.enabled()) {
            PersistenceMetrics.bind(metrics, loaded);
          }
          return deployShards(settings, stores);
        })
        .compose(v -> deployTcp(settings, directory))
        .compose(v -> deployHttp(settings, directory))
        .compose(v -> deployUdp(settings, directory));
  }

  /** One verticle per shard, each listening to its store's changes when persisting. */
  private Future<?> deployShards(ServerSettings settings, List<Store> stores) {
    List<Future<String>> shards = new ArrayList<>();
    for (int i = 0; i < stores.size(); i++) {
      Store store = stores.get(i);
      ShardPersistence log = null;
      if (persistence.enabled()) {
        log = persistence.shard(i);
        store.listen(log);
      }
      ThrottrShard shard = new ThrottrShard(store, settings.valueSize());
      shards.add(track(vertx.deployVerticle(new ShardVerticle(i, shard, directory, settings.sweepIntervalMillis(),
          log))));
    }
    return Future.all(shards);
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
          settings.limits());
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
    WebSocketBridge bridge = new WebSocketBridge(instance, directory, token, settings.limits());
    List<HttpFeature> features = new ArrayList<>();
    // First the public read-only probes, which orchestrators and scrapers reach by any name; the
    // guard then checks Host and Origin for everything after it.
    if (metrics != null) {
      features.add(HttpFeature.at("/metrics", () -> PrometheusScrapingHandler.create(metrics)));
    }
    features.add(new Health(directory, () -> persistence.failure()));
    features.add(new RequestGuard(settings.http()));
    features.add(HttpFeature.at("/ws", bridge::handler));
    new CheckApi(settings.policies(), directory, token, meters()).mounts()
        .forEach((path, handler) -> features.add(HttpFeature.at(path, handler)));
    // Last: the dashboard serves its page at "/" and so would match every path.
    features.add(new Dashboard(instance, directory, token, persistence));
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
      return track(vertx.deployVerticle(new DashboardVerticle(instance, directory, DASHBOARD_PERIOD_MILLIS, persistence)));
    }).mapEmpty();
  }

  /** One UDP socket; its rate state lives in the shards. */
  private Future<Void> deployUdp(ServerSettings settings, ShardDirectory directory) {
    UdpVerticle udp = new UdpVerticle(settings.udp().bind(), settings.udp().port(), settings.udp().rules(), directory,
        instance.clock(), meters(), instance.udpPeers());
    return track(vertx.deployVerticle(udp)).map(id -> {
      udpPort = udp.actualPort();
      return null;
    });
  }

  /** Where counters go: the scraped registry, or nowhere when this server has none. */
  private MeterRegistry meters() {
    return metrics != null ? metrics : NO_METRICS;
  }

  private Future<String> track(Future<String> deployment) {
    return deployment.onSuccess(deployments::add);
  }

  /** Undeploys the fronts first, so no request reaches a shard that is gone. */
  public Future<Void> stop() {
    vertx.cancelTimer(metricsTimer);
    List<String> reversed = new ArrayList<>(deployments);
    java.util.Collections.reverse(reversed);
    Future<Void> chain = Future.succeededFuture();
    for (String id : reversed) {
      chain = chain.compose(v -> vertx.undeploy(id));
    }
    return chain.onComplete(v -> {
      vertx.eventBus().unregisterDefaultCodec(ShardParcel.class);
      vertx.eventBus().unregisterDefaultCodec(ChannelMessage.class);
    });
  }
}
