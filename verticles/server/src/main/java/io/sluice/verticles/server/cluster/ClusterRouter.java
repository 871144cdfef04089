package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.codec.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
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
 * message, and come back as one reply. A batch comes back unrun when its partition is moving (see
 * {@link PartitionGate}); it is routed again a moment later, by the table as it then stands.
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
  private final DeliveryOptions options = new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MILLIS);
  private Map<String, List<Waiting>> outgoing = new HashMap<>();
  private boolean flushScheduled;

  private static final class Waiting {
    final ShardBatch batch;
    final Consumer<ShardBatch> done;
    final Consumer<Throwable> failed;
    final long deadlineNanos = ClusterNode.handoffDeadlineNanos();
    final io.opentelemetry.context.Context trace = io.opentelemetry.context.Context.current();

    Waiting(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
      this.batch = batch;
      this.done = done;
      this.failed = failed;
    }
  }

  ClusterRouter(Context context, ClusterNode node, ShardRouter local, BatchWire wire) {
    this.context = context;
    this.node = node;
    this.local = local;
    this.wire = wire;
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

  private void route(Waiting waiting) {
    ShardBatch batch = waiting.batch;
    String owner = node.table().owner(batch.route());
    if (owner == null || owner.equals(node.self())) {
      local.dispatch(batch, filled -> {
        if (filled.notRun()) {
          retry(waiting);
        } else {
          waiting.done.accept(filled);
        }
      }, waiting.failed);
    } else if (!wire.canTravel(batch)) {
      answerFailed(waiting, new IllegalStateException("partition " + batch.route()
          + " is on another node, and this kind of work runs only where its key is"));
    } else {
      outgoing.computeIfAbsent(owner, id -> new ArrayList<>()).add(waiting);
      if (!flushScheduled) {
        flushScheduled = true;
        context.runOnContext(v -> flush());
      }
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

  private void flush() {
    flushScheduled = false;
    Map<String, List<Waiting>> sending = outgoing;
    outgoing = new HashMap<>();
    sending.forEach(this::send);
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
    TraceCarrier.within(parcel, waiting -> waiting.trace,
        () -> context.owner().eventBus().<Buffer>request(ClusterAddress.work(owner), BufferInternal.buffer(out), options))
        .onComplete(reply -> {
          if (reply.succeeded()) {
            ByteBuf in = ((BufferInternal) reply.result().body()).getByteBuf();
            for (Waiting waiting : parcel) {
              if (wire.readResults(in, waiting.batch)) {
                waiting.done.accept(waiting.batch);
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
