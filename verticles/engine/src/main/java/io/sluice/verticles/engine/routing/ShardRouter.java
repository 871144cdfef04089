package io.sluice.verticles.engine.routing;

import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardTask;
import io.sluice.verticles.engine.storage.KeyHash;
import io.sluice.protocol.binary.codec.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The one way to a key's owner, used by every front: which shard owns a key, and how a batch of
 * work gets there and back. The Throttr session sends the requests of a read as one batch per
 * shard ({@link #dispatch}); the check API, the UDP engine and the dashboard send one task or
 * request at a time ({@link #run}). A cluster extends this to other nodes: the placement of a key
 * stays {@link #shardOf}, a shard may then live elsewhere.
 *
 * <p>Each front event loop has its own router; every callback runs on that loop. Work reaches a
 * shard in dispatch order, so per caller and shard, order is kept.
 */
public interface ShardRouter {

  /** The number of shards the key space is split into. */
  int shards();

  /**
   * The shard that owns {@code key}: a fixed hash, the same in every process and across restarts,
   * so that every node of a cluster agrees on it. (The table inside a shard uses a keyed hash of
   * its own, so this one being public costs nothing.)
   */
  default int shardOf(byte[] key) {
    return KeyHash.shardOf(KeyHash.of(key), shards());
  }

  /**
   * Runs a batch on its shard. {@code done} gets the filled batch on the caller's thread: at once
   * when the shard lives on that thread, later otherwise. {@code failed} is told when the shard
   * could not be reached; an entry that throws on the shard fails alone and the batch still comes
   * back (see {@link ShardTask}).
   */
  void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed);

  /** Runs a filled batch on its shard. */
  default CompletionStage<ShardBatch> send(ShardBatch batch) {
    CompletableFuture<ShardBatch> filled = new CompletableFuture<>();
    dispatch(batch, filled::complete, filled::completeExceptionally);
    return filled;
  }

  /** Runs one task on the shard owning its key; completes with the task, which holds its result. */
  default <T extends ShardTask> CompletionStage<T> run(T task) {
    ShardBatch batch = new ShardBatch(shardOf(task.key()));
    batch.add(task);
    return send(batch).thenApply(filled -> task);
  }

  /**
   * Runs one task on the shard owning its key; completes with its result, or fails with its
   * failure (thrown there, or the shard out of reach).
   */
  default <R> CompletionStage<R> call(ResultTask<R> task) {
    return run(task).thenCompose(done -> done.failure() != null
        ? CompletableFuture.<R>failedFuture(done.failure())
        : CompletableFuture.completedFuture(done.result()));
  }

  /** Runs one Throttr key request on the shard owning its key; the batch holds its reply. */
  default CompletionStage<ShardBatch> run(Request.KeyRequest request) {
    ShardBatch batch = new ShardBatch(shardOf(request.key()));
    batch.add(request);
    return send(batch);
  }

  /** Runs {@code batchFor.apply(i)} on shard {@code i}, for every shard; results in shard order. */
  default CompletionStage<List<ShardBatch>> onEveryShard(IntFunction<ShardBatch> batchFor) {
    List<CompletableFuture<ShardBatch>> answers = new ArrayList<>(shards());
    for (int shard = 0; shard < shards(); shard++) {
      answers.add(send(batchFor.apply(shard)).toCompletableFuture());
    }
    return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .thenApply(all -> answers.stream().map(CompletableFuture::join).toList());
  }
}
