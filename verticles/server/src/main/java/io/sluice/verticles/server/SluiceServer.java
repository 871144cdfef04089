package io.sluice.verticles.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.engine.browse.KeyPageScanCodec;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.shard.ScanCodec;
import io.sluice.verticles.engine.shard.TaskCodec;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.rls.StrategyTaskCodec;
import io.sluice.verticles.rls.WindowCounterCodec;
import io.sluice.verticles.server.bus.LocalObjectCodec;
import io.sluice.verticles.server.pubsub.ChannelMessage;
import io.sluice.verticles.server.pubsub.ChannelFanOut;
import io.sluice.verticles.server.pubsub.HistoryCodecs;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.server.pubsub.ChannelMessageCodec;
import io.sluice.verticles.server.check.LimitTaskCodec;
import io.sluice.verticles.server.check.LivePolicies;
import io.sluice.verticles.server.cluster.ClientAddresses;
import io.sluice.verticles.server.cluster.ClusterDeployment;
import io.sluice.verticles.server.listener.ConnectionGate;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.grpc.EnvoyRateLimit;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.reload.LastReload;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardParcel;
import io.sluice.verticles.server.listener.TlsReloads;
import io.sluice.verticles.server.udp.UdpRateCodecs;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.PolicyChanges;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Deploys one Sluice instance on a Vert.x: the storage shard verticles first (each on its own event
 * loop, reached over the event bus), then the front verticles that talk to them.
 */
public final class SluiceServer {

  private final ServerWide wide;
  private final FileReloads files;
  private final StorageDeployment storage;
  private final EnvoyRateLimit rls;
  private final Listeners listeners;

  private SluiceServer(ServerWide wide, FileReloads files, StorageDeployment storage, EnvoyRateLimit rls,
                       Listeners listeners) {
    this.wide = wide;
    this.files = files;
    this.storage = storage;
    this.rls = rls;
    this.listeners = listeners;
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
      ServerWide wide = ServerWide.of(vertx, instance, new ServerMetrics(vertx, metrics),
          new LivePolicies(settings.policies()));
      return deploy(wide, settings);
    });
  }

  public Instance instance() {
    return wide.instance();
  }

  /** The HTTP port actually bound (WebSocket bridge at /ws, check API at /v1). */
  public int httpPort() {
    return listeners.httpPort();
  }

  /** The UDP port actually bound. */
  public int udpPort() {
    return listeners.udpPort();
  }

  /** Where the storage shards are: code that embeds Sluice sends its own {@link io.sluice.verticles.engine.shard.ShardTask}s through it. */
  public ShardDirectory shards() {
    return storage.directory();
  }

  /** The gRPC port of Envoy's rate limit service actually bound; -1 when it has none. */
  public int grpcPort() {
    return listeners.grpcPort();
  }

  /** Envoy's rate limit service: its statistics, and {@code reload()} of its config. */
  public EnvoyRateLimit rateLimitService() {
    return rls;
  }

  /** The Throttr TCP port actually bound. */
  public int tcpPort() {
    return listeners.tcpPort();
  }

  /**
   * Reads again what files give a running server: the TLS certificate, key and client CA, and the
   * auth token file. Also done by itself when one of those files changes; a signal handler may call
   * it too. Files that do not load leave what was in use, and say so in the log.
   */
  public Future<Void> reload() {
    return files.reload();
  }

  /** The stores and shards first, then (on a cluster node) the cluster, then the listeners. */
  private static Future<SluiceServer> deploy(ServerWide wide, ServerSettings settings) {
    Vertx vertx = wide.vertx();
    Clock clock = wide.instance().clock();
    FileReloads files = new FileReloads(vertx, settings.defences(), wide.metrics().meters());
    ListenerGuards guards = new ListenerGuards(settings.defences(), files.tls(),
        new ConnectionGate(settings.defences().maxConnections(), wide.metrics().meters(), clock), clock);
    vertx.eventBus().registerDefaultCodec(ShardParcel.class, new LocalObjectCodec<>(ShardParcel.class));
    vertx.eventBus().registerDefaultCodec(ChannelMessage.class, new ChannelMessageCodec());
    StorageDeployment storage = StorageDeployment.create(wide, settings);
    wide.metrics().bind(wide.instance(), storage.stores(), storage.directory(), settings.operator());
    EnvoyRateLimit rls = new EnvoyRateLimit(vertx, settings.rls(), storage.directory(), clock, wide.metrics().meters(),
        wide.callers());
    Listeners listeners = new Listeners(wide, settings, guards);
    SluiceServer server = new SluiceServer(wide, files, storage, rls, listeners);
    return storage.start(settings, () -> travellingWork(wide.policies(), settings.limits().history(), ChannelFanOut.messages(vertx)))
        .compose(v -> listeners.start(storage, rls, files))
        .compose(v -> storage.cluster().map(cluster -> cluster.publish(clientAddresses(settings, listeners)))
            .orElse(Future.succeededFuture()))
        .map(server);
  }

  /** Where clients reach this node's listeners, now bound: what a cluster node publishes. */
  private static ClientAddresses clientAddresses(ServerSettings settings, Listeners listeners) {
    String host = settings.cluster().host();
    return new ClientAddresses(ClientAddresses.of(settings.tcp().bind(), listeners.tcpPort(), host),
        ClientAddresses.of(settings.http().bind(), listeners.httpPort(), host),
        listeners.grpcPort() < 0 ? null : ClientAddresses.of(settings.rls().bind(), listeners.grpcPort(), host));
  }

  /**
   * What runs on a key's owner when that is another node, besides Throttr requests and key
   * lookups: the check API's checks, the UDP protocol's rate steps and get_size counts, Envoy's
   * window counters, the dashboard's key pages, the channels' history. The same codecs on every node; each names its work
   * on the wire by its own fixed id, so their order here does not matter.
   */
  private static TaskCodecs travellingWork(LivePolicies policies, HistoryLimits history, ChannelFanOut fanOut) {
    List<TaskCodec<?>> tasks = new ArrayList<>();
    tasks.addAll(HistoryCodecs.tasks(history, fanOut::publish));
    tasks.add(new LimitTaskCodec(policies));
    tasks.addAll(UdpRateCodecs.tasks());
    tasks.add(new WindowCounterCodec());
    tasks.add(new StrategyTaskCodec());
    List<ScanCodec<?>> scans = new ArrayList<>(UdpRateCodecs.scans());
    scans.add(new KeyPageScanCodec());
    return TaskCodecs.of(tasks).withScans(scans);
  }

  /** The persistence of the shards (nothing when not persisting): for probes, metrics, the dashboard. */
  public PersistentShards persistence() {
    return storage.persistence();
  }

  /**
   * Replaces the policies of the check API and the dashboard (a reload); keys' states stay in the
   * shards. Returns what changed, for the reload's log.
   */
  public PolicyChanges replacePolicies(Policies next) {
    return wide.policies().replace(next);
  }

  /** Where a reload leaves its report, which {@code GET /api/admin/config} shows. */
  public LastReload lastReload() {
    return wide.lastReload();
  }

  /** Replaces the UDP rule table (a reload); rate state and statistics stay. */
  public void replaceUdpRules(io.sluice.protocol.udp.rules.RuleSet rules) {
    listeners.replaceUdpRules(rules);
  }

  /** This node's part in the cluster, or empty for a single node. */
  public Optional<ClusterDeployment> cluster() {
    return storage.cluster();
  }

  /**
   * The first half of a clean stop (SIGTERM): the Throttr and HTTP listeners stop accepting, every
   * connection answers the requests it has read and closes, and whatever is still open after
   * {@code timeout} is closed. Completes when all are closed; {@link #stop()} then undeploys.
   */
  public Future<Void> drain(java.time.Duration timeout) {
    return listeners.drain(timeout);
  }

  /**
   * Undeploys the fronts first, so no request reaches a shard that is gone; a cluster node first
   * hands its partitions over (a graceful leave).
   */
  public Future<Void> stop() {
    return storage.leave().eventually(this::undeploy);
  }

  private Future<Void> undeploy() {
    Vertx vertx = wide.vertx();
    wide.metrics().stopWindows();
    rls.stopWatching();
    files.stopWatching();
    return wide.deployments().undeployAll().onComplete(v -> {
      wide.metrics().close();
      vertx.eventBus().unregisterDefaultCodec(ShardParcel.class);
      vertx.eventBus().unregisterDefaultCodec(ChannelMessage.class);
    });
  }
}
