package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.Store;

/**
 * Work on a shard's whole {@link Store}, on the shard's thread, in batch order with the requests
 * around it: what a cluster does to a partition (apply a backup's record images, take a snapshot
 * for a new owner, promote or drop a copy). It runs like any entry; if it throws, it fails alone
 * and {@link ShardBatch#failure} says why.
 */
public non-sealed interface StoreWork extends ShardWork {

  void run(Store store);

  /** Called by the shard, not to be overridden. */
  @Override
  default void run(ShardContext shard) {
    run(shard.store());
  }

  /** Store work has only {@link ShardBatch#failure}. */
  @Override
  default void fail(Throwable error, ByteBuf replies) {
  }

  @Override
  default void accept(Kinds kinds, int slot) {
    kinds.storeWork(this);
  }
}
