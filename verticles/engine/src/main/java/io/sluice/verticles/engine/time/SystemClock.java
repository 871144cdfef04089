package io.sluice.verticles.engine.time;

/**
 * Wall-clock epoch nanoseconds read through {@link System#nanoTime()}: one base reading of the
 * wall clock at start, then the monotonic counter. It never goes backwards when NTP steps the
 * wall clock, costs no allocation (unlike {@code Instant.now()}) and has nanosecond resolution.
 */
final class SystemClock implements Clock {

  private final long baseEpochNanos = System.currentTimeMillis() * 1_000_000L;
  private final long baseNanoTime = System.nanoTime();

  @Override
  public long epochNanos() {
    return baseEpochNanos + (System.nanoTime() - baseNanoTime);
  }
}
