package io.sluice.verticles.server.cluster;

import io.micrometer.core.instrument.Timer;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.buffer.BufferInternal;
import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real nodes, one backup: the changes a shard thread makes to many partitions in one turn,
 * each key many times, reach the backup as one message per shard thread (not one per partition),
 * and the backup serves every key's last state once the owner is gone.
 */
class ReplicationBatchTest {

  private static final int KEYS = 120;
  private static final int UPDATES_PER_KEY = 64;

  private final ManualClock clock = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();

  @Test
  void aTurnsChangesOfManyPartitionsReachTheBackupInOneMessagePerShardThread() {
    nodes.addAll(ClusterNodeUnderTest.startPair(clock));
    ClusterNodeUnderTest owner = nodes.get(0);
    ClusterNodeUnderTest backup = nodes.get(1);
    Map<Integer, List<byte[]>> keysByPartition = keysOwnedBy(owner);

    ThrottrClient writer = owner.client(cluster.clients());
    keysByPartition.values().forEach(keys -> keys.forEach(
        key -> assertThat(await(writer.insert(new String(key, StandardCharsets.UTF_8), 0, TtlUnit.SECONDS, 600))).isTrue()));
    ClusterNodeUnderTest.awaitReplicated(nodes);
    long messagesBefore = replicationMessages(owner);

    // Every partition's work sent in one turn of the node's loop reaches each shard thread as one parcel.
    Promise<Void> updated = Promise.promise();
    owner.node().loop().runOnContext(v -> {
      List<Future<Void>> work = new ArrayList<>();
      keysByPartition.forEach((partition, keys) -> work.add(owner.node().work().on(partition, store -> {
        for (byte[] key : keys) {
          Record record = store.find(key, store.hash(key), store.now());
          for (int value = 1; value <= UPDATES_PER_KEY; value++) {
            store.setCounter(record, value);
          }
        }
      })));
      Future.all(work).<Void>mapEmpty().onComplete(updated);
    });
    await(updated.future());
    ClusterNodeUnderTest.awaitReplicated(nodes);

    int shards = SluiceUnderTest.defaults().shards();
    long shardThreads = keysByPartition.keySet().stream().map(partition -> partition % shards).distinct().count();
    assertThat(keysByPartition).hasSizeGreaterThan(2 * shards);
    assertThat(replicationMessages(owner) - messagesBefore)
        .as("messages for %d partitions changed on %d shard threads", keysByPartition.size(), shardThreads)
        .isEqualTo(shardThreads);

    nodes.remove(owner);
    owner.crash();
    ClusterNodeUnderTest.awaitFormed(nodes);
    ThrottrClient reader = backup.client(cluster.clients());
    keysByPartition.values().forEach(keys -> keys.forEach(key -> {
      String name = new String(key, StandardCharsets.UTF_8);
      assertThat(await(reader.query(name)).quota()).as("%s on the backup", name).isEqualTo(UPDATES_PER_KEY);
    }));
  }

  @Test
  void aBatchTheBackupDidNotTakeIsMadeGoodByCopyingItsPartitionsWhole() {
    nodes.addAll(ClusterNodeUnderTest.startPair(clock));
    ClusterNodeUnderTest owner = nodes.get(0);
    ClusterNodeUnderTest backup = nodes.get(1);
    List<String> keys = keysOwnedBy(owner).values().stream().flatMap(List::stream)
        .map(key -> new String(key, StandardCharsets.UTF_8)).toList();
    ThrottrClient writer = owner.client(cluster.clients());
    keys.forEach(key -> assertThat(await(writer.insert(key, 5, TtlUnit.SECONDS, 600))).isTrue());
    ClusterNodeUnderTest.awaitReplicated(nodes);

    // The backup fails the next change batch unapplied, as a timeout or a closed connection would leave it.
    AtomicInteger refusedPartitions = new AtomicInteger(-1);
    String replicas = ClusterAddress.replica(backup.node().self());
    backup.vertx().eventBus().<Object>addInboundInterceptor(delivery -> {
      boolean replica = delivery.message().address().equals(replicas);
      ByteBuf body = replica ? ((BufferInternal) delivery.message().body()).getByteBuf() : null;
      if (replica && PartitionMessages.isChangeBatch(body)
          && refusedPartitions.compareAndSet(-1, PartitionMessages.readChangeBatch(body.duplicate()).sections().size())) {
        delivery.message().fail(0, "refused by the test");
      } else {
        delivery.next();
      }
    });
    // Pipelined on one connection: their changes leave in a few change batches, the first refused.
    List<Future<Boolean>> updates = keys.stream()
        .map(key -> writer.update(key, UpdateAttribute.QUOTA, UpdateChange.DECREASE, 1)).toList();
    assertThat(await(Future.all(updates)).<Boolean>list()).containsOnly(true);
    ClusterNodeUnderTest.awaitCondition("the refused batch's partitions copied again", Duration.ofSeconds(30),
        () -> refusedPartitions.get() > 0 && recopied(owner) == refusedPartitions.get());
    // The batches that were taken, acknowledged too, before the owner goes.
    ClusterNodeUnderTest.awaitReplicated(nodes);

    nodes.remove(owner);
    owner.crash();
    ClusterNodeUnderTest.awaitFormed(nodes);
    ThrottrClient reader = backup.client(cluster.clients());
    keys.forEach(key -> assertThat(await(reader.query(key)).quota()).as("%s on the backup", key).isEqualTo(4));
  }

  /**
   * A copy to a backup counts in flight from the moment it is decided, not from when its shard
   * thread gets to take it: a wait for every copy to be on its backups must not end while that
   * thread is still busy with earlier work. (It did: SplitHealTest could read the other node's
   * copy, then stop it serving, before the owner's seed had left, which was then installed over it.)
   */
  @Test
  void aCopyCountsInFlightFromTheMomentItIsDecided() throws InterruptedException {
    nodes.addAll(ClusterNodeUnderTest.startPair(clock));
    ClusterNodeUnderTest owner = nodes.get(0);
    int partition = servedOffTheNodesLoop(owner);
    ClusterNodeUnderTest.awaitReplicated(nodes);
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Promise<Void> decided = Promise.promise();
    owner.node().loop().runOnContext(v -> {
      // The partition's shard thread is busy with earlier work when the copy is decided.
      owner.node().work().on(partition, store -> {
        held.countDown();
        awaitUninterruptibly(release);
      });
      owner.node().seeding().seedBackups(partition);
      decided.complete();
    });
    try {
      await(decided.future());
      assertThat(held.await(10, TimeUnit.SECONDS)).as("the shard thread runs the earlier work").isTrue();
      assertThat(owner.node().meters().replicasInFlight()).as("the copy, decided, not taken yet").isPositive();
    } finally {
      release.countDown();
    }
    ClusterNodeUnderTest.awaitReplicated(nodes);
  }

  /**
   * A partition the owner serves on a shard thread other than its node's loop. Work for a partition
   * served on the loop itself runs at once, inside {@code work().on}: holding it there would hold
   * the loop, and the copy could not be decided behind it.
   */
  private static int servedOffTheNodesLoop(ClusterNodeUnderTest owner) {
    for (int partition : keysOwnedBy(owner).keySet()) {
      Promise<Boolean> elsewhere = Promise.promise();
      owner.node().loop().runOnContext(v -> {
        Thread loop = Thread.currentThread();
        AtomicReference<Thread> ran = new AtomicReference<>();
        owner.node().work().on(partition, store -> ran.set(Thread.currentThread()))
            .onComplete(done -> elsewhere.complete(ran.get() != null && ran.get() != loop));
      });
      if (await(elsewhere.future())) {
        return partition;
      }
    }
    throw new AssertionError("the owner serves every partition it owns on its node's loop");
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@link #KEYS} keys the node owns, by partition. */
  private static Map<Integer, List<byte[]>> keysOwnedBy(ClusterNodeUnderTest node) {
    Map<Integer, List<byte[]>> byPartition = new TreeMap<>();
    int found = 0;
    for (int i = 0; found < KEYS; i++) {
      byte[] key = ("batched:" + i).getBytes(StandardCharsets.UTF_8);
      if (ClusterNodeUnderTest.ownerOf(node.node(), key).equals(node.node().self())) {
        byPartition.computeIfAbsent(ShardRouter.routeOf(key, PartitionTable.PARTITIONS), p -> new ArrayList<>()).add(key);
        found++;
      }
    }
    return byPartition;
  }

  private static double recopied(ClusterNodeUnderTest node) {
    return node.metrics().get("sluice.cluster.replication.recopied").counter().count();
  }

  /** The replica messages the node's backups acknowledged. */
  private static long replicationMessages(ClusterNodeUnderTest node) {
    Timer lag = node.metrics().get("sluice.cluster.replication.lag").timer();
    return lag.count();
  }
}
