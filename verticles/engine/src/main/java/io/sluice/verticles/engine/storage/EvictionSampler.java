package io.sluice.verticles.engine.storage;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Finds the record to evict without ever scanning the table, the way Redis approximates its
 * policies: each call samples the records of a few buckets from a random place, and a small pool
 * keeps the best candidates (closest to expiry) seen across calls, so the choice gets better than
 * one sample alone while costing a bounded few dozen steps. An expired record not swept yet is the
 * best candidate of all.
 */
final class EvictionSampler {

  /**
   * Records looked at per call (Redis: 5). Reading each one's expiry is most of an eviction's cost;
   * see docs/memory-bound.md for how the choice's quality and the insert rate trade against it.
   */
  static final int SAMPLE_RECORDS = 8;
  /** Buckets walked at most per sample; a table at the bound is at least half full. */
  static final int SAMPLE_BUCKETS = 64;
  /** Samples tried before giving up on a table too sparse to sample (a store of few, large buffers). */
  static final int MAX_SAMPLES = 16;
  static final int POOL_SIZE = 16;

  private final SplittableRandom random;
  private final Record[] pool = new Record[POOL_SIZE];
  /** Each pooled record's expiry when it was pooled: ranking reads no record. */
  private final long[] poolExpiry = new long[POOL_SIZE];
  private int pooled;
  /** The pool's slot with the latest expiry: the one a better candidate replaces. */
  private int latest;
  private final Consumer<Record> offer = this::offer;

  EvictionSampler(SplittableRandom random) {
    this.random = random;
  }

  /**
   * The record of {@code table} closest to expiry among those sampled now and kept from earlier
   * calls, other than {@code keep}; null when no other record could be found. The record is
   * taken out of the pool: the caller removes it.
   */
  Record victim(RecordTable table, Record keep) {
    for (int sample = 0; sample < MAX_SAMPLES; sample++) {
      table.sample(random.nextInt(), SAMPLE_RECORDS, SAMPLE_BUCKETS, offer);
      Record best = takeBest(keep);
      if (best != null) {
        return best;
      }
    }
    return null;
  }

  /**
   * Keeps {@code candidate} when the pool has room or it expires before the pool's latest. A
   * record sampled twice may sit in the pool twice: the second copy is dropped once the first was
   * evicted, which costs less than looking for it on every offer.
   */
  private void offer(Record candidate) {
    long expiry = candidate.expiresAtNanos;
    if (pooled < POOL_SIZE) {
      put(pooled++, candidate, expiry);
    } else if (expiry < poolExpiry[latest]) {
      put(latest, candidate, expiry);
    } else {
      return;
    }
    findLatest();
  }

  /**
   * Takes the pooled record closest to expiry that a table still holds. Records removed since
   * they were pooled (purged, reclaimed, evicted) and {@code keep} are dropped on the way; one
   * whose expiry an UPDATE moved is ranked again.
   */
  private Record takeBest(Record keep) {
    while (pooled > 0) {
      int best = 0;
      for (int i = 1; i < pooled; i++) {
        if (poolExpiry[i] < poolExpiry[best]) {
          best = i;
        }
      }
      Record record = pool[best];
      if (record.expiresAtNanos != poolExpiry[best] && record != keep && RecordTable.holds(record)) {
        poolExpiry[best] = record.expiresAtNanos;
        findLatest();
        continue;
      }
      put(best, pool[pooled - 1], poolExpiry[pooled - 1]);
      pool[--pooled] = null;
      findLatest();
      if (record != keep && RecordTable.holds(record)) {
        return record;
      }
    }
    return null;
  }

  private void put(int slot, Record record, long expiry) {
    pool[slot] = record;
    poolExpiry[slot] = expiry;
  }

  private void findLatest() {
    latest = 0;
    for (int i = 1; i < pooled; i++) {
      if (poolExpiry[i] > poolExpiry[latest]) {
        latest = i;
      }
    }
  }
}
