package io.sluice.verticles.server.cluster;

import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.kit.Poll;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member that died leaves a hundred partitions or more whose handoffs time out together: the node
 * that takes them over logs one line per previous owner, with every partition, not one per partition.
 */
class MissedHandoffsTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void partitionsMissedTogetherAreOneLinePerPreviousOwner() {
    try (LogCapture log = new LogCapture(ClusterNode.class.getName())) {
      Context context = vertx.getOrCreateContext();
      context.runOnContext(v -> {
        MissedHandoffs missed = new MissedHandoffs(vertx);
        for (int partition = 0; partition < 90; partition++) {
          missed.missed(partition, "dead-node", "timed out after 10000 ms, for partition " + partition);
        }
        missed.missed(200, "other-node", "no handlers");
      });
      Poll.until("the misses are logged", () -> log.records().size() >= 2);
      List<LogRecord> lines = log.records();
      assertThat(lines).hasSize(2).allMatch(line -> line.getLevel() == Level.WARNING);
      assertThat(lines.get(0).getMessage()).startsWith("90 partitions [0, 1, 2, ")
          .contains(", 89]: no records from their previous owner dead-node (timed out after 10000 ms, for partition 0)");
      assertThat(lines.get(1).getMessage()).isEqualTo("1 partition [200]: no records from their previous owner other-node "
          + "(no handlers); serving the copies this node holds");
    }
  }
}
