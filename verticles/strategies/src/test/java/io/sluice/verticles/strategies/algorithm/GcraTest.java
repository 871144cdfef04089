package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GCRA: spec §9.1 upstream cases and §9.2 derived vectors (real-clock cases on a fixed clock). */
class GcraTest {

  private static Gcra gcra(long burst, double rate) {
    return new Gcra(new BucketPolicy(burst, rate));
  }

  private static Ledger ledger(long burst, double rate) {
    return new Ledger(gcra(burst, rate));
  }

  private static List<Boolean> allows(Ledger l, String key, int n) {
    return IntStream.range(0, n).mapToObj(i -> l.allow(key).allowed()).toList();
  }

  private static Result only(Outcome o) {
    assertThat(o.decision().results()).hasSize(1);
    return o.decision().results().get(0);
  }

  @Test
  void derivedIntervalAndTolerance() {
    assertThat(gcra(2, 3).emissionNs()).isEqualTo(333_333_333L);
    assertThat(gcra(2, 3).toleranceNs()).isEqualTo(666_666_666L);
    assertThatThrownBy(() -> gcra(1, 2e9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> gcra(Long.MAX_VALUE / 2, 0.001)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void burstOfThreeAtRateFive() {
    assertThat(allows(ledger(3, 5), "k", 4)).containsExactly(true, true, true, false);
  }

  @Test
  void keysAreIndependent() {
    Ledger l = ledger(2, 2);
    assertThat(allows(l, "a", 3)).containsExactly(true, true, false);
    assertThat(allows(l, "b", 3)).containsExactly(true, true, false);
  }

  @Test
  void oneEmissionIntervalLaterOneMorePasses() {
    Ledger l = ledger(5, 10);
    assertThat(allows(l, "k", 6)).containsExactly(true, true, true, true, true, false);
    l.at(0.15);
    assertThat(allows(l, "k", 2)).containsExactly(true, false);
  }

  @Test
  void rateHundredBurstTen() {
    Ledger l = ledger(10, 100);
    assertThat(allows(l, "k", 11)).containsExactly(true, true, true, true, true, true, true, true, true, true, false);
    l.at(0.015);
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void rateHalfBurstTwo() {
    Ledger l = ledger(2, 0.5);
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    l.at(2.1);
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void peekBetweenAllows() {
    Ledger l = ledger(10, 10);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(10);
    assertThat(allows(l, "k", 5)).containsOnly(true);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(5);
    assertThat(allows(l, "k", 5)).containsOnly(true);
    assertThat(l.allow("k").allowed()).isFalse();
  }

  /** Upstream sleeps T plus a tolerance; here also the exact edge: denied 1 ns before T, allowed at T. */
  @ParameterizedTest
  @CsvSource({"1, 1000000000", "10, 100000000", "100, 10000000", "0.5, 2000000000", "0.1, 10000000000"})
  void afterOneEmissionIntervalTheNextRequestPasses(double rate, long emissionNs) {
    Ledger l = ledger(2, rate);
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    assertThat(l.atNs(T0 + emissionNs - 1).allow("k").allowed()).isFalse();
    assertThat(l.atNs(T0 + emissionNs).allow("k").allowed()).isTrue();
  }

  @Test
  void firstAllowLeavesFourThenDeniedWithNoneLeft() {
    Ledger l = ledger(5, 10);
    assertThat(only(l.allow("k")).remaining()).isEqualTo(4);
    assertThat(allows(l, "k", 4)).containsOnly(true);
    assertThat(only(l.allow("k"))).extracting(Result::allowed, Result::remaining).containsExactly(false, 0L);
  }

  @Test
  void peeksDoNotConsume() {
    Ledger l = ledger(3, 5);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(3);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(3);
    assertThat(only(l.allow("k")).remaining()).isEqualTo(2);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(2);
  }

  @Test
  void resetDeletesTheTat() {
    Ledger l = ledger(2, 2);
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    l.reset("k");
    assertThat(only(l.allow("k"))).extracting(Result::allowed, Result::remaining).containsExactly(true, 1L);
  }

  @Test
  void rateTwoBurstOne() {
    Ledger l = ledger(1, 2);
    assertThat(allows(l, "k", 2)).containsExactly(true, false);
    l.at(0.6);
    assertThat(allows(l, "k", 2)).containsExactly(true, false);
  }

  @Test
  void threeKeysThreePolicies() {
    for (long[] p : new long[][] {{3, 5}, {2, 2}, {5, 10}}) {
      Ledger l = ledger(p[0], p[1]);
      List<Boolean> got = allows(l, "key" + p[0], (int) p[0] + 1);
      assertThat(got.subList(0, (int) p[0])).containsOnly(true);
      assertThat(got.get((int) p[0])).isFalse();
    }
  }

  @Test
  void aTatFiveSecondsAheadDeniesPeekAndAllow() {
    Gcra g = gcra(10, 10);
    String state = "42|" + (T0 + sec(5));
    assertThat(g.peek(state, T0).result("default")).extracting(Result::allowed, Result::remaining)
        .containsExactly(false, 0L);
    Outcome o = g.allow(state, T0, 1);
    assertThat(o.changed()).isFalse();
    assertThat(only(o)).isEqualTo(new Result("default", false, 10, 0, T0 + sec(5.1), sec(4.1)));
  }

  @ParameterizedTest
  @CsvSource({"-1000, 10", "300, 7", "1000, 0", "1100, 0", "-5000, 10"})
  void remainingForATat(long tatMillisFromNow, long remaining) {
    Gcra g = gcra(10, 10);
    assertThat(g.remaining(T0 + tatMillisFromNow * 1_000_000L, T0)).isEqualTo(remaining);
  }

  /** §9.2, GCRA B 3, r 5: T = 200 ms, τ = 600 ms, TTL 3 s. */
  @Test
  void derivedVectorBurstThreeRateFive() {
    Ledger l = ledger(3, 5);
    step(l, 0, new Result("default", true, 3, 2, T0 + sec(0.8), 0), T0 + sec(0.2));
    step(l, 0, new Result("default", true, 3, 1, T0 + sec(1.0), 0), T0 + sec(0.4));
    step(l, 0, new Result("default", true, 3, 0, T0 + sec(1.2), 0), T0 + sec(0.6));
    step(l, 0, new Result("default", false, 3, 0, T0 + sec(0.8), sec(0.2)), null);
    step(l, 0.2, new Result("default", true, 3, 0, T0 + sec(1.4), 0), T0 + sec(0.8));
    step(l, 0.2, new Result("default", false, 3, 0, T0 + sec(1.0), sec(0.2)), null);
    step(l, 0.6, new Result("default", true, 3, 1, T0 + sec(1.6), 0), T0 + sec(1.0));
  }

  private static void step(Ledger l, double atSeconds, Result expected, Long storedTat) {
    String before = l.at(atSeconds).state("k");
    Outcome o = l.allow("k");
    assertThat(only(o)).isEqualTo(expected);
    if (storedTat == null) {
      assertThat(o.changed()).isFalse();
      assertThat(l.state("k")).isEqualTo(before);
    } else {
      assertThat(o.newState()).isEqualTo("42|" + storedTat);
      assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(3));
    }
  }

  @Test
  void freshPeekReportsResetNowPlusTolerance() {
    assertThat(gcra(3, 5).peek(null, T0).result("default"))
        .isEqualTo(new Result("default", true, 3, 3, T0 + sec(0.6), 0));
  }

  @Test
  void costAdvancesTheTatBySeveralIntervals() {
    Gcra g = gcra(5, 10);
    Outcome three = g.allow(null, T0, 3);
    assertThat(three.newState()).isEqualTo("42|" + (T0 + sec(0.3)));
    Outcome three2 = g.allow(three.newState(), T0, 3);
    assertThat(only(three2)).isEqualTo(new Result("default", false, 5, 0, T0 + sec(0.6), sec(0.1)));
    assertThat(only(g.allow(null, T0, 6)).retryAfterNs()).isEqualTo(Result.NEVER);
  }
}
