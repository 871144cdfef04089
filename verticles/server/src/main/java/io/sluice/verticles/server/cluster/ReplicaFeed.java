package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.ChangeListener;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of one partition this node serves, on their way to its backups: each changed key's
 * last state, kept until its {@link ReplicaLane} ships the partition's images with the other
 * partitions' of the same shard thread. A key changed many times before then is shipped once,
 * so what waits here is at most one entry per key of the partition. Runs on the partition's shard
 * thread. A copy that is not served (a backup, a partition awaiting its records) ships nothing.
 */
final class ReplicaFeed implements ChangeListener {

  /** Where the images go: the partition's backups, as the table says at that moment. */
  interface Shipper {
    /**
     * Sends one {@link PartitionMessages#CHANGE_BATCH} carrying {@code partitions}' changes to
     * {@code backup}; {@code settled} runs on the calling thread once the backup acknowledged it or
     * it failed. A batch the backup did not take is not sent again: those partitions go to it whole.
     */
    void ship(String backup, ByteBuf changes, long firstChangeNanos, int[] partitions, Runnable settled);

    /** The partition's backups now, other than this node. */
    List<String> backupsOf(int partition);

    /**
     * Whether the partition has a backup now. A backup added later gets the whole partition,
     * copied after the table changed, so a change not noted before then is not lost.
     */
    boolean hasBackups(int partition);

    /**
     * A shard thread has changes to ship after its turn: until {@link #changesShipped}, they count
     * as a message in flight, so that none in flight means every change so far is on its backups.
     */
    void changesWaiting();

    /** The changes {@link #changesWaiting} announced were shipped (their batches now in flight) or held. */
    void changesShipped();

    /** A change batch from this node with no section yet. */
    ByteBuf changeBatch();

    /** Changes started waiting: a backup had {@link ReplicaLane#MAX_UNACKNOWLEDGED} batches unacknowledged. */
    void held();
  }

  private final int partition;
  private final PartitionStates states;
  private final ReplicaFeed.Shipper shipper;
  private final ReplicaLane lane;
  /** Key to its last state; null for a removal. In change order. */
  private final Map<ByteBuffer, Record> dirty = new LinkedHashMap<>();
  private long firstChangeNanos;
  /** Whether the lane has this feed in its list: set when added, cleared when the lane lets it go. */
  private boolean queued;

  ReplicaFeed(int partition, PartitionStates states, Shipper shipper, ReplicaLane lane) {
    this.partition = partition;
    this.states = states;
    this.shipper = shipper;
    this.lane = lane;
  }

  @Override
  public void changed(Record record) {
    note(record, record);
  }

  @Override
  public void removed(Record record) {
    note(record, null);
  }

  private void note(Record record, Record state) {
    if (!states.serving(partition) || !shipper.hasBackups(partition)) {
      return;
    }
    if (dirty.isEmpty()) {
      firstChangeNanos = System.nanoTime();
    }
    dirty.put(ByteBuffer.wrap(record.key()), state);
    if (!queued) {
      queued = true;
      lane.changed(this);
    }
  }

  /** Forgets what was not shipped yet: a handoff carries the whole partition instead. */
  void discard() {
    dirty.clear();
  }

  int partition() {
    return partition;
  }

  /** Whether there is something to ship: false once discarded, or when the partition is no longer served here. */
  boolean pending() {
    if (!states.serving(partition)) {
      dirty.clear();
    }
    return !dirty.isEmpty();
  }

  long firstChangeNanos() {
    return firstChangeNanos;
  }

  /** The lane let this feed go (shipped or nothing to ship): the next change queues it again. */
  void dequeued() {
    queued = false;
  }

  /** Writes each changed key's last state once, as {@link RecordImage}s, and forgets them. */
  void drainTo(ByteBuf images) {
    dirty.forEach((key, record) -> {
      if (record == null) {
        RecordImage.writeRemoval(images, key.array());
      } else {
        RecordImage.writeState(images, record);
      }
    });
    // Kept and cleared, not replaced: a new map would grow its table again every turn.
    dirty.clear();
  }
}
