package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;

/**
 * What every endpoint of the check API works with: the policies, the way to the shards of one
 * front event loop, the decision counters and that loop's book of callers.
 */
record CheckServices(java.util.function.Supplier<CheckPolicies> current, ShardQueries shards, CheckDecisions decisions,
                     Callers.Book callers) {

  /** The policies as they are now: a reload replaces them between two requests. */
  CheckPolicies policies() {
    return current.get();
  }

  /** Runs the task on the shard owning its key; fails with the task's {@link ApiError} if it failed there. */
  Future<LimitTask> run(LimitTask task) {
    return shards.run(task).compose(done ->
        done.failure() != null ? Future.failedFuture(done.failure()) : Future.succeededFuture(done));
  }
}
