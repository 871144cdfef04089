package io.sluice.verticles.engine.shard;

/**
 * One key's state as a {@link ShardTask} sees it: the value of the key's buffer record, which a
 * Throttr GET of the same key also shows. Only valid during {@link ShardTask#run}.
 */
public interface KeyState {

  /** The live buffer value, or null when the key has no live record. */
  byte[] value();

  /** True when the key holds a counter: its state cannot be a buffer. */
  boolean isCounter();

  /**
   * Stores {@code value} as the key's buffer, expiring {@code ttlNanos} from now.
   *
   * @return false, storing nothing, when the shard is full and its limits refuse the write
   *     ({@code --eviction reject}, or nothing left to evict): the task decides what that means
   */
  boolean put(byte[] value, long ttlNanos);

  void remove();
}
