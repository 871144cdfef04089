package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owner's side of the change feed, on a real event loop with real stores: what one shard
 * thread changes in a turn leaves as one message per backup, each key's last state once, and a
 * backup that does not acknowledge holds the changes (merged, one image per key) instead of
 * growing a queue of messages.
 */
class ReplicaLaneTest {

  private static final int PARTITIONS = 20;
  private static final long TTL_NANOS = 600_000_000_000L;

  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();
  private final ManualClock clock = new ManualClock();
  private final RecordingShipper shipper = new RecordingShipper();
  private final List<Store> stores = new ArrayList<>();

  /** Backups named by every partition; ships recorded, settled only when a test says so. */
  private static final class RecordingShipper implements ReplicaFeed.Shipper {
    record Shipped(String backup, ByteBuf changes, int[] partitions, Runnable settled) {
    }

    final List<Shipped> shipped = new ArrayList<>();
    List<String> backups = List.of("backup-1");
    int held;
    /** Turns whose changes were announced and not shipped yet: zero after every {@link #turn}. */
    int waiting;

    @Override
    public void ship(String backup, ByteBuf changes, long firstChangeNanos, int[] partitions, Runnable settled) {
      shipped.add(new Shipped(backup, changes, partitions, settled));
    }

    @Override
    public List<String> backupsOf(int partition) {
      return backups;
    }

    @Override
    public boolean hasBackups(int partition) {
      return true;
    }

    @Override
    public ByteBuf changeBatch() {
      return PartitionMessages.changeBatch("owner");
    }

    @Override
    public void changesWaiting() {
      waiting++;
    }

    @Override
    public void changesShipped() {
      waiting--;
    }

    @Override
    public void held() {
      held++;
    }
  }

  /** {@link #PARTITIONS} served partitions' stores, feeding one lane whose batches take partitions up to {@code maxBatchBytes}. */
  private void serve(int maxBatchBytes) {
    PartitionStates states = new PartitionStates();
    ReplicaLane lane = new ReplicaLane(shipper, maxBatchBytes);
    for (int p = 0; p < PARTITIONS; p++) {
      states.set(p, PartitionStates.SERVING);
      Store store = new Store(clock, 0);
      store.listen(new ReplicaFeed(p, states, shipper, lane));
      stores.add(store);
    }
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void aTurnsChangesLeaveAsOneMessagePerBackupWithEachKeysLastStateOnce() {
    serve(ReplicaLane.MAX_BATCH_BYTES);
    shipper.backups = List.of("backup-1", "backup-2");
    turn(() -> {
      for (int p = 0; p < PARTITIONS; p++) {
        for (int value = 1; value <= 64; value++) {
          setCounter(p, "key:" + p, value);
        }
      }
    });

    assertThat(shipper.shipped).extracting(RecordingShipper.Shipped::backup).containsExactly("backup-1", "backup-2");
    for (RecordingShipper.Shipped message : shipper.shipped) {
      PartitionMessages.ChangeBatch batch = PartitionMessages.readChangeBatch(message.changes().duplicate());
      assertThat(batch.sender()).isEqualTo("owner");
      assertThat(batch.sections()).hasSize(PARTITIONS);
      assertThat(message.partitions()).as("the partitions it carries, named to the shipper")
          .containsExactly(batch.sections().stream().mapToInt(PartitionMessages.Replica::partition).toArray());
      for (PartitionMessages.Replica section : batch.sections()) {
        Store backup = new Store(clock, 0);
        assertThat(applyEach(section.images(), backup)).as("images of partition %d", section.partition()).isEqualTo(1);
        assertThat(counterOf(backup, "key:" + section.partition())).isEqualTo(64);
      }
    }
    assertThat(shipper.waiting).as("changes announced and not shipped").isZero();
  }

  @Test
  void aBackupBehindHoldsItsChangesMergedUntilItAcknowledges() {
    serve(ReplicaLane.MAX_BATCH_BYTES);
    for (int i = 0; i < ReplicaLane.MAX_UNACKNOWLEDGED; i++) {
      int value = i;
      turn(() -> setCounter(0, "behind", value));
    }
    assertThat(shipper.shipped).hasSize(ReplicaLane.MAX_UNACKNOWLEDGED);

    int heldTurns = 10;
    for (int i = 0; i < heldTurns; i++) {
      int value = 100 + i;
      turn(() -> {
        setCounter(0, "behind", value);
        setCounter(1, "other:" + (value % 3), value);
      });
    }
    assertThat(shipper.shipped).as("nothing more while the backup is behind").hasSize(ReplicaLane.MAX_UNACKNOWLEDGED);
    assertThat(shipper.held).as("one wait, however many turns it spans").isEqualTo(1);

    turn(() -> shipper.shipped.get(0).settled().run());

    assertThat(shipper.shipped).hasSize(ReplicaLane.MAX_UNACKNOWLEDGED + 1);
    PartitionMessages.ChangeBatch caughtUp = PartitionMessages.readChangeBatch(
        shipper.shipped.get(ReplicaLane.MAX_UNACKNOWLEDGED).changes().duplicate());
    Store backup = new Store(clock, 0);
    int images = 0;
    for (PartitionMessages.Replica section : caughtUp.sections()) {
      images += applyEach(section.images(), backup);
    }
    assertThat(images).as("one image per key changed while held").isEqualTo(4);
    assertThat(counterOf(backup, "behind")).isEqualTo(109);
    assertThat(counterOf(backup, "other:0")).isEqualTo(108);
    assertThat(counterOf(backup, "other:1")).isEqualTo(109);
    assertThat(counterOf(backup, "other:2")).isEqualTo(107);
    assertThat(shipper.waiting).as("changes announced and not shipped").isZero();
  }

  @Test
  void aFullBatchLeavesTheOtherPartitionsToTheNextOne() {
    serve(1);
    turn(() -> {
      for (int p = 0; p < 3; p++) {
        setCounter(p, "key:" + p, p);
      }
    });
    // Each turn from here lets the batch the previous one queued leave.
    turn(() -> { });
    turn(() -> { });

    assertThat(shipper.shipped).hasSize(3);
    for (int i = 0; i < 3; i++) {
      PartitionMessages.ChangeBatch batch = PartitionMessages.readChangeBatch(shipper.shipped.get(i).changes().duplicate());
      assertThat(batch.sections()).extracting(PartitionMessages.Replica::partition).containsExactly(i);
    }
    assertThat(shipper.waiting).as("changes announced and not shipped").isZero();
  }

  /** Runs {@code changes} as one turn of the lane's event loop, and returns once the lane flushed after it. */
  private void turn(Runnable changes) {
    Promise<Void> flushed = Promise.promise();
    context.runOnContext(v -> {
      changes.run();
      // Queued after the lane's flush, which the changes queued.
      context.runOnContext(w -> flushed.complete());
    });
    await(flushed.future());
  }

  private void setCounter(int partition, String key, long value) {
    Store store = stores.get(partition);
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    int hash = store.hash(bytes);
    long now = store.now();
    Record record = store.find(bytes, hash, now);
    if (record == null) {
      store.createCounter(bytes, hash, value, TtlUnit.SECONDS.code(), now + TTL_NANOS, now);
    } else {
      store.setCounter(record, value);
    }
  }

  private static int applyEach(ByteBuf images, Store store) {
    int count = 0;
    while (images.isReadable()) {
      RecordImage.apply(images, store);
      count++;
    }
    return count;
  }

  private static long counterOf(Store store, String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    return store.find(bytes, store.hash(bytes), store.now()).counter();
  }
}
