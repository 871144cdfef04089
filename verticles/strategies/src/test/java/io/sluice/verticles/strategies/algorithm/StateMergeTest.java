package io.sluice.verticles.strategies.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The join of two copies of a key's state, per strategy (see {@link StateMergeProperties} for the contract). */
class StateMergeTest {

  @Test
  void tokenBucketKeepsFewerTokensFromTheLaterRefill() {
    assertThat(StateMerge.stricter("12|3|100", "12|7|100")).isEqualTo("12|3|100");
    assertThat(StateMerge.stricter("12|7|200", "12|3|100")).isEqualTo("12|3|200");
  }

  @Test
  void leakyBucketKeepsTheFullerBucket() {
    assertThat(StateMerge.stricter("32|2.5|100", "32|4|90")).isEqualTo("32|4|100");
  }

  @Test
  void gcraKeepsTheLaterArrivalTime() {
    assertThat(StateMerge.stricter("42|100", "42|250")).isEqualTo("42|250");
    assertThat(StateMerge.stricter("42|300", "42|250")).isEqualTo("42|300");
  }

  @Test
  void decayingRateKeepsTheHigherRate() {
    assertThat(StateMerge.stricter("61|0.5|100", "61|1.5|80")).isEqualTo("61|1.5|100");
  }

  @Test
  void fixedWindowJoinsEachQuotaByName() {
    assertThat(StateMerge.stricter("23|2|minute|3|100|hour|10|50", "23|2|hour|12|40|minute|1|160"))
        .isEqualTo("23|2|minute|3|160|hour|12|50");
    assertThat(StateMerge.stricter("23|1|minute|3|100", "23|1|day|4|90"))
        .isEqualTo("23|2|minute|3|100|day|4|90");
  }

  @Test
  void slidingWindowKeepsTheHigherCountsOfTheSameWindows() {
    assertThat(StateMerge.stricter("71|3|1|600", "71|2|4|600")).isEqualTo("71|3|4|600");
    assertThat(StateMerge.stricter("71|3|4|600", "71|2|4|600")).isEqualTo("71|3|4|600");
  }

  @Test
  void slidingWindowKeepsTheLaterWindowsWithTheEarlierCurrentAsItsPreviousAtLeast() {
    assertThat(StateMerge.stricter("71|0|5|600", "71|2|1|660")).isEqualTo("71|5|1|660");
    assertThat(StateMerge.stricter("71|9|1|660", "71|0|5|600")).isEqualTo("71|9|1|660");
  }

  @Test
  void compositeJoinsEachSideAndTakesTheOnlySideThere() {
    assertThat(StateMerge.stricter("51|23|1|minute|1|100$12|9|100", "51|23|1|minute|4|100$"))
        .isEqualTo("51|23|1|minute|4|100$12|9|100");
  }

  @Test
  void statesThatCannotBeComparedKeepTheHeldCopy() {
    assertThat(StateMerge.stricter("12|3|100", "42|250")).isEqualTo("12|3|100");
    assertThat(StateMerge.stricter("12|3|100", "12|x|250")).isEqualTo("12|3|100");
    assertThat(StateMerge.stricter("hello", "12|1|1")).isEqualTo("hello");
    assertThat(StateMerge.isState("42|1")).isTrue();
    assertThat(StateMerge.isState("17")).isFalse();
  }
}
