package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The copies of a partition on its backups: the owner copies a partition whole to each backup that
 * did not hold it (seed, {@link PartitionMessages#RESET}), then ships its changes as
 * {@link ReplicaLane} gathers them ({@link PartitionMessages#CHANGE_BATCH}); a backup applies either on
 * the partition's shard thread and acknowledges it. Used on the node's loop, but for
 * {@link #ship}, called on the shard threads.
 */
final class ReplicaSeeding implements ReplicaFeed.Shipper {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
  /** How soon a replica message is sent again to a backup not registered yet (it is joining). */
  private static final long NO_HANDLER_RETRY_MILLIS = 100;

  private final Vertx vertx;
  private final String self;
  private final Supplier<PartitionTable> table;
  private final PartitionStates states;
  private final PartitionWork work;
  private final PartitionSenders senders;
  private final ClusterMeters meters;
  private final SplitCopies splitCopies;
  private final Context loop;
  /** "partition>backup" of the copies {@link #reseed} has under way; on {@link #loop}. */
  private final Set<String> recopying = new HashSet<>();

  ReplicaSeeding(Vertx vertx, Context loop, String self, Supplier<PartitionTable> table, PartitionStates states,
                 PartitionWork work, PartitionSenders senders, ClusterMeters meters, SplitCopies splitCopies) {
    this.vertx = vertx;
    this.loop = loop;
    this.self = self;
    this.table = table;
    this.states = states;
    this.work = work;
    this.senders = senders;
    this.meters = meters;
    this.splitCopies = splitCopies;
  }

  /** Seeds the backups {@code next} gives the partition that {@code previous} did not hold it on. */
  void seedNewBackups(int partition, PartitionTable previous, PartitionTable next) {
    List<String> fresh = new ArrayList<>(next.backupsOf(partition));
    fresh.removeAll(previous.replicasOf(partition));
    seed(partition, fresh);
  }

  /** Seeds every backup of the partition but {@code holder}, which has its records already. */
  void seedBackupsBut(int partition, String holder) {
    List<String> others = new ArrayList<>(table.get().backupsOf(partition));
    others.remove(holder);
    seed(partition, others);
  }

  /** Seeds every backup of the partition. */
  void seedBackups(int partition) {
    seed(partition, table.get().backupsOf(partition));
  }

  /**
   * Runs {@code serving} (the work after which this node serves the partition), then {@code seed}s
   * its backups. Counted in flight from before that work: between the partition served (the node
   * may read ready then) and its copies sent, the in-flight gauge must not read zero, or a wait
   * for every copy to be on its backups could end before this one began.
   */
  void seedOnceServed(Supplier<Future<Void>> serving, Runnable seed) {
    meters.replicaSent();
    serving.get().onComplete(served -> {
      if (served.succeeded()) {
        seed.run();
      }
      meters.replicaSettled();
    });
  }

  /**
   * Copies the partition whole to each of {@code targets}, on its shard thread, before any later
   * change; completes once each took it or failed (logged). Counted in flight from now, not from
   * when the shard thread takes the copy (the messages are counted before this settles): zero in
   * flight means every copy decided so far is on its backups.
   */
  private Future<Void> seed(int partition, List<String> targets) {
    if (targets.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Future<Void>> taken = new ArrayList<>(targets.size());
    meters.replicaSent();
    return work.on(partition, store -> {
      if (!states.serving(partition)) {
        return;
      }
      ByteBuf records = Snapshots.take(store);
      for (String target : targets) {
        Promise<Void> took = Promise.promise();
        taken.add(took.future());
        send(target, PartitionMessages.RESET, partition, records.retainedDuplicate(), System.nanoTime(),
            ClusterNode.handoffDeadlineNanos(), took);
      }
      records.release();
    }).andThen(decided -> meters.replicaSettled())
        .compose(v -> taken.isEmpty() ? Future.failedFuture("partition " + partition + " is not served here any more")
            : Future.join(taken).<Void>mapEmpty());
  }

  /**
   * Sends a copy this node loaded from its data directory to the partition's owner, which adds the
   * keys it lacks ({@link PartitionMessages#MERGE}); completes once applied there.
   */
  Future<Void> merge(String owner, int partition, ByteBuf records) {
    Promise<Void> taken = Promise.promise();
    send(owner, PartitionMessages.MERGE, partition, records, System.nanoTime(),
        ClusterNode.handoffDeadlineNanos(), taken);
    return taken.future();
  }

  /**
   * Sends this node's copy of a partition it served to {@code owner}, which owns it now without
   * having been among the members this node saw: after a split the owner served it too and will
   * not ask this node for it ({@link PartitionMessages#HEAL}: the owner joins it key by key). The
   * copy is taken on the shard thread, where the partition is no longer served.
   */
  void sendServedCopy(int partition, String owner) {
    ByteBuf[] copy = new ByteBuf[1];
    work.on(partition, store -> copy[0] = Snapshots.take(store)).onSuccess(v -> {
      if (copy[0].isReadable()) {
        send(owner, PartitionMessages.HEAL, partition, copy[0], System.nanoTime(), ClusterNode.handoffDeadlineNanos(), null);
      } else {
        copy[0].release();
      }
    });
  }

  @Override
  public boolean hasBackups(int partition) {
    return table.get().hasBackups(partition);
  }

  @Override
  public List<String> backupsOf(int partition) {
    List<String> backups = table.get().backupsOf(partition);
    // A table that changed since the partition's last served turn may name this node a backup.
    return backups.contains(self) ? backups.stream().filter(backup -> !backup.equals(self)).toList() : backups;
  }

  @Override
  public ByteBuf changeBatch() {
    return PartitionMessages.changeBatch(self);
  }

  @Override
  public void ship(String backup, ByteBuf changes, long firstChangeNanos, int[] partitions, Runnable settled) {
    request(backup, changes, ack -> {
      if (ack.failed()) {
        // The copies that make it good are decided on the loop: in flight until then, so the
        // gauge does not read zero while the backup lacks these changes.
        meters.replicaSent();
        loop.runOnContext(v -> {
          reseed(backup, partitions);
          meters.replicaSettled();
        });
      }
      // Settled first: the lane ships what waited before the in-flight gauge can read zero.
      settled.run();
      meters.replicaSettled();
      if (ack.succeeded()) {
        meters.replicated(System.nanoTime() - firstChangeNanos);
      } else {
        // At most MAX_UNACKNOWLEDGED such lines per shard thread and backup per request timeout.
        notTaken(PartitionMessages.CHANGE_BATCH, "a batch of changes (its " + partitions.length
            + " partitions are sent whole again)", backup, ack.cause());
      }
    });
  }

  /**
   * The partitions of a change batch {@code backup} did not take (a timeout, a closed connection):
   * its copy of them lacks those changes, and later batches carry only later ones, so each is
   * copied to it whole ({@link PartitionMessages#RESET}), which supersedes what it missed. A
   * partition already being copied to that backup again is not copied twice, so a backup that
   * stays unreachable costs one copy of each partition at a time. On the node's loop.
   */
  private void reseed(String backup, int[] partitions) {
    for (int partition : partitions) {
      String copy = partition + ">" + backup;
      if (table.get().backupsOf(partition).contains(backup) && recopying.add(copy)) {
        seed(partition, List.of(backup)).onComplete(done -> {
          recopying.remove(copy);
          if (done.succeeded()) {
            meters.replicaRecopied();
          }
        });
      }
    }
  }

  @Override
  public void changesWaiting() {
    meters.replicaSent();
  }

  @Override
  public void changesShipped() {
    meters.replicaSettled();
  }

  @Override
  public void held() {
    meters.replicationHeld();
  }

  /**
   * Sends images to a backup; acknowledged once applied there. A backup not registered yet (it is
   * joining) is tried again until {@code retryUntilNanos}.
   *
   * @param acked completed once applied there, failed when given up; null for none
   */
  private void send(String backup, byte kind, int partition, ByteBuf images, long sinceNanos, long retryUntilNanos,
                    Promise<Void> acked) {
    ByteBuf message = PartitionMessages.replica(kind, partition, self, images);
    request(backup, message, ack -> {
      meters.replicaSettled();
      if (ack.succeeded()) {
        meters.replicated(System.nanoTime() - sinceNanos);
        if (acked != null) {
          acked.complete();
        }
      } else if (ack.cause() instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS
          && System.nanoTime() < retryUntilNanos) {
        ByteBuf again = PartitionMessages.imagesOf(message);
        vertx.setTimer(NO_HANDLER_RETRY_MILLIS, id -> send(backup, kind, partition, again, sinceNanos, retryUntilNanos, acked));
      } else {
        notTaken(kind, "partition " + partition, backup, ack.cause());
        if (acked != null) {
          acked.fail(ack.cause());
        }
      }
    });
  }

  /** Sends a replica message to a backup, counted in flight until {@code settled} (which counts it settled). */
  private void request(String backup, ByteBuf message, Handler<AsyncResult<Message<Buffer>>> settled) {
    meters.replicaSent();
    vertx.eventBus().<Buffer>request(ClusterAddress.replica(backup), BufferInternal.buffer(message)).onComplete(settled);
  }

  private static void notTaken(byte kind, String partitions, String backup, Throwable cause) {
    LOG.log(System.Logger.Level.WARNING, partitions + ": " + backup + " did not take " + what(kind) + ": "
        + LogText.failure(cause));
  }

  private static String what(byte kind) {
    return switch (kind) {
      case PartitionMessages.RESET -> "its copy";
      case PartitionMessages.MERGE -> "the copy loaded here";
      case PartitionMessages.HEAL -> "the copy served here during a split";
      default -> "changes";
    };
  }

  /**
   * Applies a replica message from a member on the partitions' shard threads, then acknowledges it
   * (a change batch once every section is applied). A seed or changes for a partition this node
   * serves come from a node that serves it too (the other side of a split, whose table already
   * merged): they are joined key by key, as a copy served apart is, never installed over the copy
   * that served here.
   */
  void onReplica(Message<Buffer> message) {
    ByteBuf body = ((BufferInternal) message.body()).getByteBuf();
    List<PartitionMessages.Replica> replicas;
    if (PartitionMessages.isChangeBatch(body)) {
      PartitionMessages.ChangeBatch batch = PartitionMessages.readChangeBatch(body);
      replicas = batch == null ? null : batch.sections();
    } else {
      PartitionMessages.Replica replica = PartitionMessages.readReplica(body);
      replicas = replica == null ? null : List.of(replica);
    }
    if (replicas == null) {
      senders.refuse("replica", null, "not a replica message (" + message.body().length() + " bytes)");
      return;
    }
    String sender = replicas.get(0).sender();
    if (!senders.member(sender)) {
      senders.refuse("replica", sender, "not a member of this cluster");
      return;
    }
    // Sent in one turn: the sections of a batch reach each shard thread as one parcel.
    List<Future<Void>> applied = new ArrayList<>(replicas.size());
    for (PartitionMessages.Replica replica : replicas) {
      applied.add(apply(replica));
    }
    Future.join(applied).onComplete(done -> message.reply(Buffer.buffer()));
  }

  private Future<Void> apply(PartitionMessages.Replica replica) {
    ByteBuf in = replica.images();
    // Decided here, on the node's loop, in order with the table changes that stop serving it.
    boolean servedHere = states.serving(replica.partition());
    if (replica.kind() == PartitionMessages.HEAL && states.handedOverBy(replica.partition(), replica.sender())) {
      // At a plain join the node that handed the partition over sends its copy too (it cannot tell
      // a joiner from the other side of a split): that copy is the one handed over, or older.
      return Future.succeededFuture();
    }
    return work.on(replica.partition(), store -> {
      if (replica.kind() == PartitionMessages.HEAL) {
        splitCopies.join(replica.partition(), store, in);
      } else if (servedHere && replica.kind() != PartitionMessages.MERGE) {
        Snapshots.joinStricter(store, in);
      } else if (replica.kind() == PartitionMessages.RESET) {
        Snapshots.install(store, in);
      } else if (replica.kind() == PartitionMessages.MERGE) {
        Snapshots.merge(store, in);
      } else {
        Snapshots.apply(store, in);
      }
    });
  }
}
