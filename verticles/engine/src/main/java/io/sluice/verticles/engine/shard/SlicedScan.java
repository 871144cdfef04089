package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.Store;

/**
 * A {@link ShardScan} walked in slices, so that a walk of a million keys never holds its shard for
 * long: each time a batch carrying it runs, the shard visits at most {@link #WORK_PER_SLICE}
 * buckets and records from where the previous slice stopped. The sender sends it again, in a new
 * batch, until {@link #finished}; whatever reaches the shard meanwhile runs between two slices.
 * A key present for the whole walk is visited exactly once, even if the table grows meanwhile.
 */
public final class SlicedScan implements ShardWork {

  /**
   * A key page's slice over a million keys takes 0.5 ms on this project's machine (1.2 ms with a
   * search), most of it cache misses: see KeyPageBenchmark and docs/benchmarks.md.
   */
  public static final int WORK_PER_SLICE = 4_096;

  private final ShardScan scan;
  private int cursor;
  private boolean finished;
  private int slices;

  public SlicedScan(ShardScan scan) {
    this.scan = scan;
  }

  public boolean finished() {
    return finished;
  }

  /** Slices run so far. */
  public int slices() {
    return slices;
  }

  /** The slice after {@code cursor}, for a sender on another node (see {@link BatchWire}). */
  SlicedScan(ShardScan scan, int cursor) {
    this.scan = scan;
    this.cursor = cursor;
  }

  ShardScan scan() {
    return scan;
  }

  int cursor() {
    return cursor;
  }

  /** Takes where a slice run on the partition's owner on another node stopped. */
  void ranElsewhere(int cursor) {
    this.cursor = cursor;
    slices++;
    finished = cursor == 0;
  }

  @Override
  public void run(ShardContext shard) {
    runSlice(shard.store());
  }

  /** A slice has only {@link ShardBatch#failure}. */
  @Override
  public void fail(Throwable error, ByteBuf replies) {
  }

  @Override
  public void accept(Kinds kinds, int slot) {
    kinds.slice(this);
  }

  private void runSlice(Store store) {
    cursor = store.scanLive(cursor, WORK_PER_SLICE, scan::visit);
    slices++;
    finished = cursor == 0;
  }
}
