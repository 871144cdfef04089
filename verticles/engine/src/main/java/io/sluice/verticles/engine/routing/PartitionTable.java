package io.sluice.verticles.engine.routing;

import io.sluice.verticles.engine.storage.KeyHash;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;

/**
 * Which node of a cluster owns each partition of the key space and which nodes back it up,
 * computed from the member list alone by rendezvous hashing: every member ranks the nodes of a
 * partition by a fixed hash of (node id, partition), the first is the owner, the next
 * {@code backups} are its backups. Every node that sees the same members computes the same table,
 * with no messages. Removing a node keeps the others' order, so its partitions go to their first
 * backup (which holds their records already), and adding one moves only the partitions it now
 * ranks first for. Immutable.
 */
public final class PartitionTable {

  /** The fixed number of partitions: a prime, as Hazelcast's default, so keys spread evenly. */
  public static final int PARTITIONS = 271;

  private final List<String> members;
  private final int backups;
  private final String[][] replicas;

  private PartitionTable(List<String> members, int backups, String[][] replicas) {
    this.members = members;
    this.backups = backups;
    this.replicas = replicas;
  }

  /** The table of these members (in any order), each partition with up to {@code backups} backups. */
  public static PartitionTable of(Collection<String> members, int backups) {
    List<String> sorted = List.copyOf(new TreeSet<>(members));
    String[][] replicas = new String[PARTITIONS][];
    int copies = Math.min(sorted.size(), backups + 1);
    for (int partition = 0; partition < PARTITIONS; partition++) {
      List<String> ranked = new ArrayList<>(sorted);
      final int p = partition;
      ranked.sort((a, b) -> Long.compareUnsigned(score(b, p), score(a, p)));
      replicas[partition] = ranked.subList(0, copies).toArray(String[]::new);
    }
    return new PartitionTable(sorted, backups, replicas);
  }

  /** The rendezvous score of {@code node} for {@code partition}: SplitMix64's finaliser over both. */
  static long score(String node, int partition) {
    long x = (KeyHash.of(node.getBytes(StandardCharsets.UTF_8)) & 0xffffffffL) << 32 | partition;
    x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
    x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
    return x ^ (x >>> 31);
  }

  public List<String> members() {
    return members;
  }

  public int backups() {
    return backups;
  }

  public boolean isEmpty() {
    return members.isEmpty();
  }

  /** The owner of {@code partition}, or null when there are no members. */
  public String owner(int partition) {
    String[] nodes = replicas[partition];
    return nodes.length == 0 ? null : nodes[0];
  }

  /** The backups of {@code partition}, best first. */
  public List<String> backupsOf(int partition) {
    String[] nodes = replicas[partition];
    return nodes.length <= 1 ? List.of() : List.of(nodes).subList(1, nodes.length);
  }

  /** Whether {@code partition} has a backup: with none, its changes go nowhere. */
  public boolean hasBackups(int partition) {
    return replicas[partition].length > 1;
  }

  /** Owner first, then the backups. */
  public List<String> replicasOf(int partition) {
    return Collections.unmodifiableList(List.of(replicas[partition]));
  }

  /** How many partitions {@code node} owns. */
  public int owned(String node) {
    int count = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      if (node.equals(owner(p))) {
        count++;
      }
    }
    return count;
  }

  /** How many partitions {@code node} holds a backup of. */
  public int backedUp(String node) {
    int count = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      if (backupsOf(p).contains(node)) {
        count++;
      }
    }
    return count;
  }
}
