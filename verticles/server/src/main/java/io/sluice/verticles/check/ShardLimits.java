package io.sluice.verticles.check;

import io.sluice.verticles.http.ApiError;
import io.sluice.core.shard.ShardBatch;
import io.sluice.core.storage.KeyHash;
import io.sluice.verticles.shard.ShardOutbox;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * Sends {@link LimitTask}s to the shards owning their keys, from one HTTP front instance (one
 * event loop). Completions arrive on that loop.
 */
final class ShardLimits {

  private final ShardOutbox outbox;
  private final int shards;

  ShardLimits(ShardOutbox outbox, int shards) {
    this.outbox = outbox;
    this.shards = shards;
  }

  /** Runs the task on its shard; fails with the task's {@link ApiError} if it failed there. */
  Future<LimitTask> run(LimitTask task) {
    Promise<LimitTask> done = Promise.promise();
    ShardBatch batch = new ShardBatch(KeyHash.shardOf(KeyHash.of(task.key()), shards));
    batch.add(task);
    outbox.dispatch(batch, filled -> {
      if (task.failure() != null) {
        done.fail(task.failure());
      } else {
        done.complete(task);
      }
    }, done::fail);
    return done.future();
  }
}
