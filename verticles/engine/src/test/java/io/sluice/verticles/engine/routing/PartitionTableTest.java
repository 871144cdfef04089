package io.sluice.verticles.engine.routing;

import io.sluice.verticles.engine.storage.KeyHash;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionTableTest {

  private static final List<String> THREE = List.of("node-a", "node-b", "node-c");

  /**
   * The vectors of docs/cluster.md ("Sending each key to its owner"), which clients that route by
   * owner check their own hash against: a change here breaks them, and must change the docs.
   */
  @Test
  void theDocumentedKeysFallInTheirDocumentedPartitions() {
    Map<String, Integer> vectors = new LinkedHashMap<>();
    vectors.put("", 36);
    vectors.put("a", 117);
    vectors.put("user:42", 93);
    vectors.put("k000000000000000", 186);
    vectors.put("api-key/7f3a", 254);
    vectors.forEach((key, partition) -> assertThat(ShardRouter.routeOf(key.getBytes(StandardCharsets.UTF_8),
        PartitionTable.PARTITIONS)).as("'%s'", key).isEqualTo(partition));
    assertThat(Integer.toHexString(KeyHash.of("user:42".getBytes(StandardCharsets.UTF_8)))).isEqualTo("57ecfdb5");
  }

  @Test
  void everyNodeComputesTheSameTableWhateverOrderItSeesTheMembersIn() {
    PartitionTable one = PartitionTable.of(THREE, 1);
    PartitionTable other = PartitionTable.of(List.of("node-c", "node-a", "node-b"), 1);
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      assertThat(other.replicasOf(p)).isEqualTo(one.replicasOf(p));
    }
  }

  @Test
  void eachPartitionHasOneOwnerAndDistinctBackups() {
    PartitionTable table = PartitionTable.of(THREE, 2);
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      assertThat(new HashSet<>(table.replicasOf(p))).hasSize(3);
      assertThat(table.backupsOf(p)).doesNotContain(table.owner(p));
    }
    int owned = 0;
    for (String node : THREE) {
      // An even share, give or take: rendezvous hashing spreads 271 partitions over 3 nodes.
      assertThat(table.owned(node)).isBetween(60, 120);
      owned += table.owned(node);
    }
    assertThat(owned).isEqualTo(PartitionTable.PARTITIONS);
  }

  @Test
  void aDeadNodesPartitionsGoToTheirFirstBackup() {
    PartitionTable before = PartitionTable.of(THREE, 1);
    PartitionTable after = PartitionTable.of(List.of("node-a", "node-c"), 1);
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if (before.owner(p).equals("node-b")) {
        assertThat(after.owner(p)).isEqualTo(before.backupsOf(p).get(0));
      } else {
        assertThat(after.owner(p)).isEqualTo(before.owner(p));
      }
    }
  }

  @Test
  void aJoiningNodeTakesOnlyThePartitionsItRanksFirstFor() {
    PartitionTable before = PartitionTable.of(List.of("node-a", "node-b"), 1);
    PartitionTable after = PartitionTable.of(THREE, 1);
    Set<Integer> moved = new HashSet<>();
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if (!after.owner(p).equals(before.owner(p))) {
        assertThat(after.owner(p)).isEqualTo("node-c");
        // The old owner ranks second now: it keeps a copy as the first backup.
        assertThat(after.backupsOf(p).get(0)).isEqualTo(before.owner(p));
        moved.add(p);
      }
    }
    assertThat(moved).hasSize(after.owned("node-c"));
  }

  @Test
  void backupsAreCappedByTheMembers() {
    PartitionTable alone = PartitionTable.of(List.of("node-a"), 2);
    assertThat(alone.owner(0)).isEqualTo("node-a");
    assertThat(alone.backupsOf(0)).isEmpty();
    assertThat(PartitionTable.of(List.of(), 1).owner(0)).isNull();
  }
}
