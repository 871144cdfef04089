package io.sluice.verticles.server.cluster;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.LogCapture;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A batch of a wire version this node does not know, as a node of another release would send it,
 * over the cluster's real event bus: refused whole with a clear error, logged once, never run, and
 * the node goes on serving.
 */
class BatchVersionTest {

  private static final ManualClock CLOCK = new ManualClock();
  @RegisterExtension
  static final ClusterNodes CLUSTER = new ClusterNodes();
  private static final List<ClusterNodeUnderTest> nodes = CLUSTER.nodes();
  private static Vertx clients;

  @BeforeAll
  static void formCluster() {
    nodes.addAll(ClusterNodeUnderTest.startPair(CLOCK));
    clients = CLUSTER.clients();
  }

  /** A message of one batch INSERTing {@code key} into partition 0, its version byte set to {@code version}. */
  private static Buffer oneBatch(int version, String key) {
    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Insert(1, TtlUnit.SECONDS.code(), 60, key.getBytes(StandardCharsets.US_ASCII)));
    ByteBuf out = Unpooled.buffer();
    out.writeShortLE(1);
    int versionAt = out.writerIndex();
    new BatchWire(ValueSize.UINT16, TaskCodecs.NONE).writeBatch(out, batch);
    out.setByte(versionAt, version);
    byte[] bytes = new byte[out.readableBytes()];
    out.readBytes(bytes);
    return Buffer.buffer(bytes);
  }

  @Test
  void aBatchOfAnUnknownVersionIsRefusedAndNotRun() {
    ClusterNodeUnderTest sender = nodes.get(0);
    ClusterNodeUnderTest receiver = nodes.get(1);
    try (LogCapture log = new LogCapture(WorkInbox.class.getName())) {
      Throwable refused = awaitFailure(sender.vertx().eventBus()
          .request(ClusterAddress.work(receiver.node().self(), 0), oneBatch(BatchWire.VERSION + 1, "from-the-future")));

      assertThat(refused).isInstanceOf(ReplyException.class)
          .hasMessageContaining("wire version " + (BatchWire.VERSION + 1))
          .hasMessageContaining("reads version " + BatchWire.VERSION);
      assertThat(((ReplyException) refused).failureCode()).isEqualTo(WorkInbox.UNREADABLE);
      assertThat(log.aboveDebug()).singleElement()
          .satisfies(line -> assertThat(line.getMessage()).contains("could not be read").contains("wire version"));
    }
    ThrottrClient client = receiver.client(clients);
    assertThat(await(client.insert("from-the-future", 1, TtlUnit.SECONDS, 60)))
        .as("the refused INSERT never ran, so the key is still free").isTrue();
  }
}
