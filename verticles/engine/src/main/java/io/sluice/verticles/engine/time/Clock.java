package io.sluice.verticles.engine.time;

/**
 * The one source of time for expiry, metrics windows and strategies. Injected everywhere so tests
 * move time by hand instead of sleeping.
 */
public interface Clock {

  /** Nanoseconds since the Unix epoch (the wire reports absolute expiry on this scale). */
  long epochNanos();

  Clock SYSTEM = new SystemClock();
}
