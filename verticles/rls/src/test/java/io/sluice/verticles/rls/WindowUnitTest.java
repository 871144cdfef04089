package io.sluice.verticles.rls;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Fixed windows aligned to the unit since the epoch, as envoyproxy/ratelimit counts them. */
class WindowUnitTest {

  /** 2026-01-01T00:00:00Z, a Thursday. */
  private static final long T0 = 1_767_225_600L;

  private static CountedWindow window(WindowUnit unit) {
    return new CountedWindow(unit.seconds(), 1);
  }

  @Test
  void windowsStartAtMultiplesOfTheUnitAndResetAtTheirEnd() {
    long now = T0 + 3 * 3600 + 25 * 60 + 7; // 03:25:07
    assertThat(window(WindowUnit.SECOND).windowStart(now)).isEqualTo(now);
    assertThat(window(WindowUnit.SECOND).secondsUntilReset(now)).isEqualTo(1);
    assertThat(window(WindowUnit.MINUTE).windowStart(now)).isEqualTo(now - 7);
    assertThat(window(WindowUnit.MINUTE).secondsUntilReset(now)).isEqualTo(53);
    assertThat(window(WindowUnit.HOUR).windowStart(now)).isEqualTo(T0 + 3 * 3600);
    assertThat(window(WindowUnit.DAY).windowStart(now)).isEqualTo(T0);
    assertThat(window(WindowUnit.DAY).secondsUntilReset(now)).isEqualTo(86_400 - (3 * 3600 + 25 * 60 + 7));
    assertThat(window(WindowUnit.WEEK).windowStart(now)).as("weeks start on Thursdays, as the epoch did").isEqualTo(T0);
    assertThat(window(WindowUnit.MONTH).windowStart(now) % (30 * 86_400)).isZero();
    assertThat(window(WindowUnit.YEAR).windowStart(now) % (365 * 86_400)).isZero();
  }

  @Test
  void unitsCarryEnvoysNumbers() {
    assertThat(WindowUnit.SECOND.toProto().getNumber()).isEqualTo(1);
    assertThat(WindowUnit.YEAR.toProto().getNumber()).isEqualTo(6);
    assertThat(WindowUnit.WEEK.toProto().getNumber()).isEqualTo(7);
    assertThat(WindowUnit.named("Minute")).contains(WindowUnit.MINUTE);
    assertThat(WindowUnit.named("fortnight")).isEmpty();
  }
}
