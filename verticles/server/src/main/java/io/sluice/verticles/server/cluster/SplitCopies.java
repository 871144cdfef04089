package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.Store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies of a partition that another node served while this one served it too (the two sides of a
 * network split), as they meet at the heal: each is joined key by key into the state that has
 * consumed more ({@link Snapshots#joinStricter}), so a heal never hands out fresh quota. A copy
 * that comes while the partition waits for its previous owner's records is kept and joined again
 * once those are in, as installing them replaces what the store held. Joins run on the
 * partition's shard thread; {@link #forget} on the node's loop.
 */
final class SplitCopies {

  private final PartitionStates states;
  /** By partition: copies joined while it was awaited, to join again after the install. */
  private final Map<Integer, List<ByteBuf>> awaiting = new ConcurrentHashMap<>();

  SplitCopies(PartitionStates states) {
    this.states = states;
  }

  /** Joins a copy served apart into the partition's store, on its shard thread. */
  void join(int partition, Store store, ByteBuf images) {
    if (states.get(partition) == PartitionStates.AWAITING) {
      awaiting.computeIfAbsent(partition, p -> new ArrayList<>()).add(images.copy());
    }
    Snapshots.joinStricter(store, images);
  }

  /** Joins again, on the shard thread, the copies that came before the previous owner's records did. */
  void joinAgain(int partition, Store store) {
    List<ByteBuf> copies = awaiting.remove(partition);
    if (copies != null) {
      for (ByteBuf copy : copies) {
        Snapshots.joinStricter(store, copy);
        copy.release();
      }
    }
  }

  /** The partition is no longer awaited: what its store holds already has every copy joined. */
  void forget(int partition) {
    List<ByteBuf> copies = awaiting.remove(partition);
    if (copies != null) {
      copies.forEach(ByteBuf::release);
    }
  }
}
