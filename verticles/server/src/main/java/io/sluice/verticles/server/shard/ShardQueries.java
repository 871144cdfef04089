package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardSummary;
import io.sluice.verticles.engine.shard.ShardTask;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.verticles.server.http.ApiError;
import io.vertx.core.Context;
import io.vertx.core.Future;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;

/**
 * The HTTP features' view of their event loop's {@link ShardRouter}: the same routes, as Vert.x
 * futures, with a failure on a shard turned into an HTTP 500. Results complete on the caller's
 * event loop. One instance per event loop.
 */
public final class ShardQueries {

  private final ShardRouter router;

  public ShardQueries(ShardRouter router) {
    this.router = router;
  }

  /** Create on the event loop that will use it, with a router of its own. */
  public ShardQueries(Context loop, ShardDirectory directory) {
    this(directory.routerFor(loop));
  }

  public ShardRouter router() {
    return router;
  }

  public int shards() {
    return router.routes();
  }

  /**
   * Runs a filled batch on its shard; completes with it once executed. Fails with a 500 when one of
   * its Throttr requests, lookups or scans failed there (the shard has logged it); a
   * {@link ShardTask} reports its own failure, through the task.
   */
  public Future<ShardBatch> run(ShardBatch batch) {
    return Future.fromCompletionStage(router.send(batch)).compose(ShardQueries::answered);
  }

  /** The batch, or a 500 when one of its entries other than a task failed on the shard. */
  private static Future<ShardBatch> answered(ShardBatch filled) {
    for (int i = 0; i < filled.size(); i++) {
      Throwable failure = filled.failure(i);
      if (failure != null && !(filled.entry(i) instanceof ShardTask)) {
        return Future.failedFuture(new ApiError(500, "internal error on shard " + filled.shard() + ": " + failure, null));
      }
    }
    return Future.succeededFuture(filled);
  }

  /** Runs one Throttr key request on the shard owning its key; the batch holds its reply. */
  public Future<ShardBatch> run(Request.KeyRequest request) {
    return Future.fromCompletionStage(router.run(request)).compose(ShardQueries::answered);
  }

  /** Runs one task on the shard owning its key; the task holds its result or its failure. */
  public <T extends ShardTask> Future<T> run(T task) {
    return Future.fromCompletionStage(router.run(task));
  }

  /**
   * Runs a task on the shard owning its key; completes with its result, or fails with what it
   * failed with (its refusal, or what it threw there), unwrapped.
   */
  public <R> Future<R> call(ResultTask<R> task) {
    return Future.fromCompletionStage(router.call(task)).recover(failure -> Future.failedFuture(cause(failure)));
  }

  /** What a {@link java.util.concurrent.CompletionStage} failed with, out of the wrapping it adds. */
  public static Throwable cause(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** An empty batch for the shard that owns {@code key}. */
  public ShardBatch batchFor(byte[] key) {
    return new ShardBatch(router.routeOf(key));
  }

  /** Runs {@code batchFor.apply(i)} on shard {@code i}, for every shard; results in shard order. */
  public Future<List<ShardBatch>> onEveryShard(IntFunction<ShardBatch> batchFor) {
    return Future.fromCompletionStage(router.onEveryShard(batchFor)).compose(filled ->
        Future.all(filled.stream().map(ShardQueries::answered).toList()).map(all -> filled));
  }

  /** What each shard holds, in shard order: the shards' part of a Throttr INFO. */
  public Future<List<ShardSummary>> summaries() {
    return onEveryShard(shard -> {
      ShardBatch batch = new ShardBatch(shard);
      batch.add(Request.Bare.INFO);
      return batch;
    }).map(batches -> batches.stream().map(batch -> (ShardSummary) batch.collected(0)).toList());
  }
}
