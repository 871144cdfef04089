package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.ChangeListener;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;
import io.vertx.core.Vertx;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The changes of one partition this node serves, on their way to its backups: each changed key's
 * last state is shipped once per batch, as {@link RecordImage}s, right after the event-loop turn
 * that made the changes. Runs on the partition's shard thread. A copy that is not served (a
 * backup, a partition awaiting its records) ships nothing.
 */
final class ReplicaFeed implements ChangeListener {

  /** Where the images go: the partition's backups, as the table says at that moment. */
  interface Shipper {
    void ship(int partition, ByteBuf images, long firstChangeNanos);

    /**
     * Whether the partition has a backup now. A backup added later gets the whole partition,
     * copied after the table changed, so a change not noted before then is not lost.
     */
    boolean hasBackups(int partition);
  }

  private final int partition;
  private final PartitionStates states;
  private final Shipper shipper;
  /** Key to its last state; null for a removal. In change order. */
  private final Map<ByteBuffer, Record> dirty = new LinkedHashMap<>();
  private long firstChangeNanos;
  private boolean flushScheduled;

  ReplicaFeed(int partition, PartitionStates states, Shipper shipper) {
    this.partition = partition;
    this.states = states;
    this.shipper = shipper;
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
    if (!flushScheduled) {
      flushScheduled = true;
      // After this turn's batches: every change of the turn travels in one message per backup.
      Vertx.currentContext().runOnContext(v -> flush());
    }
  }

  /** Forgets what was not shipped yet: a handoff carries the whole partition instead. */
  void discard() {
    dirty.clear();
  }

  private void flush() {
    flushScheduled = false;
    if (dirty.isEmpty() || !states.serving(partition)) {
      dirty.clear();
      return;
    }
    ByteBuf images = Unpooled.buffer(dirty.size() * 32);
    dirty.forEach((key, record) -> {
      if (record == null) {
        RecordImage.writeRemoval(images, key.array());
      } else {
        RecordImage.writeState(images, record);
      }
    });
    // Kept and cleared, not replaced: a new map would grow its table again every turn.
    dirty.clear();
    shipper.ship(partition, images, firstChangeNanos);
  }
}
