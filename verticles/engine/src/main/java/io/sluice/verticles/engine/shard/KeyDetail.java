package io.sluice.verticles.engine.shard;

/**
 * One record as an operator sees it: a copy taken on the shard's thread, safe to read anywhere.
 *
 * @param ttl    the remaining TTL in the record's own unit, as QUERY and GET answer it
 * @param quota  the counter's value (0 for a buffer)
 * @param buffer the buffer's bytes (empty for a counter)
 */
public record KeyDetail(
    byte[] key,
    boolean counter,
    int ttlType,
    long ttl,
    long expiresAtNanos,
    long quota,
    byte[] buffer,
    long readsPerMinute,
    long writesPerMinute,
    long totalReads,
    long totalWrites) {
}
