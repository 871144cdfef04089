package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class AuthFailuresTest {

  private final ManualClock clock = new ManualClock();
  private final AuthFailures failures = new AuthFailures(clock);

  @Test
  void addressIsRefusedAfterTheLimitUntilItsWindowEnds() {
    for (int i = 1; i < AuthFailures.MAX_FAILURES; i++) {
      assertThat(failures.failed("10.0.0.1")).isFalse();
      assertThat(failures.refusedForSeconds("10.0.0.1")).isZero();
    }
    assertThat(failures.failed("10.0.0.1")).as("the failure that starts the refusal").isTrue();
    assertThat(failures.refusedForSeconds("10.0.0.1")).isEqualTo(AuthFailures.WINDOW_SECONDS);
    assertThat(failures.refusedForSeconds("10.0.0.2")).as("another address").isZero();
    clock.advance(Duration.ofSeconds(AuthFailures.WINDOW_SECONDS - 1));
    assertThat(failures.refusedForSeconds("10.0.0.1")).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(failures.refusedForSeconds("10.0.0.1")).isZero();
    assertThat(failures.failed("10.0.0.1")).as("a new window counts from one").isFalse();
  }

  @Test
  void failuresOlderThanTheWindowAreForgotten() {
    for (int i = 1; i < AuthFailures.MAX_FAILURES; i++) {
      failures.failed("10.0.0.1");
    }
    clock.advance(Duration.ofSeconds(AuthFailures.WINDOW_SECONDS));
    assertThat(failures.failed("10.0.0.1")).isFalse();
    assertThat(failures.refusedForSeconds("10.0.0.1")).isZero();
  }

  @Test
  void anIpv6ClientCountsByItsSlash64() {
    for (int i = 0; i < AuthFailures.MAX_FAILURES; i++) {
      failures.failed("2001:db8:1:2::" + Integer.toHexString(i + 1));
    }
    assertThat(failures.refusedForSeconds("2001:db8:1:2:ffff:ffff:ffff:ffff")).isPositive();
    assertThat(failures.refusedForSeconds("2001:db8:1:3::1")).isZero();
    assertThat(AuthFailures.key("::ffff:10.0.0.1")).as("IPv4-mapped").isEqualTo("10.0.0.1");
    assertThat(AuthFailures.key("not:a host")).as("never looked up").isEqualTo("not:a host");
  }

  @Test
  void theTableIsBoundedHoweverManyAddressesFail() {
    for (int i = 0; i < 3 * AuthFailures.MAX_ADDRESSES; i++) {
      failures.failed("10." + (i >> 16) + "." + ((i >> 8) & 0xFF) + "." + (i & 0xFF));
    }
    assertThat(failures.size()).isEqualTo(AuthFailures.MAX_ADDRESSES);
  }
}
