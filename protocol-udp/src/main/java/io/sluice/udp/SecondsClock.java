package io.sluice.udp;

import java.time.Instant;

/**
 * Wall-clock time in fractional seconds since the Unix epoch, as the original read it with
 * {@code Time::HiRes::time}. Wall clock, not monotonic: the 5-minute statistics buckets are aligned
 * on Unix time, and the rate algorithm tolerates steps backwards. Tests inject a fake.
 */
@FunctionalInterface
public interface SecondsClock {

  double nowSeconds();

  /** The system clock at microsecond resolution (like {@code gettimeofday}). */
  static SecondsClock system() {
    return () -> {
      Instant now = Instant.now();
      return now.getEpochSecond() + (now.getNano() / 1_000) / 1e6;
    };
  }
}
