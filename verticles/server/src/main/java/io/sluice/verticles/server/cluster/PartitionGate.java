package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.server.dispatch.BatchExecutor;

/**
 * Runs a partition's batches only while this node serves the partition; any other batch comes back
 * unrun ({@link ShardBatch#markNotRun}) for its sender to route again. The check is on the shard's
 * thread, in order with the handoff that stops serving, so nothing runs here after the records
 * were handed to the next owner. Store work (backups, snapshots) always runs.
 */
final class PartitionGate implements BatchExecutor {

  private final int partition;
  private final ThrottrShard shard;
  private final PartitionStates states;

  PartitionGate(int partition, ThrottrShard shard, PartitionStates states) {
    this.partition = partition;
    this.shard = shard;
    this.states = states;
  }

  @Override
  public void execute(ShardBatch batch) {
    if (states.serving(partition) || batch.isStoreWork()) {
      shard.execute(batch);
    } else {
      batch.markNotRun();
    }
  }
}
