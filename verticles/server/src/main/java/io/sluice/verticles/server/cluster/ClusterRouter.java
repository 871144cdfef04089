package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.codec.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.BatchParts;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.BatchSplit;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@link ShardRouter} of one front event loop in a cluster: the routes are the partitions; a
 * partition this node owns goes to the local router (as on a single node), one owned elsewhere
 * travels to its owner: the batches of a loop turn for one node go as ONE clustered event-bus
 * message, and come back as one reply; while two are unanswered, the next turns' batches for that
 * node wait and go together as the next message ({@link ForwardQueue}), to the same work address
 * of the owner, whose one inbox runs them in order. A read's requests come as one gathered batch per shard
 * thread ({@link #lanes}); one whose partitions have several owners is split per owner node and
 * joined back. A batch, or a gathered batch's entries, come back unrun when their partition is
 * moving (see {@link PartitionGate}, {@link GatheredGate}); they are routed again a moment later,
 * by the table as it then stands.
 * Nothing whose delivery is unknown is sent twice: a lost message or a timeout answers its
 * requests as failures; only "no such node" (certainly not delivered) is tried again.
 *
 * <p>Traced (see {@link TraceCarrier}): a message goes in the trace of the first traced request
 * among those whose batches it carries.
 */
final class ClusterRouter implements ShardRouter {

  private static final System.Logger LOG = System.getLogger(ClusterRouter.class.getName());
  static final long RETRY_MILLIS = 20;
  static final long REQUEST_TIMEOUT_MILLIS = 5_000;

  private final Context context;
  private final ClusterNode node;
  private final ShardRouter local;
  private final BatchWire wire;
  /** Which of every owner's work addresses this router sends to: one inbox there runs its messages in order. */
  private final int workAddress;
  private final DeliveryOptions options = new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MILLIS);
  /** Per node: what this loop forwards to it, at most {@link ForwardQueue#WINDOW} messages in flight. */
  private final Map<String, ForwardQueue<Waiting>> outgoing = new HashMap<>();
  private boolean flushScheduled;

  private static final class Waiting {
    final ShardBatch batch;
    final Consumer<ShardBatch> done;
    final Consumer<Throwable> failed;
    final long deadlineNanos;
    final io.opentelemetry.context.Context trace;

    Waiting(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
      this(batch, done, failed, ClusterNode.handoffDeadlineNanos(), io.opentelemetry.context.Context.current());
    }

    private Waiting(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed, long deadlineNanos,
                    io.opentelemetry.context.Context trace) {
      this.batch = batch;
      this.done = done;
      this.failed = failed;
      this.deadlineNanos = deadlineNanos;
      this.trace = trace;
    }

    /** A part of this batch, split off: it keeps this batch's deadline and trace. */
    Waiting part(ShardBatch part, Consumer<ShardBatch> partDone, Consumer<Throwable> partFailed) {
      return new Waiting(part, partDone, partFailed, deadlineNanos, trace);
    }
  }

  /** @param workAddress which of the owners' {@link WorkInbox#ADDRESSES} work addresses this router sends to */
  ClusterRouter(Context context, ClusterNode node, ShardRouter local, BatchWire wire, int workAddress) {
    this.context = context;
    this.node = node;
    this.local = local;
    this.wire = wire;
    this.workAddress = workAddress;
  }

  /** A cluster's routes are its partitions: a batch here is addressed to a partition. */
  @Override
  public int routes() {
    return PartitionTable.PARTITIONS;
  }

  @Override
  public void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
    route(new Waiting(batch, done, failed));
  }

  /** A read's requests travel as one batch per shard thread of this node (see {@link ShardRouter#lanes}). */
  @Override
  public int lanes() {
    return local.lanes();
  }

  @Override
  public int laneOf(int route) {
    return local.laneOf(route);
  }

  /**
   * Sends the batch to its partition's owner; a gathered batch whose partitions have several
   * owners goes as one part per owner, joined back before it is answered.
   */
  private void route(Waiting waiting) {
    ShardBatch batch = waiting.batch;
    String owner = ownerOf(batch.partitionOf(0));
    if (batch.isGathered() && !allOwnedBy(batch, owner)) {
      List<String> owners = new ArrayList<>(2);
      BatchParts.send(BatchSplit.by(batch, slot -> indexIn(owners, ownerOf(batch.partitionOf(slot)))),
          (part, done, failed) -> route(waiting.part(part, done, failed)), waiting.done, waiting.failed);
    } else if (owner.equals(node.self())) {
      local.dispatch(batch, filled -> ran(waiting, filled), waiting.failed);
    } else if (!wire.canTravel(batch)) {
      answerFailed(waiting, new IllegalStateException("partition " + batch.route()
          + " is on another node, and this kind of work runs only where its key is"));
    } else {
      outgoing.computeIfAbsent(owner, id -> new ForwardQueue<>(parcel -> send(id, parcel))).add(waiting);
      if (!flushScheduled) {
        flushScheduled = true;
        context.runOnContext(v -> flush());
      }
    }
  }

  /** The node that serves {@code partition}: its owner by the table, or this node while the table has none. */
  private String ownerOf(int partition) {
    String owner = node.table().owner(partition);
    return owner == null ? node.self() : owner;
  }

  private boolean allOwnedBy(ShardBatch batch, String owner) {
    for (int slot = 1; slot < batch.size(); slot++) {
      if (!ownerOf(batch.partitionOf(slot)).equals(owner)) {
        return false;
      }
    }
    return true;
  }

  private static int indexIn(List<String> owners, String owner) {
    int index = owners.indexOf(owner);
    if (index < 0) {
      owners.add(owner);
      return owners.size() - 1;
    }
    return index;
  }

  /**
   * The batch ran, here or on its owner: answers it, or routes again what was not run (the whole
   * batch, or the entries of partitions a gate found moving, while the others keep their replies).
   */
  private void ran(Waiting waiting, ShardBatch filled) {
    if (filled.notRun()) {
      retry(waiting);
    } else if (filled.unrunEntries() > 0) {
      BatchParts.send(BatchSplit.unrunOf(filled), (part, done, failed) -> retry(waiting.part(part, done, failed)),
          waiting.done, waiting.failed);
    } else {
      waiting.done.accept(filled);
    }
  }

  /** Routes an unrun batch again shortly (its partition is moving), or fails it past the deadline. */
  private void retry(Waiting waiting) {
    waiting.batch.clearNotRun();
    if (System.nanoTime() > waiting.deadlineNanos) {
      answerFailed(waiting, new IllegalStateException("partition " + waiting.batch.route()
          + " found no node serving it within " + ClusterNode.HANDOFF_TIMEOUT_MILLIS + " ms"));
      return;
    }
    context.owner().setTimer(RETRY_MILLIS, id -> route(waiting));
  }

  private void answerFailed(Waiting waiting, Throwable why) {
    ThrottrShard.failUnrun(waiting.batch, why);
    waiting.done.accept(waiting.batch);
  }

  /** The end of the loop turn: each node's gathered batches leave, where no message to it is in flight. */
  private void flush() {
    flushScheduled = false;
    // A copy: a message that fails at once answers its requests here, and an answer may route more.
    for (ForwardQueue<Waiting> queue : List.copyOf(outgoing.values())) {
      queue.sendIfIdle();
    }
    // A node that left keeps no queue here.
    outgoing.values().removeIf(ForwardQueue::idle);
  }

  private void send(String owner, List<Waiting> parcel) {
    ByteBuf out = Unpooled.buffer(64 * parcel.size());
    out.writeShortLE(parcel.size());
    int keyRequests = 0;
    for (Waiting waiting : parcel) {
      wire.writeBatch(out, waiting.batch);
      for (int i = 0; i < waiting.batch.size(); i++) {
        // Key requests only: the dashboard asks every partition for its INFO every second.
        if (waiting.batch.request(i) instanceof Request.KeyRequest) {
          keyRequests++;
        }
      }
    }
    node.meters().forwarded(parcel.size(), keyRequests);
    Future<Message<Buffer>> sent;
    try {
      sent = TraceCarrier.within(parcel, waiting -> waiting.trace,
          () -> context.owner().eventBus().<Buffer>request(ClusterAddress.work(owner, workAddress),
              BufferInternal.buffer(out), options));
    } catch (RuntimeException stopped) {
      // The event bus is closing: nothing left, and the queue must not wait for an answer forever.
      sent = Future.failedFuture(stopped);
    }
    sent.onComplete(reply -> {
      // The next message leaves before these answers are read: its batches may run now, as
      // these ran (or, failed, are answered as failures whatever became of them).
      outgoing.get(owner).answered();
      if (reply.succeeded()) {
        ByteBuf in = ((BufferInternal) reply.result().body()).getByteBuf();
        for (Waiting waiting : parcel) {
          if (wire.readResults(in, waiting.batch)) {
            ran(waiting, waiting.batch);
          } else {
            retry(waiting);
          }
        }
      } else if (reply.cause() instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS) {
        // The node is not (or no longer) there: nothing ran, so the batches may go again.
        parcel.forEach(this::retry);
      } else {
        LOG.log(System.Logger.Level.WARNING, parcel.size() + " batches sent to node " + owner
            + " are answered as failures, as whether they ran is unknown: " + LogText.failure(reply.cause()));
        parcel.forEach(waiting -> answerFailed(waiting, reply.cause()));
      }
    });
  }
}
