package io.sluice.verticles.engine.shard;

/** What one shard holds, for INFO and the dashboard. */
public record ShardSummary(long records, long counters, long buffers, long bufferBytes, long expiredReclaimed) {
}
