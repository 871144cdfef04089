package io.sluice.verticles.engine.time;

import java.time.Duration;

/** A clock that moves only when told to: for deterministic tests of expiry and metrics windows. */
public final class ManualClock implements Clock {

  private volatile long epochNanos;

  public ManualClock(long epochNanos) {
    this.epochNanos = epochNanos;
  }

  /** Starts at a fixed, realistic instant (2026-01-01T00:00:00Z). */
  public ManualClock() {
    this(1_767_225_600_000_000_000L);
  }

  @Override
  public long epochNanos() {
    return epochNanos;
  }

  public void advance(Duration duration) {
    epochNanos += duration.toNanos();
  }

  public void set(long epochNanos) {
    this.epochNanos = epochNanos;
  }
}
