package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.storage.Store;

/**
 * One route a shard verticle serves: a whole shard on a single node, one partition in a cluster.
 *
 * @param route       the index batches carry ({@link io.sluice.verticles.engine.shard.ShardBatch#shard})
 * @param store       its records, swept by the verticle
 * @param executor    how its batches run
 * @param persistence the store's log and snapshots, already listening to it; null when not persisted
 */
public record HostedRoute(int route, Store store, BatchExecutor executor, ShardPersistence persistence) {

  /** A route kept in memory only. */
  public HostedRoute(int route, Store store, BatchExecutor executor) {
    this(route, store, executor, null);
  }

  public HostedRoute persistedBy(ShardPersistence log) {
    return new HostedRoute(route, store, executor, log);
  }
}
