package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.StoreWork;
import io.vertx.core.Future;

/**
 * Runs cluster work on a partition's store (a handoff, a copy, a replica) on the shard thread that
 * serves the partition, in order with its requests: the one way the cluster's coordination touches
 * a store.
 */
final class PartitionWork {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());

  private final ShardRouter local;

  /** @param local this process's own shards, on the node's loop */
  PartitionWork(ShardRouter local) {
    this.local = local;
  }

  /** Runs {@code work} on the partition's store; fails (logged) when it threw there. */
  Future<Void> on(int partition, StoreWork work) {
    ShardBatch batch = new ShardBatch(partition);
    batch.add(work);
    return Future.fromCompletionStage(local.send(batch)).compose(filled -> {
      Throwable failure = filled.firstFailure();
      if (failure != null) {
        LOG.log(System.Logger.Level.ERROR, "partition " + partition + ": " + LogText.failure(failure));
        return Future.failedFuture(failure);
      }
      return Future.succeededFuture();
    });
  }
}
