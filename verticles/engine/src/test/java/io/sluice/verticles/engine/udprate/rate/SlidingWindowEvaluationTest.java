package io.sluice.verticles.engine.udprate.rate;

import io.sluice.verticles.engine.udprate.rate.SlidingWindowEvaluation.WindowEvaluation;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlidingWindowEvaluationTest {

  private static final long SECOND = 1_000_000_000L;
  /** A window start: 10 s windows are aligned to the epoch. */
  private static final long T0 = 1_700_000_000L * SECOND;

  /** One key's stored state, written as the evaluation says, at a clock the test moves by hand. */
  private static final class Key {
    final SlidingWindow window;
    String stored;
    long nowNs = T0;

    Key(double limit, double periodSeconds) {
      window = SlidingWindowEvaluation.windowFor(limit, periodSeconds);
    }

    WindowEvaluation use() {
      WindowEvaluation evaluation = SlidingWindowEvaluation.evaluate(window, stored, nowNs);
      if (!evaluation.leavesStateUnchanged()) {
        stored = evaluation.stateToStore();
      }
      return evaluation;
    }

    int admittedOf(int uses) {
      int admitted = 0;
      for (int i = 0; i < uses; i++) {
        admitted += use().over() ? 0 : 1;
      }
      return admitted;
    }
  }

  @Test
  void aWindowAdmitsExactlyItsLimitAndReportsTheCountAsTheRate() {
    Key key = new Key(5, 10);
    for (int i = 1; i <= 5; i++) {
      WindowEvaluation admitted = key.use();
      assertThat(admitted.over()).isFalse();
      assertThat(admitted.rate()).isEqualTo(i);
    }
    WindowEvaluation refused = key.use();
    assertThat(refused.over()).isTrue();
    assertThat(refused.rate()).isEqualTo(5);
    assertThat(refused.leavesStateUnchanged()).isTrue();
    assertThat(key.stored).isEqualTo("71|0|5|" + T0);
  }

  @Test
  void thePreviousWindowWeighsByTheShareStillInsideTheSlidingWindow() {
    Key key = new Key(10, 10);
    assertThat(key.admittedOf(10)).isEqualTo(10);
    key.nowNs = T0 + 13 * SECOND; // 30 % into the next window: the previous one weighs 0.7 → 7
    assertThat(key.admittedOf(10)).isEqualTo(3);
    assertThat(key.use().rate()).isEqualTo(10.0);
    key.nowNs = T0 + 18 * SECOND; // weighs 0.2 → 2 + 3 counted: 5 more
    assertThat(key.admittedOf(10)).isEqualTo(5);
    key.nowNs = T0 + 30 * SECOND; // two windows on: nothing left of either
    WindowEvaluation fresh = key.use();
    assertThat(fresh.over()).isFalse();
    assertThat(fresh.rate()).isEqualTo(1.0);
  }

  @Test
  void theStateIsKeptUntilTheNextWindowEnds() {
    Key key = new Key(3, 10);
    key.nowNs = T0 + 4 * SECOND;
    assertThat(key.use().ttl()).isEqualTo(Duration.ofSeconds(16));
  }

  @Test
  void aNewKeyMeasuresNothingBeforeItsFirstUse() {
    SlidingWindow window = SlidingWindowEvaluation.windowFor(3, 1.5);
    assertThat(window.estimate(null, T0)).isZero();
    assertThat(window.policy().windowNs()).isEqualTo(1_500_000_000L);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, 0.5, 2.5, -1, Double.NaN})
  void aLimitThatIsNotAWholeCountIsRefused(double limit) {
    assertThatThrownBy(() -> SlidingWindowEvaluation.windowFor(limit, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole number");
  }

  @Test
  void aPeriodThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> SlidingWindowEvaluation.windowFor(3, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Bad period");
  }
}
