package io.sluice.verticles.engine.log;

import io.sluice.verticles.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class LogLimiterTest {

  @Test
  void letsAFewLinesThroughPerIntervalAndCountsTheRest() {
    ManualClock clock = new ManualClock();
    LogLimiter limiter = new LogLimiter(clock, Duration.ofSeconds(1).toNanos(), 2);
    assertThat(limiter.admit()).isEmpty();
    assertThat(limiter.admit()).isEmpty();
    assertThat(limiter.admit()).isNull();
    assertThat(limiter.admit()).isNull();
    clock.advance(Duration.ofMillis(999));
    assertThat(limiter.admit()).isNull();
    clock.advance(Duration.ofMillis(1));
    assertThat(limiter.admit()).isEqualTo(" (3 more like it were not logged)");
    assertThat(limiter.admit()).isEmpty();
  }
}
