package io.sluice.verticles.server.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.YamlConfigBuilder;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * The Hazelcast member of a node: its name, its TCP join (never multicast) or the operator's own
 * YAML, the member attribute every node checks ({@link #VALUE_SIZE}), and failure detection tuned
 * for seconds, not Hazelcast's default minute.
 */
public final class HazelcastSetup {

  /** The member attribute carrying a node's {@code --value-size}: nodes must agree on it. */
  public static final String VALUE_SIZE = "sluice.value-size";

  /**
   * The member attribute carrying a node's id in the partition table ({@link NodeIdentity}): kept
   * across restarts with a data directory, where Hazelcast's member UUID is new at every start.
   */
  public static final String NODE_ID = "sluice.node-id";

  /** A member named in --cluster-members that does not answer delays the join by at most this. */
  static final int JOIN_TIMEOUT_SECONDS = 10;
  /** An event-bus connection that sent nothing this long (members ping every 20 s) is closed. */
  static final int EVENT_BUS_READ_IDLE_SECONDS = 60;

  private HazelcastSetup() {
  }

  /**
   * Builds a Vert.x that is a member of the cluster: its Hazelcast member joined (or the join
   * timed out alone), its event bus bound to the cluster host.
   */
  public static io.vertx.core.Future<io.vertx.core.Vertx> clusteredVertx(io.vertx.core.VertxBuilder builder,
      io.vertx.core.VertxOptions options, ClusterSettings settings, ValueSize valueSize) {
    return clusteredVertx(builder, options, settings, valueSize, java.util.UUID.randomUUID().toString());
  }

  /** The same, for a node whose id in the partition table is {@code nodeId} ({@link NodeIdentity}). */
  public static io.vertx.core.Future<io.vertx.core.Vertx> clusteredVertx(io.vertx.core.VertxBuilder builder,
      io.vertx.core.VertxOptions options, ClusterSettings settings, ValueSize valueSize, String nodeId) {
    // Members ping each other's connections every 20 s: a connection silent for three pings is not a member's.
    options.getEventBusOptions().setHost(settings.host()).setPort(0)
        .setReadIdleTimeout(EVENT_BUS_READ_IDLE_SECONDS).setIdleTimeoutUnit(java.util.concurrent.TimeUnit.SECONDS);
    java.util.Optional<MemberTls> tls;
    try {
      tls = MemberTls.of(settings.credentials(), nodeId, Clock.SYSTEM);
    } catch (IllegalArgumentException unusable) {
      return io.vertx.core.Future.failedFuture(unusable);
    }
    tls.ifPresent(memberTls -> memberTls.configure(options.getEventBusOptions()));
    return builder.with(options).withClusterManager(clusterManager(settings, valueSize, nodeId)).buildClustered()
        .compose(vertx -> {
          try {
            EventBusGuard.install(vertx, Clock.SYSTEM);
            if (settings.credentials().required()) {
              MemberTls.watch(vertx, settings.credentials(), nodeId, Clock.SYSTEM);
              EventBusHandshakeLog.install(Clock.SYSTEM);
            }
            return io.vertx.core.Future.succeededFuture(vertx);
          } catch (IllegalStateException unguarded) {
            return vertx.close().transform(closed -> io.vertx.core.Future.failedFuture(unguarded));
          }
        });
  }

  public static HazelcastClusterManager clusterManager(ClusterSettings settings, ValueSize valueSize, String nodeId) {
    Config config = settings.configFile().map(HazelcastSetup::readYaml).orElseGet(() -> tcpJoin(settings));
    config.setClusterName(settings.name());
    config.getMemberAttributeConfig().setAttribute(VALUE_SIZE, valueSize.label());
    config.getMemberAttributeConfig().setAttribute(NODE_ID, nodeId);
    // Vert.x's own maps and locks need no more than its defaults; what Sluice needs is to notice
    // a dead member within seconds (kill -9 closes its sockets, so usually much sooner).
    setIfAbsent(config, "hazelcast.heartbeat.interval.seconds", "1");
    setIfAbsent(config, "hazelcast.max.no.heartbeat.seconds", "5");
    setIfAbsent(config, "hazelcast.max.join.seconds", String.valueOf(JOIN_TIMEOUT_SECONDS));
    setIfAbsent(config, "hazelcast.wait.seconds.before.join", "0");
    setIfAbsent(config, "hazelcast.logging.type", "jdk");
    setIfAbsent(config, "hazelcast.phone.home.enabled", "false");
    setIfAbsent(config, "hazelcast.shutdownhook.enabled", "false");
    // Listen on the cluster host only: by default Hazelcast binds its port on every address even
    // when its interfaces are named, which exposes the member port beyond --cluster-host.
    setIfAbsent(config, "hazelcast.socket.bind.any", "false");
    HazelcastConnectionLog.install(Clock.SYSTEM);
    return new HazelcastClusterManager(config);
  }

  private static Config tcpJoin(ClusterSettings settings) {
    Config config = new Config();
    config.getNetworkConfig().setPort(settings.port()).setPortAutoIncrement(false);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface(settings.host());
    config.getNetworkConfig().setPublicAddress(settings.host() + ":" + settings.port());
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(JOIN_TIMEOUT_SECONDS / 2);
    join.getTcpIpConfig().addMember(settings.host() + ":" + settings.port());
    settings.members().forEach(member -> join.getTcpIpConfig().addMember(member));
    return config;
  }

  private static Config readYaml(java.nio.file.Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new YamlConfigBuilder(in).build();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Hazelcast configuration " + file + ": " + e.getMessage(), e);
    }
  }

  private static void setIfAbsent(Config config, String property, String value) {
    if (config.getProperty(property) == null) {
      config.setProperty(property, value);
    }
  }
}
