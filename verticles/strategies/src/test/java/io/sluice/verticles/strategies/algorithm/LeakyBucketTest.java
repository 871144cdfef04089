package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Leaky bucket: spec §9.1 upstream cases and §9.2 derived vectors. */
class LeakyBucketTest {

  private static Ledger bucket(long burst, double rate) {
    return new Ledger(new LeakyBucket(new BucketPolicy(burst, rate)));
  }

  private static List<Boolean> allows(Ledger l, int n) {
    return IntStream.range(0, n).mapToObj(i -> l.allow("k").allowed()).toList();
  }

  private static Result only(Outcome o) {
    assertThat(o.decision().results()).hasSize(1);
    return o.decision().results().get(0);
  }

  @Test
  void burstOfFive() {
    assertThat(allows(bucket(5, 1), 6)).containsExactly(true, true, true, true, true, false);
  }

  @Test
  void leaksAfterTwoSeconds() {
    Ledger l = bucket(3, 1);
    assertThat(allows(l, 4)).containsExactly(true, true, true, false);
    l.at(2);
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void peekBetweenAllows() {
    Ledger l = bucket(5, 1);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(5);
    assertThat(allows(l, 3)).containsOnly(true);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(2);
    assertThat(allows(l, 2)).containsOnly(true);
    assertThat(l.allow("k").allowed()).isFalse();
  }

  @Test
  void resetEmptiesTheBucket() {
    Ledger l = bucket(3, 1);
    assertThat(allows(l, 4)).containsExactly(true, true, true, false);
    l.reset("k");
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void freshAllowLeavesNine() {
    Outcome o = new LeakyBucket(new BucketPolicy(10, 1)).allow(null, T0, 1);
    assertThat(only(o)).isEqualTo(new Result("default", true, 10, 9, T0, 0));
    assertThat(o.newState()).isEqualTo("32|1|" + T0);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(50));
  }

  @Test
  void aFullBucketDeniesWithoutWriting() {
    Outcome o = new LeakyBucket(new BucketPolicy(10, 1)).allow("32|10|" + T0, T0, 1);
    assertThat(o.changed()).isFalse();
    assertThat(only(o)).isEqualTo(new Result("default", false, 10, 0, T0 + sec(1), sec(1)));
  }

  @ParameterizedTest
  @CsvSource({"5, 0", "10, 500000000", "12, 1500000000"})
  void resetTimeHelper(double level, long afterNowNs) {
    assertThat(LeakyBucket.resetTime(T0, level, 10, 2, 1)).isEqualTo(T0 + afterNowNs);
  }

  @Test
  void anOverfullStoredLevelReportsTheLongerReset() {
    Outcome o = new LeakyBucket(new BucketPolicy(10, 2)).allow("32|12|" + T0, T0, 1);
    assertThat(only(o)).isEqualTo(new Result("default", false, 10, 0, T0 + sec(1.5), sec(1.5)));
  }

  /** §9.2, leaky bucket B 3, r 1, including the fractional-level quirk. */
  @Test
  void derivedVectorBurstThreeRateOne() {
    Ledger l = bucket(3, 1);
    for (int i = 1; i <= 3; i++) {
      Outcome o = l.allow("k");
      assertThat(only(o)).isEqualTo(new Result("default", true, 3, 3 - i, T0, 0));
      assertThat(o.newState()).isEqualTo("32|" + i + "|" + T0);
      assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(15));
    }
    Outcome o = l.allow("k");
    assertThat(o.changed()).isFalse();
    assertThat(only(o)).isEqualTo(new Result("default", false, 3, 0, T0 + sec(1), sec(1)));

    o = l.at(0.5).allow("k");
    assertThat(o.changed()).isFalse();
    assertThat(only(o)).isEqualTo(new Result("default", false, 3, 1, T0 + sec(0.5), sec(0.5)));
    assertThat(l.peek("k").result("default")).isEqualTo(new Result("default", true, 3, 1, T0 + sec(0.5), 0));

    long t1 = T0 + sec(1);
    o = l.at(1).allow("k");
    assertThat(only(o)).isEqualTo(new Result("default", true, 3, 0, t1, 0));
    assertThat(o.newState()).isEqualTo("32|3|" + t1);
    o = l.allow("k");
    assertThat(only(o)).isEqualTo(new Result("default", false, 3, 0, t1 + sec(1), sec(1)));

    long t25 = T0 + sec(2.5);
    o = l.at(2.5).allow("k");
    assertThat(only(o)).isEqualTo(new Result("default", true, 3, 1, t25, 0));
    assertThat(o.newState()).isEqualTo("32|2.5|" + t25);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void retryAfterIsTheFirstNanosecondThatAdmits() {
    Ledger l = bucket(3, 3);
    allows(l, 3);
    long wait = only(l.allow("k")).retryAfterNs();
    assertThat(wait).isEqualTo(333_333_334L);
    assertThat(l.atNs(T0 + wait - 1).allow("k").allowed()).isFalse();
    assertThat(l.atNs(T0 + wait).allow("k").allowed()).isTrue();
  }

  @Test
  void costAddsSeveralRequests() {
    LeakyBucket lb = new LeakyBucket(new BucketPolicy(10, 2));
    Outcome o = lb.allow(null, T0, 7);
    assertThat(o.newState()).isEqualTo("32|7|" + T0);
    Outcome four = lb.allow(o.newState(), T0, 4);
    assertThat(only(four)).isEqualTo(new Result("default", false, 10, 3, T0, sec(0.5)));
    assertThat(only(lb.allow(null, T0, 11)).retryAfterNs()).isEqualTo(Result.NEVER);
  }

  @Test
  void tenConcurrentCallersOnABurstOfFive() {
    Ledger l = bucket(5, 1);
    assertThat(Ledger.allowedCount(l.race("k", 10))).isEqualTo(5);
  }
}
