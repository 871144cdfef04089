package io.sluice.core.shard;

/**
 * A read-modify-write of one key that must happen atomically where the key lives: rate-limit
 * strategies and the UDP protocol keep their state this way. It travels to the owning shard in a
 * {@link ShardBatch} like a Throttr request, runs on the shard's thread, and carries its result back.
 */
public interface ShardTask {

  byte[] key();

  void run(KeyState state, long nowNanos);
}
