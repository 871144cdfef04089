package io.sluice.verticles.shard;

import io.sluice.core.shard.ShardBatch;
import io.sluice.core.shard.ThrottrShard;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * How a front reaches shard {@code i}: over the event bus at {@link ShardAddress#of}, or, when that
 * shard's verticle runs on the caller's own event loop, by a direct call that takes no thread hop.
 * Both paths run the same {@link ThrottrShard#execute}; each (connection, shard) pair always takes
 * the same path, so per-connection order on a shard is kept.
 */
public final class ShardDirectory {

  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private final AtomicReferenceArray<LocalShard> local;

  private record LocalShard(Thread thread, ThrottrShard shard) {
  }

  public ShardDirectory(int shards) {
    this.local = new AtomicReferenceArray<>(shards);
  }

  public int shards() {
    return local.length();
  }

  /** Called by a shard verticle from its own event loop once it serves. */
  void register(int index, ThrottrShard shard) {
    local.set(index, new LocalShard(Thread.currentThread(), shard));
  }

  void unregister(int index) {
    local.set(index, null);
  }

  /**
   * Runs a batch on its shard and hands the filled batch to {@code done} on the caller's thread.
   * {@code failed} gets the cause when the shard cannot be reached.
   */
  public void dispatch(EventBus eventBus, ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
    LocalShard target = local.get(batch.shard());
    if (target != null && target.thread == Thread.currentThread()) {
      target.shard.execute(batch);
      done.accept(batch);
      return;
    }
    eventBus.<ShardBatch>request(ShardAddress.of(batch.shard()), batch, LOCAL)
        .onComplete(reply -> {
          if (reply.succeeded()) {
            done.accept(reply.result().body());
          } else {
            failed.accept(reply.cause());
          }
        });
  }
}
