package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Token bucket: spec §9.1 upstream cases and §9.2 derived vectors. Not applicable to a pure
 * function and left to the caller's compare-and-set loop: "CAS always fails", "canceled context".
 */
class TokenBucketTest {

  private static Ledger bucket(long burst, double rate) {
    return new Ledger(new TokenBucket(new BucketPolicy(burst, rate)));
  }

  private static Result only(Outcome o) {
    return only(o.decision());
  }

  private static Result only(Decision d) {
    assertThat(d.results()).hasSize(1);
    Result r = d.results().get(0);
    assertThat(r.name()).isEqualTo("default");
    return r;
  }

  @Test
  void peekThenFiveAllowsThenExhaustion() {
    Ledger l = bucket(10, 10);
    assertThat(only(l.peek("k"))).extracting(Result::allowed, Result::remaining).containsExactly(true, 10L);
    for (int i = 0; i < 5; i++) {
      assertThat(l.allow("k").allowed()).isTrue();
    }
    assertThat(only(l.peek("k")).remaining()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      assertThat(l.allow("k").allowed()).isTrue();
    }
    assertThat(l.allow("k").allowed()).isFalse();
  }

  @Test
  void resetDeletesTheBucket() {
    Ledger l = bucket(4, 1);
    for (int i = 0; i < 4; i++) {
      assertThat(l.allow("k").allowed()).isTrue();
    }
    assertThat(l.allow("k").allowed()).isFalse();
    l.reset("k");
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void burstOfThree() {
    Ledger l = bucket(3, 1);
    assertThat(List.of(l.allow("k"), l.allow("k"), l.allow("k"), l.allow("k")))
        .extracting(Outcome::allowed).containsExactly(true, true, true, false);
  }

  @Test
  void keysAreIndependent() {
    Ledger l = bucket(2, 2);
    for (String key : List.of("user1", "user2")) {
      assertThat(List.of(l.allow(key), l.allow(key), l.allow(key)))
          .extracting(Outcome::allowed).containsExactly(true, true, false);
    }
  }

  @Test
  void refillAfterOnePointTwoSeconds() {
    Ledger l = bucket(10, 2);
    for (int i = 0; i < 10; i++) {
      assertThat(l.allow("k").allowed()).isTrue();
    }
    assertThat(l.allow("k").allowed()).isFalse();
    l.at(1.2);
    Outcome o = l.allow("k");
    assertThat(only(o)).isEqualTo(new Result("default", true, 10, 1, T0 + sec(1.2), 0));
    assertThat(o.newState()).isEqualTo("12|1.4|" + (T0 + sec(1.2)));
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(25));
  }

  @Test
  void tenConcurrentCallersOnABurstOfFive() {
    Ledger l = bucket(5, 5);
    List<Outcome> outcomes = l.race("k", 10);
    assertThat(Ledger.allowedCount(outcomes)).isEqualTo(5);
    assertThat(l.lostRaces()).isPositive();
    assertThat(l.allow("k").allowed()).isFalse();
  }

  @Test
  void freshAllowWritesNineTokens() {
    Outcome o = new TokenBucket(new BucketPolicy(10, 0.1)).allow(null, T0, 1);
    assertThat(only(o)).isEqualTo(new Result("default", true, 10, 9, T0, 0));
    assertThat(o.newState()).isEqualTo("12|9|" + T0);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(500));
  }

  @Test
  void halfATokenDeniesWithoutWriting() {
    Outcome o = new TokenBucket(new BucketPolicy(10, 0.1)).allow("12|0.5|" + T0, T0, 1);
    assertThat(o.changed()).isFalse();
    assertThat(only(o)).isEqualTo(new Result("default", false, 10, 0, T0 + sec(5), sec(5)));
  }

  @Test
  void aLostCompareAndSetIsDecidedAgainOnTheFreshRead() {
    Ledger l = bucket(10, 0.1);
    List<Outcome> outcomes = l.race("k", 2);
    assertThat(outcomes).extracting(Outcome::allowed).containsExactly(true, true);
    assertThat(l.lostRaces()).isEqualTo(1);
    assertThat(l.state("k")).isEqualTo("12|8|" + T0);
  }

  @Test
  void invalidStateIsAnErrorNotAReset() {
    TokenBucket tb = new TokenBucket(new BucketPolicy(10, 0.1));
    assertThatThrownBy(() -> tb.allow("invalid-state", T0, 1))
        .isInstanceOf(MalformedStateException.class)
        .hasMessageContaining("failed to parse token_bucket state");
    assertThatThrownBy(() -> tb.peek("invalid-state", T0)).isInstanceOf(MalformedStateException.class);
  }

  @ParameterizedTest
  @CsvSource({"1.5, 0", "0.5, 5000000000", "0, 10000000000"})
  void resetTimeHelper(double tokens, long afterNowNs) {
    assertThat(TokenBucket.resetTime(T0, tokens, 0.1, 1)).isEqualTo(T0 + afterNowNs);
  }

  @ParameterizedTest
  @CsvSource({"10, 5, 10", "1, 1000, 1", "3, 2, 7"})
  void ttlIsFiveTimesTheFillTimeTruncatedAtLeastOneSecond(long burst, double rate, long seconds) {
    assertThat(new TokenBucket(new BucketPolicy(burst, rate)).allow(null, T0, 1).ttl())
        .isEqualTo(Duration.ofSeconds(seconds));
  }

  /** §9.2, token bucket B 3, r 1. */
  @Test
  void derivedVectorBurstThreeRateOne() {
    Ledger l = bucket(3, 1);
    long t1 = T0 + sec(1);
    long t3 = T0 + sec(3);
    step(l, 0, new Result("default", true, 3, 2, T0, 0), "12|2|" + T0);
    step(l, 0, new Result("default", true, 3, 1, T0, 0), "12|1|" + T0);
    step(l, 0, new Result("default", true, 3, 0, T0, 0), "12|0|" + T0);
    step(l, 0, new Result("default", false, 3, 0, T0 + sec(1), sec(1)), null);
    step(l, 0.5, new Result("default", false, 3, 0, T0 + sec(1), sec(0.5)), null);
    step(l, 1, new Result("default", true, 3, 0, t1, 0), "12|0|" + t1);
    step(l, 1, new Result("default", false, 3, 0, t1 + sec(1), sec(1)), null);
    step(l, 3, new Result("default", true, 3, 1, t3, 0), "12|1|" + t3);
  }

  private static void step(Ledger l, double atSeconds, Result expected, String newState) {
    String before = l.at(atSeconds).state("k");
    Outcome o = l.allow("k");
    assertThat(only(o)).isEqualTo(expected);
    if (newState == null) {
      assertThat(o.changed()).isFalse();
      assertThat(l.state("k")).isEqualTo(before);
    } else {
      assertThat(o.newState()).isEqualTo(newState);
      assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(15));
    }
  }

  @Test
  void peekOfAnEmptyBucketReportsResetNowAndTheRealWait() {
    Ledger l = bucket(3, 1);
    for (int i = 0; i < 3; i++) {
      l.allow("k");
    }
    l.at(0.25);
    assertThat(only(l.peek("k"))).isEqualTo(new Result("default", false, 3, 0, T0 + sec(0.25), sec(0.75)));
    assertThat(l.state("k")).isEqualTo("12|0|" + T0);
  }

  @Test
  void retryAfterIsTheFirstNanosecondThatAdmits() {
    Ledger l = bucket(3, 3);
    for (int i = 0; i < 3; i++) {
      l.allow("k");
    }
    long wait = only(l.allow("k")).retryAfterNs();
    assertThat(wait).isEqualTo(333_333_334L);
    assertThat(l.atNs(T0 + wait - 1).allow("k").allowed()).isFalse();
    assertThat(l.atNs(T0 + wait).allow("k").allowed()).isTrue();
  }

  @Test
  void costTakesSeveralTokens() {
    TokenBucket tb = new TokenBucket(new BucketPolicy(10, 2));
    Outcome four = tb.allow(null, T0, 4);
    assertThat(only(four).remaining()).isEqualTo(6);
    assertThat(four.newState()).isEqualTo("12|6|" + T0);
    Outcome seven = tb.allow(four.newState(), T0, 7);
    assertThat(only(seven)).isEqualTo(new Result("default", false, 10, 6, T0 + sec(0.5), sec(0.5)));
    assertThat(only(tb.allow(null, T0, 11))).extracting(Result::allowed, Result::retryAfterNs)
        .containsExactly(false, Result.NEVER);
    assertThatThrownBy(() -> tb.allow(null, T0, 0)).isInstanceOf(IllegalArgumentException.class);
  }

}
