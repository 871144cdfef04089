package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * Runs the batches other nodes send for the partitions this node owns, on this node's shards
 * (through the local router: a partition this node does not serve at that instant sends the batch
 * back unrun), and answers all of one message in one reply. One instance per event loop; Vert.x
 * spreads the messages among them.
 */
final class WorkInbox extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(WorkInbox.class.getName());

  /** The failure code of a message whose batches could not even be read: none ran. */
  static final int UNREADABLE = 400;

  private final String self;
  private final ShardDirectory directory;
  private final BatchWire wire;
  /** Anyone who reaches the event bus can send unreadable batches: one line a second, not one each. */
  private final LogLimiter unreadableLog;
  private MessageConsumer<Buffer> consumer;
  private ShardRouter local;

  WorkInbox(String self, ShardDirectory directory, BatchWire wire, Clock clock) {
    this.unreadableLog = new LogLimiter(clock, 1_000_000_000L);
    this.self = self;
    this.directory = directory;
    this.wire = wire;
  }

  @Override
  public Future<?> start() {
    local = directory.localRouter(context);
    consumer = vertx.eventBus().consumer(ClusterAddress.work(self), this::serve);
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    return consumer.unregister();
  }

  private void serve(Message<Buffer> message) {
    ShardBatch[] batches;
    try {
      ByteBuf in = ((BufferInternal) message.body()).getByteBuf();
      batches = new ShardBatch[in.readUnsignedShortLE()];
      for (int i = 0; i < batches.length; i++) {
        batches[i] = wire.readBatch(in);
      }
    } catch (RuntimeException unreadable) {
      unreadableLog.log(LOG, System.Logger.Level.ERROR, "a batch from another node could not be read; none of its"
          + " message ran: " + LogText.failure(unreadable));
      message.fail(UNREADABLE, String.valueOf(unreadable));
      return;
    }
    int[] outstanding = {batches.length};
    Runnable answer = () -> {
      ByteBuf out = Unpooled.buffer(64 * batches.length);
      for (ShardBatch batch : batches) {
        wire.writeResults(out, batch);
      }
      message.reply(BufferInternal.buffer(out));
    };
    for (int i = 0; i < batches.length; i++) {
      ShardBatch batch = batches[i];
      int index = i;
      local.dispatch(batch, filled -> {
        // A gathered batch split over this node's shards comes back joined, as a new batch.
        batches[index] = filled;
        if (--outstanding[0] == 0) {
          answer.run();
        }
      }, error -> {
        ThrottrShard.failUnrun(batch, error);
        if (--outstanding[0] == 0) {
          answer.run();
        }
      });
    }
  }
}
