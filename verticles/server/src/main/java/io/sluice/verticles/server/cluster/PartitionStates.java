package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.routing.PartitionTable;

import java.util.concurrent.atomic.AtomicIntegerArray;

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
