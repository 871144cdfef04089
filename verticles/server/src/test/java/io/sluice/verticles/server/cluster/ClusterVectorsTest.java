package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.tcp.TcpVectorsTest;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.udp.UdpSettings;
import io.sluice.verticles.strategies.policy.Policies;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterAll;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * The spec §9 vectors over TCP against a node of a two-node cluster: the connection's node owns
 * about half of the keys, the other node the rest, so every vector runs through both paths. The
 * two Hazelcast members of a value size are made once; each vector gets fresh servers on them.
 */
class ClusterVectorsTest extends TcpVectorsTest {

  private static final String LOOPBACK = "127.0.0.1";
  private static final Map<ValueSize, List<Vertx>> MEMBERS = new EnumMap<>(ValueSize.class);
  private static final Map<ValueSize, List<ClusterSettings>> SETTINGS = new EnumMap<>(ValueSize.class);

  @AfterAll
  static void closeMembers() {
    MEMBERS.values().forEach(pair -> pair.forEach(member -> await(member.close())));
    MEMBERS.clear();
  }

  private static List<Vertx> members(ValueSize size) {
    return MEMBERS.computeIfAbsent(size, s -> {
      int first = ClusterNodeUnderTest.freePort();
      int second = ClusterNodeUnderTest.freePort();
      String name = "vectors-" + s.label();
      ClusterSettings a = new ClusterSettings(true, LOOPBACK, first, List.of(), name, 1, Optional.empty());
      ClusterSettings b = new ClusterSettings(true, LOOPBACK, second, List.of(LOOPBACK + ":" + first), name, 1,
          Optional.empty());
      SETTINGS.put(s, List.of(a, b));
      return List.of(
          await(HazelcastSetup.clusteredVertx(Vertx.builder(), new VertxOptions().setEventLoopPoolSize(2), a, s)),
          await(HazelcastSetup.clusteredVertx(Vertx.builder(), new VertxOptions().setEventLoopPoolSize(2), b, s)));
    });
  }

  private static ServerSettings settings(ValueSize size, ClusterSettings cluster) {
    return new ServerSettings(size, 2, 2, 100, new ConnectionLimits(8096, 1 << 20, 65_536), new TcpSettings(LOOPBACK, 0),
        new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), new UdpSettings(LOOPBACK, 0, RuleSet.allowAll()),
        Policies.none(), cluster);
  }

  @Override
  protected SluiceUnderTest startServer(ValueSize size) {
    List<Vertx> pair = members(size);
    List<ClusterSettings> clusters = SETTINGS.get(size);
    ManualClock clock = new ManualClock();
    SluiceServer other = await(SluiceServer.start(pair.get(1), settings(size, clusters.get(1)), SluiceUnderTest.VERSION,
        clock, null));
    SluiceUnderTest served = new SluiceUnderTest(pair.get(0), settings(size, clusters.get(0)), clock,
        () -> await(other.stop()));
    ClusterNode mine = served.server().cluster().orElseThrow().node();
    ClusterNode theirs = other.cluster().orElseThrow().node();
    ClusterNodeUnderTest.awaitCondition("two nodes serve", Duration.ofSeconds(30), () ->
        mine.table().members().size() == 2 && theirs.table().members().size() == 2 && mine.ready() && theirs.ready());
    return served;
  }
}
