package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.shard.ShardBatch;

/**
 * Runs a batch on the thread of the shard that holds its route: a {@code ThrottrShard} itself on a
 * single node; in a cluster, a partition's gate, which runs it only while this node serves the
 * partition. Never throws (see {@code ThrottrShard#execute}).
 */
public interface BatchExecutor {

  void execute(ShardBatch batch);
}
