package io.sluice.verticles.server.kit;

import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.cluster.ClusterNode;
import io.sluice.verticles.server.cluster.ClusterSettings;
import io.sluice.verticles.server.cluster.HazelcastSetup;
import io.sluice.verticles.server.cluster.MemberCredentials;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.udp.UdpSettings;
import io.sluice.verticles.strategies.policy.Policies;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * One node of a cluster on loopback, in this JVM: its own Vert.x, its own Hazelcast member, its
 * own listeners on ephemeral ports. Nodes of one test share a clock, as machines share real time.
 */
public final class ClusterNodeUnderTest implements AutoCloseable {

  private static final String LOOPBACK = "127.0.0.1";
  /** The name every test cluster has, which a rogue member joins with too. */
  public static final String CLUSTER_NAME = "sluice-test";
  /** Hazelcast tells every connection attempt at INFO; the tests' output keeps its warnings. */
  private static final java.util.logging.Logger HAZELCAST_LOG = java.util.logging.Logger.getLogger("com.hazelcast");

  static {
    HAZELCAST_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  private final Vertx vertx;
  private final SluiceServer server;
  private final int clusterPort;
  private final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private boolean closed;

  private ClusterNodeUnderTest(int clusterPort, List<Integer> join, int backups, ValueSize size, Clock clock,
                               Policies policies, Fronts fronts) {
    this(clusterPort, join, backups, size, clock, policies, fronts, SluiceUnderTest.defaults().shards(),
        MemberCredentials.NONE);
  }

  private ClusterNodeUnderTest(int clusterPort, List<Integer> join, int backups, ValueSize size, Clock clock,
                               Policies policies, Fronts fronts, int shards, MemberCredentials credentials) {
    this.clusterPort = clusterPort;
    ClusterSettings cluster = new ClusterSettings(true, LOOPBACK, clusterPort,
        join.stream().map(port -> LOOPBACK + ":" + port).toList(), CLUSTER_NAME, backups, Optional.empty(),
        credentials);
    this.vertx = await(HazelcastSetup.clusteredVertx(Vertx.builder(), new VertxOptions().setEventLoopPoolSize(2),
        cluster, size));
    ServerSettings settings = SluiceUnderTest.defaults().withValueSize(size)
        .withUdp(UdpSettings.defaults().withRules(fronts.udpRules())).withPolicies(policies).withCluster(cluster)
        .withRls(fronts.rls()).withHttp(fronts.http()).withShards(shards)
        .withLimits(ConnectionLimits.defaults().withHistory(fronts.history()));
    this.server = await(SluiceServer.start(vertx, settings, SluiceUnderTest.VERSION, clock, metrics));
  }

  /**
   * What the UDP and Envoy fronts of every node decide with (every node of a cluster loads the same
   * files), the HTTP port's settings (the WebSocket bridge's keys, say) and the channels' history.
   */
  public record Fronts(RuleSet udpRules, RlsSettings rls, HttpSettings http, HistoryLimits history) {
    public static final Fronts DEFAULT = new Fronts(RuleSet.allowAll(), RlsSettings.disabled());

    public Fronts(RuleSet udpRules, RlsSettings rls) {
      this(udpRules, rls, HttpSettings.defaults(), HistoryLimits.OFF);
    }

    public static Fronts withHttp(HttpSettings http) {
      return new Fronts(RuleSet.allowAll(), RlsSettings.disabled(), http, HistoryLimits.OFF);
    }

    /** Channels keep {@code history} ({@code --channel-history}). */
    public Fronts withHistory(HistoryLimits history) {
      return new Fronts(udpRules, rls, http, history);
    }
  }

  /** A node joining the nodes at {@code join}, proving {@code credentials} to them (one backup). */
  public static ClusterNodeUnderTest start(List<Integer> join, MemberCredentials credentials, Clock clock) {
    return new ClusterNodeUnderTest(freePort(), join, 1, ValueSize.UINT16, clock, Policies.none(), Fronts.DEFAULT,
        SluiceUnderTest.defaults().shards(), credentials);
  }

  /** A node alone in its cluster (one backup, none placed) whose HTTP port is set by {@code http}: its token, say. */
  public static ClusterNodeUnderTest startAlone(HttpSettings http, Clock clock) {
    return new ClusterNodeUnderTest(freePort(), List.of(), 1, ValueSize.UINT16, clock, Policies.none(), Fronts.withHttp(http),
        SluiceUnderTest.defaults().shards(), MemberCredentials.NONE);
  }

  /**
   * A node on the cluster port {@code clusterPort} (from {@link #freePort}), looking for the nodes
   * at {@code join}: to start one before the node it names, which then makes a cluster of its own.
   */
  public static ClusterNodeUnderTest startOn(int clusterPort, List<Integer> join, Clock clock) {
    return new ClusterNodeUnderTest(clusterPort, join, 1, ValueSize.UINT16, clock, Policies.none(), Fronts.DEFAULT);
  }

  /** Starts a node joining the nodes at {@code join} (their cluster ports). */
  public static ClusterNodeUnderTest start(List<Integer> join, int backups, Clock clock) {
    return new ClusterNodeUnderTest(freePort(), join, backups, ValueSize.UINT16, clock, Policies.none(), Fronts.DEFAULT);
  }

  /** A node of {@code shards} shard verticles (the others' count may differ), without backups. */
  public static ClusterNodeUnderTest startWithShards(List<Integer> join, int shards, Clock clock) {
    return new ClusterNodeUnderTest(freePort(), join, 0, ValueSize.UINT16, clock, Policies.none(), Fronts.DEFAULT,
        shards, MemberCredentials.NONE);
  }

  public static ClusterNodeUnderTest start(List<Integer> join, int backups, ValueSize size, Clock clock,
                                           Policies policies) {
    return new ClusterNodeUnderTest(freePort(), join, backups, size, clock, policies, Fronts.DEFAULT);
  }

  /** Three nodes with {@code backups}, the second and third joining the first, once they serve. */
  public static List<ClusterNodeUnderTest> formThree(int backups, Clock clock, Policies policies) {
    return formThree(backups, clock, policies, Fronts.DEFAULT);
  }

  /** Three nodes whose UDP and Envoy fronts decide with {@code fronts}. */
  public static List<ClusterNodeUnderTest> formThree(int backups, Clock clock, Policies policies, Fronts fronts) {
    List<ClusterNodeUnderTest> nodes = new java.util.ArrayList<>();
    ClusterNodeUnderTest first = new ClusterNodeUnderTest(freePort(), List.of(), backups, ValueSize.UINT16, clock,
        policies, fronts);
    nodes.add(first);
    for (int i = 0; i < 2; i++) {
      nodes.add(new ClusterNodeUnderTest(freePort(), List.of(first.clusterPort()), backups, ValueSize.UINT16, clock,
          policies, fronts));
    }
    awaitFormed(nodes);
    return nodes;
  }

  /** A Throttr client of this node's TCP front, on {@code clients}. */
  public io.sluice.protocol.binary.client.ThrottrClient client(Vertx clients) {
    return await(io.sluice.protocol.binary.client.ThrottrClient.connect(clients,
        new io.sluice.protocol.binary.client.ThrottrClientOptions().setPort(tcpPort())));
  }

  public static int freePort() {
    return FixedPorts.free();
  }

  /** Polls {@code condition} every 20 ms until it holds, failing after {@code within}. */
  public static void awaitCondition(String what, Duration within, BooleanSupplier condition) {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + within + ": " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** Waits until every change (and copy) the nodes sent their backups so far was applied there. */
  public static void awaitReplicated(List<ClusterNodeUnderTest> nodes) {
    awaitCondition("every change is on its backups", Duration.ofSeconds(10),
        () -> nodes.stream().allMatch(node -> node.node().meters().replicasInFlight() == 0));
  }

  /** Two nodes with one backup, the second joined to the first, formed and serving. */
  public static List<ClusterNodeUnderTest> startPair(Clock clock) {
    return startPair(clock, Fronts.DEFAULT);
  }

  /** Two nodes as {@link #startPair(Clock)}, whose fronts are {@code fronts}. */
  public static List<ClusterNodeUnderTest> startPair(Clock clock, Fronts fronts) {
    ClusterNodeUnderTest first = new ClusterNodeUnderTest(freePort(), List.of(), 1, ValueSize.UINT16, clock,
        Policies.none(), fronts);
    List<ClusterNodeUnderTest> nodes = List.of(first, new ClusterNodeUnderTest(freePort(),
        List.of(first.clusterPort()), 1, ValueSize.UINT16, clock, Policies.none(), fronts));
    awaitFormed(nodes);
    return nodes;
  }

  /** Waits until every one of {@code nodes} counts all of them and serves its partitions. */
  public static void awaitFormed(List<ClusterNodeUnderTest> nodes) {
    awaitCondition(nodes.size() + " nodes form a cluster and serve", Duration.ofSeconds(30), () -> nodes.stream()
        .allMatch(node -> node.node().table().members().size() == nodes.size() && node.node().ready()));
  }

  public int clusterPort() {
    return clusterPort;
  }

  public int tcpPort() {
    return server.tcpPort();
  }

  public int httpPort() {
    return server.httpPort();
  }

  public int grpcPort() {
    return server.grpcPort();
  }

  public int udpPort() {
    return server.udpPort();
  }

  public Vertx vertx() {
    return vertx;
  }

  public SluiceServer server() {
    return server;
  }

  public ClusterNode node() {
    return server.cluster().orElseThrow().node();
  }

  /** The member that owns {@code key} by {@code node}'s table: a cluster's routes are its partitions. */
  public static String ownerOf(ClusterNode node, byte[] key) {
    return node.table().owner(ShardRouter.routeOf(key, PartitionTable.PARTITIONS));
  }

  public PrometheusMeterRegistry metrics() {
    return metrics;
  }

  /** This node's Hazelcast member. */
  public com.hazelcast.core.HazelcastInstance hazelcast() {
    return ((HazelcastClusterManager) ((VertxInternal) vertx).clusterManager()).getHazelcastInstance();
  }

  /** Ends the member abruptly, as a crash would: no handoff, no goodbye to Hazelcast. */
  public void crash() {
    closed = true;
    hazelcast().getLifecycleService().terminate();
    vertx.close();
  }

  /** Leaves gracefully (hands its partitions over), then stops. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      await(server.stop().eventually(vertx::close));
    }
  }
}
