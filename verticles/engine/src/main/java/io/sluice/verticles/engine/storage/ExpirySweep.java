package io.sluice.verticles.engine.storage;

/**
 * Paces the reclaiming of expired records: each run visits a fixed slice of the table and goes on
 * for a few more slices only while most of what it finds is expired (the approach of Redis's active
 * expiry). A run's cost is bounded whatever the table size, so the shard keeps serving.
 */
public final class ExpirySweep {

  static final int SLICE_BUCKETS = 4096;
  static final int MAX_SLICES_PER_RUN = 8;

  private final Store store;

  public ExpirySweep(Store store) {
    this.store = store;
  }

  /** @return records reclaimed by this run */
  public int run() {
    int reclaimed = 0;
    for (int slice = 0; slice < MAX_SLICES_PER_RUN; slice++) {
      int sizeBefore = store.size();
      int found = store.sweep(SLICE_BUCKETS);
      reclaimed += found;
      boolean mostlyExpired = found * 4 > Math.min(sizeBefore, SLICE_BUCKETS);
      if (!mostlyExpired) {
        break;
      }
    }
    return reclaimed;
  }
}
