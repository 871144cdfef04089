package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.storage.Store;

/**
 * One route a shard verticle serves: a whole shard on a single node, one partition in a cluster.
 *
 * @param route    the index batches carry ({@link io.sluice.verticles.engine.shard.ShardBatch#shard})
 * @param store    its records, swept by the verticle
 * @param executor how its batches run
 */
public record HostedRoute(int route, Store store, BatchExecutor executor) {
}
