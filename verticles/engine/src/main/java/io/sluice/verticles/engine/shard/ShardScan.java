package io.sluice.verticles.engine.shard;

import io.sluice.verticles.engine.storage.Record;

/**
 * A read-only look at every live record of a shard (e.g. counting one protocol's state records for
 * UDP's get_size). It runs on the shard's thread; it is sent to each shard in turn.
 */
public interface ShardScan {

  void visit(Record record);
}
