package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.server.kit.LogCapture;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.LogRecord;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A graceful leave tells the members and completes once every partition this node owned was
 * handed over, not before; a node with no one to hand over to leaves at once.
 */
class GracefulLeaveTest {

  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void completesOnceTheLastOwnedPartitionIsHandedOverAndNotBefore() {
    PartitionTable table = PartitionTable.of(List.of("node-a", "node-b"), 1);
    GracefulLeave leave = new GracefulLeave(context, "node-a", () -> table);
    Promise<String> told = Promise.promise();
    await(vertx.eventBus().<String>consumer(ClusterAddress.LEAVING, message -> told.tryComplete(message.body()))
        .completion());
    List<Integer> owned = new ArrayList<>();
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if ("node-a".equals(table.owner(p))) {
        owned.add(p);
      }
    }
    assertThat(owned).isNotEmpty();

    try (LogCapture log = new LogCapture(ClusterNode.class.getName())) {
      Future<Void> left = leave.leave();
      assertThat(await(told.future())).isEqualTo("node-a");
      assertThat(leave.keepsEveryCopy()).isTrue();
      // Handed over on the node's loop, as PartitionHandoff does: all but the last, then a partition
      // this node did not own (which changes nothing), then the last.
      Future<Boolean> beforeLast = onContext(() -> {
        owned.subList(0, owned.size() - 1).forEach(leave::handedOff);
        leave.handedOff(otherThan(owned));
        return left.isComplete();
      });
      assertThat(await(beforeLast)).isFalse();
      await(onContext(() -> {
        leave.handedOff(owned.get(owned.size() - 1));
        return null;
      }));
      await(left);
      // Completed by the handovers, not by the timeout, which would have said so.
      assertThat(log.records()).extracting(LogRecord::getMessage)
          .containsExactly("leaving the cluster: handing " + owned.size() + " partitions over");
    }
  }

  @Test
  void aNodeAloneLeavesAtOnce() {
    GracefulLeave leave = new GracefulLeave(context, "node-a", () -> PartitionTable.of(List.of("node-a"), 1));
    await(leave.leave());
    assertThat(leave.keepsEveryCopy()).isTrue();
  }

  private <T> Future<T> onContext(java.util.concurrent.Callable<T> work) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> {
      try {
        done.complete(work.call());
      } catch (Exception e) {
        done.fail(e);
      }
    });
    return done.future();
  }

  private static int otherThan(List<Integer> owned) {
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if (!owned.contains(p)) {
        return p;
      }
    }
    throw new AssertionError("node-a owns every partition");
  }
}
