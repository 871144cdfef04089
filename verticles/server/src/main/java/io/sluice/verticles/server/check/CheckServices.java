package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.shard.ShardQueries;
import io.vertx.core.Future;

/**
 * What every endpoint of the check API works with: the policies, the way to the shards of one
 * front event loop, and the decision counters.
 */
record CheckServices(CheckPolicies policies, ShardQueries shards, CheckDecisions decisions) {

  /**
   * Runs the task on the shard owning its key; fails with the task's {@link ApiError} if it
   * refused there, or with a 500 when it threw (a bug the shard has logged: this request alone).
   */
  Future<LimitTask> run(LimitTask task) {
    return shards.call(task).recover(failure -> Future.failedFuture(
        failure instanceof ApiError refused ? refused : new ApiError(500, "rate-limit check failed: " + failure, null)));
  }
}
