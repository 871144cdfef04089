package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.Record;

/**
 * A read-only look at every live record of a shard (e.g. counting one protocol's state records for
 * UDP's get_size). It runs on the shard's thread; it is sent to each shard in turn.
 */
public non-sealed interface ShardScan extends ShardWork {

  void visit(Record record);

  /** Visits every live record: called by the shard, not to be overridden. */
  @Override
  default void run(ShardContext shard) {
    shard.store().forEachLive(this::visit);
  }

  /** A scan has only {@link ShardBatch#failure}. */
  @Override
  default void fail(Throwable error, ByteBuf replies) {
  }

  @Override
  default void accept(Kinds kinds, int slot) {
    kinds.scan(this);
  }
}
