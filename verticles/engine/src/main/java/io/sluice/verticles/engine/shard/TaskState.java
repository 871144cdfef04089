package io.sluice.verticles.engine.shard;

import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;

/**
 * What a {@link ShardTask} sees of its key: the key's buffer record; writing it counts as a write,
 * like SET. The record shows its TTL in seconds to a Throttr GET; its expiry itself is exact to the
 * nanosecond.
 */
final class TaskState implements KeyState {

  private final Store store;
  private final byte[] key;
  private final int hash;
  private final long now;
  private final int window;
  private Record record;

  private TaskState(ShardContext shard, byte[] key) {
    this.store = shard.store();
    this.key = key;
    this.hash = store.hash(key);
    this.now = shard.nowNanos();
    this.window = shard.window();
    this.record = store.find(key, hash, now);
  }

  /** Runs {@code task} on its key; finding the key counts as a read. */
  static void run(ShardContext shard, ShardTask task) {
    TaskState state = new TaskState(shard, task.key());
    if (state.record != null) {
      state.record.countRead(state.window);
    }
    task.run(state, state.now);
  }

  @Override
  public byte[] value() {
    return record == null || record.isCounter() ? null : record.buffer();
  }

  @Override
  public boolean isCounter() {
    return record != null && record.isCounter();
  }

  @Override
  public boolean put(byte[] value, long ttlNanos) {
    if (record != null && record.isCounter()) {
      throw new IllegalStateException("the key holds a counter");
    }
    long expiresAt = Ttl.saturatingAdd(now, Math.max(0, ttlNanos));
    if (record == null) {
      record = store.createBuffer(key, hash, value, TtlUnit.SECONDS.code(), expiresAt, now);
      if (record == null) {
        return false;
      }
    } else if (!store.overwriteBuffer(record, value, TtlUnit.SECONDS.code(), expiresAt)) {
      return false;
    }
    record.countWrite(window);
    return true;
  }

  @Override
  public void remove() {
    if (record != null) {
      store.remove(record);
      record = null;
    }
  }
}
