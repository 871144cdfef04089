package io.sluice.verticles.rls;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;

import java.util.function.Consumer;

/**
 * One request's descriptors counted on the shards that own their records. The tasks of one route
 * travel together, as one batch: a request costs a batch per shard it touches (per partition in a
 * cluster), not one per descriptor, and no future — the router hands each batch back on the
 * caller's loop (at once when the shard lives there), and the last one back ends the round.
 * A descriptor the {@link OverLimitCache} knows to be over is answered from it, without a task.
 */
final class CountingRound implements Consumer<ShardBatch> {

  /** Told once, on the caller's loop, how the round ended. */
  interface Counted {

    /** The counts after the hits, by descriptor; null where nothing was counted (no limit, or unlimited). */
    void counted(Algorithm.Count[] counts);

    /** A task failed on its shard (the first such failure), or a shard could not be reached. */
    void failed(Throwable failure);
  }

  private final OverLimitCache overLimitCache;
  private final long nowNanos;
  private final Counted then;
  private final Algorithm.Count[] counts;
  private final CountTask[] tasks;
  private int pending;
  private boolean ended;

  private CountingRound(OverLimitCache overLimitCache, long nowNanos, int descriptors, Counted then) {
    this.overLimitCache = overLimitCache;
    this.nowNanos = nowNanos;
    this.then = then;
    this.counts = new Algorithm.Count[descriptors];
    this.tasks = new CountTask[descriptors];
  }

  /**
   * Adds {@code hits[i]} (0: only looks) to descriptor {@code i}'s record through its limit's
   * algorithm, for every limit that is neither null nor unlimited, and tells {@code then}.
   */
  static void count(ShardRouter router, OverLimitCache overLimitCache, RateLimitRequest request, RateLimit[] limits,
                    long[] hits, long nowNanos, Counted then) {
    CountingRound round = new CountingRound(overLimitCache, nowNanos, limits.length, then);
    ShardBatch[] batches = round.prepare(router, request, limits, hits);
    round.send(router, batches);
  }

  /** The tasks, one batch per route (the batches array is null-terminated when shorter). */
  private ShardBatch[] prepare(ShardRouter router, RateLimitRequest request, RateLimit[] limits, long[] hits) {
    ShardBatch[] batches = null;
    for (int i = 0; i < limits.length; i++) {
      RateLimit limit = limits[i];
      if (limit == null || limit.unlimited()) {
        continue;
      }
      Algorithm algorithm = limit.algorithm();
      byte[] recordKey = algorithm.recordKey(request.getDomain(), request.getDescriptors(i).getEntriesList(),
          limit.sharedValues(), nowNanos);
      if (overLimitCache.isOver(recordKey, nowNanos)) {
        counts[i] = algorithm.overFromCache(hits[i], nowNanos);
        continue;
      }
      tasks[i] = algorithm.task(recordKey, hits[i], nowNanos);
      if (batches == null) {
        batches = new ShardBatch[limits.length];
      }
      batchOf(batches, router.routeOf(recordKey)).add(tasks[i]);
    }
    return batches;
  }

  /** The batch of {@code route} among those begun, begun now if it is the first of its route. */
  private ShardBatch batchOf(ShardBatch[] batches, int route) {
    int slot = 0;
    while (batches[slot] != null) {
      if (batches[slot].route() == route) {
        return batches[slot];
      }
      slot++;
    }
    pending++;
    return batches[slot] = new ShardBatch(route);
  }

  private void send(ShardRouter router, ShardBatch[] batches) {
    if (batches == null) {
      end();
      return;
    }
    // Every batch is counted in pending before the first is sent: a local shard answers at once.
    Consumer<Throwable> unreachable = this::unreachable;
    for (int slot = 0; slot < batches.length && batches[slot] != null && !ended; slot++) {
      router.dispatch(batches[slot], this, unreachable);
    }
  }

  /** A batch is back, filled. */
  @Override
  public void accept(ShardBatch filled) {
    if (--pending == 0 && !ended) {
      end();
    }
  }

  private void unreachable(Throwable failure) {
    if (!ended) {
      ended = true;
      then.failed(failure);
    }
  }

  private void end() {
    ended = true;
    for (int i = 0; i < tasks.length; i++) {
      CountTask task = tasks[i];
      if (task == null) {
        continue;
      }
      if (task.failure() != null) {
        then.failed(task.failure());
        return;
      }
      counts[i] = task.count();
      if (counts[i].overUntilNanos() > nowNanos) {
        overLimitCache.remember(task.key(), counts[i].overUntilNanos());
      }
    }
    then.counted(counts);
  }
}
