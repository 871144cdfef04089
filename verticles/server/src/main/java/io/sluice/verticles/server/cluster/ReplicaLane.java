package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of the partitions one shard thread serves, on their way to their backups: right
 * after each event-loop turn with changes, one {@link PartitionMessages#CHANGE_BATCH} per backup
 * node carries every changed partition's images, whatever the number of partitions and keys.
 * (One message per partition cost a 2-node cluster ~97 % of its throughput: a pipelined read of
 * 64 keys touched ~50 partitions, so nearly every update sent an event-bus request of its own.)
 *
 * <p>Bounded: a backup may have {@link #MAX_UNACKNOWLEDGED} batches from this thread not
 * acknowledged yet. Beyond that the changes of the partitions it backs up wait in their
 * {@link ReplicaFeed}s, where a key changed again replaces its image, so what waits is at most one
 * image per key; the next acknowledgement ships them. The owner answers its clients meanwhile:
 * only the replication lag grows. A batch takes no further partition past {@link #MAX_BATCH_BYTES}:
 * the others go in a batch of their own right after. Each wait is counted once
 * ({@code sluice_cluster_replication_held_total}). Runs on the shard thread.
 */
final class ReplicaLane {

  /** Batches a backup may have unacknowledged from one shard thread before changes wait here. */
  static final int MAX_UNACKNOWLEDGED = 4;
  /**
   * The size past which a batch takes no further partition (they go in the next one): far below
   * the event bus's largest frame, which a whole partition's seed already has to fit in.
   */
  static final int MAX_BATCH_BYTES = 16 << 20;

  private final ReplicaFeed.Shipper shipper;
  private final int maxBatchBytes;
  /** The feeds with changes not shipped yet, in the order they changed first. */
  private final List<ReplicaFeed> queued = new ArrayList<>();
  private final Map<String, Integer> unacknowledged = new HashMap<>();
  private boolean flushScheduled;

  /** One backup's message of a flush. */
  private static final class Outgoing {
    final ByteBuf message;
    long firstChangeNanos = Long.MAX_VALUE;
    int[] partitions = new int[8];
    int count;

    Outgoing(ByteBuf message) {
      this.message = message;
    }

    void carries(int partition) {
      if (count == partitions.length) {
        partitions = Arrays.copyOf(partitions, 2 * count);
      }
      partitions[count++] = partition;
    }
  }

  ReplicaLane(ReplicaFeed.Shipper shipper) {
    this(shipper, MAX_BATCH_BYTES);
  }

  /** @param maxBatchBytes see {@link #MAX_BATCH_BYTES} (tests use a small one) */
  ReplicaLane(ReplicaFeed.Shipper shipper, int maxBatchBytes) {
    this.shipper = shipper;
    this.maxBatchBytes = maxBatchBytes;
  }

  /** {@code feed} has changes and is not queued yet. */
  void changed(ReplicaFeed feed) {
    queued.add(feed);
    scheduleFlush();
  }

  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      // After this turn's batches: every change of the turn travels in one message per backup.
      shipper.changesWaiting();
      Vertx.currentContext().runOnContext(v -> flush());
    }
  }

  private void flush() {
    flushScheduled = false;
    ship();
    shipper.changesShipped();
  }

  private void ship() {
    Map<String, Outgoing> outgoing = new HashMap<>(4);
    boolean held = false;
    boolean full = false;
    int kept = 0;
    for (ReplicaFeed feed : queued) {
      List<String> backups = feed.pending() ? shipper.backupsOf(feed.partition()) : List.of();
      if (backups.isEmpty()) {
        feed.discard();
        feed.dequeued();
      } else if (anyAtBound(backups)) {
        queued.set(kept++, feed);
        held = true;
      } else if (anyFull(backups, outgoing)) {
        queued.set(kept++, feed);
        full = true;
      } else {
        write(feed, backups, outgoing);
        feed.dequeued();
      }
    }
    queued.subList(kept, queued.size()).clear();
    outgoing.forEach((backup, out) -> {
      unacknowledged.merge(backup, 1, Integer::sum);
      shipper.ship(backup, out.message, out.firstChangeNanos, Arrays.copyOf(out.partitions, out.count), () -> settled(backup));
    });
    if (held) {
      shipper.held();
    }
    if (full) {
      scheduleFlush();
    }
  }

  /** The feed's images once, into the first backup's message, copied into the others'. */
  private void write(ReplicaFeed feed, List<String> backups, Map<String, Outgoing> outgoing) {
    ByteBuf written = null;
    int from = 0;
    for (String backup : backups) {
      Outgoing out = outgoing.computeIfAbsent(backup, b -> new Outgoing(shipper.changeBatch()));
      out.firstChangeNanos = Math.min(out.firstChangeNanos, feed.firstChangeNanos());
      out.carries(feed.partition());
      if (written == null) {
        written = out.message;
        from = written.writerIndex();
        int section = PartitionMessages.startSection(written, feed.partition());
        feed.drainTo(written);
        PartitionMessages.endSection(written, section);
      } else {
        out.message.writeBytes(written, from, written.writerIndex() - from);
      }
    }
  }

  private boolean anyFull(List<String> backups, Map<String, Outgoing> outgoing) {
    for (String backup : backups) {
      Outgoing out = outgoing.get(backup);
      if (out != null && out.message.readableBytes() >= maxBatchBytes) {
        return true;
      }
    }
    return false;
  }

  private boolean anyAtBound(List<String> backups) {
    for (String backup : backups) {
      if (unacknowledged.getOrDefault(backup, 0) >= MAX_UNACKNOWLEDGED) {
        return true;
      }
    }
    return false;
  }

  /** A batch to {@code backup} was acknowledged or failed: what waited for it goes now. */
  private void settled(String backup) {
    unacknowledged.computeIfPresent(backup, (b, count) -> count > 1 ? count - 1 : null);
    if (!queued.isEmpty()) {
      ship();
    }
  }
}
