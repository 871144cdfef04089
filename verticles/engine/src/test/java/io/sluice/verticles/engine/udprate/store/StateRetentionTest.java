package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.DecayingRateEvaluation;
import io.sluice.verticles.engine.udprate.rate.RateState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StateRetentionTest {

  @Test
  void atLeastFiveMinutes() {
    assertThat(StateRetention.ttlMillis(new RateState(0, 0), 3)).isEqualTo(300_000);
    assertThat(StateRetention.ttlMillis(new RateState(0, 22), 20)).isEqualTo(300_000);
  }

  @Test
  void tenPeriodsForOrdinaryRates() {
    assertThat(StateRetention.ttlMillis(new RateState(0, 100), 60)).isEqualTo(600_000);
    assertThat(StateRetention.ttlMillis(new RateState(0, 2500), 100))
        .isEqualTo((long) Math.ceil(100 * Math.log(2500 / 0.05) * 1000)).isBetween(1_081_000L, 1_083_000L);
  }

  @Test
  void longerForKeysHammeredFarAboveTheirLimit() {
    double rate = 1e6;
    long ttl = StateRetention.ttlMillis(new RateState(0, rate), 20);
    assertThat(ttl).isEqualTo((long) Math.ceil(20 * Math.log(rate / 0.05) * 1000));
    assertThat(ttl).isGreaterThan(20 * 16 * 1000);
  }

  @Test
  void afterTheTtlRememberingTheKeyChangesTheRateByLessThanZeroPointFifteen() {
    for (double rate : new double[] {0.5, 22, 500, 2500, 1e5, 1e9}) {
      for (double period : new double[] {1, 3, 10, 20, 60, 3600}) {
        double idleSeconds = StateRetention.ttlMillis(new RateState(0, rate), period) / 1000.0;
        double remembered =
            DecayingRateEvaluation.evaluate(new RateState(0, rate), idleSeconds, 1e12, period, true).rate();
        assertThat(remembered).as("rate %s period %s", rate, period).isLessThan(0.15);
      }
    }
  }

  @Test
  void nanSafe() {
    assertThat(StateRetention.ttlMillis(new RateState(0, Double.NaN), 10)).isEqualTo(300_000);
  }
}
