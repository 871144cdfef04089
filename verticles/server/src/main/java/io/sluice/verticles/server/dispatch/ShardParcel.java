package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.shard.ShardBatch;

import java.util.List;

/**
 * Everything one event loop has for one shard in one turn of its loop: the batches of every read
 * of every connection on that loop, carried as ONE event-bus message and answered by one reply.
 */
public record ShardParcel(int shard, List<ShardBatch> batches) {
}
