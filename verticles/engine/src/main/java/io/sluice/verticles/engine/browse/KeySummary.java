package io.sluice.verticles.engine.browse;

/**
 * One row of the keys table: a copy taken on the shard's thread.
 *
 * @param valueBytes a buffer's length; 0 for a counter, whose size is the instance's value size
 */
public record KeySummary(byte[] key, boolean counter, int ttlType, long expiresAtNanos, int valueBytes) {
}
