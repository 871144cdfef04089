package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.EventBus;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A genuine member whose admission asks go unanswered for a whole window (as after a merge under
 * load, when the bus's connections are made again) is refused, then asked again: once the asks are
 * answered it is admitted, counted, and serves its partitions. It was counted as refused once.
 */
class MemberAdmissionTest {

  private static final ManualClock CLOCK = new ManualClock();

  @Test
  void aMemberWhoseAsksWentUnansweredIsAskedAgainAndServesItsPartitions() {
    List<ClusterNodeUnderTest> nodes = new ArrayList<>();
    Vertx clients = Vertx.vertx();
    try (LogLines log = new LogLines(Level.INFO)) {
      ClusterNodeUnderTest first = ClusterNodeUnderTest.start(List.of(), 1, CLOCK);
      nodes.add(first);
      AtomicBoolean withheld = new AtomicBoolean(true);
      withholdAdmission(first.vertx().eventBus(), withheld);
      ClusterNodeUnderTest second = ClusterNodeUnderTest.start(List.of(first.clusterPort()), 1, CLOCK);
      nodes.add(second);

      Poll.until("each node refused the other", () -> refusedMembers(first) == 1 && refusedMembers(second) == 1);
      // The second node's first table follows its refusal of the first on its own loop.
      Poll.until("each node counts itself alone", () -> nodes.stream()
          .allMatch(node -> node.node().table().members().equals(List.of(node.node().self()))));

      // The lines about asking again are rate-limited on the project's clock, which stands still
      // here: under load the asks that went unanswered can use up the window's lines, and the line
      // looked for below would then be suppressed. A new window opens before the answers come.
      CLOCK.advance(Duration.ofSeconds(2));
      withheld.set(false);
      ClusterNodeUnderTest.awaitFormed(nodes);
      // A node admits a member that asks it at once; its own ask's answer, which logs the line, may
      // come after the two nodes formed (seen in a full run).
      Poll.until("a node says a member proved itself when asked again",
          () -> !log.containing("proved its cluster credentials when asked again").isEmpty());
      assertThat(refusedMembers(first) + refusedMembers(second)).as("each refusal counted once").isEqualTo(2);

      String owned = keyOwnedBy(first.node(), second.node().self());
      assertThat(await(first.client(clients).insert(owned, 7, TtlUnit.SECONDS, 600))).isTrue();
      assertThat(await(second.client(clients).query(owned)).quota()).isEqualTo(7);
    } finally {
      nodes.forEach(ClusterNodeUnderTest::close);
      await(clients.close());
    }
  }

  /**
   * Drops every admission ask that {@code bus}'s node sends or is sent while {@code withheld}: no
   * answer reaches either side, as when a merge's reconnections lose them.
   */
  private static void withholdAdmission(EventBus bus, AtomicBoolean withheld) {
    String admission = ClusterAddress.admit("");
    Handler<DeliveryContext<Object>> hold = delivery -> {
      if (!withheld.get() || !delivery.message().address().startsWith(admission)) {
        delivery.next();
      }
    };
    bus.addOutboundInterceptor(hold);
    bus.addInboundInterceptor(hold);
  }

  private static String keyOwnedBy(ClusterNode node, String owner) {
    for (int i = 0; ; i++) {
      String key = "admitted-" + i;
      if (owner.equals(ClusterNodeUnderTest.ownerOf(node, key.getBytes(StandardCharsets.UTF_8)))) {
        return key;
      }
    }
  }

  private static double refusedMembers(ClusterNodeUnderTest node) {
    io.micrometer.core.instrument.Counter counter = node.metrics().find("sluice.cluster.refused.members").counter();
    return counter == null ? 0 : counter.count();
  }
}
