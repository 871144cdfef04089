package io.sluice.verticles.engine.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Test time moves only by hand, and metrics windows are whole minutes counted from an origin. */
class ManualClockAndMinuteWindowTest {

  @Test
  void manualClockMovesOnlyWhenTold() {
    ManualClock clock = new ManualClock(1_000);

    assertThat(clock.epochNanos()).isEqualTo(1_000);
    assertThat(clock.epochNanos()).isEqualTo(1_000);
    clock.advance(Duration.ofNanos(5));
    assertThat(clock.epochNanos()).isEqualTo(1_005);
    clock.advance(Duration.ofSeconds(2));
    assertThat(clock.epochNanos()).isEqualTo(2_000_001_005L);
    clock.set(7);
    assertThat(clock.epochNanos()).isEqualTo(7);
  }

  @Test
  void defaultManualClockStartsAtTheStartOf2026() {
    assertThat(new ManualClock().epochNanos()).isEqualTo(1_767_225_600_000_000_000L);
  }

  @Test
  void windowIndexIsTheNumberOfWholeMinutesSinceTheOrigin() {
    long origin = 1_767_225_600_000_000_000L;

    assertThat(MinuteWindow.index(origin, origin)).isZero();
    assertThat(MinuteWindow.index(origin, origin + MinuteWindow.NANOS - 1)).isZero();
    assertThat(MinuteWindow.index(origin, origin + MinuteWindow.NANOS)).isEqualTo(1);
    assertThat(MinuteWindow.index(origin, origin + 90 * MinuteWindow.NANOS + 1)).isEqualTo(90);
    assertThat(MinuteWindow.index(origin, origin - 1)).isEqualTo(-1);
  }

  @Test
  void systemClockIsCloseToTheWallClockAndNeverGoesBack() {
    long wall = System.currentTimeMillis() * 1_000_000L;
    long first = Clock.SYSTEM.epochNanos();
    long second = Clock.SYSTEM.epochNanos();

    assertThat(second).isGreaterThanOrEqualTo(first);
    assertThat(Math.abs(first - wall)).isLessThan(Duration.ofSeconds(5).toNanos());
  }
}
