package io.sluice.verticles.engine.udprate.rate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecayingRateEvaluationTest {

  private static final double T0 = 1_700_000_000;

  /** One key's stored state, updated per the write rule. */
  private static final class Key {
    RateState stored;

    RateEvaluation use(double now, double limit, double period, boolean strict) {
      RateEvaluation evaluation = DecayingRateEvaluation.evaluate(stored, now, limit, period, strict);
      if (!evaluation.leavesStateUnchanged()) {
        stored = evaluation.stateToStore();
      }
      return evaluation;
    }
  }

  @Test
  void aNewKeyHasRateZeroAndIsStoredAtOnce() {
    RateEvaluation first = DecayingRateEvaluation.evaluate(null, T0, 22, 20, false);
    assertThat(first.rate()).isZero();
    assertThat(first.over()).isFalse();
    assertThat(first.stateToStore()).isEqualTo(new RateState(T0, 0));
  }

  @Test
  void aNewKeyIsStoredEvenWhenOverBecauseTheLimitIsZero() {
    RateEvaluation first = DecayingRateEvaluation.evaluate(null, T0, 0, 20, false);
    assertThat(first.over()).isTrue();
    assertThat(first.stateToStore()).isEqualTo(new RateState(T0, 0));
  }

  @Test
  void theFormulaOperationByOperation() {
    RateState previous = new RateState(T0, 5);
    double now = T0 + 1.5;
    double x = (now - T0) / 20;
    double a = StrictMath.exp(-x);
    double expected = 1 * (1 - a) / x + a * 5;
    RateEvaluation evaluation = DecayingRateEvaluation.evaluate(previous, now, 22, 20, false);
    assertThat(evaluation.rate()).isEqualTo(expected);
    assertThat(evaluation.stateToStore()).isEqualTo(new RateState(now, expected));
  }

  @Test
  void reachingTheLimitExactlyIsOver() {
    // rate after a same-instant use from rate r is (1-a)/x + a*r; choose the limit equal to it
    RateState previous = new RateState(T0, 4);
    double rate = DecayingRateEvaluation.evaluate(previous, T0 + 1, 1000, 10, true).rate();
    assertThat(DecayingRateEvaluation.evaluate(previous, T0 + 1, rate, 10, true).over()).isTrue();
    assertThat(DecayingRateEvaluation.evaluate(previous, T0 + 1, Math.nextUp(rate), 10, true).over()).isFalse();
  }

  @Test
  void identicalOrBackwardTimestampsUseOneNanosecond() {
    RateState previous = new RateState(T0, 3);
    RateEvaluation same = DecayingRateEvaluation.evaluate(previous, T0, 100, 10, true);
    RateEvaluation backwards = DecayingRateEvaluation.evaluate(previous, T0 - 5, 100, 10, true);
    double x = 1e-9 / 10;
    double a = StrictMath.exp(-x);
    assertThat(same.rate()).isEqualTo((1 - a) / x + a * 3);
    assertThat(backwards.rate()).isEqualTo(same.rate());
    assertThat(backwards.stateToStore().tLastSeconds()).as("t_last may move backwards").isEqualTo(T0 - 5);
  }

  @Test
  void strictStoresRefusedUsesNonStrictLeavesTheStateUntouched() {
    RateState previous = new RateState(T0, 2);
    RateEvaluation strict = DecayingRateEvaluation.evaluate(previous, T0, 2, 10, true);
    RateEvaluation leaky = DecayingRateEvaluation.evaluate(previous, T0, 2, 10, false);
    assertThat(strict.over()).isTrue();
    assertThat(leaky.over()).isTrue();
    assertThat(strict.stateToStore()).isEqualTo(new RateState(T0, strict.rate()));
    assertThat(leaky.leavesStateUnchanged()).isTrue();
    assertThat(leaky.rate()).as("the reply reports the computed rate anyway").isEqualTo(strict.rate());
  }

  @Test
  void theSameInstantIncrementIsTheSpecsKnifeEdge() {
    assertThat(increment(1)).isEqualTo(0.99999997171806843);
    assertThat(increment(10)).isEqualTo(1.000000082740371);
    assertThat(increment(20)).isEqualTo(1.000000082740371);
    assertThat(increment(30)).isEqualTo(1.000000082740371);
  }

  private static double increment(double period) {
    return DecayingRateEvaluation.evaluate(new RateState(T0, 0), T0, 1e9, period, true).rate();
  }

  /** spec §4: 20 same-instant requests, limit 10: P = 1 → 11 N then 9 Y; P = 10 → 10 N then 10 Y. */
  @ParameterizedTest(name = "period {0}, strict {1}: {2} N")
  @CsvSource({
      "1, true, 11",
      "1, false, 11",
      "10, true, 10",
      "10, false, 10",
      "20, true, 10",
      "30, false, 10",
  })
  void twentySameInstantRequestsAgainstLimitTen(double period, boolean strict, int expectedAllowed) {
    Key key = new Key();
    List<Boolean> verdicts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      verdicts.add(key.use(T0, 10, period, strict).over());
    }
    assertThat(verdicts.subList(0, expectedAllowed)).containsOnly(false);
    assertThat(verdicts.subList(expectedAllowed, 20)).containsOnly(true);
  }

  @Test
  void steadyArrivalsConvergeToPeriodOverInterval() {
    Key key = new Key();
    double now = T0;
    RateEvaluation last = null;
    for (int i = 0; i < 300; i++) {
      last = key.use(now, 1e9, 20, true);
      now += 1;
    }
    assertThat(last.rate()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void aPeriodThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> DecayingRateEvaluation.evaluate(null, T0, 1, 0, true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Bad period");
    assertThatThrownBy(() -> DecayingRateEvaluation.evaluate(null, T0, 1, -1, true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DecayingRateEvaluation.evaluate(null, T0, 1, Double.NaN, true))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
