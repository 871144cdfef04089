package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

/** The background sweep reclaims every expired record eventually, at a bounded cost per run. */
class ExpirySweepTest {

  private static final long SECOND = Duration.ofSeconds(1).toNanos();
  private static final long HOUR = Duration.ofHours(1).toNanos();
  private static final int RUN_BUDGET = ExpirySweep.SLICE_BUCKETS * ExpirySweep.MAX_SLICES_PER_RUN;

  private final ManualClock clock = new ManualClock();
  private final Store store = new Store(clock, clock.epochNanos());
  private final ExpirySweep sweep = new ExpirySweep(store);

  private Record add(String name, long ttlNanos) {
    byte[] key = name.getBytes(StandardCharsets.US_ASCII);
    return store.createCounter(key, store.hash(key), 1, 0x04, store.now() + ttlNanos, store.now());
  }

  private Record find(Record record) {
    return store.find(record.key(), store.hash(record.key()), store.now());
  }

  private int bucketOf(Record record) {
    return store.hash(record.key()) & (store.bucketCount() - 1);
  }

  private long countIn(List<Record> records, Predicate<Integer> bucket) {
    return records.stream().filter(r -> bucket.test(bucketOf(r))).count();
  }

  /** Grows the table to many buckets, then empties it: a sparse table needs many runs to cover. */
  private void growTableThenEmptyIt(int records) {
    List<Record> filler = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      filler.add(add("filler-" + i, HOUR));
    }
    filler.forEach(store::remove);
    assertThat(store.size()).isZero();
  }

  @Test
  void reclaimsAllThousandExpiredRecordsAmongThousandLiveOnes() {
    List<Record> live = new ArrayList<>();
    List<Record> expired = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      live.add(add("live-" + i, HOUR));
      expired.add(add("expired-" + i, SECOND));
    }
    clock.advance(Duration.ofSeconds(2));

    int total = 0;
    for (int run = 0; run < 100 && total < 1_000; run++) {
      total += sweep.run();
    }

    assertThat(total).isEqualTo(1_000);
    assertThat(sweep.run()).isZero();
    assertThat(store.size()).isEqualTo(1_000);
    assertThat(store.counters()).isEqualTo(1_000);
    assertThat(store.expiredReclaimed()).isEqualTo(1_000);
    assertThat(live).allSatisfy(r -> assertThat(find(r)).isSameAs(r));
    assertThat(expired).allSatisfy(r -> assertThat(find(r)).isNull());
    assertThat(store.expiredReclaimed()).as("nothing was left for lookups to reclaim").isEqualTo(1_000);
  }

  @Test
  void reclaimsAllThousandExpiredAmongThousandLiveInASparseTableOverManyBoundedRuns() {
    growTableThenEmptyIt(200_000);
    int buckets = store.bucketCount();
    assertThat(buckets).isGreaterThan(RUN_BUDGET * 4);
    List<Record> live = new ArrayList<>();
    List<Record> expired = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      live.add(add("live-" + i, HOUR));
      expired.add(add("expired-" + i, SECOND));
    }
    assertThat(store.bucketCount()).isEqualTo(buckets);
    clock.advance(Duration.ofSeconds(2));

    int total = 0;
    int runs = 0;
    while (total < 1_000 && runs < 10_000) {
      int before = total;
      total += sweep.run();
      runs++;
      int reachedAtMost = Math.min(buckets, runs * RUN_BUDGET);
      // Nothing beyond what runs × budget buckets could have reached has been reclaimed yet.
      assertThat((long) total).isLessThanOrEqualTo(countIn(expired, b -> b < reachedAtMost));
      assertThat(total).isGreaterThanOrEqualTo(before);
    }

    assertThat(total).isEqualTo(1_000);
    assertThat(runs).as("a sparse table takes several runs").isGreaterThan(1);
    assertThat(store.size()).isEqualTo(1_000);
    assertThat(store.counters()).isEqualTo(1_000);
    assertThat(live).allSatisfy(r -> assertThat(find(r)).isSameAs(r));
  }

  @Test
  void eachRunVisitsAtMostItsBudgetOfBuckets() {
    List<Record> expired = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      expired.add(add("k" + i, SECOND));
    }
    int buckets = store.bucketCount();
    assertThat(buckets).isGreaterThanOrEqualTo(RUN_BUDGET * 4);
    clock.advance(Duration.ofSeconds(1));

    int first = sweep.run();

    // Every record is expired, so the run spends its whole budget, starting at bucket 0, and no more.
    assertThat((long) first).isEqualTo(countIn(expired, b -> b < RUN_BUDGET));
    assertThat(store.size()).isEqualTo(100_000 - first);

    int second = sweep.run();
    assertThat((long) second).isEqualTo(countIn(expired, b -> b >= RUN_BUDGET && b < 2 * RUN_BUDGET));

    int runs = 2;
    while (store.size() > 0 && runs < 1_000) {
      sweep.run();
      runs++;
    }
    assertThat(store.size()).isZero();
    assertThat(runs).isEqualTo(buckets / RUN_BUDGET);
    assertThat(store.expiredReclaimed()).isEqualTo(100_000);
  }

  @Test
  void runStopsAfterOneSliceWhenLittleOfWhatItFindsIsExpired() {
    List<Record> expired = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      Record r = add("k" + i, i % 100 == 0 ? SECOND : HOUR);
      if (i % 100 == 0) {
        expired.add(r);
      }
    }
    clock.advance(Duration.ofSeconds(1));

    int reclaimed = sweep.run();

    assertThat((long) reclaimed).isEqualTo(countIn(expired, b -> b < ExpirySweep.SLICE_BUCKETS));
    assertThat(reclaimed).isPositive();
  }

  @Test
  void runOnAStoreWithNothingExpiredReclaimsNothing() {
    for (int i = 0; i < 1_000; i++) {
      add("k" + i, HOUR);
    }
    assertThat(sweep.run()).isZero();
    assertThat(store.size()).isEqualTo(1_000);
  }

  @Test
  void storeSweepContinuesWhereTheLastOneStoppedAndWrapsAround() {
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      records.add(add("k" + i, SECOND));
    }
    assertThat(store.bucketCount()).isEqualTo(64);
    clock.advance(Duration.ofSeconds(1));

    assertThat((long) store.sweep(10)).isEqualTo(countIn(records, b -> b < 10));
    assertThat((long) store.sweep(40)).isEqualTo(countIn(records, b -> b >= 10 && b < 50));
    assertThat((long) store.sweep(20)).isEqualTo(countIn(records, b -> b >= 50));
    assertThat(store.size()).isZero();
    assertThat(store.sweep(1_000)).isZero();
  }

  /**
   * A cluster node's shard thread hosts a store per partition: a run visits one slice in all, not
   * one per store, and the next runs go on from where it stopped, so every store is swept in turn.
   */
  @Test
  void storesSharingAThreadShareOneRunsSliceAndAreEachSweptInTurn() {
    List<Store> partitions = new ArrayList<>();
    List<Record> expired = new ArrayList<>();
    for (int p = 0; p < 136; p++) {
      Store partition = new Store(clock, clock.epochNanos());
      for (int i = 0; i < 300; i++) {
        byte[] key = ("p" + p + "-" + i).getBytes(StandardCharsets.US_ASCII);
        Record r = partition.createCounter(key, partition.hash(key), 1, 0x04,
            partition.now() + (i % 100 == 0 ? SECOND : HOUR), partition.now());
        if (i % 100 == 0) {
          expired.add(r);
        }
      }
      partitions.add(partition);
    }
    partitions.add(new Store(clock, clock.epochNanos()));
    int buckets = partitions.stream().mapToInt(Store::bucketCount).sum();
    assertThat(buckets).isGreaterThan(4 * ExpirySweep.SLICE_BUCKETS);
    clock.advance(Duration.ofSeconds(2));
    ExpirySweep shared = new ExpirySweep(partitions);

    int reclaimed = shared.run();
    assertThat(reclaimed).as("one slice, a few stores' worth").isPositive()
        .isLessThanOrEqualTo(3 * (ExpirySweep.SLICE_BUCKETS / partitions.get(0).bucketCount() + 1));

    int runs = 1;
    while (reclaimed < expired.size() && runs < 1_000) {
      reclaimed += shared.run();
      runs++;
    }
    assertThat(reclaimed).isEqualTo(expired.size());
    assertThat(runs).isEqualTo((buckets - partitions.get(136).bucketCount() + ExpirySweep.SLICE_BUCKETS - 1)
        / ExpirySweep.SLICE_BUCKETS);
    assertThat(partitions.subList(0, 136)).allSatisfy(partition -> assertThat(partition.expiredReclaimed()).isEqualTo(3));
  }
}
