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
 * The one way to a key's owner, used by every front: which route owns a key, and how a batch of
 * work gets there and back. A route is a shard on a single node and a partition in a cluster (a
 * partition's shard may then live on another node). The Throttr session sends the requests of a
 * read as one batch per route ({@link #dispatch}), and Envoy's rate limit service a request's
 * descriptors so; the check API, the UDP engine and the dashboard send one task or request at a
 * time ({@link #run}). The placement of a key is always
 * {@link #routeOf}.
 *
 * <p>Each front event loop has its own router; every callback runs on that loop. Work reaches a
 * route in dispatch order, so per caller and route, order is kept.
 */
public interface ShardRouter {

  /** The number of routes the key space is split into: shards on one node, partitions in a cluster. */
  int routes();

  /**
   * How many shard threads the routes run on: a read's requests travel as one batch per lane, so
   * a read costs a batch per shard thread, not per route. Where a route is a shard, each route is
   * its own lane; in a cluster, a lane holds the partitions placed on one shard verticle.
   */
  default int lanes() {
    return routes();
  }

  /** The lane of {@code route} (see {@link #lanes}). */
  default int laneOf(int route) {
    return route;
  }

  /**
   * True when a lane holds several routes: a read's batch per lane is then
   * {@linkplain ShardBatch#gathered gathered}, each request carrying its route.
   */
  default boolean gathersRoutes() {
    return lanes() < routes();
  }

  /** The route that owns {@code key} among this router's {@link #routes}. */
  default int routeOf(byte[] key) {
    return routeOf(key, routes());
  }

  /**
   * The route that owns {@code key} among {@code routes}: a fixed hash, the same in every process
   * and across restarts, so that every node of a cluster agrees on it. (The table inside a shard
   * uses a keyed hash of its own, so this one being public costs nothing.)
   */
  static int routeOf(byte[] key, int routes) {
    return KeyHash.shardOf(KeyHash.of(key), routes);
  }

  /**
   * Runs a batch on its route's shard. {@code done} gets the filled batch on the caller's thread:
   * at once when the shard lives on that thread, later otherwise. {@code failed} is told when the
   * shard could not be reached; an entry that throws on the shard fails alone and the batch still
   * comes back (see {@link ShardTask}).
   */
  void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed);

  /** Runs a filled batch on its route's shard. */
  default CompletionStage<ShardBatch> send(ShardBatch batch) {
    CompletableFuture<ShardBatch> filled = new CompletableFuture<>();
    dispatch(batch, filled::complete, filled::completeExceptionally);
    return filled;
  }

  /** Runs one task on the route owning its key; completes with the task, which holds its result. */
  default <T extends ShardTask> CompletionStage<T> run(T task) {
    ShardBatch batch = new ShardBatch(routeOf(task.key()));
    batch.add(task);
    return send(batch).thenApply(filled -> task);
  }

  /**
   * Runs one task on the route owning its key; completes with its result, or fails with its
   * failure (thrown there, or the shard out of reach).
   */
  default <R> CompletionStage<R> call(ResultTask<R> task) {
    return run(task).thenCompose(done -> done.failure() != null
        ? CompletableFuture.<R>failedFuture(done.failure())
        : CompletableFuture.completedFuture(done.result()));
  }

  /** Runs one Throttr key request on the route owning its key; the batch holds its reply. */
  default CompletionStage<ShardBatch> run(Request.KeyRequest request) {
    ShardBatch batch = new ShardBatch(routeOf(request.key()));
    batch.add(request);
    return send(batch);
  }

  /** Runs {@code batchFor.apply(i)} on route {@code i}, for every route; results in route order. */
  default CompletionStage<List<ShardBatch>> onEveryShard(IntFunction<ShardBatch> batchFor) {
    List<CompletableFuture<ShardBatch>> answers = new ArrayList<>(routes());
    for (int route = 0; route < routes(); route++) {
      answers.add(send(batchFor.apply(route)).toCompletableFuture());
    }
    return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .thenApply(all -> answers.stream().map(CompletableFuture::join).toList());
  }
}
