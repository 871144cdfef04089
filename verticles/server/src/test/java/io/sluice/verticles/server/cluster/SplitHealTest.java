package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two copies of a partition that served apart meet, over two real nodes' event bus and stores, as
 * they do when a split heals: the owner's seed reaches the other node while that node still serves
 * the partition (its table not merged yet), then that node sends the copy it served to the owner.
 * Every key ends with the lower quota either side had, none with fresh quota, and keys only one
 * side held are kept. (The split itself, Hazelcast's members parting and merging, is made by the
 * network-namespace tests; here each side's counts are written into its copy.)
 */
class SplitHealTest {

  private static final long TTL_SECONDS = 600;
  private final ManualClock clock = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();

  @Test
  void copiesThatServedApartMeetAtTheOwnerWithTheLowerQuotaOfEachKey() {
    nodes.addAll(ClusterNodeUnderTest.startPair(clock));
    ClusterNode owner = nodes.get(0).node();
    ClusterNode other = nodes.get(1).node();
    List<String> keys = keysOfOnePartitionOwnedBy(owner, 4);
    int partition = ShardRouter.routeOf(bytes(keys.get(0)), PartitionTable.PARTITIONS);
    String both = keys.get(0);
    String lowerThere = keys.get(1);
    String onlyHere = keys.get(2);
    String onlyThere = keys.get(3);

    ThrottrClient client = cluster.client(0);
    for (String key : List.of(both, lowerThere, onlyHere)) {
      assertThat(await(client.insert(key, 10, TtlUnit.SECONDS, TTL_SECONDS))).isTrue();
    }
    ClusterNodeUnderTest.awaitReplicated(nodes);

    // The split: the owner's side counts 3 of "both"; the other side, serving the partition too,
    // counts 6 of "both", 8 of "lowerThere" and makes "onlyThere" (its copy hears nothing of the owner's).
    other.states().set(partition, PartitionStates.SERVING);
    assertThat(await(client.update(both, UpdateAttribute.QUOTA, UpdateChange.DECREASE, 3))).isTrue();
    long later = clock.epochNanos() + Duration.ofSeconds(TTL_SECONDS + 60).toNanos();
    onLoop(other, () -> other.work().on(partition, store -> {
      store.restoreCounter(bytes(both), TtlUnit.SECONDS.code(), expiry(), 4);
      store.restoreCounter(bytes(lowerThere), TtlUnit.SECONDS.code(), later, 2);
      store.restoreCounter(bytes(onlyThere), TtlUnit.SECONDS.code(), expiry(), 5);
    }));

    // The heal, owner first: its seed (and its change of "both") reach the other node while that
    // node still serves the partition: they are joined into its copy, not installed over it.
    onLoop(owner, () -> {
      owner.seeding().seedBackups(partition);
      return Future.succeededFuture();
    });
    ClusterNodeUnderTest.awaitReplicated(nodes);
    assertThat(quotas(other, partition)).isEqualTo(Map.of(both, 4L, lowerThere, 2L, onlyHere, 10L, onlyThere, 5L));

    // Then the other node's table merges: it stops serving and sends the owner the copy it served.
    other.states().set(partition, PartitionStates.NOT_SERVED);
    onLoop(other, () -> {
      other.seeding().sendServedCopy(partition, owner.self());
      return Future.succeededFuture();
    });
    ClusterNodeUnderTest.awaitCondition("the owner joined the copy served apart", Duration.ofSeconds(10),
        () -> quotas(owner, partition).size() == 4);
    ClusterNodeUnderTest.awaitReplicated(nodes);

    Map<String, Long> expected = Map.of(both, 4L, lowerThere, 2L, onlyHere, 10L, onlyThere, 5L);
    assertThat(quotas(owner, partition)).isEqualTo(expected);
    assertThat(quotas(other, partition)).as("the backup follows the joined copy").isEqualTo(expected);
    for (ClusterNodeUnderTest node : nodes) {
      ThrottrClient reader = node.client(cluster.clients());
      expected.forEach((key, quota) -> assertThat(await(reader.query(key)).quota()).as(key).isEqualTo(quota));
    }
    assertThat(expiryOf(owner, partition, lowerThere)).as("the later expiry goes with the lower quota").isEqualTo(later);
  }

  /** Runs {@code action} on the node's loop, where its coordination runs, and waits for what it started. */
  private static void onLoop(ClusterNode node, Supplier<Future<Void>> action) {
    Promise<Void> done = Promise.promise();
    node.loop().runOnContext(v -> action.get().onComplete(done));
    await(done.future());
  }

  private long expiry() {
    return clock.epochNanos() + Duration.ofSeconds(TTL_SECONDS).toNanos();
  }

  private static List<String> keysOfOnePartitionOwnedBy(ClusterNode owner, int count) {
    int partition = -1;
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < count; i++) {
      String key = "heal:" + i;
      int route = ShardRouter.routeOf(bytes(key), PartitionTable.PARTITIONS);
      if (partition < 0 && owner.self().equals(owner.table().owner(route))) {
        partition = route;
      }
      if (route == partition) {
        keys.add(key);
      }
    }
    return keys;
  }

  /** Every counter of the partition's copy on {@code node}, read on its shard thread. */
  private static Map<String, Long> quotas(ClusterNode node, int partition) {
    Map<String, Long> quotas = new TreeMap<>();
    onLoop(node, () -> node.work().on(partition, store -> store.forEachLive(record ->
        quotas.put(new String(record.key(), StandardCharsets.UTF_8), record.counter()))));
    return quotas;
  }

  private static long expiryOf(ClusterNode node, int partition, String key) {
    long[] expiry = new long[1];
    onLoop(node, () -> node.work().on(partition, store -> expiry[0] = find(store, key).expiresAtNanos()));
    return expiry[0];
  }

  private static Record find(Store store, String key) {
    return store.find(bytes(key), store.hash(bytes(key)), store.now());
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }
}
