package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.storage.Store;

/**
 * What a {@link ShardWork} may use while it runs on its shard: the store, the instant read from
 * the store's clock for this entry (and its statistics window), the batch's reply buffer and the
 * entry's slot in it. One per shard, moved from entry to entry, so that running an entry costs no
 * allocation. Valid only during {@link ShardWork#run}, on the shard's thread.
 */
public final class ShardContext {

  private final Store store;
  private final ValueSize size;
  private ShardBatch batch;
  private int slot;
  private long now;
  private int window;

  ShardContext(Store store, ValueSize size) {
    this.store = store;
    this.size = size;
  }

  /** Moves to entry {@code slot} of {@code batch}; the clock is read per entry, as time passes between them. */
  void at(ShardBatch batch, int slot) {
    this.batch = batch;
    this.slot = slot;
    this.now = store.now();
    this.window = store.window(now);
  }

  public Store store() {
    return store;
  }

  /** The store's clock, read once for this entry. */
  public long nowNanos() {
    return now;
  }

  /** The statistics window of {@link #nowNanos}. */
  public int window() {
    return window;
  }

  ValueSize valueSize() {
    return size;
  }

  int slot() {
    return slot;
  }

  /** The Throttr request at this entry ({@link ThrottrRequests}). */
  Request request() {
    return batch.request(slot);
  }

  /** Where a Throttr request writes its reply. */
  ByteBuf replies() {
    return batch.replies();
  }

  /** A listing request's part from this shard. */
  void collect(ShardListing listing) {
    batch.collect(slot, listing);
  }
}
