package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

/**
 * One entry of a {@link ShardBatch}: a unit of work that runs on the shard's thread, in batch order,
 * and keeps its own typed result. The kinds are closed, so that whatever runs or carries a batch
 * (the shard, {@link BatchWire}) handles every kind: the Throttr requests of the batch
 * ({@link ThrottrRequests}: reply bytes and listings), a {@link KeyLookup} (a {@link KeyDetail}),
 * and three extension points other modules implement: a {@link ShardTask} (its own result), a
 * {@link ShardScan} (whole, or a {@link SlicedScan}) and {@link StoreWork}.
 *
 * <p>Java 17 has no {@code switch} over a sealed type, so {@link #accept} stands for it: one
 * method of {@link Kinds} per permitted kind, which a handler must implement in full.
 */
public sealed interface ShardWork permits ThrottrRequests, ShardTask, KeyLookup, ShardScan, SlicedScan, StoreWork {

  /** Runs the entry {@code shard} is at ({@link ShardContext#slot}), on the shard's thread. */
  void run(ShardContext shard);

  /**
   * The entry threw: answer it as a failure where the work can be (a Throttr request by its
   * failure status in {@code replies}, null when no reply can be written; a task through its own
   * failure). A lookup or a scan has only {@link ShardBatch#failure}.
   */
  void fail(Throwable error, ByteBuf replies);

  /**
   * True when the work keeps a failure for whoever awaits it (a task's result); otherwise only
   * {@link ShardBatch#failure} tells of it, and whoever sent the batch must answer it.
   */
  default boolean holdsItsFailure() {
    return false;
  }

  /** The entry at {@code slot}, told to the one handler method of its kind. */
  void accept(Kinds kinds, int slot);

  /** One method per kind of work: the exhaustive switch over {@link ShardWork}. */
  interface Kinds {

    /** The entry at {@code slot} is a Throttr request: {@link ShardBatch#request} holds it. */
    void request(int slot);

    void task(ShardTask task);

    void lookup(KeyLookup lookup);

    void scan(ShardScan scan);

    void slice(SlicedScan slice);

    void storeWork(StoreWork work);
  }
}
