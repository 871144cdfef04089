package io.sluice.verticles.shard;

import io.sluice.core.shard.ShardBatch;
import io.sluice.core.shard.ShardSummary;
import io.sluice.core.shard.ShardTask;
import io.sluice.throttr.codec.Request;
import io.sluice.verticles.http.ApiError;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Asks the shards something from outside a Throttr session (the dashboard, readiness): a batch to
 * one shard, or one batch to every shard answered together. Results complete on the caller's event
 * loop. One instance per event loop.
 */
public final class ShardQueries {

  private final ShardOutbox outbox;
  private final int shards;

  /** Create on the event loop that will use it. */
  public ShardQueries(Context loop, ShardDirectory directory) {
    this.outbox = new ShardOutbox(loop, loop.owner().eventBus(), directory);
    this.shards = directory.shards();
  }

  public int shards() {
    return shards;
  }

  /**
   * Runs a filled batch on its shard; completes with it once executed. Fails with a 500 when one of
   * its Throttr requests, lookups or scans failed there (the shard has logged it); a
   * {@link ShardTask} reports its own failure, through the task.
   */
  public Future<ShardBatch> run(ShardBatch batch) {
    Promise<ShardBatch> done = Promise.promise();
    outbox.dispatch(batch, filled -> {
      for (int i = 0; i < filled.size(); i++) {
        Throwable failure = filled.failure(i);
        if (failure != null && !(filled.entry(i) instanceof ShardTask)) {
          done.fail(new ApiError(500, "internal error on shard " + filled.shard() + ": " + failure, null));
          return;
        }
      }
      done.complete(filled);
    }, done::fail);
    return done.future();
  }

  /** Runs {@code batchFor.apply(i)} on shard {@code i}, for every shard; results in shard order. */
  public Future<List<ShardBatch>> onEveryShard(IntFunction<ShardBatch> batchFor) {
    List<Future<ShardBatch>> answers = new ArrayList<>(shards);
    for (int shard = 0; shard < shards; shard++) {
      answers.add(run(batchFor.apply(shard)));
    }
    return Future.all(answers).map(all -> all.list());
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
