package io.sluice.verticles.check;

import io.sluice.verticles.http.ApiError;
import io.sluice.core.shard.ShardBatch;
import io.sluice.core.storage.KeyHash;
import io.sluice.verticles.shard.ShardQueries;
import io.vertx.core.Future;

/**
 * Sends {@link LimitTask}s to the shards owning their keys, from one HTTP front instance (one
 * event loop). Completions arrive on that loop.
 */
final class ShardLimits {

  private final ShardQueries shards;

  ShardLimits(ShardQueries shards) {
    this.shards = shards;
  }

  /** Runs the task on its shard; fails with the task's {@link ApiError} if it failed there. */
  Future<LimitTask> run(LimitTask task) {
    ShardBatch batch = new ShardBatch(KeyHash.shardOf(KeyHash.of(task.key()), shards.shards()));
    batch.add(task);
    return shards.run(batch).compose(filled ->
        task.failure() != null ? Future.failedFuture(task.failure()) : Future.succeededFuture(task));
  }
}
