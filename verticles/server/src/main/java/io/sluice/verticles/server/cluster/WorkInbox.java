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

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the batches other nodes send for the partitions this node owns, on this node's shards
 * (through the local router: a partition this node does not serve at that instant sends the batch
 * back unrun), and answers all of one message in one reply. One instance per event loop (at most
 * {@link #ADDRESSES}), each serving some of the node's {@link #ADDRESSES} work addresses: a
 * sender's loop always sends to the same one ({@link ClusterRouter}), so the messages it has in
 * flight together run here in the order sent, on one loop, and reach each shard in that order.
 */
final class WorkInbox extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(WorkInbox.class.getName());

  /** The failure code of a message whose batches could not even be read: none ran. */
  static final int UNREADABLE = 400;

  /**
   * A node's work addresses ({@link ClusterAddress#work(String, int)}), the same number on every
   * node whatever its event loops, so a sender needs no word of the owner's; a node of more loops
   * serves them with this many inboxes.
   */
  static final int ADDRESSES = 8;

  private final String self;
  private final ShardDirectory directory;
  private final BatchWire wire;
  /** Anyone who reaches the event bus can send unreadable batches: one line a second, not one each. */
  private final LogLimiter unreadableLog;
  private final List<Integer> addresses;
  private final List<MessageConsumer<Buffer>> consumers = new ArrayList<>();
  private ShardRouter local;

  /** @param addresses the work addresses this inbox serves, of {@link #ADDRESSES} */
  WorkInbox(String self, ShardDirectory directory, BatchWire wire, Clock clock, List<Integer> addresses) {
    this.unreadableLog = new LogLimiter(clock, 1_000_000_000L);
    this.self = self;
    this.directory = directory;
    this.wire = wire;
    this.addresses = List.copyOf(addresses);
  }

  /**
   * The work addresses each of {@code inboxes} inboxes serves (at most {@link #ADDRESSES} inboxes):
   * inbox {@code i} those equal to {@code i} modulo their number.
   */
  static List<List<Integer>> addressesOf(int inboxes) {
    List<List<Integer>> byInbox = new ArrayList<>();
    for (int i = 0; i < Math.min(inboxes, ADDRESSES); i++) {
      byInbox.add(new ArrayList<>());
    }
    for (int address = 0; address < ADDRESSES; address++) {
      byInbox.get(address % byInbox.size()).add(address);
    }
    return byInbox;
  }

  @Override
  public Future<?> start() {
    local = directory.localRouter(context);
    for (int address : addresses) {
      consumers.add(vertx.eventBus().consumer(ClusterAddress.work(self, address), this::serve));
    }
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList());
  }

  @Override
  public Future<?> stop() {
    return Future.all(consumers.stream().map(MessageConsumer::unregister).toList());
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
