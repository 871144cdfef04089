package io.sluice.verticles.strategies;

import java.time.Duration;
import java.util.Objects;

/**
 * One named quota of a fixed window: at most {@code limit} requests per window (spec §3.2).
 *
 * @param name 1 to 64 characters from {@code [A-Za-z0-9_-:.@+]} (spec §1.4), so a name can never
 *     break the state encoding
 * @param limit requests per window, at least 1
 * @param window window length, positive, at most about 292 years (it is kept in nanoseconds)
 */
public record Quota(String name, long limit, Duration window) {

  public Quota {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(window, "window");
    if (!isValidName(name)) {
      throw new IllegalArgumentException(
          "quota name must be 1 to 64 characters of [A-Za-z0-9_-:.@+], was '" + name + "'");
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("quota " + name + ": limit must be positive, was " + limit);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("quota " + name + ": window must be positive, was " + window);
    }
    try {
      window.toNanos();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("quota " + name + ": window too long, was " + window, e);
    }
  }

  /** The window in nanoseconds. */
  public long windowNs() {
    return window.toNanos();
  }

  /** Requests per second as upstream compares them: {@code limit / window.Seconds()}. */
  public double ratePerSecond() {
    long ns = windowNs();
    double seconds = (double) (ns / 1_000_000_000L) + (double) (ns % 1_000_000_000L) / 1e9;
    return (double) limit / seconds;
  }

  /** Upstream's key and quota-name rule (spec §1.4). */
  public static boolean isValidName(String name) {
    if (name.isEmpty() || name.length() > 64) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == '-' || c == ':' || c == '.' || c == '@' || c == '+';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
