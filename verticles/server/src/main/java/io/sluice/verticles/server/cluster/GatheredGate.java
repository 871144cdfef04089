package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.server.dispatch.BatchExecutor;

import java.util.function.IntFunction;

/**
 * The {@link PartitionGate} of a {@linkplain ShardBatch#gathered gathered} batch, whose requests
 * belong to several partitions of one shard verticle: each entry runs on its partition's store
 * only while this node serves that partition, and comes back unrun otherwise
 * ({@link ShardBatch#markNotRun(int)}) for its sender to route again, while the batch's other
 * entries run. The check is per entry on the shard's thread, in order with the handoff that stops
 * serving a partition, so nothing of it runs here after its records were handed over.
 */
final class GatheredGate implements BatchExecutor {

  private final ThrottrShard[] shards;
  private final PartitionStates states;
  private final IntFunction<ThrottrShard> serving = this::serving;

  /** @param shards the partitions' shards by partition, null for those not placed on this verticle */
  GatheredGate(ThrottrShard[] shards, PartitionStates states) {
    this.shards = shards;
    this.states = states;
  }

  @Override
  public void execute(ShardBatch batch) {
    ThrottrShard.execute(batch, serving);
  }

  /** The partition's shard while this node serves it here; null otherwise (a number from another node included). */
  private ThrottrShard serving(int partition) {
    if (partition < 0 || partition >= shards.length || shards[partition] == null) {
      return null;
    }
    return states.serving(partition) ? shards[partition] : null;
  }
}
