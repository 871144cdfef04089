package io.sluice.verticles.engine.udprate.stats;

/** Who moves the 5-minute maximum-rate bucket on (spec §6). */
public enum BucketRotation {
  /**
   * {@link KeyStatistics} checks for a bucket boundary itself, with the time given to every
   * {@code record} and {@code snapshot}: no timer needed, and the replies are those of the original
   * server with its alarm timer.
   */
  ON_ACCESS,
  /**
   * Only {@link KeyStatistics#rotateIfDue} moves the bucket on, as the original's {@code SIGALRM}
   * handler did; the caller runs a timer (or, like the original's tests, calls it at chosen times).
   */
  CALLER_DRIVEN
}
