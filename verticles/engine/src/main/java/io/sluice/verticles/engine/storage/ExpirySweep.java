package io.sluice.verticles.engine.storage;

import java.util.List;

/**
 * Paces the reclaiming of expired records of the stores one shard thread hosts (one on a single
 * node; in a cluster, one per partition placed on that thread): each run visits a fixed slice of
 * buckets in all, store after store from where the last run stopped, and goes on for a few more
 * slices only while most of what it finds is expired (the approach of Redis's active expiry). A
 * run's cost is bounded whatever the tables' sizes and however many stores share the thread, so the
 * shard keeps serving. (A slice per store each run, as before, cost a cluster node's shard thread
 * about 1 ms every 100 ms with some 136 partitions on it: the p99 of one request at a time.)
 * Empty stores cost nothing.
 */
public final class ExpirySweep {

  static final int SLICE_BUCKETS = 4096;
  static final int MAX_SLICES_PER_RUN = 8;

  private final List<Store> stores;
  /** The store the next slice starts in. */
  private int current;
  /** Buckets of {@link #current} this pass over it has still to visit; -1 before the pass begins. */
  private int leftInCurrent = -1;

  public ExpirySweep(Store store) {
    this(List.of(store));
  }

  public ExpirySweep(List<Store> stores) {
    this.stores = List.copyOf(stores);
  }

  /** @return records reclaimed by this run */
  public int run() {
    int reclaimed = 0;
    for (int slice = 0; slice < MAX_SLICES_PER_RUN; slice++) {
      int heldBefore = 0;
      int found = 0;
      int budget = SLICE_BUCKETS;
      int storesDone = 0;
      while (budget > 0 && storesDone < stores.size()) {
        Store store = stores.get(current);
        if (leftInCurrent < 0) {
          leftInCurrent = store.size() == 0 ? 0 : store.bucketCount();
        }
        int visit = Math.min(budget, leftInCurrent);
        if (visit > 0) {
          heldBefore += store.size();
          found += store.sweep(visit);
          budget -= visit;
          leftInCurrent -= visit;
        }
        if (leftInCurrent == 0) {
          current = (current + 1) % stores.size();
          leftInCurrent = -1;
          storesDone++;
        }
      }
      reclaimed += found;
      boolean mostlyExpired = found * 4 > Math.min(heldBefore, SLICE_BUCKETS);
      if (!mostlyExpired) {
        break;
      }
    }
    return reclaimed;
  }
}
