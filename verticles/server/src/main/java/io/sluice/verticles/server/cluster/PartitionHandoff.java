package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Moves a partition whose owner is alive but no longer first (a node joined, or the owner is
 * leaving) to its new owner ({@link ClusterAddress#handoff}). The new owner asks; the old owner
 * stops serving it on its shard thread and answers with its records; the new owner serves once
 * they are in, then seeds its backups. Requests meanwhile come back unrun and their senders route
 * them again. When the old owner dies or does not answer in time, the new owner serves the copy it
 * holds ({@link MissedHandoffs}). Used on the node's loop.
 */
final class PartitionHandoff {

  /** How soon a handoff the previous owner answered "not yours (yet)" is asked again. */
  private static final long RETRY_MILLIS = 100;

  private final Vertx vertx;
  private final String self;
  private final Supplier<PartitionTable> table;
  private final PartitionStates states;
  private final Map<Integer, ReplicaFeed> feeds;
  private final PartitionWork work;
  private final ReplicaSeeding seeding;
  private final PartitionSenders senders;
  private final GracefulLeave leave;
  private final MissedHandoffs missed;
  private final SplitCopies splitCopies;
  /** The partitions this node owns and waits for, by the node they are coming from. */
  private final Map<Integer, String> awaitingFrom = new HashMap<>();

  PartitionHandoff(Vertx vertx, String self, Supplier<PartitionTable> table, PartitionStates states,
                   Map<Integer, ReplicaFeed> feeds, PartitionWork work, ReplicaSeeding seeding, PartitionSenders senders,
                   GracefulLeave leave, SplitCopies splitCopies) {
    this.vertx = vertx;
    this.self = self;
    this.table = table;
    this.states = states;
    this.feeds = feeds;
    this.work = work;
    this.seeding = seeding;
    this.senders = senders;
    this.leave = leave;
    this.missed = new MissedHandoffs(vertx);
    this.splitCopies = splitCopies;
  }

  /**
   * The old owner's side: answers a new owner's ask with the partition's records, once it stopped
   * serving it; keeps the records only as one of its replicas (or while leaving).
   */
  void onAsked(Message<Buffer> message) {
    PartitionMessages.Handoff handoff = PartitionMessages.readHandoff(((BufferInternal) message.body()).getByteBuf());
    if (handoff == null) {
      senders.refuse("handoff", null, "not a handoff (" + message.body().length() + " bytes)");
      return;
    }
    if (!senders.member(handoff.sender())) {
      senders.refuse("handoff", handoff.sender(), "not a member of this cluster");
      return;
    }
    int partition = handoff.partition();
    if (!handoff.sender().equals(table.get().owner(partition))) {
      // Nodes see a change of members milliseconds apart: the asker asks again until this
      // node's table agrees, or gives up after its handoff timeout.
      message.fail(PartitionMessages.NOT_YOURS, "partition " + partition + " is not the asker's by this node's table");
      return;
    }
    ByteBuf[] records = new ByteBuf[1];
    work.on(partition, store -> {
      states.set(partition, PartitionStates.NOT_SERVED);
      feeds.get(partition).discard();
      records[0] = Snapshots.take(store);
      if (!leave.keepsEveryCopy() && !table.get().replicasOf(partition).contains(self)) {
        Snapshots.clear(store);
      }
    }).onComplete(done -> {
      message.reply(BufferInternal.buffer(records[0] != null ? records[0] : Unpooled.EMPTY_BUFFER));
      leave.handedOff(partition);
    });
  }

  /**
   * The new owner's side: asks the partition's previous owner for it; serves it once its records
   * are in. With {@code keepLoaded} (this node's first table: its stores hold what its data
   * directory gave), the records loaded here join the previous owner's, whose copy wins for a key
   * both hold (it served meanwhile).
   */
  void takeOver(int partition, String from, boolean keepLoaded) {
    states.set(partition, PartitionStates.AWAITING);
    states.takenFrom(partition, from);
    awaitingFrom.put(partition, from);
    ask(partition, from, keepLoaded, ClusterNode.handoffDeadlineNanos());
  }

  /** Serves the partition at once if the node its records were coming from is no longer {@code live}. */
  void unlessAwaitedFromGone(int partition, Collection<String> live) {
    String awaited = awaitingFrom.get(partition);
    if (awaited != null && !live.contains(awaited)) {
      awaitingFrom.remove(partition);
      serveWithout(partition, awaited, "it left the cluster");
    }
  }

  /** Stops waiting for the partition: it is no longer this node's. */
  void forget(int partition) {
    awaitingFrom.remove(partition);
    states.released(partition);
    splitCopies.forget(partition);
  }

  /** Asks {@code from} for the partition, again while it answers that its table does not agree yet. */
  private void ask(int partition, String from, boolean keepLoaded, long deadlineNanos) {
    long leftMillis = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
    Buffer ask = BufferInternal.buffer(PartitionMessages.handoff(partition, self));
    vertx.eventBus().<Buffer>request(ClusterAddress.handoff(from), ask, new DeliveryOptions().setSendTimeout(leftMillis))
        .onComplete(reply -> {
          if (!from.equals(awaitingFrom.get(partition))) {
            return;
          }
          if (reply.failed() && PartitionMessages.notYours(reply.cause())
              && System.nanoTime() + RETRY_MILLIS * 1_000_000 < deadlineNanos) {
            vertx.setTimer(RETRY_MILLIS, id -> {
              if (from.equals(awaitingFrom.get(partition))) {
                ask(partition, from, keepLoaded, deadlineNanos);
              }
            });
            return;
          }
          awaitingFrom.remove(partition);
          if (reply.failed()) {
            serveWithout(partition, from, LogText.failure(reply.cause()));
            return;
          }
          ByteBuf records = ((BufferInternal) reply.result().body()).getByteBuf();
          seeding.seedOnceServed(() -> work.on(partition, store -> {
            ByteBuf own = keepLoaded ? Snapshots.take(store) : Unpooled.EMPTY_BUFFER;
            Snapshots.install(store, records);
            Snapshots.merge(store, own);
            splitCopies.joinAgain(partition, store);
            states.set(partition, PartitionStates.SERVING);
          }), () -> seeding.seedBackupsBut(partition, from));
        });
  }

  /** Serves the copy this node holds, its previous owner's records having not come. */
  private void serveWithout(int partition, String from, String why) {
    missed.missed(partition, from, why);
    splitCopies.forget(partition);
    seeding.seedOnceServed(() -> work.on(partition, store -> {
      TakenOverHistories.renew(store);
      states.set(partition, PartitionStates.SERVING);
    }), () -> seeding.seedBackups(partition));
  }
}
