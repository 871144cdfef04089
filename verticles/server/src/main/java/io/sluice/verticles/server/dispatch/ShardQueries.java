package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardSummary;
import io.sluice.verticles.engine.shard.ShardTask;
import io.sluice.protocol.binary.codec.Request;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The HTTP features' view of their event loop's {@link ShardRouter}: the same routes, as Vert.x
 * futures straight from {@link ShardRouter#dispatch} (no {@link java.util.concurrent.CompletionStage}
 * in between), with a failure on a shard raised as a {@link ShardFailure}. Results complete on the
 * caller's event loop. One instance per event loop.
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

  /** The number of routes: shards on one node, partitions in a cluster. */
  public int routes() {
    return router.routes();
  }

  /**
   * Runs a filled batch on its shard; completes with it once executed. Fails with a
   * {@link ShardFailure} when one of its Throttr requests, lookups or scans failed there (the shard
   * has logged it); a {@link ShardTask} reports its own failure, through the task.
   */
  public Future<ShardBatch> run(ShardBatch batch) {
    return sent(batch).compose(ShardQueries::answered);
  }

  /** The filled batch, as the router hands it back on this loop; failed when the shard is out of reach. */
  private Future<ShardBatch> sent(ShardBatch batch) {
    Promise<ShardBatch> filled = Promise.promise();
    router.dispatch(batch, filled::complete, filled::fail);
    return filled.future();
  }

  /** The batch, or a {@link ShardFailure} when one of its entries that does not hold its own failure (all but tasks) failed on the shard. */
  private static Future<ShardBatch> answered(ShardBatch filled) {
    for (int i = 0; i < filled.size(); i++) {
      Throwable failure = filled.failure(i);
      if (failure != null && !filled.entry(i).holdsItsFailure()) {
        return Future.failedFuture(new ShardFailure(filled.route(), failure));
      }
    }
    return Future.succeededFuture(filled);
  }

  /** Runs one Throttr key request on the shard owning its key; the batch holds its reply. */
  public Future<ShardBatch> run(Request.KeyRequest request) {
    ShardBatch batch = new ShardBatch(router.routeOf(request.key()));
    batch.add(request);
    return run(batch);
  }

  /** Runs one task on the shard owning its key; the task holds its result or its failure. */
  public <T extends ShardTask> Future<T> run(T task) {
    ShardBatch batch = new ShardBatch(router.routeOf(task.key()));
    batch.add(task);
    return sent(batch).map(task);
  }

  /**
   * Runs one task on the shard owning its key, with no future in between: for the hot paths, where
   * each request's futures show in the profile. {@code done} gets the task back, holding its result
   * or its failure; {@code unreachable} what kept it from the shard.
   */
  public <T extends ShardTask> void send(T task, Consumer<T> done, Consumer<Throwable> unreachable) {
    ShardBatch batch = new ShardBatch(router.routeOf(task.key()));
    batch.add(task);
    router.dispatch(batch, filled -> done.accept(task), unreachable);
  }

  /**
   * Runs a task on the shard owning its key; completes with its result, or fails with what it
   * failed with (its refusal, or what it threw there).
   */
  public <R> Future<R> call(ResultTask<R> task) {
    return run(task).compose(done -> done.failure() != null
        ? Future.failedFuture(done.failure())
        : Future.succeededFuture(done.result()));
  }

  /** An empty batch for the shard that owns {@code key}. */
  public ShardBatch batchFor(byte[] key) {
    return new ShardBatch(router.routeOf(key));
  }

  /**
   * Runs {@code batchFor.apply(i)} on shard {@code i}, for every shard; results in shard order, once
   * every shard has answered (joined: a failure does not answer before the other shards have).
   */
  public Future<List<ShardBatch>> onEveryShard(IntFunction<ShardBatch> batchFor) {
    List<Future<ShardBatch>> answers = new ArrayList<>(routes());
    for (int shard = 0; shard < routes(); shard++) {
      answers.add(run(batchFor.apply(shard)));
    }
    return Future.join(answers).map(all -> all.<ShardBatch>list());
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
