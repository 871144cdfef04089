package io.sluice.verticles.rls;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.type.v3.RateLimitUnit;

import java.util.Locale;
import java.util.Optional;

/**
 * The unit of a limit and the length of its fixed window, as envoyproxy/ratelimit counts them:
 * a month is 30 days and a year 365, and every window starts at a multiple of its length since the
 * Unix epoch (so a week starts on a Thursday, 00:00 UTC).
 */
public enum WindowUnit {
  SECOND(1),
  MINUTE(60),
  HOUR(3_600),
  DAY(86_400),
  MONTH(86_400L * 30),
  YEAR(86_400L * 365),
  WEEK(86_400L * 7);

  private final long seconds;

  WindowUnit(long seconds) {
    this.seconds = seconds;
  }

  public long seconds() {
    return seconds;
  }

  /** The number Envoy's protos give the unit (SECOND = 1 … YEAR = 6, WEEK = 7). */
  public int number() {
    return ordinal() + 1;
  }

  public RateLimitResponse.RateLimit.Unit toProto() {
    return RateLimitResponse.RateLimit.Unit.forNumber(number());
  }

  /** A config file's unit, any case: second, minute, hour, day, week, month or year. */
  public static Optional<WindowUnit> named(String name) {
    for (WindowUnit unit : values()) {
      if (unit.name().equals(name.toUpperCase(Locale.ROOT))) {
        return Optional.of(unit);
      }
    }
    return Optional.empty();
  }

  /** The unit of a caller's override; empty for UNKNOWN or a number this version does not know. */
  public static Optional<WindowUnit> of(RateLimitUnit unit) {
    int number = unit == RateLimitUnit.UNRECOGNIZED ? 0 : unit.getNumber();
    return number >= 1 && number <= values().length ? Optional.of(values()[number - 1]) : Optional.empty();
  }
}
