package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Which shards run on which event loop. A front reaches shard {@code i} over the event bus at
 * {@link ShardAddress#of} (see {@link ShardOutbox}), or, when that shard's verticle runs on the
 * caller's own event loop, by a direct call that takes no thread hop. Both paths run the same
 * {@link ThrottrShard#execute}; each (connection, shard) pair always takes the same path, so
 * per-connection order on a shard is kept. That method never throws: an entry that fails is
 * answered as a failure there, so neither path loses the other entries' replies.
 */
public final class ShardDirectory {

  private final AtomicReferenceArray<LocalShard> local;
  private volatile IntConsumer parcelSizes = size -> { };

  /** {@code durable} runs a reply once what the batch changed is as safe as persistence promises. */
  private record LocalShard(Thread thread, ThrottrShard shard, Consumer<Runnable> durable) {
  }

  public ShardDirectory(int shards) {
    this.local = new AtomicReferenceArray<>(shards);
  }

  public int shards() {
    return local.length();
  }

  /** Receives the number of batches in each parcel sent over the event bus (for metrics). */
  public void observeParcelSizes(IntConsumer observer) {
    this.parcelSizes = observer;
  }

  void parcelSent(int batches) {
    parcelSizes.accept(batches);
  }

  /** Called by a shard verticle from its own event loop once it serves. */
  void register(int index, ThrottrShard shard, Consumer<Runnable> durable) {
    local.set(index, new LocalShard(Thread.currentThread(), shard, durable));
  }

  void unregister(int index) {
    local.set(index, null);
  }

  /**
   * Runs the batch at once when its shard lives on the calling thread, then {@code answered} (at
   * once too, unless {@code --fsync always} holds it until the disk has the batch's changes);
   * false otherwise.
   */
  boolean executeIfLocal(ShardBatch batch, Runnable answered) {
    LocalShard target = local.get(batch.shard());
    if (target != null && target.thread == Thread.currentThread()) {
      target.shard.execute(batch);
      target.durable.accept(answered);
      return true;
    }
    return false;
  }
}
