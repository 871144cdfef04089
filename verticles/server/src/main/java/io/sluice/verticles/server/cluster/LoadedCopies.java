package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What this node's data directory gave its stores before it took part: each partition's records
 * are kept aside when the node joins, then sent to the partition's owner, which adds the keys it
 * lacks (the records a whole-cluster stop left on this node's disk).
 */
final class LoadedCopies {

  private final String self;
  private final Supplier<PartitionTable> table;
  private final PartitionWork work;
  private final ReplicaSeeding seeding;
  /** By partition; filled on the shard threads, read on this node's loop. */
  private final Map<Integer, ByteBuf> loaded = new ConcurrentHashMap<>();

  LoadedCopies(String self, Supplier<PartitionTable> table, PartitionWork work, ReplicaSeeding seeding) {
    this.self = self;
    this.table = table;
    this.work = work;
    this.seeding = seeding;
  }

  /** Keeps a copy of every store that holds records before this node takes part. */
  Future<Void> take() {
    List<Future<Void>> taken = new ArrayList<>();
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      int partition = p;
      taken.add(work.on(partition, store -> {
        if (store.size() > 0) {
          loaded.put(partition, Snapshots.take(store));
        }
      }));
    }
    return Future.all(taken).mapEmpty();
  }

  /**
   * Sends each loaded copy of a partition this node does not own to its owner; a copy this node
   * keeps neither as owner nor as backup (by the table as it then stands) is then dropped.
   */
  void handOver() {
    loaded.forEach((partition, records) -> {
      String owner = table.get().owner(partition);
      if (owner == null || owner.equals(self)) {
        records.release();
        return;
      }
      seeding.merge(owner, partition, records).onSuccess(v -> dropUnlessReplica(partition));
    });
    loaded.clear();
  }

  private void dropUnlessReplica(int partition) {
    if (!replica(partition)) {
      work.on(partition, store -> {
        if (!replica(partition)) {
          Snapshots.clear(store);
        }
      });
    }
  }

  private boolean replica(int partition) {
    return table.get().replicasOf(partition).contains(self);
  }
}
