package io.sluice.udp.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyStatisticsTest {

  /** A multiple of 300: a bucket boundary. */
  private static final double BOUNDARY = 1_700_000_100;

  @Test
  void unknownKeysAreZero() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    assertThat(stats.snapshot("never", BOUNDARY)).isEqualTo(StatsSnapshot.NONE);
  }

  @Test
  void countsAreCumulativeAndNeverReset() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    stats.record("k", false, 1.5, BOUNDARY + 1);
    stats.record("k", true, 30, BOUNDARY + 2);
    stats.record("k", false, 2, BOUNDARY + 2000);
    assertThat(stats.snapshot("k", BOUNDARY + 5000)).isEqualTo(new StatsSnapshot(3, 1, 0));
    assertThat(stats.size()).isEqualTo(1);
  }

  @Test
  void lastMaxRateIsTheIntegerPartOfThePreviousBucketsMaximum() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    stats.record("k", false, 21.9, BOUNDARY + 10);
    stats.record("k", true, 22.7, BOUNDARY + 11);
    stats.record("k", false, 22.95, BOUNDARY + 12);
    assertThat(stats.snapshot("k", BOUNDARY + 299.999).lastMaxRate()).as("still the first bucket").isZero();
    assertThat(stats.snapshot("k", BOUNDARY + 300).lastMaxRate()).isEqualTo(22);
    stats.record("k", false, 5, BOUNDARY + 400);
    assertThat(stats.snapshot("k", BOUNDARY + 599).lastMaxRate()).isEqualTo(22);
    assertThat(stats.snapshot("k", BOUNDARY + 600).lastMaxRate()).isEqualTo(5);
    assertThat(stats.snapshot("k", BOUNDARY + 900).lastMaxRate()).as("idle bucket").isZero();
  }

  @Test
  void aBucketSkippedEntirelyLeavesNothingForLastMaxRate() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    stats.record("k", false, 40, BOUNDARY + 1);
    assertThat(stats.snapshot("k", BOUNDARY + 650).lastMaxRate())
        .as("the bucket of 40 ended 350 s ago; the last complete bucket was empty").isZero();
    assertThat(stats.snapshot("k", BOUNDARY + 650).requests()).isEqualTo(1);
  }

  @Test
  void bucketsAreAlignedOnUnixTimeMultiplesOfFiveMinutes() {
    assertThat(KeyStatistics.nextBucketStartAfter(1_700_000_100)).isEqualTo(1_700_000_400);
    assertThat(KeyStatistics.nextBucketStartAfter(1_700_000_399)).isEqualTo(1_700_000_400);
    assertThat(KeyStatistics.nextBucketStartAfter(0)).isEqualTo(300);
    KeyStatistics stats = new KeyStatistics(BucketRotation.CALLER_DRIVEN);
    assertThat(stats.nextBucketStart()).isEqualTo(Long.MIN_VALUE);
    assertThat(stats.rotateIfDue(BOUNDARY + 299.9)).isTrue();
    assertThat(stats.nextBucketStart()).isEqualTo((long) BOUNDARY + 300);
    assertThat(stats.rotateIfDue(BOUNDARY + 299.99)).isFalse();
    assertThat(stats.rotateIfDue(BOUNDARY + 300)).isTrue();
  }

  @Test
  void callerDrivenRotationMovesOnlyWhenAsked() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.CALLER_DRIVEN);
    stats.record("k", false, 9.5, BOUNDARY + 1);
    assertThat(stats.snapshot("k", BOUNDARY + 10_000).lastMaxRate()).isZero();
    assertThat(stats.rotateIfDue(BOUNDARY + 10_000)).as("first check always rotates").isTrue();
    assertThat(stats.snapshot("k", BOUNDARY + 10_000).lastMaxRate())
        .as("the original moved whatever was current on its first check").isEqualTo(9);
  }

  @Test
  void maximumComparesIntegerPartsOnly() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.CALLER_DRIVEN);
    stats.rotateIfDue(BOUNDARY);
    stats.record("k", false, 0.9, BOUNDARY + 1);
    stats.record("k", false, 0.2, BOUNDARY + 2);
    stats.rotateIfDue(BOUNDARY + 300);
    assertThat(stats.snapshot("k", BOUNDARY + 301)).isEqualTo(new StatsSnapshot(2, 0, 0));
  }
}
