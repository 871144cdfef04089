package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The weighted two-window counter, on a clock moved by hand (T0 is a multiple of 10 s). */
class SlidingWindowTest {

  private static final SlidingWindow TEN_PER_10S = new SlidingWindow(new Quota(Result.DEFAULT, 10, Duration.ofSeconds(10)));

  private static List<Boolean> allows(Ledger l, int n) {
    return IntStream.range(0, n).mapToObj(i -> l.allow("k").allowed()).toList();
  }

  private static Result only(Outcome o) {
    assertThat(o.decision().results()).hasSize(1);
    return o.decision().results().get(0);
  }

  @Test
  void aFreshKeyTakesTheLimitThenIsDenied() {
    Ledger l = new Ledger(TEN_PER_10S).at(3);
    assertThat(allows(l, 10)).containsOnly(true);
    Result denied = only(l.allow("k"));
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.remaining()).isZero();
    assertThat(denied.resetNs()).isEqualTo(T0 + sec(10));
    // The current window is full: only the next one, where these 10 weigh less than 1 at its end, admits.
    assertThat(denied.retryAfterNs()).isEqualTo(sec(10) + sec(1) - sec(3));
  }

  @Test
  void thePreviousWindowWeighsWhatIsLeftOfIt() {
    Ledger l = new Ledger(TEN_PER_10S).at(9);
    allows(l, 10);
    // At 12 s, 80 % of the previous window is inside the sliding window: 10 × 0.8 = 8, room for 2.
    l.at(12);
    assertThat(l.peek("k").remaining()).isEqualTo(2);
    assertThat(only(l.allow("k")).remaining()).isEqualTo(1);
    assertThat(only(l.allow("k")).remaining()).isZero();
    Result denied = only(l.allow("k"));
    assertThat(denied.allowed()).isFalse();
    // 10 × (1 − e/10) + 2 + 1 ≤ 10 from e = 3, 1 s from now.
    assertThat(denied.retryAfterNs()).isEqualTo(sec(1));
    l.at(13);
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void aBurstAtAWindowsEndCannotBeRepeatedAtTheNextOnesStart() {
    Ledger l = new Ledger(TEN_PER_10S).at(9.9);
    assertThat(allows(l, 11)).containsExactly(true, true, true, true, true, true, true, true, true, true, false);
    l.at(10.1);
    assertThat(allows(l, 2)).containsExactly(false, false);
  }

  @Test
  void anOlderStateCountsForNothing() {
    Ledger l = new Ledger(TEN_PER_10S).at(1);
    allows(l, 10);
    l.at(25);
    assertThat(allows(l, 11)).containsExactly(true, true, true, true, true, true, true, true, true, true, false);
  }

  @Test
  void theStateCarriesBothCountsAndTheWindowStart() {
    Outcome first = TEN_PER_10S.allow(null, T0 + sec(4), 3);
    assertThat(first.newState()).isEqualTo("71|0|3|" + T0);
    assertThat(first.ttl()).isEqualTo(Duration.ofSeconds(16));
    Outcome next = TEN_PER_10S.allow(first.newState(), T0 + sec(15), 1);
    assertThat(next.newState()).isEqualTo("71|3|1|" + (T0 + sec(10)));
    assertThat(only(next).remaining()).isEqualTo(7);   // ⌊10 − (3 × 0.5 + 1)⌋
  }

  @Test
  void aCostTheWholeLimitCannotCoverIsNeverAdmitted() {
    Result r = only(TEN_PER_10S.allow(null, T0, 11));
    assertThat(r.allowed()).isFalse();
    assertThat(r.retryAfterNs()).isEqualTo(Result.NEVER);
  }

  @Test
  void deniesWriteNothing() {
    Ledger l = new Ledger(TEN_PER_10S).at(0);
    allows(l, 10);
    String full = l.state("k");
    assertThat(l.allow("k").changed()).isFalse();
    assertThat(l.state("k")).isEqualTo(full);
  }

  @Test
  void racingCallersTakeExactlyTheLimit() {
    Ledger l = new Ledger(TEN_PER_10S).at(5);
    assertThat(Ledger.allowedCount(l.race("k", 16))).isEqualTo(10);
  }

  @Test
  void peekConsumesNothing() {
    Ledger l = new Ledger(TEN_PER_10S).at(2);
    assertThat(l.peek("k").remaining()).isEqualTo(10);
    allows(l, 4);
    assertThat(l.peek("k").remaining()).isEqualTo(6);
    assertThat(l.peek("k").remaining()).isEqualTo(6);
  }

  @Test
  void malformedStatesAreRefused() {
    for (String state : List.of("71|1|2", "71|-1|2|5", "71|1|2|5|", "23|1|a|1|5", "71|x|2|5")) {
      assertThatThrownBy(() -> TEN_PER_10S.allow(state, T0)).as(state).isInstanceOf(MalformedStateException.class);
    }
  }
}
