package io.sluice.verticles.server.xds;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * How long to wait before the next attempt to reach a server: doubling from the initial wait up
 * to the bound, each wait taken at random between half of it and all of it, so that many nodes
 * that lost one server do not come back to it in step. A success starts again from the initial wait.
 */
final class ReconnectBackoff {

  private final long initialMillis;
  private final long maxMillis;
  private final DoubleSupplier random;
  private long nextMillis;

  /** @param random numbers in [0, 1) */
  ReconnectBackoff(Duration initial, Duration max, DoubleSupplier random) {
    this.initialMillis = Math.max(1, initial.toMillis());
    this.maxMillis = Math.max(initialMillis, max.toMillis());
    this.random = random;
    this.nextMillis = initialMillis;
  }

  /** The wait before the next attempt; each call doubles the one after, up to the bound. */
  long nextDelayMillis() {
    long bound = nextMillis;
    nextMillis = Math.min(maxMillis, nextMillis * 2);
    return Math.max(1, bound / 2 + (long) (random.getAsDouble() * (bound - bound / 2)));
  }

  void reset() {
    nextMillis = initialMillis;
  }
}
