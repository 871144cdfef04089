package io.sluice.verticles.engine.udprate.stats;

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
  void countsAreCumulativeWhileTheKeyIsInUse() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    stats.record("k", false, 1.5, BOUNDARY + 1);
    stats.record("k", true, 30, BOUNDARY + 2);
    stats.record("k", false, 2, BOUNDARY + 550);
    stats.record("k", false, 2, BOUNDARY + 1100);
    assertThat(stats.snapshot("k", BOUNDARY + 1600)).isEqualTo(new StatsSnapshot(4, 1, 0));
    assertThat(stats.size()).isEqualTo(1);
  }

  @Test
  void aKeyIdleForTwoBucketsIsForgottenAndStartsAfresh() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    stats.record("k", true, 40, BOUNDARY + 1);
    assertThat(stats.snapshot("k", BOUNDARY + 300)).isEqualTo(new StatsSnapshot(1, 1, 40));
    assertThat(stats.snapshot("k", BOUNDARY + 600.999)).isEqualTo(new StatsSnapshot(1, 1, 0));
    assertThat(stats.snapshot("k", BOUNDARY + 601)).isEqualTo(StatsSnapshot.NONE);
    stats.record("k", false, 3, BOUNDARY + 700);
    assertThat(stats.snapshot("k", BOUNDARY + 700)).isEqualTo(new StatsSnapshot(1, 0, 0));
    assertThat(stats.snapshot("k", BOUNDARY + 900)).isEqualTo(new StatsSnapshot(1, 0, 3));
  }

  @Test
  void idleKeysAreReclaimedInSlicesAndByLaterUses() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS);
    for (int i = 0; i < 20_000; i++) {
      stats.record("u" + i + " cust=bbc", false, 1, BOUNDARY + i / 1000.0);
    }
    assertThat(stats.forgetIdle(BOUNDARY + 599, Integer.MAX_VALUE)).as("none idle long enough").isZero();
    assertThat(stats.forgetIdle(BOUNDARY + 610.5, 5_000)).isEqualTo(5_000);
    assertThat(stats.size()).isEqualTo(15_000);
    for (int i = 0; i < 8_000; i++) {
      stats.record("v" + i, false, 1, BOUNDARY + 700);
    }
    assertThat(stats.size()).as("each use reclaims more idle keys than it adds").isEqualTo(8_000);
    assertThat(stats.forgetIdle(BOUNDARY + 1300, Integer.MAX_VALUE)).isEqualTo(8_000);
    assertThat(stats.size()).isZero();
  }

  @Test
  void beyondTheCapTheLeastRecentlyUsedKeyIsForgotten() {
    KeyStatistics stats = new KeyStatistics(BucketRotation.ON_ACCESS, 3);
    stats.record("a", false, 1, BOUNDARY + 1);
    stats.record("b", false, 1, BOUNDARY + 2);
    stats.record("c", false, 1, BOUNDARY + 3);
    stats.record("a", false, 1, BOUNDARY + 4);
    assertThat(stats.snapshot("b", BOUNDARY + 4)).as("reading is no use").isEqualTo(new StatsSnapshot(1, 0, 0));
    stats.record("d", false, 1, BOUNDARY + 5);
    assertThat(stats.size()).isEqualTo(3);
    assertThat(stats.snapshot("b", BOUNDARY + 5)).isEqualTo(StatsSnapshot.NONE);
    assertThat(stats.snapshot("a", BOUNDARY + 5)).isEqualTo(new StatsSnapshot(2, 0, 0));
    assertThat(stats.snapshot("c", BOUNDARY + 5)).isEqualTo(new StatsSnapshot(1, 0, 0));
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
    stats.record("k", false, 40, BOUNDARY + 299);
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
    assertThat(stats.snapshot("k", BOUNDARY + 500).lastMaxRate()).isZero();
    assertThat(stats.rotateIfDue(BOUNDARY + 500)).as("first check always rotates").isTrue();
    assertThat(stats.snapshot("k", BOUNDARY + 500).lastMaxRate())
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
