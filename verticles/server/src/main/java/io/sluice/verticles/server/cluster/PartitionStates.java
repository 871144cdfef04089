package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.routing.PartitionTable;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What this node does with each partition right now: serve it (it owns it and holds its records),
 * wait for its records from the previous owner before serving, or not serve it (another node owns
 * it; this one may hold a backup copy). Read by the partition gates on the shard threads, written by
 * the cluster's coordinator and by the handoff on the shard thread.
 */
public final class PartitionStates {

  static final int NOT_SERVED = 0;
  static final int SERVING = 1;
  static final int AWAITING = 2;

  private final AtomicIntegerArray states = new AtomicIntegerArray(PartitionTable.PARTITIONS);
  /** The node this node took each partition over from, while it owns it; null when it owned it already. */
  private final AtomicReferenceArray<String> takenFrom = new AtomicReferenceArray<>(PartitionTable.PARTITIONS);

  /** Notes that the partition's records come (came) from {@code node} by a handoff. */
  void takenFrom(int partition, String node) {
    takenFrom.set(partition, node);
  }

  /**
   * The partition is no longer this node's, or it kept it across a change of members: what it was
   * taken from no longer matters.
   */
  void released(int partition) {
    takenFrom.set(partition, null);
  }

  /**
   * Whether {@code node} handed this partition over to this node. Its copy of the partition is then
   * the one handed over (or older), never a copy served apart during a split: joining it into the
   * stricter state would undo what this node served since, an acknowledged UPDATE that raised a
   * quota among it.
   */
  boolean handedOverBy(int partition, String node) {
    return node.equals(takenFrom.get(partition));
  }

  boolean serving(int partition) {
    return states.get(partition) == SERVING;
  }

  int get(int partition) {
    return states.get(partition);
  }

  void set(int partition, int state) {
    states.set(partition, state);
  }

  /** How many partitions this node serves now. */
  public int serving() {
    int count = 0;
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if (serving(p)) {
        count++;
      }
    }
    return count;
  }

  /** How many partitions this node owns but waits for. */
  public int awaiting() {
    int count = 0;
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if (states.get(p) == AWAITING) {
        count++;
      }
    }
    return count;
  }
}
