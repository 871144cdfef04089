package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;

/**
 * A read-only look at one key for operators (the dashboard): it travels to the owning shard in a
 * {@link ShardBatch} and comes back with the record's {@link KeyDetail}, or none when the key is
 * absent or expired. Unlike a Throttr QUERY or GET it does not count as a read, so looking at a key
 * does not change the figures being looked at.
 */
public final class KeyLookup implements ShardWork {

  private final byte[] key;
  private KeyDetail detail;

  public KeyLookup(byte[] key) {
    this.key = key.clone();
  }

  public byte[] key() {
    return key.clone();
  }

  byte[] keyBytes() {
    return key;
  }

  /** What the shard found; null when the key is not live. Read it once the batch is back. */
  public KeyDetail detail() {
    return detail;
  }

  void found(KeyDetail detail) {
    this.detail = detail;
  }

  /** Copies the record out without counting a read: looking must not move the figures. */
  @Override
  public void run(ShardContext shard) {
    Store store = shard.store();
    long now = shard.nowNanos();
    int window = shard.window();
    Record record = store.find(key, store.hash(key), now);
    if (record == null) {
      return;
    }
    found(new KeyDetail(key.clone(), record.isCounter(), record.ttlType(),
        Ttl.remaining(record.expiresAtNanos(), now, record.ttlType(), shard.valueSize()), record.expiresAtNanos(),
        record.counter(), record.buffer().clone(), record.readsPerMinute(window), record.writesPerMinute(window),
        record.readsSoFar(window), record.writesSoFar(window)));
  }

  /** A lookup has only {@link ShardBatch#failure}. */
  @Override
  public void fail(Throwable error, ByteBuf replies) {
  }

  @Override
  public void accept(Kinds kinds, int slot) {
    kinds.lookup(this);
  }
}
